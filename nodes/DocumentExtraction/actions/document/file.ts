import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { frameForFile, type UploadFile } from '../../../shared/http/multipart';
import { itemError, itemLabel } from '../../../shared/itemError';
import { inspectUpload } from '../../../shared/preflight/upload';

/** A file as it was read, before the preflight named and typed it. */
export interface ReadFile {
	bytes: Uint8Array;
	frame?: Buffer;
	fileName?: string;
	mimeType?: string;
}

/**
 * Checks a file before anything is sent, so a file the service would refuse costs no request and
 * no page; names and types it from its content.
 */
export async function checkUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: ReadFile,
	fileNameOverride: string,
): Promise<UploadFile & { warning?: string }> {
	const fileName = fileNameOverride.trim() || file.fileName || `document-${itemIndex + 1}`;
	const inspection = await inspectUpload(file.bytes, fileName, file.mimeType);
	if (!inspection.ok) {
		throw new NodeOperationError(ctx.getNode(), `${itemLabel(itemIndex)} (${fileName}): ${inspection.message}`, {
			itemIndex,
			description: `${inspection.description} Nothing was sent to the service and no page was used.`,
		});
	}
	return {
		bytes: file.bytes,
		frame: file.frame,
		fileName: inspection.fileName,
		mimeType: inspection.mimeType,
		...(inspection.warning ? { warning: `${itemLabel(itemIndex)} (${fileName}): ${inspection.warning}` } : {}),
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
	const { bytes, frame } = await readIntoFrame(ctx, itemIndex, propertyName, metadata);
	return { bytes, frame, fileName: metadata.fileName, mimeType: metadata.mimeType };
}

/**
 * The file's bytes, read into a frame with room for the multipart envelope (multipart.ts) so the
 * upload's body needs no second copy: n8n's in-memory base64 (n8n 1.x's default) is decoded
 * straight into it, a stored file (n8n 2.x keeps them on disk or in the database) is streamed
 * into it. A stored file whose size n8n does not know, or that is not that size, is read whole.
 */
async function readIntoFrame(ctx: IExecuteFunctions, itemIndex: number, propertyName: string, metadata: IBinaryData): Promise<{ bytes: Uint8Array; frame?: Buffer }> {
	if (!metadata.id) {
		if (typeof metadata.data !== 'string') {
			throw itemError(
				ctx.getNode(),
				itemIndex,
				`the binary property "${propertyName}" holds no file`,
				'The node before this one produced file details without the file itself. Check that node, or choose another binary property.',
			);
		}
		const { frame, start } = frameForFile(Buffer.byteLength(metadata.data, 'base64'));
		const written = frame.write(metadata.data, start, frame.length - start, 'base64');
		return { bytes: frame.subarray(start, start + written), frame };
	}
	const { fileSize } = await ctx.helpers.getBinaryMetadata(metadata.id);
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
