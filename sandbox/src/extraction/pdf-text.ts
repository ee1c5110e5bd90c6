import { layoutLines, type PositionedText } from './layout';
import type { DocumentProblem } from './types';

export interface PdfText {
	pages: number;
	pageTexts: string[];
	problem?: DocumentProblem;
}

interface PdfJsTextItem {
	str?: string;
	transform?: number[];
	width?: number;
	height?: number;
}

// pdfjs-dist is ESM only; the package's build is CommonJS (a real `import()` at run time).
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs', { with: { 'resolution-mode': 'import' } });
let pdfjsModule: Promise<PdfJs> | undefined;

/** pdfjs is large; load it once, on first use. The legacy build is the one that runs on Node 20. */
function loadPdfJs(): Promise<PdfJs> {
	pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs');
	return pdfjsModule;
}

function toPositioned(item: PdfJsTextItem): PositionedText | undefined {
	if (typeof item.str !== 'string' || !item.transform) return undefined;
	const [scaleX, skewY, , scaleY, x, y] = item.transform;
	const fontSize = Math.hypot(scaleY, skewY) || Math.abs(scaleX) || item.height || 10;
	return { text: item.str, x, y, width: item.width ?? 0, fontSize };
}

/** A best-effort page count for a PDF pdfjs cannot open: count its page objects, at least 1. */
export function countPageObjects(bytes: Uint8Array): number {
	const matches = Buffer.from(bytes).toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g);
	return Math.max(1, matches?.length ?? 0);
}

function problemOf(error: unknown): DocumentProblem {
	const name = error instanceof Error ? error.name : '';
	return name === 'PasswordException' ? 'encrypted' : 'corrupt';
}

/** Text of every page, lines rebuilt from the text layer; problems instead of exceptions. */
/**
 * pdfjs 5.4 keeps per-document state in process-wide objects, so two documents read at once can
 * spoil each other ("Invalid page request"): documents are read one at a time.
 */
let pdfQueue: Promise<unknown> = Promise.resolve();

export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
	const turn = pdfQueue.then(
		() => readPdfTextNow(bytes),
		() => readPdfTextNow(bytes),
	);
	pdfQueue = turn.catch(() => undefined);
	return await turn;
}

async function readPdfTextNow(bytes: Uint8Array): Promise<PdfText> {
	const pdfjs = await loadPdfJs();
	// pdfjs transfers (detaches) the buffer it is given: hand it a copy.
	const task = pdfjs.getDocument({
		data: new Uint8Array(bytes),
		isEvalSupported: false,
		disableFontFace: true,
		useSystemFonts: false,
		stopAtErrors: false,
		verbosity: 0,
	});
	let pdf: Awaited<typeof task.promise>;
	try {
		pdf = await task.promise;
	} catch (error) {
		await task.destroy();
		return { pages: countPageObjects(bytes), pageTexts: [], problem: problemOf(error) };
	}
	try {
		const pageTexts: string[] = [];
		for (let number = 1; number <= pdf.numPages; number++) {
			const page = await pdf.getPage(number);
			const content = await page.getTextContent();
			const pieces = (content.items as PdfJsTextItem[]).map(toPositioned).filter((piece) => piece !== undefined);
			pageTexts.push(layoutLines(pieces).join('\n'));
			page.cleanup();
		}
		const hasText = pageTexts.some((text) => text.trim() !== '');
		return { pages: pdf.numPages, pageTexts, problem: hasText ? undefined : 'no_text' };
	} catch (error) {
		return { pages: pdf.numPages, pageTexts: [], problem: problemOf(error) };
	} finally {
		await pdf.destroy();
	}
}
