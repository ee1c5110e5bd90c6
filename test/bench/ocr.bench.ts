/**
 * How long the sandbox's OCR (sandbox/src/extraction/ocr.ts) takes per page on the corpus's real
 * photos and scans: every image of the corpus, every PDF page without a text layer that draws an
 * image, and the scans that carry a text layer too (the sandbox reads their text layer; the time
 * their image would take is shown apart). Per page: time, language kept, words, characters, mean
 * confidence, whether it counts as holding text (a photo of a giraffe does not) and, for the
 * documents whose expected total is known, whether the text holds it.
 * `npm run bench:ocr`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';

import { pngWithText } from '../fixtures/images';
import { DEV_INVOICES, devInvoiceExpected, holdsAmount, ocrCorpus, type OcrSample } from '../sandbox/extraction/ocr-corpus';
import { ocrAvailable, recognizeImage, stopOcr, type OcrPage } from '../../sandbox/src/extraction/ocr';
import { pdfPageImages } from '../../sandbox/src/extraction/pdf-images';
import { readPdfText } from '../../sandbox/src/extraction/pdf-text';

interface Row {
	name: string;
	group: 'image' | 'image-only PDF page' | 'scan with a text layer';
	page: OcrPage;
	total?: { expected: number; found: boolean };
}

function expectedTotal(devInvoices: string | undefined, sample: OcrSample): number | undefined {
	if (!devInvoices || !sample.name.startsWith(`${DEV_INVOICES}/`)) return undefined;
	const total = devInvoiceExpected(devInvoices, basename(sample.name).replace(/\.[^.]+$/, ''))?.fields.total;
	return typeof total === 'number' ? total : undefined;
}

function isScanWithTextLayer(devInvoices: string | undefined, sample: OcrSample): boolean {
	if (!devInvoices || !sample.name.startsWith(`${DEV_INVOICES}/`)) return false;
	return /scan/i.test(devInvoiceExpected(devInvoices, basename(sample.name, '.pdf'))?.media ?? '');
}

const fixed = (value: number, width: number, digits = 0) => value.toFixed(digits).padStart(width);

function print(rows: Row[]): void {
	console.log('    time  lang  words  chars  conf  text  total     page');
	for (const row of rows) {
		const total = row.total ? (row.total.found ? 'found' : 'MISSED') : '-';
		console.log(
			`${fixed(row.page.ms, 6)} ms  ${row.page.language}  ${fixed(row.page.words.length, 5)}  ${fixed(row.page.text.replace(/\s+/g, ' ').trim().length, 5)}  ${fixed(row.page.confidence, 4)}  ${(row.page.readable ? 'yes' : 'no').padEnd(4)}  ${total.padEnd(8)}  ${row.name} (${row.group})`,
		);
	}
}

function summary(label: string, rows: Row[]): string {
	if (rows.length === 0) return `${label}: none`;
	const times = rows.map((row) => row.page.ms).sort((a, b) => a - b);
	const median = times[Math.floor(times.length / 2)];
	const words = rows.reduce((sum, row) => sum + row.page.words.length, 0);
	const characters = rows.reduce((sum, row) => sum + row.page.text.replace(/\s+/g, ' ').trim().length, 0);
	return `${label}: ${rows.length} pages, median ${(median / 1000).toFixed(2)} s, max ${(times.at(-1)! / 1000).toFixed(2)} s per page; ${words} words, ${characters} characters`;
}

async function main(): Promise<void> {
	if (!(await ocrAvailable())) {
		console.log('bench:ocr skipped: OCR is not available (tesseract.js or @tesseract.js-data/eng not installed, or SANDBOX_OCR=off)');
		return;
	}
	const corpus = ocrCorpus();
	for (const why of corpus.missing) console.log(`not read: ${why}`);
	if (corpus.images.length + corpus.pdfs.length === 0) {
		console.log('bench:ocr skipped: no corpus here (`npm run corpus` fetches the manifest\'s files)');
		return;
	}

	// The engine's start (worker thread, WebAssembly, English model), on a blank 64x96 image.
	let started = performance.now();
	await recognizeImage(pngWithText([]));
	const startMs = performance.now() - started;

	const rows: Row[] = [];
	for (const sample of corpus.images) {
		const page = await recognizeImage(readFileSync(sample.path));
		const expected = expectedTotal(corpus.devInvoices, sample);
		rows.push({ name: sample.name, group: 'image', page, total: expected === undefined ? undefined : { expected, found: holdsAmount(page.text, expected) } });
	}
	for (const sample of corpus.pdfs) {
		const bytes = new Uint8Array(readFileSync(sample.path));
		const text = await readPdfText(bytes);
		if (text.problem && text.problem !== 'no_text') continue;
		const scan = isScanWithTextLayer(corpus.devInvoices, sample);
		const pages = text.pageTexts.flatMap((pageText, index) => (scan || pageText.trim() === '' ? [index] : []));
		if (pages.length === 0) continue;
		const { images, skipped } = await pdfPageImages(bytes, pages);
		for (const image of images) {
			const page = await recognizeImage(image.bytes);
			const expected = expectedTotal(corpus.devInvoices, sample);
			rows.push({
				name: `${sample.name} p.${image.page + 1} (${image.format} ${image.width}x${image.height})`,
				group: scan ? 'scan with a text layer' : 'image-only PDF page',
				page,
				total: expected === undefined ? undefined : { expected, found: holdsAmount(page.text, expected) },
			});
		}
		for (const skip of skipped) console.log(`not read: ${sample.name} p.${skip.page + 1} ${skip.width}x${skip.height}: ${skip.reason}`);
	}
	started = performance.now();
	await stopOcr();
	const stopMs = performance.now() - started;

	print(rows);
	const withTotal = rows.filter((row) => row.total);
	console.log(`engine start ${(startMs / 1000).toFixed(2)} s (first page only), stop ${stopMs.toFixed(0)} ms; memory ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB RSS`);
	console.log(summary('images', rows.filter((row) => row.group === 'image')));
	console.log(summary('image-only PDF pages', rows.filter((row) => row.group === 'image-only PDF page')));
	console.log(summary('scans with a text layer', rows.filter((row) => row.group === 'scan with a text layer')));
	console.log(summary('all pages', rows));
	console.log(`expected total in the OCR text: ${withTotal.filter((row) => row.total!.found).length} of ${withTotal.length} documents that state one`);
}

void main();
