import { createHash } from 'crypto';

import type { IBinaryKeyData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UploadFile } from '../../../shared/http/multipart';
import { itemError, itemLabel } from '../../../shared/items/itemError';
import { formatCount } from '../../../shared/limits';
import { inspectUpload } from '../../../shared/preflight/upload';
import type { DocumentCandidate, FileOrigin, LinkOrigin, ReadAgain, ReadFile } from './readers/reader';

/**
 * The one check of every document, whatever its reader: the preflight (`inspectUpload`) before
 * anything is sent, and, just before its upload, proof that the bytes sent are the bytes checked.
 */

/** A document after the check: its verdict (never its bytes), or why it is not sent. */
export interface CheckedDocument {
	origin?: FileOrigin | LinkOrigin;
	binary?: IBinaryKeyData;
	checked: { file: CheckedFile } | { error: unknown };
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
): Promise<CheckedDocument> {
	// The item's files (Binary Field, URL), or the field this document is (Every Attachment).
	const binary = inputBinary && ownFile ? { [ownFile.field]: inputBinary[ownFile.field] } : inputBinary;
	if ('error' in read) return { origin, binary, checked: read };
	let checked: CheckedDocument['checked'];
	try {
		checked = { file: await checkUploadFile(ctx, i, read.file, fileNameOverride, read.readAgain) };
	} catch (error) {
		checked = { error };
	}
	if (!binary || !ownFile?.extracted) return { origin, binary, checked };
	// A document taken out of an attached email: its own file is passed through, not the email.
	return { origin, binary: { [ownFile.field]: await extractedBinary(ctx, read.file, 'file' in checked ? checked.file : undefined) }, checked };
}

/** The file taken out of an attached email, as n8n binary data, named and typed as it was checked. */
async function extractedBinary(ctx: IExecuteFunctions, file: ReadFile, checked: CheckedFile | undefined) {
	const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
	return await ctx.helpers.prepareBinaryData(bytes, checked?.fileName ?? file.fileName, checked?.mimeType ?? file.mimeType);
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
	/** The file to send: read again and proven to be the file that was checked. */
	forUpload(): Promise<UploadFile>;
}

/**
 * Checks a file before anything is sent, so a file the service would refuse costs no request and
 * no page; names and types it from its content. The bytes are let go once judged and read again
 * with `readAgain` for the upload (a download from the copy url.ts stored in n8n's binary data).
 */
export async function checkUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: ReadFile,
	fileNameOverride: string,
	readAgain: ReadAgain,
): Promise<CheckedFile> {
	const fileName = fileNameOverride.trim() || file.fileName || `document-${itemIndex + 1}`;
	const inspection = await inspectUpload(file.bytes, fileName, file.mimeType, file.size);
	if (!inspection.ok) {
		throw new NodeOperationError(ctx.getNode(), `${itemLabel(itemIndex)} (${fileName}): ${inspection.message}`, {
			itemIndex,
			description: `${inspection.description} Nothing was sent to the service and no page was used.`,
		});
	}
	const checked = {
		fileName: inspection.fileName,
		mimeType: inspection.mimeType,
		...(inspection.warning ? { warning: `${itemLabel(itemIndex)} (${fileName}): ${inspection.warning}` } : {}),
	};
	return fileReadAgain(ctx, itemIndex, checked, fingerprintOf(file.bytes), readAgain);
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
