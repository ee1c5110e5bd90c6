import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getScanner } from '../../../shared/http/api';
import type { ItemSink } from '../../../shared/output/itemSink';
import { templateIdOf, templateLocator } from './locator';

export const description: INodeProperties[] = [templateLocator({ show: { resource: ['template'], operation: ['get'] } }, 'The template to read')];

/** GET /scanners/{id} (spec 4.7). */
export async function execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void> {
	const template = await getScanner(this, await templateIdOf(this, itemIndex), itemIndex);
	sink.emit(itemIndex, [template as IDataObject]);
}
