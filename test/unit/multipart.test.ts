import { describe, expect, it } from 'vitest';

import { frameForFile, multipartBody, type UploadFile } from '../../nodes/shared/http/multipart';

/** The file as read for upload: its bytes inside a frame, as readers/binaryData.ts reads them. */
function framed(bytes: Uint8Array, fileName = 'invoice.pdf'): UploadFile {
	const { frame, start } = frameForFile(bytes.length);
	frame.set(bytes, start);
	return { bytes: frame.subarray(start, start + bytes.length), frame, fileName, mimeType: 'application/pdf' };
}

/** The body FormData would send, for the same boundary. */
function expectedBody(contentType: string, file: UploadFile): Buffer {
	const boundary = contentType.split('boundary=')[1];
	const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.fileName}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`;
	return Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
}

describe('multipart body', () => {
	const bytes = Buffer.from('%PDF-1.7\n' + 'x'.repeat(5000) + '\n%%EOF\n');

	it('writes the envelope around a framed file in place: the body shares the file bytes, no copy', () => {
		const file = framed(bytes);
		const { body, contentType } = multipartBody(file);

		expect(body.equals(expectedBody(contentType, file))).toBe(true);
		expect(body.buffer).toBe(file.frame!.buffer);
		expect(Buffer.from(file.bytes).equals(bytes)).toBe(true);
	});

	it('copies a file that was not framed, or whose name does not fit the room, once into the body', () => {
		for (const file of [
			{ bytes, fileName: 'invoice.pdf', mimeType: 'application/pdf' },
			framed(bytes, `${'long-name-'.repeat(150)}.pdf`),
		]) {
			const { body, contentType } = multipartBody(file);
			expect(body.equals(expectedBody(contentType, file))).toBe(true);
			expect(body.buffer).not.toBe(file.bytes.buffer);
		}
	});

	it('a name cannot break out of its header: quotes and line breaks are escaped as FormData escapes them', () => {
		const file = framed(bytes, 'a"b\r\nContent-Type: text/html.pdf');
		const { body } = multipartBody(file);
		expect(body.toString('latin1')).toContain('filename="a%22b%0D%0AContent-Type: text/html.pdf"');
		expect(body.toString('latin1').match(/Content-Type:/g)).toHaveLength(2);
	});
});
