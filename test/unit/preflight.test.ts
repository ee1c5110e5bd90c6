import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { MAX_FILE_BYTES, MAX_PAGES_PER_DOCUMENT, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../../nodes/shared/limits';
import { nameForContent } from '../../nodes/shared/preflight/fileTypes';
import { checkResultId, checkTemplateId, isResultId } from '../../nodes/shared/preflight/ids';
import { PDF_TIME_LIMIT_MS } from '../../nodes/shared/preflight/pdf/structure';
import { inspectUpload, type UploadInspection } from '../../nodes/shared/preflight/upload';

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const asText = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);
const withHeader = (header: number[], size = 64) => {
	const bytes = new Uint8Array(size);
	bytes.set(header);
	return bytes;
};

const PNG = withHeader([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = withHeader([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);

async function pdfWithPages(pages: number, useObjectStreams: boolean): Promise<Uint8Array> {
	const document = await PDFDocument.create();
	for (let i = 0; i < pages; i++) document.addPage([200, 200]).drawText(`Page ${i + 1}`);
	return await document.save({ useObjectStreams });
}

/** A PDF written by hand: objects in order, then a trailer pointing at object 1 as the catalog. */
function handMadePdf(objects: string[], trailer = '<< /Size 9 /Root 1 0 R >>'): Uint8Array {
	const body = objects.map((object, index) => `${index + 1} 0 obj\n${object}\nendobj\n`).join('');
	return latin1(`%PDF-1.4\n${body}xref\n0 1\n0000000000 65535 f \ntrailer\n${trailer}\nstartxref\n9\n%%EOF\n`);
}

function expectProblem(inspection: UploadInspection, code: string): { message: string; description: string } {
	expect(inspection.ok).toBe(false);
	if (inspection.ok) throw new Error('unreachable');
	expect(inspection.code).toBe(code);
	return inspection;
}

const verdict = (inspection: UploadInspection) => (inspection.ok ? inspection.pages : inspection.code);

function expectAccepted(inspection: UploadInspection) {
	if (!inspection.ok) throw new Error(`expected the file to pass, got: ${inspection.message}`);
	return inspection;
}

describe('inspectUpload: PDF page count', () => {
	let compressed3: Uint8Array;
	let compressed51: Uint8Array;
	let plain3: Uint8Array;
	beforeAll(async () => {
		[compressed3, compressed51, plain3] = await Promise.all([pdfWithPages(3, true), pdfWithPages(51, true), pdfWithPages(3, false)]);
	});

	it('hides its page tree in object streams when pdf-lib saves by default (the case the inflate path exists for)', () => {
		const text = asText(compressed3);
		expect(text).toContain('/Type /ObjStm');
		expect(text).not.toMatch(/\/Type\s*\/Pages/);
	});

	it('counts 3 pages of a pdf-lib PDF with object streams', async () => {
		const accepted = expectAccepted(await inspectUpload(compressed3, 'three.pdf', 'application/pdf'));
		expect(accepted).toEqual({ ok: true, mimeType: 'application/pdf', fileName: 'three.pdf', pages: 3 });
	});

	it('counts 3 pages of a PDF saved without object streams', async () => {
		expect(asText(plain3)).toMatch(/\/Type\s*\/Pages/);
		expect(expectAccepted(await inspectUpload(plain3, 'plain.pdf')).pages).toBe(3);
	});

	it(`refuses 51 pages, naming the count, the limit of ${MAX_PAGES_PER_DOCUMENT} and the fix`, async () => {
		const problem = expectProblem(await inspectUpload(compressed51, 'long.pdf'), 'PDF_TOO_MANY_PAGES');
		expect(problem.message).toContain('51 pages');
		expect(problem.message).toContain(String(MAX_PAGES_PER_DOCUMENT));
		expect(problem.description).toMatch(/^Split the PDF/);
	});

	it('counts the pages on a busy n8n: what other executions do while a stream inflates is not charged to the file', async () => {
		// Another execution holds the event loop for twice the time limit while the object stream
		// inflates off it. Counting that time gave "page count unknown" (and 51 pages went unjudged).
		const busy = setImmediate(() => {
			const until = performance.now() + 2 * PDF_TIME_LIMIT_MS;
			while (performance.now() < until);
		});
		try {
			expect(verdict(await inspectUpload(compressed51, 'long.pdf'))).toBe('PDF_TOO_MANY_PAGES');
		} finally {
			clearImmediate(busy);
		}
	});

	it(`accepts exactly ${MAX_PAGES_PER_DOCUMENT} pages`, async () => {
		const bytes = await pdfWithPages(MAX_PAGES_PER_DOCUMENT, true);
		expect(expectAccepted(await inspectUpload(bytes, 'limit.pdf')).pages).toBe(MAX_PAGES_PER_DOCUMENT);
	});

	it('leaves the decision to the service (pages: null) when the compressed page tree cannot be read', async () => {
		const bytes = compressed3.slice();
		const text = asText(bytes);
		const objectStream = text.indexOf('/Type /ObjStm');
		const data = text.indexOf('stream\n', objectStream) + 'stream\n'.length;
		bytes.fill(0x41, data, data + 40); // the zlib header and the first deflate blocks become garbage
		expect(expectAccepted(await inspectUpload(bytes, 'damaged-stream.pdf')).pages).toBeNull();
	});

	/** Page objects numbered from `first`, as a page tree's leaves. */
	const leaves = (count: number) => Array.from({ length: count }, () => '<< /Type /Page /MediaBox [0 0 10 10] >>');
	const refs = (first: number, count: number) => Array.from({ length: count }, (_, i) => `${first + i} 0 R`).join(' ');

	it('reads the root of a nested page tree, not a branch and not the sum of all trees', async () => {
		const pdf = handMadePdf([
			'<< /Type /Catalog /Pages 2 0 R >>',
			'<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 5 >>',
			`<< /Type /Pages /Parent 2 0 R /Kids [${refs(5, 3)}] /Count 3 >>`,
			`<< /Type /Pages /Parent 2 0 R /Kids [${refs(8, 2)}] /Count 2 >>`,
			...leaves(5),
		]);
		expect(expectAccepted(await inspectUpload(pdf, 'tree.pdf')).pages).toBe(5);
	});

	it('takes the last revision of an incrementally updated PDF', async () => {
		const original = asText(handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${refs(3, 7)}] /Count 7 >>`, ...leaves(7)]));
		const update = `2 0 obj\n<< /Type /Pages /Kids [${refs(3, 4)}] /Count 4 >>\nendobj\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 3 /Root 1 0 R /Prev 9 >>\nstartxref\n9\n%%EOF\n`;
		expect(expectAccepted(await inspectUpload(latin1(original + update), 'updated.pdf')).pages).toBe(4);
	});

	it('leaves the decision to the service when /Count and the page tree disagree, or the tree has a cycle', async () => {
		const disagree = handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${refs(3, 2)}] /Count 60 >>`, ...leaves(2)]);
		expect(expectAccepted(await inspectUpload(disagree, 'disagree.pdf')).pages).toBeNull();
		const cycle = handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Pages /Kids [2 0 R] /Count 1 >>']);
		expect(expectAccepted(await inspectUpload(cycle, 'cycle.pdf')).pages).toBeNull();
	});

	it('ignores /Count of other objects (outlines) and counts page objects when there is no catalog', async () => {
		const pdf = handMadePdf(
			['<< /Type /Outlines /Count 12 >>', '<< /Type /Page /MediaBox [0 0 10 10] >>', '<< /Type /Page /MediaBox [0 0 10 10] >>'],
			'<< /Size 4 >>',
		);
		expect(expectAccepted(await inspectUpload(pdf, 'no-catalog.pdf')).pages).toBe(2);
	});

	it('returns pages: null when nothing tells the page count', async () => {
		const pdf = handMadePdf(['<< /Producer (nothing useful) >>'], '<< /Size 2 >>');
		expect(expectAccepted(await inspectUpload(pdf, 'unknown.pdf')).pages).toBeNull();
	});

	it('refuses a PDF whose page tree says it has no pages', async () => {
		const pdf = handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
		expectProblem(await inspectUpload(pdf, 'empty.pdf'), 'PDF_NO_PAGES');
	});
});

describe('inspectUpload: a PDF the reader cannot finish in time', () => {
	it('is sent with its page count unknown (the service decides), not judged on half a reading', async () => {
		// 400 pages read through their index cost more than one interval between looks at the clock.
		const bytes = await pdfWithPages(400, false);
		expectProblem(await inspectUpload(bytes, 'long.pdf'), 'PDF_TOO_MANY_PAGES');
		// The clock read when the reading starts, then past the deadline at every look.
		const clock = vi.spyOn(Date, 'now').mockReturnValueOnce(0).mockReturnValue(Number.MAX_SAFE_INTEGER);
		try {
			expect(expectAccepted(await inspectUpload(bytes, 'long.pdf')).pages).toBeNull();
		} finally {
			clock.mockRestore();
		}
	});
});

describe('inspectUpload: damaged and protected PDFs', () => {
	it('refuses an encrypted PDF (trailer /Encrypt) with the fix', async () => {
		const text = asText(await pdfWithPages(2, false)).replace('/Root', '/Encrypt 20 0 R\n/Root');
		const problem = expectProblem(await inspectUpload(latin1(text), 'locked.pdf'), 'PDF_ENCRYPTED');
		expect(problem.message).toMatch(/password|encrypt/i);
		expect(problem.description).toMatch(/Remove the password/);
		expect(problem.description).toMatch(/print it to a new PDF/);
	});

	it('refuses an encrypted PDF whose trailer is a cross-reference stream', async () => {
		const text = asText(await pdfWithPages(2, true)).replace('/Type /XRef', '/Type /XRef\n/Encrypt << /Filter /Standard /V 2 >>');
		expectProblem(await inspectUpload(latin1(text), 'locked.pdf'), 'PDF_ENCRYPTED');
	});

	it('does not call a PDF encrypted because a page mentions the word', async () => {
		const pdf = handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 /Title (How to /Encrypt files) >>', '<< /Type /Page >>']);
		expect(expectAccepted(await inspectUpload(pdf, 'words.pdf')).pages).toBe(1);
	});

	it('refuses a truncated PDF (no %%EOF at the end)', async () => {
		const bytes = await pdfWithPages(3, true);
		const problem = expectProblem(await inspectUpload(bytes.subarray(0, bytes.length - 200), 'cut.pdf'), 'PDF_INCOMPLETE');
		expect(problem.description).toMatch(/again/);
	});

	it('refuses a file that only starts like a PDF', async () => {
		expectProblem(await inspectUpload(latin1('%PDF-1.7\nthis is not really a PDF\n%%EOF\n'), 'fake.pdf'), 'PDF_INCOMPLETE');
	});
});

describe('inspectUpload: formats judged from the bytes', () => {
	it('refuses an empty file', async () => {
		const problem = expectProblem(await inspectUpload(new Uint8Array(0), 'invoice.pdf', 'application/pdf'), 'EMPTY_FILE');
		expect(problem.message).toMatch(/empty/);
	});

	it('accepts a PNG as one page with its real type, whatever was declared, and fixes a lying extension', async () => {
		expect(await inspectUpload(PNG, 'invoice.pdf', 'application/pdf')).toEqual({
			ok: true,
			mimeType: 'image/png',
			fileName: 'invoice.png',
			pages: 1,
		});
	});

	it('accepts a JPEG as one page and keeps a JPEG extension in any spelling', async () => {
		const accepted = expectAccepted(await inspectUpload(JPEG, 'Photo.JPG', 'application/octet-stream'));
		expect(accepted).toMatchObject({ mimeType: 'image/jpeg', fileName: 'Photo.JPG', pages: 1 });
	});

	it.each([
		['WebP', latin1('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), 'image/webp', 'photo.webp', /WebP/],
		['HEIC', latin1('\u0000\u0000\u0000\u0018ftypheic\u0000\u0000\u0000\u0000mif1heic'), 'image/heic', 'photo.heic', /HEIC/],
		['HEIF (mif1 brand)', latin1('\u0000\u0000\u0000\u0018ftypmif1\u0000\u0000\u0000\u0000'), 'image/heic', 'photo.heic', /HEIC\/HEIF/],
	])('lets a %s image through as one page, with a warning (spec 4.2: not guaranteed readable)', async (_name, bytes, mimeType, fileName, label) => {
		const accepted = expectAccepted(await inspectUpload(bytes, 'photo'));
		expect(accepted).toMatchObject({ mimeType, fileName, pages: 1 });
		expect(accepted.warning).toMatch(label);
		expect(accepted.warning).toMatch(/does not guarantee to read.*convert it to JPEG or PNG/);
	});

	it.each([
		['GIF', latin1('GIF89a\u0001\u0000\u0001\u0000'), 'CONVERT_IMAGE', /GIF/],
		['TIFF', withHeader([0x49, 0x49, 0x2a, 0x00]), 'CONVERT_IMAGE', /TIFF/],
		['ZIP / Office', withHeader([0x50, 0x4b, 0x03, 0x04]), 'UNSUPPORTED_FORMAT', /Office/],
		['old Office', withHeader([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'UNSUPPORTED_FORMAT', /Office/],
		['MP4 video', latin1('\u0000\u0000\u0000\u0018ftypisom\u0000\u0000\u0000\u0000'), 'UNSUPPORTED_FORMAT', /video/],
		['unknown binary', withHeader([0x00, 0x01, 0x02, 0x03, 0xfe]), 'UNSUPPORTED_FORMAT', /not recognised/],
	])('refuses %s and names the accepted formats', async (_name, bytes, code, label) => {
		const problem = expectProblem(await inspectUpload(bytes, 'file'), code);
		expect(problem.message).toMatch(label);
		expect(problem.message).toContain('PDF, JPEG or PNG');
	});

	it('catches a text file named .pdf (e.g. an HTML error page saved as the download)', async () => {
		const bytes = new TextEncoder().encode('<!doctype html><html><body>Access denied — signe requis</body></html>\n');
		const problem = expectProblem(await inspectUpload(bytes, 'invoice.pdf', 'application/pdf'), 'UNSUPPORTED_FORMAT');
		expect(problem.message).toMatch(/text file/);
		expect(problem.message).toMatch(/says PDF/);
		expect(problem.message).toContain('PDF, JPEG or PNG');
	});

	it('finds a PDF header preceded by a few junk bytes, as PDF readers do', async () => {
		const bytes = await pdfWithPages(1, false);
		const prefixed = new Uint8Array(bytes.length + 3);
		prefixed.set([0xef, 0xbb, 0xbf]);
		prefixed.set(bytes, 3);
		expect(expectAccepted(await inspectUpload(prefixed, 'bom.pdf')).pages).toBe(1);
	});
});

describe('inspectUpload: size', () => {
	it('refuses an image one byte over the limit, in MB that show the difference, and suggests the image fix', async () => {
		const bytes = new Uint8Array(MAX_FILE_BYTES + 1);
		bytes.set(PNG.subarray(0, 16));
		const problem = expectProblem(await inspectUpload(bytes, 'big.png'), 'FILE_TOO_LARGE');
		expect(problem.message).toBe('The file is 4.400001 MB; the service accepts files up to about 4.4 MB');
		expect(problem.description).toContain(RECOMMENDED_IMAGE_LONG_SIDE_PX.toLocaleString('en-US'));
	});

	it('accepts a file of exactly the limit', async () => {
		const bytes = new Uint8Array(MAX_FILE_BYTES);
		bytes.set(JPEG.subarray(0, 10));
		expectAccepted(await inspectUpload(bytes, 'limit.jpg'));
	});

	it('refuses a large PDF and suggests compressing or splitting it', async () => {
		const bytes = new Uint8Array(6_000_000);
		bytes.set(latin1('%PDF-1.7\n'));
		const problem = expectProblem(await inspectUpload(bytes, 'big.pdf'), 'FILE_TOO_LARGE');
		expect(problem.message).toContain('6.0 MB');
		expect(problem.description).toMatch(/Compress the PDF/);
		expect(problem.description).toMatch(/split/);
	});
});

describe('nameForContent', () => {
	it.each([
		['invoice.pdf', 'png', 'invoice.png'],
		['scan.jpeg', 'jpeg', 'scan.jpeg'],
		['scan', 'pdf', 'scan.pdf'],
		['report.2024', 'pdf', 'report.2024.pdf'],
		['  spaced.PNG  ', 'png', 'spaced.PNG'],
		[undefined, 'jpeg', 'document.jpg'],
		['', 'pdf', 'document.pdf'],
		['.pdf', 'png', 'document.png'],
	] as const)('%s holding %s is sent as %s', (name, kind, expected) => {
		expect(nameForContent(name, kind)).toBe(expected);
	});
});

describe('result and template ids', () => {
	it.each([
		'123e4567-e89b-12d3-a456-426614174000',
		'  123E4567-E89B-12D3-A456-426614174000 ',
		'00000000-0000-0000-0000-000000000000',
		'6ba7b810-9dad-11d1-80b4-00c04fd430c8',
	])('accepts the UUID %j', (value) => {
		expect(isResultId(value)).toBe(true);
	});

	it.each([
		'',
		'../scanners',
		'..%2Fscanners',
		'%2F',
		'123e4567-e89b-12d3-a456-426614174000/../../scanners',
		'123e4567-e89b-12d3-a456-426614174000?x=1',
		'123e4567-e89b-12d3-a456-426614174000#frag',
		'123e4567-e89b-12d3-a456-42661417400',
		'123e4567e89b12d3a456426614174000',
		'123e4567-e89b-12d3-a456-42661417400g',
		'123e4567-e89b-12d3-a456-426614174000\n123e4567-e89b-12d3-a456-426614174000',
	])('refuses %j', (value) => {
		expect(isResultId(value)).toBe(false);
	});

	it('checkResultId trims, and explains a missing or wrong id', () => {
		expect(checkResultId(' 123e4567-e89b-12d3-a456-426614174000 ')).toEqual({ ok: true, id: '123e4567-e89b-12d3-a456-426614174000' });
		expect(checkResultId(undefined)).toMatchObject({ ok: false, message: 'The result ID is empty' });
		expect(checkResultId('../scanners')).toMatchObject({ ok: false, message: '"../scanners" is not a result ID' });
	});

	it('checkTemplateId trims and refuses what can never be an id', () => {
		expect(checkTemplateId('  inv-01 ')).toEqual({ ok: true, id: 'inv-01' });
		expect(checkTemplateId(42)).toEqual({ ok: true, id: '42' });
		for (const bad of ['', '   ', null, '.', '..', 'a\nb', 'x\u0000y']) {
			expect(checkTemplateId(bad).ok, JSON.stringify(bad)).toBe(false);
		}
	});
});
