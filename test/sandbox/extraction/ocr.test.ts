/**
 * OCR (ocr.ts, pdf-images.ts): the project's invoices rendered to pixels and read back, a PDF
 * page that carries only an image, the project's metadata samples read without OCR, and real
 * photos and scans of the corpus. OCR costs about a second per page, so the cases are few.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, SAMPLES, type FixtureName } from '../../fixtures';
import { skipNotice } from '../../harness/skipNotice';
import { call, fileForm, waitForResult } from '../../contract/target';
import { startSandbox, type Sandbox } from '../../../sandbox/src';
import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import { extractData, readDocument, type TemplateLike } from '../../../sandbox/src/extraction/index';
import { ocrAvailable, ocrImagesAsked, recognizeImage, stopOcr } from '../../../sandbox/src/extraction/ocr';
import { DEV_INVOICES, holdsAmount, ocrCorpus } from './ocr-corpus';
import { pdfPageImages } from '../../../sandbox/src/extraction/pdf-images';

const OCR = await ocrAvailable();
const OCR_MISSING = 'OCR is not available (tesseract.js or @tesseract.js-data/eng not installed, or SANDBOX_OCR=off)';

const requireHere = createRequire(__filename);
const RENDERER = (() => {
	try {
		requireHere.resolve('@napi-rs/canvas');
		return true;
	} catch {
		return false;
	}
})();
const RENDERER_MISSING = "@napi-rs/canvas (pdfjs-dist's optional renderer) is not installed: the project's documents cannot be turned into pixels";

interface Rendered {
	png: Buffer;
	jpeg: Buffer;
	width: number;
	height: number;
	/** One grey byte per pixel, rows top to bottom. */
	grey: Uint8Array;
}

interface NodeCanvas {
	width: number;
	height: number;
	toBuffer(mime: 'image/png' | 'image/jpeg', quality?: number): Buffer;
}
interface NodeContext {
	fillStyle: string;
	fillRect(x: number, y: number, width: number, height: number): void;
	getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
}

