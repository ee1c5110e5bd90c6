import { randomBytes } from 'crypto';

/** The file an upload sends (spec 4.2), after the preflight named and typed it. */
export interface UploadFile {
	bytes: Uint8Array;
	fileName: string;
	mimeType: string;
	/** The buffer `bytes` was read into by `frameForFile`, with room for the envelope around them. */
	frame?: Buffer;
}

export interface MultipartBody {
	body: Buffer;
	contentType: string;
}

/**
 * Room kept before and after a file read for upload: the envelope's head (boundary and headers,
 * about 150 bytes plus the file name) and tail (about 60 bytes) are written there, in place.
 */
const ROOM_BEFORE = 1024;
const ROOM_AFTER = 128;

/**
 * A buffer for a file of `byteLength` bytes with room for its envelope; the file goes at `start`.
 * Allocated unpooled and uninitialised: every byte of the body is written before it is sent.
 */
export function frameForFile(byteLength: number): { frame: Buffer; start: number } {
	return { frame: Buffer.allocUnsafeSlow(ROOM_BEFORE + byteLength + ROOM_AFTER), start: ROOM_BEFORE };
}

/**
 * Spec 4.2: a multipart form with one part `file` that carries its content type, laid out as
 * FormData would lay it out, but in one buffer: a global FormData holds the file in a Blob (a
 * copy) and n8n's HTTP client reads the Blob into another while sending. A file read into a frame
 * (`frameForFile`) gets its envelope written around it, so the body is the file's only copy; any
 * other file is copied into the body once. One body per file at a time: building another rewrites
 * the frame's envelope.
 */
export function multipartBody(file: UploadFile): MultipartBody {
	const boundary = `----DocumentExtraction${randomBytes(16).toString('hex')}`;
	// Escaped as FormData escapes them (WHATWG), so no file name can break out of its header.
	const fileName = file.fileName.replace(/[\r\n"]/g, (character) => encodeURIComponent(character));
	const mimeType = file.mimeType.replace(/[\r\n]/g, '');
	const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${mimeType}\r\n\r\n`, 'utf8');
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
	const contentType = `multipart/form-data; boundary=${boundary}`;

	const { frame, bytes } = file;
	const start = frame ? bytes.byteOffset - frame.byteOffset : -1;
	const end = start + bytes.byteLength;
	if (frame && bytes.buffer === frame.buffer && start >= head.length && frame.length - end >= tail.length) {
		frame.set(head, start - head.length);
		frame.set(tail, end);
		return { body: frame.subarray(start - head.length, end + tail.length), contentType };
	}
	return { body: Buffer.concat([head, bytes, tail]), contentType };
}
