/**
 * The PDF preflight against hostile files (issue 12: a 4.3 MB file of `1 0 obj` repeated blocked
 * n8n's event loop for 321 s) and against real files checked with qpdf. Cost is measured by the
 * reader's own count of work (about one unit per byte read), never by timing.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { MAX_FILE_BYTES } from '../../nodes/shared/limits';
import { MAX_PDF_WORK, readPdfStructure } from '../../nodes/shared/preflight/pdf/structure';
import { inspectUpload } from '../../nodes/shared/preflight/upload';
import { minimalPdf } from '../harness/documents';
import {
	CORPUS_DIR,
	CORPUS_MISSING_MESSAGE,
	QPDF_AVAILABLE,
	QPDF_MISSING_MESSAGE,
	corpusFiles,
	corpusPdfs,
	qpdfEncrypt,
	qpdfPages,
	qpdfRequiresPassword,
	readCorpusFile,
	withTemporaryFile,
} from '../harness/corpus';
import { skipNotice } from '../harness/skipNotice';

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** The size the file had: just under the service's 4.4 MB, so the preflight reads it. */
const CRAFTED_SIZE = 4_300_000;
/** Work per byte a crafted file may cost: a handful of linear passes. */
const WORK_PER_BYTE = 6;

/** `unit` repeated to CRAFTED_SIZE, between a PDF header and a trailer with an end marker. */
function crafted(unit: string, { head = '', tail = '\ntrailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n0\n%%EOF\n' } = {}): Uint8Array {
	const header = `%PDF-1.7\n${head}`;
	const repeats = Math.max(1, Math.floor((CRAFTED_SIZE - header.length - tail.length) / unit.length));
	return latin1(header + unit.repeat(repeats) + tail);
}

