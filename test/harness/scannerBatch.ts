/**
 * A scanner's batch made at test time from real invoices of the corpus (issue 46): twelve
 * documents, one page each, concatenated by qpdf (`qpdf --empty --pages ...`) into one PDF, as a
 * scanner's feeder gives them. Nine are text PDFs, three are photos of invoices and a receipt put
 * on a page of their own as a scan is (an image and nothing else), so the service reads them by
 * OCR. Each is one whose number `npm run bench:sandbox` finds the sandbox reading right, and whose
 * number its source states (test/corpus/expected/dev-invoices/). Only the development part of the
 * corpus is used: the held-out part is never looked at document by document.
 *
 * Without the corpus or qpdf there is no batch: `scannerBatch()` says why (the suite skips, and
 * fails instead under REQUIRE_CORPUS and REQUIRE_QPDF, as in CI).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PDFDocument } from 'pdf-lib';

import { CORPUS_DIR, CORPUS_MISSING_MESSAGE, QPDF_AVAILABLE, QPDF_MISSING_MESSAGE, readCorpusFile } from './corpus';

const ROOT = join(__dirname, '..', '..');

/** The batch's documents, in page order: `firstPageOnly` for a document of several pages. */
const DOCUMENTS: Array<{ name: string; firstPageOnly?: boolean }> = [
	{ name: 'dev-invoices/files/azure-contoso-invoice-34278587.pdf' },
	{ name: 'dev-invoices/files/mindee-invoice-johnsmith-en-us.jpg' },
	{ name: 'dev-invoices/files/azure-contoso-statement-1234.pdf' },
	{ name: 'dev-invoices/files/azure-contoso-statement-2468.pdf' },
	{ name: 'dev-invoices/files/mindee-edf-energy-bill-fr.pdf', firstPageOnly: true },
	{ name: 'dev-invoices/files/azure-contoso-statement-3579.pdf' },
	{ name: 'dev-invoices/files/mindee-invoice-turnpike-en.jpg' },
	{ name: 'dev-invoices/files/azure-contoso-statement-8642.pdf' },
	{ name: 'dev-invoices/files/azure-contoso-invoice-inv100.pdf' },
	{ name: 'dev-invoices/files/azure-contoso-statement-8765.pdf' },
	{ name: 'dev-invoices/files/mindee-receipt-clachan-en-gb.jpg' },
	{ name: 'dev-invoices/files/azure-contoso-statement-9876.pdf' },
];

export interface BatchPage {
	/** The corpus file the page is made from. */
	source: string;
	/** The number its source states: `fields.invoice_number` of its expected values (a receipt's number for a receipt). */
	invoiceNumber: string;
	/** Whether the page is a photo put on a page (read by OCR), not a text PDF. */
	scanned: boolean;
}

export interface ScannerBatch {
	bytes: Uint8Array;
	fileName: string;
	pages: BatchPage[];
}

function expectedNumber(name: string): string {
	const file = join(ROOT, 'test', 'corpus', 'expected', 'dev-invoices', `${basename(name).replace(/\.[^.]+$/, '')}.json`);
	const expected = JSON.parse(readFileSync(file, 'utf8')) as { file: string; fields: { invoice_number?: string } };
	if (expected.file !== name || !expected.fields.invoice_number) throw new Error(`${file} gives no invoice number for ${name}`);
	return expected.fields.invoice_number;
}

/** A photo on a page of its own, at 150 dpi, as a scanner would put it: the image and nothing else. */
async function photoPage(jpeg: Uint8Array): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	const image = await pdf.embedJpg(jpeg);
	const { width, height } = image.scale(72 / 150);
	pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
	return pdf.save({ useObjectStreams: false });
}

/** Why there can be no batch here, or undefined. */
export function scannerBatchMissing(): string | undefined {
	if (!CORPUS_DIR) return CORPUS_MISSING_MESSAGE;
	if (!QPDF_AVAILABLE) return QPDF_MISSING_MESSAGE;
	return undefined;
}

/** The 12-page batch (about 2 MB), made anew: each call runs qpdf once. */
export async function scannerBatch(): Promise<ScannerBatch> {
	const missing = scannerBatchMissing();
	if (missing) throw new Error(missing);
	const folder = mkdtempSync(join(tmpdir(), 'scanner-batch-'));
	try {
		const pageArguments: string[] = [];
		for (const [i, { name, firstPageOnly }] of DOCUMENTS.entries()) {
			const bytes = readCorpusFile(name);
			const path = join(folder, `${i + 1}.pdf`);
			writeFileSync(path, name.endsWith('.pdf') ? bytes : await photoPage(bytes));
			pageArguments.push(path, ...(firstPageOnly ? ['1'] : []));
		}
		const output = join(folder, 'batch.pdf');
		execFileSync('qpdf', ['--empty', '--pages', ...pageArguments, '--', output]);
		return {
			bytes: new Uint8Array(readFileSync(output)),
			fileName: 'scanner-batch.pdf',
			pages: DOCUMENTS.map(({ name }) => ({ source: name, invoiceNumber: expectedNumber(name), scanned: !name.endsWith('.pdf') })),
		};
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
