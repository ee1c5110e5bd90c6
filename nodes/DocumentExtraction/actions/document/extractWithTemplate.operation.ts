import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemSink } from '../../../shared/output/itemSink';
import { templateIdOf, templateLocator } from '../template/locator';
import { extractDocuments } from './extract';
import { extractProperties } from './extract.description';

export const description: INodeProperties[] = [
	templateLocator({ show: { resource: ['document'], operation: ['extractWithTemplate'] } }, 'The template whose fields are extracted'),
	...extractProperties('extractWithTemplate'),
];

/** POST /scanners/{scannerId}/upload: extraction with a named template (spec 4.3). */
export async function executeAll(this: IExecuteFunctions, sink: ItemSink): Promise<void> {
	await extractDocuments(this, sink, async (itemIndex) => await templateIdOf(this, itemIndex));
}
