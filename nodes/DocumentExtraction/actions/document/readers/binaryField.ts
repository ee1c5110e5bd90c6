import type { IExecuteFunctions } from 'n8n-workflow';

import { readBinaryFile } from './binaryData';
import { firstRead, textParameter, type DocumentReader } from './reader';

/**
 * Document Source "Binary Field": the one file in the binary field the user names, the item's only
 * document. Read for the check, let go, and read again from n8n's binary data for its upload.
 */
export function binaryFieldReader(ctx: IExecuteFunctions, i: number): DocumentReader {
	const field = textParameter(ctx, 'binaryPropertyName', i, 'data');
	const read = async () => await readBinaryFile(ctx, i, field);
	return { read: async (check) => [{ document: await check({ read: await firstRead(read, read) }) }] };
}
