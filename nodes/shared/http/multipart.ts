import { randomBytes } from 'crypto';

/** The file an upload sends (spec 4.2), after the preflight named and typed it. */
export interface UploadFile {
	bytes: Uint8Array;
	fileName: string;
	mimeType: string;
}

export interface MultipartBody {
	body: Buffer;
	contentType: string;
}

/**
 * Spec 4.2: a multipart form with one part `file` that carries its content type, laid out as
 * FormData would lay it out, but in one buffer: a global FormData holds the file in a Blob (a
 * copy) and n8n's HTTP client reads the Blob into another while sending, so each upload held
 * three copies of the file at once. Here the only copy besides n8n's binary buffer is this body.
 */
export function multipartBody(file: UploadFile): MultipartBody {
	const boundary = `----DocumentExtraction${randomBytes(16).toString('hex')}`;
	// Escaped as FormData escapes them (WHATWG), so no file name can break out of its header.
	const fileName = file.fileName.replace(/[\r\n"]/g, (character) => encodeURIComponent(character));
	const mimeType = file.mimeType.replace(/[\r\n]/g, '');
	const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${mimeType}\r\n\r\n`;
	const body = Buffer.concat([Buffer.from(head, 'utf8'), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
	return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
