import type { IExecuteFunctions } from 'n8n-workflow';

import { readChoice } from '../../../../shared/items/parameters';
import { binaryFieldReader } from './binaryField';
import { everyAttachmentReader } from './everyAttachment';
import { textParameter, type DocumentReader } from './reader';
import { urlReader } from './url';

/**
 * Where an item's documents come from (Document Source), one reader each: one named binary field
 * (one document), every binary field of the item (an email's attachments, and the documents inside
 * an attached email: one document each, what is not a document skipped and listed), or a URL.
 */

export const DOCUMENT_SOURCES = ['binaryField', 'binaryFields', 'url'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

const READERS: Record<DocumentSource, (ctx: IExecuteFunctions, i: number) => DocumentReader> = {
	binaryField: binaryFieldReader,
	binaryFields: everyAttachmentReader,
	url: urlReader,
};

export interface ItemReader extends DocumentReader {
	source: DocumentSource;
	/** Options → File Name, sent instead of the file's own name; empty with Every Attachment, where each file keeps its own. */
	fileName: string;
}

/** The reader of the item's Document Source; a parameter it cannot use fails the item. */
export function itemReader(ctx: IExecuteFunctions, i: number): ItemReader {
	const source = readChoice(ctx, 'documentSource', i, 'binaryField', DOCUMENT_SOURCES, 'Document Source');
	const fileName = source === 'binaryFields' ? '' : textParameter(ctx, 'options.fileName', i, '');
	return { source, fileName, ...READERS[source](ctx, i) };
}
