import { frameForFile } from '../../../../../shared/http/multipart';
import { formatMegabytes, MAX_FILE_BYTES } from '../../../../../shared/limits';
import type { Deadline } from './deadline';
import { reached, type Fail } from './failures';
import type { Response } from './hops';

/**
 * The final answer's body: refused for an HTTP error or a declared size over the limit before a
 * byte is read, read into the upload's frame (multipart.ts) up to the service's 4.4 MB, and
 * refused when it is a web page (a viewer or sign-in page) instead of a file.
 *
 * The limit is the file's type's (`Sizes`): a photo that Shrink Large Photos makes small enough, or
 * a PDF that Split PDFs cuts into parts, is read up to its cap (40 MB); any other file up to
 * 4.4 MB. Before the type is known (the body's first kilobyte) the largest of them holds; a
 * declared size over it is refused unread, and one over the type's limit once its first bytes are in.
 */

/** The sizes read: the largest of any type, and the largest of a file's type told by its first bytes. */
export interface Sizes {
	largest: number;
	forType(head: Uint8Array): number;
}

const SERVICE_SIZES: Sizes = { largest: MAX_FILE_BYTES, forType: () => MAX_FILE_BYTES };

export interface Body {
	bytes: Uint8Array;
	frame: Buffer;
	mimeType?: string;
}

export async function readBody({ body, headers, statusCode }: Response, deadline: Deadline, fail: Fail, sizes: Sizes = SERVICE_SIZES): Promise<Body> {
	if (statusCode >= 300) {
		body.destroy();
		throw fail(
			`Downloading the file answered HTTP ${statusCode}${statusCode === 404 ? ' (not found)' : ''}`,
			statusCode === 401 || statusCode === 403
				? 'The address needs a sign-in: use a link that can be opened without one, or download the file with an HTTP Request node (with its credential) and extract it from the binary field.'
				: 'Check the address: the file may have moved or been deleted, or the link may have expired.',
		);
	}
	const declared = Number(headers['content-length']);
	const declaredTooLarge = (limit: number) => fail(`The file is ${formatMegabytes(declared)} MB; ${accepted(limit)}`, SMALLER);
	if (Number.isFinite(declared) && declared > sizes.largest) {
		body.destroy();
		throw declaredTooLarge(sizes.largest);
	}
	const read = await reached(deadline, fail, async () => await readCapped(body, deadline, sizes, Number.isFinite(declared) ? declared : undefined));
	if ('tooLarge' in read) {
		if (read.declared) throw declaredTooLarge(read.tooLarge);
		throw fail(`The file is larger than the ${formatMegabytes(read.tooLarge)} MB ${read.tooLarge === MAX_FILE_BYTES ? 'the service accepts' : 'read for a file of its type'}`, SMALLER);
	}
	const { frame, bytes } = read;
	const mimeType = headers['content-type']?.split(';')[0].trim().toLowerCase();
	if (mimeType === 'text/html' || /^\s*<(!doctype html|html)/i.test(Buffer.from(bytes.subarray(0, 64)).toString('latin1'))) {
		throw fail(
			'The address answered a web page, not a file',
			'The link probably opens a viewer or a sign-in page. Use the direct download link of the PDF, JPEG or PNG (in most file-sharing apps: "Download" or "Copy direct link").',
		);
	}
	return { bytes, frame, mimeType };
}

const SMALLER = 'Use a smaller file (compress or split it).';

/** What a too large file is told: the service's limit, and the larger one read for a photo to shrink or a PDF to split. */
function accepted(limit: number): string {
	const service = `the service accepts files up to about ${formatMegabytes(MAX_FILE_BYTES)} MB`;
	return limit === MAX_FILE_BYTES ? service : `${service}, and a photo to shrink or a PDF to split is read up to ${formatMegabytes(limit, 0)} MB`;
}

