import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getScanner } from '../../../shared/http/api';
import type { ItemSink } from '../../../shared/output/itemSink';
import { templateIdOf, templateLocator } from './locator';

export const description: INodeProperties[] = [
	templateLocator({ show: { resource: ['template'], operation: ['getFields'] } }, 'The template whose fields to list'),
];

/**
 * GET /scanners/{id} (spec 4.7), one item per field definition (spec 2.2), in the template's
 * order: a sheet's header row, or a check of what a template extracts. `value_type` is another
 * name for `type` (spec 2.2). A template without fields gives one item with no field (`name`
 * null): every input item leaves the node.
 */
export async function execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void> {
	const template = await getScanner(this, await templateIdOf(this, itemIndex), itemIndex);
	const of = { template_id: template.scanner_id, template_name: template.name };
	const fields: IDataObject[] = (template.fields ?? []).map((field) => ({
		name: field.name,
		label: field.label ?? null,
		type: field.type ?? field.value_type ?? null,
		required: field.required ?? false,
		description: field.description ?? null,
		...(field.item_fields ? { columns: field.item_fields.map((column) => column.name) } : {}),
		...of,
	}));
	sink.emit(itemIndex, fields.length > 0 ? fields : [{ name: null, label: null, type: null, required: false, description: null, ...of }]);
}