/** A flat page tree of `pages` page objects (objects 3...), the catalog and root as objects 1 and 2. */
function flatTree(pages: number, count = pages): Uint8Array {
	const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
	const leaves = Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj<</Type/Page>>endobj\n`).join('');
	return latin1(`%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count ${count}/Kids[${kids}]>>endobj\n${leaves}trailer<</Root 1 0 R>>\n%%EOF\n`);
}

const CRAFTED: Array<{ name: string; bytes: () => Uint8Array; pages?: number | null }> = [
	{ name: 'object headers without endobj (the file of the issue)', bytes: () => crafted('1 0 obj\n'), pages: null },
	{
		name: 'object headers with distinct numbers, without endobj',
		bytes: () => latin1(`%PDF-1.7\n${Array.from({ length: 140_000 }, (_, i) => `${i + 1} 0 obj << /Type /Page >>\n`).join('')}trailer<</Root 1 0 R>>\n%%EOF\n`),
		pages: null,
	},
	{ name: 'stream keywords without endstream', bytes: () => crafted('1 0 obj\n<< /Length 5 >>\nstream\n'), pages: null },
	{ name: 'streams whose /Length points past the file', bytes: () => crafted('1 0 obj << /Length 999999999 >>\nstream\nxx\nendstream\nendobj\n'), pages: null },
	{ name: 'only endobj and endstream', bytes: () => crafted('endobj endstream '), pages: null },
	{ name: 'the word obj alone', bytes: () => crafted('obj '), pages: null },
	{ name: 'a run of digits (backtracking trap for "\\d+ \\d+ obj")', bytes: () => crafted('1'), pages: null },
	{ name: 'a run of blanks before obj', bytes: () => crafted(' ', { tail: 'obj\ntrailer<</Root 1 0 R>>\n%%EOF\n' }), pages: null },
	{ name: 'trailer keywords without dictionaries', bytes: () => crafted('trailer '), pages: null },
	{ name: 'trailers with unterminated dictionaries', bytes: () => crafted('trailer << /Root 1 0 R /Size [ '), pages: null },
	{
		name: 'a catalog nested 2 million dictionaries deep',
		bytes: () => crafted('<<', { head: '1 0 obj\n', tail: '\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n' }),
		pages: null,
	},
	{
		name: 'a page tree root whose Kids are nested 4 million arrays deep',
		bytes: () => crafted('[', { head: '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 1/Kids', tail: ']>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n' }),
		pages: null,
	},
	{
		name: 'an unterminated string in the catalog',
		bytes: () => crafted('(', { head: '1 0 obj<</Type/Catalog/Pages 2 0 R/Title ', tail: '>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n' }),
		pages: null,
	},
	{
		name: 'hex-string openers in the catalog',
		bytes: () => crafted('< ', { head: '1 0 obj<</Type/Catalog/Pages 2 0 R/Title ', tail: '>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n' }),
		pages: null,
	},
	{
		name: 'a cyclic page tree of 70,000 nodes',
		bytes: () => {
			const nodes = 70_000;
			const chain = Array.from({ length: nodes }, (_, i) => `${i + 2} 0 obj<</Type/Pages/Count 1/Kids[${i + 3 > nodes + 1 ? 2 : i + 3} 0 R]>>endobj\n`).join('');
			return latin1(`%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n${chain}trailer<</Root 1 0 R>>\n%%EOF\n`);
		},
		pages: null,
	},
	{
		name: 'a page tree root with 500,000 Kids that are all the same page',
		bytes: () =>
			latin1(`%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 500000/Kids[${'3 0 R '.repeat(500_000)}]>>endobj\n3 0 obj<</Type/Page>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`),
		pages: null,
	},
	{ name: 'a huge /Count over one page', bytes: () => crafted(' ', { head: '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 99999999999999/Kids[3 0 R]>>endobj\n3 0 obj<</Type/Page>>endobj\n' }), pages: null },
	{ name: '90,000 real pages in one flat tree', bytes: () => flatTree(90_000), pages: 90_000 },
];

describe('hostile PDFs: work stays linear in the file size and bounded', () => {
	it.each(CRAFTED)('$name', async ({ bytes, pages }) => {
		const file = bytes();
		expect(file.length).toBeGreaterThan(3_000_000);
		expect(file.length).toBeLessThanOrEqual(MAX_FILE_BYTES);
		const structure = await readPdfStructure(file);
		expect(structure.work, `work ${structure.work} for ${file.length} bytes`).toBeLessThanOrEqual(WORK_PER_BYTE * file.length);
		expect(structure.pages).toBe(pages);
		// What the preflight makes of it: never a page-count claim it cannot make.
		const inspection = await inspectUpload(file, 'crafted.pdf', 'application/pdf');
		if (pages === null && inspection.ok) expect(inspection.pages).toBeNull();
	});

	it('a zip bomb in an object stream stops at the inflate ceiling, within the work limit', async () => {
		// 64 MB of zeros deflate to about 64 KB; the reader stops inflating at its 32 MB ceiling.
		const bomb = new Uint8Array(deflateSync(new Uint8Array(64 * 1024 * 1024), { level: 9 }));
		const head = latin1(`%PDF-1.7\n1 0 obj<</Type/ObjStm/N 1000000000/First 4000000/Filter/FlateDecode/Length ${bomb.length}>>stream\n`);
		const tail = latin1('\nendstream\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
		const file = new Uint8Array(head.length + bomb.length + tail.length);
		file.set(head);
		file.set(bomb, head.length);
		file.set(tail, head.length + bomb.length);
		const structure = await readPdfStructure(file);
		expect(structure.work).toBeLessThanOrEqual(MAX_PDF_WORK);
		expect(structure.pages).toBeNull();
	});

	it('a file that needs more than the work limit gives "page count unknown", and the preflight lets the service decide', async () => {
		const pdf = await minimalPdf(['Invoice'], 3);
		const structure = await readPdfStructure(pdf, 500);
		expect(structure).toMatchObject({ complete: false, pages: null, encryption: null });
		// It stops at the first charge over the limit; one charge never exceeds a pass over the file.
		expect(structure.work).toBeGreaterThan(500);
		expect(structure.work).toBeLessThanOrEqual(500 + pdf.length);
		// The full reading of the same file knows its 3 pages.
		expect((await readPdfStructure(pdf)).pages).toBe(3);
	});

	it('the limit allows several passes over the largest file the service takes', () => {
		expect(MAX_PDF_WORK).toBeGreaterThanOrEqual(WORK_PER_BYTE * MAX_FILE_BYTES);
	});
});

describe.skipIf(!CORPUS_DIR)('the real-world corpus matches its manifest (test/corpus/manifest.json)', () => {
	it.each(corpusFiles())('$name: sha256 as the manifest says', ({ name, sha256 }) => {
		expect(createHash('sha256').update(readCorpusFile(name)).digest('hex')).toBe(sha256);
	});
});

describe.skipIf(!QPDF_AVAILABLE || !CORPUS_DIR)('real-world PDFs (the corpus) against qpdf', () => {
	const files = corpusPdfs();

	it('the corpus holds the 61 PDFs of the manifest', () => {
		expect(files).toHaveLength(61);
	});

	it.each(files)('$name: the page count qpdf reads, unknown only where qpdf had to repair the file', async ({ path, name }) => {
		const bytes = readCorpusFile(name);
		const structure = await readPdfStructure(bytes);
		expect(structure.complete).toBe(true);
		expect(structure.work).toBeLessThanOrEqual(WORK_PER_BYTE * bytes.length);
		if (qpdfRequiresPassword(path)) {
			// qpdf cannot count what it cannot open; the preflight refuses these (next test).
			expect(structure.encryption).toBe('needs-password');
			return;
		}
		const truth = qpdfPages(path);
		// qpdf could not read it at all (no trailer to recover from): there is no count to compare.
		if (truth.pages === undefined) return;
		if (truth.clean) {
			expect(structure.pages).toBe(truth.pages);
		} else {
			// Damaged files qpdf repairs: the same count, or "unknown" (the service decides).
			expect([truth.pages, null]).toContain(structure.pages);
		}
	});

	it.each(files)('$name: refused as password-protected exactly when qpdf needs a password to open it', async ({ path, name }) => {
		const inspection = await inspectUpload(readCorpusFile(name), name, 'application/pdf');
		const refusedForPassword = !inspection.ok && inspection.code === 'PDF_ENCRYPTED';
		expect(refusedForPassword).toBe(qpdfRequiresPassword(path));
	});
});

describe.skipIf(!QPDF_AVAILABLE)('encrypted PDFs: only those that need a password to open are refused', () => {
	const variants: Array<[string, string[]]> = [
		['RC4 40-bit (revision 2)', ['40']],
		['RC4 128-bit (revision 3)', ['128', '--use-aes=n']],
		['AES-128 (revision 4)', ['128', '--use-aes=y']],
		['AES-128 without encrypted metadata (revision 4)', ['128', '--use-aes=y', '--cleartext-metadata']],
		['AES-256 (revision 5, deprecated)', ['256', '--force-R5']],
		['AES-256 (revision 6)', ['256']],
	];

	it.each(variants)('%s with an owner password only: opens, and is accepted', async (_name, options) => {
		const bytes = qpdfEncrypt(await minimalPdf(['Invoice INV-1'], 2), '', 'owner-secret', options);
		expect(withTemporaryFile(bytes, qpdfRequiresPassword)).toBe(false);
		const structure = await readPdfStructure(bytes);
		expect(structure.encryption).toBe('opens-without-password');
		const inspection = await inspectUpload(bytes, 'protected.pdf');
		expect(inspection.ok).toBe(true);
	});

	it.each(variants)('%s with a user password: refused with the fix', async (_name, options) => {
		const bytes = qpdfEncrypt(await minimalPdf(['Invoice INV-1'], 2), 'user-secret', 'owner-secret', options);
		expect(withTemporaryFile(bytes, qpdfRequiresPassword)).toBe(true);
		expect((await readPdfStructure(bytes)).encryption).toBe('needs-password');
		const inspection = await inspectUpload(bytes, 'locked.pdf');
		expect(inspection).toMatchObject({ ok: false, code: 'PDF_ENCRYPTED', description: expect.stringMatching(/Remove the password/) });
	});
});

// Listed at the end of `npm test` when the corpus and encryption checks above did not run.
if (!QPDF_AVAILABLE) skipNotice(QPDF_MISSING_MESSAGE);
if (!CORPUS_DIR) skipNotice(CORPUS_MISSING_MESSAGE);
