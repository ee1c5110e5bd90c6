import { formatCount, formatMegabytes, MAX_FILE_BYTES, MAX_PAGES_PER_DOCUMENT, MAX_PDF_BYTES_TO_SPLIT, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../limits';
import { extensionOf, nameForContent, UPLOAD_KINDS, type UploadKind } from './fileTypes';
import { isControlCharacter } from './ids';
import { pdfWorkFor, readPdfStructure } from './pdf/structure';

/**
 * What can be known about a file before it is sent: no request is made and no page of quota is
 * spent on a file the service would refuse (spec 4.2, 7.2, 8). Messages are written for people
 * who do not write code: what is wrong, then what to do. The caller adds the item number.
 */

export type PreflightErrorCode =
	| 'EMPTY_FILE'
	| 'CONVERT_IMAGE'
	| 'UNSUPPORTED_FORMAT'
	| 'FILE_TOO_LARGE'
	| 'PDF_INCOMPLETE'
	| 'PDF_ENCRYPTED'
	| 'PDF_NO_PAGES'
	| 'PDF_TOO_MANY_PAGES';

/** The preflight's verdict on a file it lets through (not the service's 202 answer, `UploadAccepted` in schemas.ts). */
export interface FileAccepted {
	ok: true;
	/** The content type read from the bytes, whatever the binary data declared. */
	mimeType: string;
	/** The file name to send, its extension matching the content (see `nameForContent`). */
	fileName: string;
	/** Pages the upload will use; null when a PDF's page tree could not be read (the service decides). */
	pages: number | null;
	/** Said to the user when the file is sent although the service may not read it. */
	warning?: string;
}

export interface PreflightProblem {
	ok: false;
	code: PreflightErrorCode;
	/** What is wrong, without a final period. */
	message: string;
	/** What to do, as whole sentences ending with a period. */
	description: string;
}

export type UploadInspection = FileAccepted | PreflightProblem;

const ACCEPTED_FORMATS_TEXT = 'PDF, JPEG or PNG';

/** Spec 4.2: "WebP and HEIC are not guaranteed readable". Sent anyway (iPhone photos are HEIC), with this said. */
const NOT_GUARANTEED_READABLE: Partial<Record<UploadKind, string>> = {
	webp: 'is a WebP image, which the service does not guarantee to read',
	heic: 'is a HEIC/HEIF image (the iPhone photo format), which the service does not guarantee to read',
};
const CONVERT_IF_REJECTED = 'If the service rejects it (NO_TEXT), convert it to JPEG or PNG and send it again.';

export async function inspectUpload(
	bytes: Uint8Array,
	fileName?: string,
	declaredMimeType?: string,
	/** The whole file's size when `bytes` is only its beginning (a file too large to read). */
	size = bytes.byteLength,
	/**
	 * A PDF to be split is not held to the page limit, nor to the size limit up to
	 * MAX_PDF_BYTES_TO_SPLIT: its parts are. `split` says whether Split PDFs is on (the refusal of
	 * a large PDF then says what the split takes, else it points to the split). `timeMs`: the PDF
	 * structure's time limit, when not the preflight's own (a PDF to be split: pdf/structure.ts).
	 */
	{ maxPages = MAX_PAGES_PER_DOCUMENT, maxBytes = MAX_FILE_BYTES, split = false, timeMs }: { maxPages?: number; maxBytes?: number; split?: boolean; timeMs?: number } = {},
): Promise<UploadInspection> {
	if (size === 0) {
		return problem(
			'EMPTY_FILE',
			'The file is empty (0 bytes)',
			'Check the node that produced the file: the download or export probably failed.',
		);
	}
	const format = detectFormat(bytes);
	if (format.kind === 'unsupported') return unsupportedFormat(format, fileName, declaredMimeType);

	if (size > (format.kind === 'pdf' ? maxBytes : MAX_FILE_BYTES)) return tooLarge(size, format.kind, split);

	const accepted: FileAccepted = {
		ok: true,
		mimeType: UPLOAD_KINDS[format.kind].mimeType,
		fileName: nameForContent(fileName, format.kind),
		// Spec 1 / 8.3: an image counts as one page.
		pages: 1,
	};
	const unsure = NOT_GUARANTEED_READABLE[format.kind];
	if (unsure) return { ...accepted, warning: `The file ${unsure}. It was sent anyway. ${CONVERT_IF_REJECTED}` };
	if (format.kind !== 'pdf') return accepted;

	// Work in proportion to the file (a PDF read to be split may be over MAX_FILE_BYTES).
	const pdf = await readPdfStructure(bytes, { work: pdfWorkFor(bytes.byteLength), ...(timeMs === undefined ? {} : { timeMs }) });
	// A file too costly to read through is not called damaged: the service decides about it.
	if (!pdf.hasEndMarker || (pdf.complete && pdf.objectCount === 0)) {
		return problem(
			'PDF_INCOMPLETE',
			'The PDF file is damaged or incomplete',
			'It was probably cut off while being downloaded or saved. Download or export the PDF again, or open it and print it to a new PDF.',
		);
	}
	// Encrypted only against printing or copying, a PDF opens without a password: the service reads it.
	if (pdf.encryption === 'needs-password') {
		return problem(
			'PDF_ENCRYPTED',
			'The PDF is protected by a password that is needed to open it, so its text cannot be read',
			'Remove the password (open it with the password and save a copy without protection), or print it to a new PDF, then send that file.',
		);
	}
	if (pdf.pages === 0) {
		return problem('PDF_NO_PAGES', 'The PDF has no pages', 'Export the document to PDF again and check that it shows its pages.');
	}
	if (pdf.pages !== null && pdf.pages > maxPages) {
		return problem(
			'PDF_TOO_MANY_PAGES',
			`The PDF has ${pdf.pages} pages; the service accepts at most ${MAX_PAGES_PER_DOCUMENT} pages per document`,
			`Split the PDF into parts of at most ${MAX_PAGES_PER_DOCUMENT} pages: set Options → Split PDFs (Every N Pages, or Page Ranges for a stack of scanned documents) and each part is sent as its own document. Each page uses one page of your quota.`,
		);
	}
	return { ...accepted, pages: pdf.pages };
}

export type DetectedFormat =
	| { kind: UploadKind }
	| { kind: 'unsupported'; label: string; /** An image the service may not read: converting it fixes it. */ convertibleImage: boolean };

/** The format judged from the first bytes (magic numbers), never from the name or declared type. */
export function detectFormat(bytes: Uint8Array): DetectedFormat {
	const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
	const startsWith = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);

	// PDF readers accept the header anywhere in the first 1,024 bytes (some writers prepend junk).
	if (ascii(0, 1024).includes('%PDF-')) return { kind: 'pdf' };
	if (startsWith(0xff, 0xd8, 0xff)) return { kind: 'jpeg' };
	if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { kind: 'png' };

	// Spec 4.2: "WebP and HEIC are not guaranteed readable": sent, with a warning.
	if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return { kind: 'webp' };
	if (ascii(4, 8) === 'ftyp') {
		const brand = ascii(8, 12);
		if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return { kind: 'heic' };
		if (/^avi[fs]$/.test(brand)) return { kind: 'unsupported', label: 'an AVIF image', convertibleImage: true };
		return { kind: 'unsupported', label: 'a video or audio file', convertibleImage: false };
	}
	if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return { kind: 'unsupported', label: 'a GIF image', convertibleImage: true };
	if (startsWith(0x49, 0x49, 0x2a, 0x00) || startsWith(0x4d, 0x4d, 0x00, 0x2a)) {
		return { kind: 'unsupported', label: 'a TIFF image', convertibleImage: true };
	}
	if (ascii(0, 2) === 'BM') return { kind: 'unsupported', label: 'a BMP image', convertibleImage: true };
	if (startsWith(0x50, 0x4b, 0x03, 0x04)) {
		return { kind: 'unsupported', label: 'a ZIP archive or an Office document (Word, Excel, PowerPoint)', convertibleImage: false };
	}
	if (startsWith(0xd0, 0xcf, 0x11, 0xe0)) return { kind: 'unsupported', label: 'an older Office document (Word, Excel)', convertibleImage: false };
	if (looksLikeText(bytes)) return { kind: 'unsupported', label: 'a text file', convertibleImage: false };
	return { kind: 'unsupported', label: 'in a format that is not recognised', convertibleImage: false };
}

