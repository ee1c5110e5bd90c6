import { createHash } from 'crypto';

import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { frameForFile, type UploadFile } from '../../../shared/http/multipart';
import { itemError, itemLabel } from '../../../shared/items/itemError';
import { formatCount, MAX_FILE_BYTES } from '../../../shared/limits';
import { inspectUpload } from '../../../shared/preflight/upload';

/** A file as it was read, before the preflight named and typed it. */
export interface ReadFile {
	/** The file, or only its beginning when it is too large to send (see `size`). */
	bytes: Uint8Array;
	/** Set when `bytes` is only the beginning: the whole file's size, over what the service takes. */
	size?: number;
	frame?: Buffer;
	fileName?: string;
	mimeType?: string;
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
	/** The file to send: read again and proven to be the file that was checked, or the one kept. */
	forUpload(): Promise<UploadFile>;
}

/** Reads the file again, from where it was read the first time (n8n's binary data). */
export type ReadAgain = () => Promise<ReadFile>;

/**
 * Checks a file before anything is sent, so a file the service would refuse costs no request and
 * no page; names and types it from its content. With `readAgain` the bytes are let go once judged
 * and read again for the upload; without it (a download: a link is not fetched twice) they are kept.
 */
export async function checkUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: ReadFile,
	fileNameOverride: string,
	readAgain?: ReadAgain,
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
	if (!readAgain) return keptFile({ ...checked, bytes: file.bytes, frame: file.frame });
	return fileReadAgain(ctx, itemIndex, checked, fingerprintOf(file.bytes), readAgain);
}

function keptFile(file: UploadFile & { warning?: string }): CheckedFile {
	const { warning, ...upload } = file;
	return { fileName: upload.fileName, mimeType: upload.mimeType, ...(warning ? { warning } : {}), forUpload: async () => upload };
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

/** The file in the item's binary property `propertyName`, read for upload (see readIntoFrame). */
export async function readBinaryFile(ctx: IExecuteFunctions, itemIndex: number, propertyName: string): Promise<ReadFile> {
	const binary = ctx.getInputData()[itemIndex]?.binary ?? {};
	if (!binary[propertyName]) {
		const available = Object.keys(binary);
		throw new NodeOperationError(ctx.getNode(), `${itemLabel(itemIndex)} has no binary property "${propertyName}"`, {
			itemIndex,
			description: available.length
				? `Set "Input Binary Field" to one of the item's binary properties: ${available.map((name) => `"${name}"`).join(', ')}. (Email triggers name attachments attachment_0, attachment_1, ...)`
				: 'The item carries no file at all. Put a node that reads or receives files (e.g. an email trigger, Read/Write Files from Disk, HTTP Request with "File" response) before this one.',
		});
	}
	const metadata = binary[propertyName];
	return { ...(await readIntoFrame(ctx, itemIndex, propertyName, metadata)), fileName: metadata.fileName, mimeType: metadata.mimeType };
}

/**
 * The file's bytes, read into a frame with room for the multipart envelope (multipart.ts) so the
 * upload's body needs no second copy: n8n's in-memory base64 (n8n 1.x's default) is decoded
 * straight into it, a stored file (n8n 2.x keeps them on disk or in the database) is streamed
 * into it. A stored file whose size n8n does not know, or that is not that size, is read whole.
 */
async function readIntoFrame(ctx: IExecuteFunctions, itemIndex: number, propertyName: string, metadata: IBinaryData): Promise<Pick<ReadFile, 'bytes' | 'frame' | 'size'>> {
	if (!metadata.id) {
		if (typeof metadata.data !== 'string') {
			throw itemError(
				ctx.getNode(),
				itemIndex,
				`the binary property "${propertyName}" holds no file`,
				'The node before this one produced file details without the file itself. Check that node, or choose another binary property.',
			);
		}
		const size = Buffer.byteLength(metadata.data, 'base64');
		// Too large to send: its first bytes tell its type for the message; the rest is never copied.
		if (size > MAX_FILE_BYTES) return { bytes: Buffer.from(metadata.data.slice(0, HEAD_BASE64_CHARS), 'base64'), size };
		const { frame, start } = frameForFile(size);
		const written = frame.write(metadata.data, start, frame.length - start, 'base64');
		return { bytes: frame.subarray(start, start + written), frame };
	}
	const { fileSize } = await ctx.helpers.getBinaryMetadata(metadata.id);
	if (Number.isSafeInteger(fileSize) && fileSize > MAX_FILE_BYTES) return { bytes: await readHead(ctx, metadata.id), size: fileSize };
	if (Number.isSafeInteger(fileSize) && fileSize > 0) {
		const { frame, start } = frameForFile(fileSize);
		let end = start;
		const stream = await ctx.helpers.getBinaryStream(metadata.id);
		for await (const chunk of stream as AsyncIterable<Uint8Array>) {
			if (end + chunk.byteLength > start + fileSize) {
				stream.destroy();
				end = -1;
				break;
			}
			frame.set(chunk, end);
			end += chunk.byteLength;
		}
		if (end === start + fileSize) return { bytes: frame.subarray(start, end), frame };
	}
	return { bytes: await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName) };
}

/** Enough of a file's beginning to tell its type (fileTypes.ts reads its first bytes). */
const HEAD_BYTES = 1024;
const HEAD_BASE64_CHARS = (HEAD_BYTES / 3) * 4 + 4;

/** The first bytes of a stored file, without reading the rest. */
async function readHead(ctx: IExecuteFunctions, id: string): Promise<Uint8Array> {
	const stream = await ctx.helpers.getBinaryStream(id, HEAD_BYTES);
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of stream as AsyncIterable<Uint8Array>) {
		chunks.push(Buffer.from(chunk));
		length += chunk.byteLength;
		if (length >= HEAD_BYTES) break;
	}
	stream.destroy();
	return Buffer.concat(chunks).subarray(0, HEAD_BYTES);
}
