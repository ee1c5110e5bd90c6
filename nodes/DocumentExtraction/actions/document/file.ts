import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UploadFile } from '../../../shared/http/multipart';
import { inspectUpload } from '../../../shared/preflight/upload';

/**
 * Reads the document from the item's binary property and checks it before anything is sent, so a
 * file the service would refuse costs no request and no page.
 */
export async function readUploadFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	fileNameOverride: string,
): Promise<UploadFile & { warning?: string }> {
	const binary = ctx.getInputData()[itemIndex]?.binary ?? {};
	if (!binary[propertyName]) {
		const available = Object.keys(binary);
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1} has no binary property "${propertyName}"`, {
			itemIndex,
			description: available.length
				? `Set "Input Binary Field" to one of the item's binary properties: ${available.map((name) => `"${name}"`).join(', ')}. (Email triggers name attachments attachment_0, attachment_1, ...)`
				: 'The item carries no file at all. Put a node that reads or receives files (e.g. an email trigger, Read/Write Files from Disk, HTTP Request with "File" response) before this one.',
		});
	}
	const metadata = binary[propertyName];
	const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const fileName = fileNameOverride.trim() || metadata.fileName || `document-${itemIndex + 1}`;
	const inspection = await inspectUpload(bytes, fileName, metadata.mimeType);
	if (!inspection.ok) {
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1} (${fileName}): ${inspection.message}`, {
			itemIndex,
			description: `${inspection.description} Nothing was sent to the service and no page was used.`,
		});
	}
	return {
		bytes,
		fileName: inspection.fileName,
		mimeType: inspection.mimeType,
		...(inspection.warning ? { warning: `Item ${itemIndex + 1} (${fileName}): ${inspection.warning}` } : {}),
	};
}