/** Page 1 of a PDF fixture as pixels (pdfjs with its Node canvas), 144 dpi, on white. */
async function render(name: FixtureName): Promise<Rendered> {
	const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
	const standardFontDataUrl = `${join(dirname(requireHere.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
	const pdf = await pdfjs.getDocument({ data: new Uint8Array((await loadFixture(name)).bytes), standardFontDataUrl, isEvalSupported: false, verbosity: 0 }).promise;
	try {
		const page = await pdf.getPage(1);
		const viewport = page.getViewport({ scale: 2 });
		const factory = pdf.canvasFactory as { create(width: number, height: number): { canvas: NodeCanvas; context: NodeContext } };
		const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
		context.fillStyle = 'white';
		context.fillRect(0, 0, canvas.width, canvas.height);
		await page.render({ canvasContext: context as never, canvas: canvas as never, viewport }).promise;
		const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
		const grey = new Uint8Array(canvas.width * canvas.height);
		for (let pixel = 0; pixel < grey.length; pixel++) grey[pixel] = rgba[pixel * 4 + 1];
		return { png: canvas.toBuffer('image/png'), jpeg: canvas.toBuffer('image/jpeg', 85), width: canvas.width, height: canvas.height, grey };
	} finally {
		await pdf.destroy();
	}
}

/** A PDF of two pages without text: a JPEG (DCTDecode) and a 1-bit image mask (FlateDecode) of the same page. */
async function imageOnlyPdf(page: Rendered): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	const size: [number, number] = [page.width / 2, page.height / 2];
	const jpeg = await pdf.embedJpg(page.jpeg);
	pdf.addPage(size).drawImage(jpeg, { x: 0, y: 0, width: size[0], height: size[1] });
	// Sample 0 paints (black), 1 leaves the page white; rows padded to whole bytes.
	const rowBytes = Math.ceil(page.width / 8);
	const bits = new Uint8Array(rowBytes * page.height).fill(0xff);
	for (let y = 0; y < page.height; y++) {
		for (let x = 0; x < page.width; x++) if (page.grey[y * page.width + x] < 160) bits[y * rowBytes + (x >> 3)] &= ~(0x80 >> (x & 7));
	}
	const mask = pdf.context.register(pdf.context.flateStream(bits, { Type: 'XObject', Subtype: 'Image', Width: page.width, Height: page.height, ImageMask: true, BitsPerComponent: 1 }));
	const second = pdf.addPage(size);
	second.pushOperators(pushGraphicsState(), concatTransformationMatrix(size[0], 0, 0, size[1], 0, 0), drawObject(second.node.newXObject('Scan', mask)), popGraphicsState());
	return pdf.save();
}

interface TextCanvas extends NodeCanvas {
	getContext(kind: '2d'): NodeContext & { font: string; fillText(text: string, x: number, y: number): void };
}

/** Lines of text drawn as pixels (black on white, 40 px type): what a letterhead image holds. */
function textImage(lines: string[]): Buffer {
	const { createCanvas } = requireHere('@napi-rs/canvas') as { createCanvas(width: number, height: number): TextCanvas };
	const canvas = createCanvas(1400, 70 * lines.length + 30);
	const context = canvas.getContext('2d');
	context.fillStyle = 'white';
	context.fillRect(0, 0, canvas.width, canvas.height);
	context.fillStyle = 'black';
	context.font = '40px sans-serif';
	lines.forEach((line, index) => context.fillText(line, 20, 60 + index * 70));
	return canvas.toBuffer('image/png');
}

/** A page with a text layer whose letterhead (the supplier and its VAT id) is only an image. */
async function letterheadPdf(): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	const page = pdf.addPage([595, 842]);
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	const letterhead = await pdf.embedPng(textImage(['NORTHWIND TRADING LTD', 'VAT GB 123 4567 89']));
	page.drawImage(letterhead, { x: 40, y: 740, width: 350, height: 40 });
	['Invoice No.: INV-77', 'Date: 2026-03-12', 'Total: 99.00'].forEach((line, index) => page.drawText(line, { x: 40, y: 600 - index * 20, size: 11, font }));
	return pdf.save();
}

const template = (name: string): TemplateLike => ({ scanner_id: name.toLowerCase(), ...READY_MADE_TEMPLATES.find((candidate) => candidate.name === name)! });
const fieldValue = (data: ReturnType<typeof extractData>, name: string) => data.fields.find((field) => field.name === name)?.value;

afterAll(() => stopOcr());

describe("the project's own samples carry their text in metadata: read without OCR", () => {
	it.each(['receiptPng', 'receiptJpeg', 'businessCard'] as const)('%s', async (name) => {
		const asked = ocrImagesAsked();
		const document = await readDocument((await loadFixture(name)).bytes);
		expect(document).toMatchObject({ kind: SAMPLES[name].kind, pages: 1 });
		expect(document.problem).toBeUndefined();
		expect(document.text.length).toBeGreaterThan(50);
		expect(ocrImagesAsked()).toBe(asked);
	});
});

describe.skipIf(!OCR || !RENDERER)("OCR of the project's invoices turned into pixels", () => {
	let german: Rendered;
	let english: Rendered;
	beforeAll(async () => {
		german = await render('invoiceDe');
		english = await render('invoiceEn');
	});

	it('a PNG without text metadata is read by OCR, in German, and its fields extracted', async () => {
		const document = await readDocument(german.png);
		expect(document).toMatchObject({ kind: 'png', pages: 1, language: 'de' });
		expect(document.problem).toBeUndefined();
		// Labels in a row above their values, as the invoice prints them: columns kept apart.
		expect(document.text).toMatch(/Rechnungsnr\. {2,}Rechnungsdatum[^\n]*\n *RE-2026-1187 {2,}12\.03\.2026/);
		const data = extractData(template('Invoice'), document, { fileName: 'rechnung.png', fileType: 'image/png' });
		expect(fieldValue(data, 'invoice_number')).toBe('RE-2026-1187');
		expect(fieldValue(data, 'invoice_date')).toBe('2026-03-12');
		expect(fieldValue(data, 'total')).toBe(1633.75);
	});

	it('PDF pages that carry only an image are read: a JPEG (DCTDecode) and a 1-bit image mask (FlateDecode)', async () => {
		const pdf = await imageOnlyPdf(english);
		const document = await readDocument(pdf);
		expect(document).toMatchObject({ kind: 'pdf', pages: 2, language: 'en' });
		expect(document.problem).toBeUndefined();
		for (const page of document.pageTexts) {
			expect(page).toMatch(/Invoice No\.?:? {2,}INV-2026-0042/);
			expect(holdsAmount(page, 1234.56)).toBe(true);
		}
	});

	it('a letterhead carried only as an image on a page with text is read and put above the page text', async () => {
		const document = await readDocument(await letterheadPdf());
		expect(document.ocrWords?.length).toBeGreaterThan(0);
		const lines = document.text.split('\n').map((line) => line.trim());
		const supplier = lines.findIndex((line) => /NORTHWIND TRADING/.test(line));
		expect(supplier).toBeGreaterThanOrEqual(0);
		expect(lines.some((line) => /GB 123 4567 89/.test(line))).toBe(true);
		expect(supplier).toBeLessThan(lines.findIndex((line) => line.startsWith('Invoice No.')));
	});

	it('words come with their boxes and lines, pieces for the layout with one baseline per line', async () => {
		const page = await recognizeImage(english.png);
		expect(page.readable).toBe(true);
		const invoiceNumber = page.words.find((word) => word.text === 'INV-2026-0042')!;
		expect(invoiceNumber.bbox.x0).toBeGreaterThan(english.width / 2);
		expect(invoiceNumber.bbox.y1).toBeLessThan(english.height / 3);
		const line = page.lines[invoiceNumber.line];
		expect(line.words).toContain(invoiceNumber);
		expect(line.text).toMatch(/^Invoice No\.?:? INV-2026-0042$/);
		// One piece per word, in the same order.
		expect(page.pieces.map((piece) => piece.text)).toEqual(page.words.map((word) => word.text));
		const pieces = page.pieces.filter((_, index) => page.words[index].line === invoiceNumber.line);
		expect(new Set(pieces.map((piece) => piece.y)).size).toBe(1);
	});
});

const corpus = ocrCorpus();
const devInvoices = corpus.devInvoices ? join(corpus.devInvoices, 'files') : undefined;
const CORPUS_MISSING = `OCR of real photos and scans: ${corpus.missing.at(-1) ?? `no ${DEV_INVOICES} set`}`;

describe.skipIf(!OCR || !devInvoices)('real photos and scans (the corpus)', () => {
	let sandbox: Sandbox;
	afterAll(() => sandbox?.stop());

	it('a phone photo of a till receipt: its total is in the text', async () => {
		const document = await readDocument(readFileSync(join(devInvoices!, 'mindee-receipt-clachan-en-gb.jpg')));
		expect(document).toMatchObject({ kind: 'jpeg', pages: 1, language: 'en' });
		expect(holdsAmount(document.text, 10.2)).toBe(true);
		expect(document.text).toMatch(/54\/7500/);
	});

	it('a 1-bit CCITT scan (read here from its image, not its text layer): the total is in the text', async () => {
		const { images } = await pdfPageImages(readFileSync(join(devInvoices!, 'docile-philipmorris-516f2d61.pdf')), [0]);
		expect(images.map((image) => image.format)).toEqual(['tiff']);
		const page = await recognizeImage(images[0].bytes);
		expect(holdsAmount(page.text, 4759.2)).toBe(true);
	});

	it('the sandbox, end to end: a receipt photo posted to /process ends done with its total, not NO_TEXT', async () => {
		sandbox = await startSandbox({ timing: 'fast' });
		const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey, sandbox };
		const photo = new Uint8Array(readFileSync(join(devInvoices!, 'wildreceipt-choeun-korean-restaurant.jpeg')));
		const accepted = await call(target, 'POST', '/api/v1/process', { body: fileForm(photo, 'receipt.jpeg', 'image/jpeg') });
		expect(accepted.status).toBe(202);
		const result = (await waitForResult(target, accepted.body.result_id)).body;
		expect(result).toMatchObject({ status: 'done', scanner_name: 'Receipt' });
		const total = result.extracted_data.fields.find((field: { name: string }) => field.name === 'total');
		expect(total.value).toBe(60.44);
	});
});

// Listed at the end of `npm test` when these cases did not run.
if (!OCR) skipNotice(OCR_MISSING);
else if (!RENDERER) skipNotice(RENDERER_MISSING);
if (OCR && !devInvoices) skipNotice(CORPUS_MISSING);
