/**
 * The sandbox's extraction run in-process, as its upload handler runs it, without HTTP, accounts or
 * timing: the type from the bytes and the document read once (text layers, image metadata, OCR when
 * the sandbox has it), refused at upload as the service would (unsupported type, too many pages),
 * then processed by the upload handler's own `processDocument` (damaged, NO_TEXT, else the fields
 * from the named template or from the one automatic mode picks among a new account's 8 ready-made
 * templates, in their order).
 */
import { readDocument, sniffType } from '../../../sandbox/src/extraction';
import type { DocumentKind, ExtractedData, ReadDocument, TemplateLike } from '../../../sandbox/src/extraction';
import { readPdfText } from '../../../sandbox/src/extraction/pdf-text';
import { MAX_PAGES_PER_DOCUMENT } from '../../../sandbox/src/spec';
import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import { MIME_BY_KIND, processDocument } from '../../../sandbox/src/uploads';

/** A new account's templates, as the sandbox creates them (ids are the sandbox's to choose). */
export const ACCOUNT_TEMPLATES: TemplateLike[] = READY_MADE_TEMPLATES.map((template, index) => ({
	scanner_id: `ready-made-${index + 1}`,
	name: template.name,
	description: template.description,
	fields: structuredClone(template.fields),
}));

export function readyMadeTemplate(name: string): TemplateLike {
	const template = ACCOUNT_TEMPLATES.find((candidate) => candidate.name === name);
	if (!template) throw new Error(`no ready-made template named ${name}`);
	return template;
}

/** What the service answers at upload for a document it does not take. */
export type Refusal = 'UNSUPPORTED_FILE_TYPE' | 'DOCUMENT_TOO_LONG';

export interface ReadOutcome {
	kind: DocumentKind;
	pages: number;
	/** Set when the service would not take the document at upload. */
	refusal?: Refusal;
	document?: ReadDocument;
	/** A photo or scan: an image file, or a PDF without a text layer. */
	isImage: boolean;
	readMs: number;
}

/** Reads a document once; both template modes extract from this reading. */
export async function readForExtraction(bytes: Uint8Array): Promise<ReadOutcome> {
	const started = performance.now();
	const kind = sniffType(bytes);
	if (kind === 'unknown') return { kind, pages: 1, refusal: 'UNSUPPORTED_FILE_TYPE', isImage: false, readMs: performance.now() - started };
	const document = await readDocument(bytes);
	const readMs = performance.now() - started;
	const isImage = kind === 'jpeg' || kind === 'png' || (kind === 'pdf' && (await hasNoTextLayer(bytes)));
	const outcome: ReadOutcome = { kind, pages: document.pages, document, isImage, readMs };
	if (document.pages > MAX_PAGES_PER_DOCUMENT) outcome.refusal = 'DOCUMENT_TOO_LONG';
	return outcome;
}

/** An image-only scan: a PDF whose pages carry no text of their own (whatever OCR later finds). */
async function hasNoTextLayer(bytes: Uint8Array): Promise<boolean> {
	const pdf = await readPdfText(bytes);
	return pdf.problem === undefined || pdf.problem === 'no_text' ? pdf.pageTexts.every((text) => text.trim() === '') : false;
}

export interface Extraction {
	data?: ExtractedData;
	/** The template the fields were read with (the chosen one in automatic mode). */
	templateName?: string;
	/** The refusal or failure code when no fields came out (UNSUPPORTED_FILE_TYPE, NO_TEXT, ...). */
	refusal?: string;
	extractMs: number;
}

/** The fields from the named template, or (no template) from the one automatic mode picks. */
export function extract(read: ReadOutcome, fileName: string, template?: TemplateLike): Extraction {
	if (read.refusal || !read.document) return { refusal: read.refusal, extractMs: 0 };
	const started = performance.now();
	const outcome = processDocument(read.document, template ?? ACCOUNT_TEMPLATES, { fileName, fileType: MIME_BY_KIND[read.kind] });
	const extractMs = performance.now() - started;
	if (outcome.kind !== 'done') return { refusal: outcome.code, extractMs };
	return { data: outcome.extractedData, templateName: outcome.scannerName, extractMs };
}
