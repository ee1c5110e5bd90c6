import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemSink } from '../../../shared/output/itemSink';
import { extractDocuments } from './extract';
import { extractProperties } from './extract.description';

export const description: INodeProperties[] = extractProperties('extract');

/** POST /process: the service picks the best-matching template of the account (spec 4.2). */
export async function executeAll(this: IExecuteFunctions, sink: ItemSink): Promise<void> {
	await extractDocuments(this, sink, () => undefined);
}
