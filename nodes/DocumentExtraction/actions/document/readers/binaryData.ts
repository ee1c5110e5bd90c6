import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { frameForFile } from '../../../../shared/http/multipart';
import { itemError, itemLabel } from '../../../../shared/items/itemError';
import { MAX_FILE_BYTES } from '../../../../shared/limits';
import { largestToRead, readPreparation, type Preparation } from '../preparation';
import type { ReadFile } from './reader';

/**
 * A file of n8n's binary data read for its upload, by the readers of binary fields (Binary Field,
 * Every Attachment, and an attached email's whole bytes).
 */

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
	const preparation = readPreparation(ctx, itemIndex);
	return { ...(await readIntoFrame(ctx, itemIndex, propertyName, metadata, preparation)), fileName: metadata.fileName, mimeType: metadata.mimeType };
}

/** Whether a file too large to send is read whole all the same (preparation.ts `largestToRead`). */
function readWhole(head: Uint8Array, size: number, preparation: Preparation): boolean {
	return size <= largestToRead(head, preparation);
}

/**
 * The file's bytes, read into a frame with room for the multipart envelope (multipart.ts) so the
 * upload's body needs no second copy: n8n's in-memory base64 (n8n 1.x's default) is decoded
 * straight into it, a stored file (n8n 2.x keeps them on disk or in the database) is streamed
 * into it. A stored file whose size n8n does not know, or that is not that size, is read whole.
 */
async function readIntoFrame(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	metadata: IBinaryData,
	preparation: Preparation,
): Promise<Pick<ReadFile, 'bytes' | 'frame' | 'size'>> {
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
		if (size > MAX_FILE_BYTES) {
			const head = Buffer.from(metadata.data.slice(0, HEAD_BASE64_CHARS), 'base64');
			if (!readWhole(head, size, preparation)) return { bytes: head, size };
		}
		const { frame, start } = frameForFile(size);
		const written = frame.write(metadata.data, start, frame.length - start, 'base64');
		return { bytes: frame.subarray(start, start + written), frame };
	}
	const { fileSize } = await ctx.helpers.getBinaryMetadata(metadata.id);
	if (Number.isSafeInteger(fileSize) && fileSize > MAX_FILE_BYTES) {
		const head = await readHead(ctx, metadata.id);
		if (!readWhole(head, fileSize, preparation)) return { bytes: head, size: fileSize };
	}
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
