/**
 * Which of an email's files are documents (Document Source "Every Attachment"), and the image
 * sizes that rule reads from PNG and JPEG headers.
 */
import { describe, expect, it } from 'vitest';

import { judgeAttachment } from '../../nodes/shared/preflight/attachments';
import { jpegSize, pngSize } from '../../nodes/shared/preflight/imageSize';
import { minimalPdf } from '../harness/documents';
import { heicLike, jpegWithComment, minimalWebp, pngWithText } from '../fixtures/images';
import { loadFixture } from '../fixtures';

describe('image sizes from headers', () => {
	it('reads PNG and JPEG sizes, including the project\'s sample photos', async () => {
		expect(pngSize(pngWithText([], 120, 40))).toEqual({ width: 120, height: 40 });
		expect(jpegSize(jpegWithComment('x', 1200, 1600))).toEqual({ width: 1200, height: 1600 });
		expect(pngSize((await loadFixture('receiptPng')).bytes)).toEqual({ width: 1000, height: 1600 });
		expect(jpegSize((await loadFixture('receiptJpeg')).bytes)).toEqual({ width: 1200, height: 1600 });
	});

	it('says nothing for a header it cannot read', () => {
		expect(pngSize(new Uint8Array(10))).toBeUndefined();
		expect(jpegSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeUndefined();
		expect(jpegSize(Uint8Array.from([0xff, 0xd8, 0x00, 0x00]))).toBeUndefined();
	});

	it('walks a JPEG of 1 million tiny segments in linear time (each hop moves forward)', () => {
		const segments = 1_000_000;
		const bytes = new Uint8Array(2 + segments * 4 + 11);
		bytes.set([0xff, 0xd8]);
		for (let i = 0; i < segments; i++) bytes.set([0xff, 0xfe, 0x00, 0x02], 2 + i * 4);
		bytes.set([0xff, 0xc0, 0x00, 0x0b, 8, 0x06, 0x40, 0x04, 0xb0, 1, 1], 2 + segments * 4);
		const started = performance.now();
		expect(jpegSize(bytes)).toEqual({ width: 1200, height: 1600 });
		expect(performance.now() - started).toBeLessThan(500);
	});
});

/** A zip's first local file header naming its first entry (what tells a zip from an Office file). */
function zipWithEntry(name: string): Buffer {
	const header = Buffer.alloc(30);
	header.writeUInt32LE(0x04034b50, 0);
	header.writeUInt16LE(Buffer.byteLength(name), 26);
	return Buffer.concat([header, Buffer.from(name)]);
}

describe('what is a document among an email\'s files', () => {
	it('PDFs and photo-sized JPEG and PNG images are documents', async () => {
		expect(judgeAttachment(await minimalPdf())).toEqual({ document: true });
		expect(judgeAttachment((await loadFixture('receiptPng')).bytes)).toEqual({ document: true });
		expect(judgeAttachment((await loadFixture('receiptJpeg')).bytes)).toEqual({ document: true });
		expect(judgeAttachment((await loadFixture('businessCard')).bytes)).toEqual({ document: true });
	});

	it('a HEIC photo (iPhone) is a document, sent with the warning Binary Field gives it (spec 4.2: not guaranteed readable)', () => {
		expect(judgeAttachment(heicLike())).toEqual({ document: true });
	});

	it.each([
		['a signature logo', pngWithText([], 240, 80), /^an image of 240 x 80 px, too small to be a document/],
		['a tracking pixel', pngWithText([], 1, 1), /^an image of 1 x 1 px/],
		['a wide banner logo', jpegWithComment('', 800, 120), /^an image of 800 x 120 px/],
		['a calendar invite', Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'), /^not a PDF, JPEG or PNG: a text file$/],
		['an HTML part', Buffer.from('<html><body>Hello</body></html>'), /^not a PDF, JPEG or PNG: a text file$/],
		['a zip archive', zipWithEntry('invoices/INV-7.pdf'), /^a zip archive: unpack it first, e\.g\. with n8n's Compression node$/],
		['an empty zip archive', Buffer.from([0x50, 0x4b, 0x05, 0x06, 0, 0]), /^a zip archive: unpack it first/],
		['a Word document', zipWithEntry('[Content_Types].xml'), /^not a PDF, JPEG or PNG: a ZIP archive or an Office document/],
		['Outlook\'s winmail.dat (TNEF)', Buffer.from([0x78, 0x9f, 0x3e, 0x22, 0x01, 0x00]), /^Outlook's winmail\.dat: ask the sender to send the attachment as a PDF, or turn off Rich Text in Outlook$/],
		['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), /^not a PDF, JPEG or PNG: a GIF image$/],
		['a WebP', minimalWebp(), /^not a PDF, JPEG or PNG: a WebP image$/],
		['an empty file', Buffer.alloc(0), /^the file is empty$/],
	])('%s is not one, and the reason says why', (_name, bytes, reason) => {
		const verdict = judgeAttachment(bytes);
		expect(verdict.document).toBe(false);
		expect(verdict.document === false && verdict.reason).toMatch(reason);
	});

	it('a zip and winmail.dat may hold the sender\'s documents (someone must act on them); a logo, an invite or a Word file does not', () => {
		const holds = (bytes: Uint8Array) => {
			const verdict = judgeAttachment(bytes);
			return verdict.document === false && verdict.mayHoldDocuments === true;
		};
		expect([zipWithEntry('invoices/INV-7.pdf'), Buffer.from([0x78, 0x9f, 0x3e, 0x22, 0x01, 0x00])].map(holds)).toEqual([true, true]);
		expect([pngWithText([], 240, 80), Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'), zipWithEntry('[Content_Types].xml')].map(holds)).toEqual([false, false, false]);
	});

	// Images under 500 px on their longer side or 200 px on their shorter side are not documents:
	// logos and icons are under 300 px, a receipt photo 1,000 px or more, a page scanned at 72 dpi
	// 595 x 842 px. Each size as PNG and as JPEG bytes, read from the header like an attachment's.
	const RULE = '(images under 500 px on their longer side or 200 px on their shorter side are taken for logos, icons and tracking pixels)';
	it.each([
		['a 299 px square logo', 299, 299, false],
		['an image just under the long side', 499, 200, false],
		['the smallest document, landscape', 500, 200, true],
		['the smallest document, portrait', 200, 500, true],
		['an image just under the short side', 500, 199, false],
		['a 1,000 px banner just under the short side', 1000, 199, false],
		['a page scanned at 72 dpi', 595, 842, true],
		['a receipt photo', 1000, 1600, true],
	])('%s (%i x %i px): a document is %s', (_name, width, height, document) => {
		for (const bytes of [pngWithText([], width, height), jpegWithComment('', width, height)]) {
			expect(judgeAttachment(bytes)).toEqual(document ? { document: true } : { document: false, reason: `an image of ${width} x ${height} px, too small to be a document ${RULE}` });
		}
	});
});
