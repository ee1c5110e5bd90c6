import { createHash } from 'crypto';

import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UploadFile } from '../../../shared/http/multipart';
import { itemError, itemLabel } from '../../../shared/items/itemError';
import { formatCount, formatMegabytes, MAX_FILE_BYTES, MAX_PDF_BYTES_TO_SPLIT } from '../../../shared/limits';
import { nameForContent, UPLOAD_KINDS } from '../../../shared/preflight/fileTypes';
import { detectFormat, inspectUpload, type FileAccepted } from '../../../shared/preflight/upload';
import { shrunkPhoto } from './photo';
import type { Preparation } from './preparation';
import type { DocumentCandidate, FileOrigin, LinkOrigin, ReadAgain, ReadFile } from './readers/reader';
import type { PdfSplitter } from '../../../shared/preflight/pdf/split';
import { PDF_TIME_LIMIT_TO_SPLIT_MS } from '../../../shared/preflight/pdf/structure';
import { splitIntoParts } from './split';

/**
 * The one check of every document, whatever its reader: the preflight (`inspectUpload`) before
 * anything is sent, and, just before its upload, proof that the bytes sent are the bytes checked.
 */

/**
 * A document after the check: its verdict (never its bytes), or why it is not sent. Its files are
 * what is uploaded: the file itself, a shrunk photo, or the parts of a split PDF, each a document.
 */
export interface CheckedDocument {
	origin?: FileOrigin | LinkOrigin;
	binary?: IBinaryKeyData;
	checked: { files: CheckedFile[] } | { error: unknown };
}

/**
 * The check of one candidate, whatever its reader (readers/ call it as they read), and what
 * "Include Input Binary" passes with it. What it returns holds no bytes.
 */
export async function checkCandidate(
	ctx: IExecuteFunctions,
	i: number,
	{ origin, ownFile, read }: DocumentCandidate,
	fileNameOverride: string,
	inputBinary: IBinaryKeyData | undefined,
	preparation: Preparation,
): Promise<CheckedDocument> {
	// The item's files (Binary Field, URL), or the field this document is (Every Attachment).
	const binary = inputBinary && ownFile ? { [ownFile.field]: inputBinary[ownFile.field] } : inputBinary;
	if ('error' in read) return { origin, binary, checked: read };
	let checked: CheckedDocument['checked'];
	try {
		checked = { files: await checkUploadFile(ctx, i, read.file, fileNameOverride, read.readAgain, preparation) };
	} catch (error) {
		checked = { error };
	}
	if (!binary || !ownFile?.extracted) return { origin, binary, checked };
	// A document taken out of an attached email: its own file is passed through, not the email.
	return { origin, binary: { [ownFile.field]: await extractedBinary(ctx, read.file, 'files' in checked ? checked.files[0] : undefined) }, checked };
}

/** The file taken out of an attached email, as n8n binary data, named and typed as it was checked (the file itself, not a part or a shrunk copy). */
async function extractedBinary(ctx: IExecuteFunctions, file: ReadFile, checked: CheckedFile | undefined) {
	const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
	const named = checked?.madeFrom ?? checked;
	return await ctx.helpers.prepareBinaryData(bytes, named?.fileName ?? file.fileName, named?.mimeType ?? file.mimeType);
}

/**
 * A file the preflight let through, without its bytes: a run checks every file before its first
 * upload, and holding every file until its upload made the run's memory grow with its files (100
 * files of 4.3 MB peaked at 616 MB). `forUpload` has the bytes again when the file's turn comes.
 */
export interface CheckedFile {
	fileName: string;
	mimeType: string;
	warning?: string;
	/** The file's own name and type when what is sent was made from it (a PDF's part, a shrunk photo). */
	madeFrom?: { fileName: string; mimeType: string };
	/** How errors name it among the file's parts: "pages 3-4". */
	label?: string;
	/** What its items say of how it was made (split.ts, photo.ts). */
	preparation?: IDataObject;
	/**
	 * Set when this file, a part of a split PDF, was refused by the check (too large) while the
	 * file's other parts were not: it fails as a document of its own, nothing sent.
	 */
	refusal?: unknown;
	/** The file to send: read again and proven to be the file that was checked. */
	forUpload(): Promise<UploadFile>;
}

