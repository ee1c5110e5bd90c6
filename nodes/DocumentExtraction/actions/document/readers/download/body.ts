import { frameForFile } from '../../../../../shared/http/multipart';
import { formatMegabytes, MAX_FILE_BYTES } from '../../../../../shared/limits';
import type { Deadline } from './deadline';
import { reached, type Fail } from './failures';
import type { Response } from './hops';

/**
 * The final answer's body: refused for an HTTP error or a declared size over the limit before a
 * byte is read, read into the upload's frame (multipart.ts) up to the service's 4.4 MB, and
 * refused when it is a web page (a viewer or sign-in page) instead of a file.
 */

export interface Body {
	bytes: Uint8Array;
	frame: Buffer;
	mimeType?: string;
}

export async function readBody({ body, headers, statusCode }: Response, deadline: Deadline, fail: Fail): Promise<Body> {
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
	if (Number.isFinite(declared) && declared > MAX_FILE_BYTES) {
		body.destroy();
		throw fail(`The file is ${formatMegabytes(declared)} MB; the service accepts files up to about ${formatMegabytes(MAX_FILE_BYTES)} MB`, 'Use a smaller file (compress or split it).');
	}
	const chunks = await reached(deadline, fail, async () => await readCapped(body, deadline));
	if (chunks === 'too large') {
		throw fail(`The file is larger than the ${formatMegabytes(MAX_FILE_BYTES)} MB the service accepts`, 'Use a smaller file (compress or split it).');
	}
	const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
	const { frame, start } = frameForFile(size);
	let at = start;
	for (const chunk of chunks) {
		frame.set(chunk, at);
		at += chunk.byteLength;
	}
	const bytes = frame.subarray(start, at);
	const mimeType = headers['content-type']?.split(';')[0].trim().toLowerCase();
	if (mimeType === 'text/html' || /^\s*<(!doctype html|html)/i.test(Buffer.from(bytes.subarray(0, 64)).toString('latin1'))) {
		throw fail(
			'The address answered a web page, not a file',
			'The link probably opens a viewer or a sign-in page. Use the direct download link of the PDF, JPEG or PNG (in most file-sharing apps: "Download" or "Copy direct link").',
		);
	}
	return { bytes, frame, mimeType };
}

/** The body's chunks, at most the service's limit; the stream is dropped when the deadline passes. */
async function readCapped(body: Response['body'], deadline: Deadline): Promise<Uint8Array[] | 'too large'> {
	const stop = () => body.destroy(new Error('The download was stopped'));
	deadline.signal.addEventListener('abort', stop, { once: true });
	if (deadline.signal.aborted) stop();
	try {
		const chunks: Uint8Array[] = [];
		let size = 0;
		for await (const chunk of body) {
			size += chunk.byteLength;
			if (size > MAX_FILE_BYTES) {
				body.destroy();
				return 'too large';
			}
			chunks.push(chunk);
		}
		return chunks;
	} finally {
		deadline.signal.removeEventListener('abort', stop);
	}
}
