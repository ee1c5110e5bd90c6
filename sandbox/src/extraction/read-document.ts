import { jpegText, pngText } from './image-text';
import { guessLanguage } from './language';
import { recognizeImage } from './ocr';
import { pdfPageImages, textPageImages, type Box } from './pdf-images';
import { readPdfText } from './pdf-text';
import { sniffType } from './sniff';
import type { DocumentKind, DocumentProblem, OcrWordConfidence, ReadDocument } from './types';

/**
 * Pages of one PDF read by OCR at most (about 1-3 s each): a longer scan is read up to there, so
 * that its upload is answered well within a client's upload timeout.
 */
export const MAX_OCR_PAGES = 20;

function fromPages(kind: DocumentKind, pages: number, pageTexts: string[], problem?: DocumentProblem): ReadDocument {
	const text = pageTexts.join('\n\n').trim() === '' ? '' : pageTexts.join('\n\n');
	const document: ReadDocument = { kind, pages, text, pageTexts };
	if (problem) document.problem = problem;
	else if (text === '') document.problem = 'no_text';
	const language = guessLanguage(text);
	if (language) document.language = language;
	return document;
}

/** OCR of an image, '' when OCR is unavailable or finds no text (a photo of something else). */
async function ocrText(image: Uint8Array, words?: OcrWordConfidence[]): Promise<string> {
	try {
		const page = await recognizeImage(image);
		if (page.readable && words) words.push(...page.words.map((word) => ({ text: word.text, confidence: Math.round(word.confidence) })));
		return page.readable ? page.text : '';
	} catch {
		return '';
	}
}

function withOcrWords(document: ReadDocument, words: OcrWordConfidence[]): ReadDocument {
	if (words.length > 0) document.ocrWords = words;
	return document;
}

/** Text metadata first (the project's own samples carry their text there), OCR when there is none. */
async function readImageText(kind: 'png' | 'jpeg', bytes: Uint8Array): Promise<ReadDocument> {
	let text = '';
	try {
		text = kind === 'png' ? pngText(bytes) : jpegText(bytes);
	} catch {
		return fromPages(kind, 1, [''], 'corrupt');
	}
	const words: OcrWordConfidence[] = [];
	if (text.trim() === '') text = await ocrText(bytes, words);
	return withOcrWords(fromPages(kind, 1, [text]), words);
}

/** The pages without a text layer read from the images they draw (at most MAX_OCR_PAGES pages). */
async function ocrPdfPages(bytes: Uint8Array, pageTexts: string[], words: OcrWordConfidence[]): Promise<string[]> {
	const blank = pageTexts.flatMap((text, page) => (text.trim() === '' ? [page] : [])).slice(0, MAX_OCR_PAGES);
	if (blank.length === 0) return pageTexts;
	const { images } = await pdfPageImages(bytes, blank);
	const read = [...pageTexts];
	for (const image of images) {
		const text = await ocrText(image.bytes, words);
		if (text.trim() !== '') read[image.page] = read[image.page].trim() === '' ? text : `${read[image.page]}\n\n${text}`;
	}
	return read;
}

/**
 * Text read from an image, put among the page's lines where the image is drawn: the share of the
 * page above the image's top edge picks the line it goes before (a letterhead first, a footer
 * last), set apart by blank lines so that it reads as a block of its own.
 */
export function insertByPosition(pageText: string, imageText: string, image: Box, page: Box): string {
	const lines = pageText.split('\n');
	const height = page.y1 - page.y0;
	const above = height > 0 ? Math.min(1, Math.max(0, (page.y1 - image.y1) / height)) : 1;
	const at = Math.round(above * lines.length);
	return [...lines.slice(0, at), '', imageText, '', ...lines.slice(at)].join('\n').replace(/^\n+|\n+$/g, '');
}

/**
 * Images on pages that have a text layer (a letterhead or footer carrying the supplier's name,
 * VAT id or IBAN only as pixels): a few of them (pdf-images.ts, textPageImages) are read and
 * their text merged into the page's lines by position.
 */
async function ocrTextPageImages(bytes: Uint8Array, textLayers: string[], pageTexts: string[], words: OcrWordConfidence[]): Promise<string[]> {
	const withText = textLayers.flatMap((text, page) => (text.trim() === '' ? [] : [page]));
	if (withText.length === 0) return pageTexts;
	const { images, pageBoxes } = await textPageImages(bytes, withText);
	const read = [...pageTexts];
	for (const image of images) {
		const pageBox = pageBoxes.get(image.page);
		const text = await ocrText(image.bytes, words);
		if (text.trim() !== '' && image.box && pageBox) read[image.page] = insertByPosition(read[image.page], text, image.box, pageBox);
	}
	return read;
}

/**
 * Reads what the sandbox can read of a document: PDF text layers, text carried in PNG/JPEG
 * metadata, and else OCR (ocr.ts) of JPEG/PNG images and of the images of PDF pages without a
 * text layer, plus a few images of text pages that may hold text of their own. WebP and HEIC
 * are recognised but "not guaranteed readable" (spec 4.2), so they are reported 'unsupported',
 * like anything that is neither a PDF nor an image.
 */
export async function readDocument(bytes: Uint8Array): Promise<ReadDocument> {
	const kind = sniffType(bytes);
	switch (kind) {
		case 'pdf': {
			const pdf = await readPdfText(bytes);
			if (pdf.problem !== undefined && pdf.problem !== 'no_text') return fromPages(kind, pdf.pages, pdf.pageTexts, pdf.problem);
			const words: OcrWordConfidence[] = [];
			const scanned = await ocrPdfPages(bytes, pdf.pageTexts, words);
			const pageTexts = await ocrTextPageImages(bytes, pdf.pageTexts, scanned, words);
			return withOcrWords(fromPages(kind, pdf.pages, pageTexts), words);
		}
		case 'png':
		case 'jpeg':
			return readImageText(kind, bytes);
		default:
			return fromPages(kind, 1, [], 'unsupported');
	}
}