/** Enough of a file's beginning to tell its type (fileTypes.ts reads its first bytes). */
const HEAD_BYTES = 1024;

/**
 * The body's chunks, at most the limit of its type (told by its first kilobyte; until then, the
 * largest); the stream is dropped when the deadline passes, or once it is over that limit, by what
 * it declared or what it sent.
 */
async function readCapped(body: Response['body'], deadline: Deadline, sizes: Sizes, declared: number | undefined): Promise<{ frame: Buffer; bytes: Uint8Array } | { tooLarge: number; declared: boolean }> {
	const stop = () => body.destroy(new Error('The download was stopped'));
	deadline.signal.addEventListener('abort', stop, { once: true });
	if (deadline.signal.aborted) stop();
	try {
		const received = new Received(declared);
		let limit: number | undefined;
		const typed = (): number => (limit ??= sizes.forType(received.head()));
		for await (const chunk of body) {
			received.add(chunk);
			if (limit === undefined && received.size < HEAD_BYTES && received.size <= sizes.largest) continue;
			if (declared !== undefined && declared > typed()) {
				body.destroy();
				return { tooLarge: typed(), declared: true };
			}
			if (received.size > typed()) {
				body.destroy();
				return { tooLarge: typed(), declared: false };
			}
			received.frameDeclared();
		}
		// A body shorter than a kilobyte, or one that said less than it sent: its type's limit holds.
		if (declared !== undefined && declared > typed()) return { tooLarge: typed(), declared: true };
		if (received.size > typed()) return { tooLarge: typed(), declared: false };
		return received.whole();
	} finally {
		deadline.signal.removeEventListener('abort', stop);
	}
}

/**
 * The body as it arrives. With a declared size, written straight into the upload's frame of that
 * size once its first kilobyte is in and its type allows that size: a 40 MB photo is held once, not
 * as chunks and again as their copy. Without one, or when the server sends other than it declared,
 * the chunks are kept and copied into a frame at the end.
 */
class Received {
	size = 0;
	private chunks: Uint8Array[] = [];
	private frame: { buffer: Buffer; start: number } | undefined;
	private framed = false;

	constructor(private readonly declared: number | undefined) {}

	add(chunk: Uint8Array): void {
		this.size += chunk.byteLength;
		if (this.frame) {
			const at = this.frame.start + this.size - chunk.byteLength;
			if (this.size <= this.declared!) {
				this.frame.buffer.set(chunk, at);
				return;
			}
			// More than it declared: kept as chunks from here.
			this.chunks = [this.frame.buffer.subarray(this.frame.start, at)];
			this.frame = undefined;
		}
		this.chunks.push(chunk);
	}

	/** Once the body's type allows its declared size: the frame of that size, what arrived copied in, the rest written there as it comes. */
	frameDeclared(): void {
		if (this.framed || this.declared === undefined || this.size > this.declared) return;
		this.framed = true;
		const { frame, start } = frameForFile(this.declared);
		this.copyChunks(frame, start);
		this.frame = { buffer: frame, start };
	}

	/** The first kilobyte received. */
	head(): Uint8Array {
		if (this.frame) return this.frame.buffer.subarray(this.frame.start, this.frame.start + Math.min(this.size, HEAD_BYTES));
		return Buffer.concat(this.chunks).subarray(0, HEAD_BYTES);
	}

	whole(): { frame: Buffer; bytes: Uint8Array } {
		if (this.frame) return { frame: this.frame.buffer, bytes: this.frame.buffer.subarray(this.frame.start, this.frame.start + this.size) };
		const { frame, start } = frameForFile(this.size);
		this.copyChunks(frame, start);
		return { frame, bytes: frame.subarray(start, start + this.size) };
	}

	private copyChunks(frame: Buffer, start: number): void {
		let at = start;
		for (const chunk of this.chunks) {
			frame.set(chunk, at);
			at += chunk.byteLength;
		}
		this.chunks = [];
	}
}