/** Text (HTML, CSV, an error page saved under a .pdf name...) decodes as UTF-8 with no control bytes. */
function looksLikeText(bytes: Uint8Array): boolean {
	const sample = bytes.subarray(0, 4096);
	try {
		// `stream` tolerates a character cut in half at the end of the sample.
		const text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
		// Tab, line feed, form feed and carriage return are the only control characters text has.
		return ![...text].some((char) => isControlCharacter(char) && !'\t\n\f\r'.includes(char));
	} catch {
		return false;
	}
}

function unsupportedFormat(
	format: Extract<DetectedFormat, { kind: 'unsupported' }>,
	fileName: string | undefined,
	declaredMimeType: string | undefined,
): PreflightProblem {
	const claimed = claimedKind(fileName, declaredMimeType);
	const claim = claimed ? ` even though its name or type says ${UPLOAD_KINDS[claimed].label}` : '';
	if (format.convertibleImage) {
		return problem(
			'CONVERT_IMAGE',
			`The file is ${format.label}${claim}; the service reliably reads only ${ACCEPTED_FORMATS_TEXT}`,
			'Convert it to JPEG or PNG (for example with an image-conversion node or app) and send that file.',
		);
	}
	return problem(
		'UNSUPPORTED_FORMAT',
		`The file is ${format.label}${claim}; the service accepts only ${ACCEPTED_FORMATS_TEXT} files`,
		'Export or print the document to PDF, or take a JPEG or PNG picture of it, and send that file.',
	);
}

