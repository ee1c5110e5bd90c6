import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { deleteScanner } from '../../../shared/http/api';
import type { ItemSink } from '../../../shared/output/itemSink';
import { templateIdOf, templateLocator } from './locator';

export const description: INodeProperties[] = [
	templateLocator(
		{ show: { resource: ['template'], operation: ['delete'] } },
		'The template to delete. Documents already processed with it keep their data and can still be read.',
	),
];

/** DELETE /scanners/{id} (spec 4.9). */
export async function execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void> {
	const deleted = await deleteScanner(this, templateIdOf(this, itemIndex), itemIndex);
	sink.emit(itemIndex, [deleted as IDataObject]);
}
