import { jpegText, pngText } from './image-text';
import { guessLanguage } from './language';
import { readPdfText } from './pdf-text';
import { sniffType } from './sniff';
import type { DocumentKind, DocumentProblem, ReadDocument } from './types';

function fromPages(kind: DocumentKind, pages: number, pageTexts: string[], problem?: DocumentProblem): ReadDocument {
	const text = pageTexts.join('\n\n').trim() === '' ? '' : pageTexts.join('\n\n');
	const document: ReadDocument = { kind, pages, text, pageTexts };
	if (problem) document.problem = problem;
	else if (text === '') document.problem = 'no_text';
	const language = guessLanguage(text);
	if (language) document.language = language;
	return document;
}

function readImageText(kind: 'png' | 'jpeg', bytes: Uint8Array): ReadDocument {
	let text = '';
	try {
		text = kind === 'png' ? pngText(bytes) : jpegText(bytes);
	} catch {
		return fromPages(kind, 1, [''], 'corrupt');
	}
	return fromPages(kind, 1, [text]);
}

/**
 * Reads what the sandbox can read of a document: PDF text layers, and text carried in PNG/JPEG
 * metadata (no OCR). WebP and HEIC are recognised but "not guaranteed readable" (spec 4.2), so
 * they are reported 'unsupported', like anything that is neither a PDF nor an image.
 */
export async function readDocument(bytes: Uint8Array): Promise<ReadDocument> {
	const kind = sniffType(bytes);
	switch (kind) {
		case 'pdf': {
			const pdf = await readPdfText(bytes);
			return fromPages(kind, pdf.pages, pdf.pageTexts, pdf.problem);
		}
		case 'png':
		case 'jpeg':
			return readImageText(kind, bytes);
		default:
			return fromPages(kind, 1, [], 'unsupported');
	}
}