/** What the file pretends to be, to explain a text file named `.pdf`. */
function claimedKind(fileName: string | undefined, declaredMimeType: string | undefined): UploadKind | undefined {
	const extension = extensionOf(fileName ?? '');
	return (Object.keys(UPLOAD_KINDS) as UploadKind[]).find(
		(kind) => UPLOAD_KINDS[kind].extensions.includes(extension) || UPLOAD_KINDS[kind].mimeType === declaredMimeType?.trim().toLowerCase(),
	);
}

function tooLarge(size: number, kind: UploadKind, split: boolean): PreflightProblem {
	const [actual, limit] = megabytesApart(size, MAX_FILE_BYTES);
	const compress = 'Compress the PDF (for example scan at 150-200 dpi, or save with "reduced size")';
	if (kind === 'pdf' && size > MAX_PDF_BYTES_TO_SPLIT) {
		return problem(
			'FILE_TOO_LARGE',
			`The file is ${formatMegabytes(size)} MB; the service accepts files up to about ${limit} MB, and Split PDFs reads PDFs up to ${formatMegabytes(MAX_PDF_BYTES_TO_SPLIT, 0)} MB`,
			`${compress}, or split it into smaller PDFs with a PDF program.`,
		);
	}
	if (kind === 'pdf') {
		const fix = split
			? `It is sent whole, as it gives one part. ${compress}, or split it into parts of fewer pages (each part is sent only if it is at most ${limit} MB).`
			: `${compress}, or set Options → Split PDFs (Every Page, Every N Pages or Page Ranges): PDFs up to ${formatMegabytes(MAX_PDF_BYTES_TO_SPLIT, 0)} MB are read and split, and each part of at most ${limit} MB is sent as its own document.`;
		return problem('FILE_TOO_LARGE', `The file is ${actual} MB; the service accepts files up to about ${limit} MB`, fix);
	}
	const fix = `Lower the image resolution to about ${formatCount(RECOMMENDED_IMAGE_LONG_SIDE_PX)} pixels on the long side, which is enough to read the text, or save it as a more compressed JPEG.`;
	return problem('FILE_TOO_LARGE', `The file is ${actual} MB; the service accepts files up to about ${limit} MB`, fix);
}

/** Both sizes in MB with just enough decimals to tell them apart (4.40001 MB is over 4.4 MB). */
function megabytesApart(size: number, limit: number): [string, string] {
	let digits = 1;
	while (digits < 6 && formatMegabytes(size, digits) === formatMegabytes(limit, digits)) digits++;
	return [formatMegabytes(size, digits), formatMegabytes(limit)];
}

function problem(code: PreflightErrorCode, message: string, description: string): PreflightProblem {
	return { ok: false, code, message, description };
}