/**
 * Checks a file before anything is sent, so a file the service would refuse costs no request and
 * no page; names and types it from its content. The bytes are let go once judged and read again
 * with `readAgain` for the upload (a download from the copy url.ts stored in n8n's binary data).
 * What is uploaded may be made from the file first (Preparation): a large photo shrunk (kept, not
 * made twice: decoding costs about a second, the JPEG is about 1 MB), a PDF split into parts
 * (each made again for its upload, from the file read again).
 */
export async function checkUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: ReadFile,
	fileNameOverride: string,
	readAgain: ReadAgain,
	preparation: Preparation,
): Promise<CheckedFile[]> {
	const fileName = fileNameOverride.trim() || file.fileName || `document-${itemIndex + 1}`;
	const kind = detectFormat(file.bytes).kind;
	if (preparation.shrinkPhotos && (kind === 'jpeg' || kind === 'png')) {
		const shrunk = await shrunkPhoto(ctx, itemIndex, file, kind, fileName);
		if (shrunk) {
			const { bytes, preparation: facts, ...named } = shrunk;
			const madeFrom = { fileName: nameForContent(fileName, kind), mimeType: UPLOAD_KINDS[kind].mimeType };
			return [{ ...named, madeFrom, preparation: facts, forUpload: async () => ({ bytes, ...named }) }];
		}
	}
	// A split PDF's page and size limits are its parts': each is checked below.
	const splitting = preparation.split && kind === 'pdf' ? preparation.split : undefined;
	// A PDF to be split must have its pages counted (else it is refused): its structure is given
	// more time than the preflight's 70 ms (pdf/structure.ts). Its work stays linear in the file.
	const whole = splitting ? { maxPages: Infinity, maxBytes: MAX_PDF_BYTES_TO_SPLIT, split: true, timeMs: PDF_TIME_LIMIT_TO_SPLIT_MS } : {};
	const inspection = accepted(ctx, itemIndex, fileName, await inspectUpload(file.bytes, fileName, file.mimeType, file.size, whole));
	const split = splitting && splitIntoParts(ctx, itemIndex, inspection.fileName, inspection.pages, splitting);
	if (!split) {
		// One part: the file is sent whole, under the page and size limits of every document.
		if (splitting) accepted(ctx, itemIndex, fileName, await inspectUpload(file.bytes, fileName, file.mimeType, file.size, { split: true }));
		const checked = {
			fileName: inspection.fileName,
			mimeType: inspection.mimeType,
			...(inspection.warning ? { warning: `${itemLabel(itemIndex)} (${fileName}): ${inspection.warning}` } : {}),
		};
		return [fileReadAgain(ctx, itemIndex, checked, fingerprintOf(file.bytes), readAgain)];
	}
	const madeFrom = { fileName: inspection.fileName, mimeType: inspection.mimeType };
	const splitter = await split.open(file.bytes);
	// The uploads open the file read again once, for all its parts, when the first is sent.
	let reopened: Promise<PdfSplitter> | undefined;
	const checkedParts: CheckedFile[] = [];
	for (const [index, part] of split.parts.entries()) {
		const bytes = await splitter.part(index);
		const partInspection = await inspectUpload(bytes, part.fileName, inspection.mimeType);
		if (!partInspection.ok && partInspection.code === 'FILE_TOO_LARGE') {
			// Too large a part fails alone, named by its pages; the file's other parts are sent.
			const refusal = partTooLarge(ctx, itemIndex, fileName, part.label, bytes.byteLength);
			checkedParts.push({ fileName: part.fileName, mimeType: inspection.mimeType, madeFrom, label: part.label, preparation: part.preparation, refusal, forUpload: () => Promise.reject(refusal) });
			continue;
		}
		const partAccepted = accepted(ctx, itemIndex, part.fileName, partInspection);
		const checked = { fileName: partAccepted.fileName, mimeType: partAccepted.mimeType, madeFrom, label: part.label, preparation: part.preparation };
		const partAgain: ReadAgain = async () => ({ bytes: await (await (reopened ??= readAgain().then((again) => split.open(again.bytes)))).part(index) });
		checkedParts.push(fileReadAgain(ctx, itemIndex, checked, fingerprintOf(bytes), partAgain));
	}
	return checkedParts;
}

/** A part of a split PDF over the size limit: the error of that part alone, saying its pages and size. */
function partTooLarge(ctx: IExecuteFunctions, itemIndex: number, fileName: string, label: string, size: number): NodeOperationError {
	return itemError(
		ctx.getNode(),
		itemIndex,
		`${itemLabel(itemIndex)} (${fileName}, ${label}): this part is ${formatMegabytes(size, 2)} MB; the service accepts files up to about ${formatMegabytes(MAX_FILE_BYTES)} MB`,
		`The PDF's other parts are sent. Split this part into fewer pages (Page Ranges, or fewer Pages per Part), or scan these pages again at a lower resolution (150-200 dpi is enough to read the text) and send them. Nothing was sent to the service for this part and no page was used for it.`,
	);
}

/** The preflight's verdict, or the document's error: nothing sent, no page used. */
function accepted(ctx: IExecuteFunctions, itemIndex: number, fileName: string, inspection: Awaited<ReturnType<typeof inspectUpload>>): FileAccepted {
	if (inspection.ok) return inspection;
	throw new NodeOperationError(ctx.getNode(), `${itemLabel(itemIndex)} (${fileName}): ${inspection.message}`, {
		itemIndex,
		description: `${inspection.description} Nothing was sent to the service and no page was used.`,
	});
}

/** What is kept of a judged file to know it again: its size and SHA-256. */
interface Fingerprint {
	size: number;
	sha256: string;
}

function fingerprintOf(bytes: Uint8Array): Fingerprint {
	return { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * A checked file whose bytes are read again for its upload. Built apart from the bytes that were
 * judged, so nothing here holds them. The preflight's verdict holds for the same bytes only: a
 * file that is not the one judged (n8n's stored copy rewritten or removed meanwhile) fails its
 * item, unsent.
 */
function fileReadAgain(ctx: IExecuteFunctions, itemIndex: number, checked: Omit<CheckedFile, 'forUpload'>, judged: Fingerprint, readAgain: ReadAgain): CheckedFile {
	const notSent = 'Nothing was sent to the service for this file and no page was used for it. Run the node again: the file is checked again.';
	return {
		...checked,
		forUpload: async () => {
			let again: ReadFile;
			try {
				again = await readAgain();
			} catch (error) {
				const reason = error instanceof Error ? `: ${error.message}` : '';
				throw itemError(
					ctx.getNode(),
					itemIndex,
					`${itemLabel(itemIndex)} (${checked.fileName}): the file could not be read again for its upload${reason}`,
					`The file passed the checks, then n8n's copy of it could not be read: it may have been removed while the node ran. ${notSent}`,
				);
			}
			const size = again.size ?? again.bytes.byteLength;
			if (size !== judged.size || fingerprintOf(again.bytes).sha256 !== judged.sha256) {
				throw itemError(
					ctx.getNode(),
					itemIndex,
					`${itemLabel(itemIndex)} (${checked.fileName}): the file changed after it was checked: it is not the file that passed the checks`,
					`n8n's copy of the file (${formatCount(judged.size)} bytes when checked, ${formatCount(size)} bytes now) was rewritten while the node ran. ${notSent}`,
				);
			}
			return { bytes: again.bytes, frame: again.frame, fileName: checked.fileName, mimeType: checked.mimeType };
		},
	};
}
