import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { createScanner } from '../../../shared/http/api';
import { formatCount, TEMPLATE_LIMITS } from '../../../shared/limits';
import type { ItemSink } from '../../../shared/output/itemSink';
import { readFields, validatedBody } from './definition';
import { templateFieldsProperties } from './fields.description';

const show = { show: { resource: ['template'], operation: ['create'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		displayOptions: show,
		placeholder: 'e.g. Supplier Invoice',
		description: `Name of the template (up to ${formatCount(TEMPLATE_LIMITS.nameLength)} characters)`,
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		displayOptions: show,
		description: `What kind of document the template is for (up to ${formatCount(TEMPLATE_LIMITS.descriptionLength)} characters). Automatic mode reads it to pick a template.`,
	},
	...templateFieldsProperties(show),
];

/** POST /scanners (spec 4.6). */
export async function execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void> {
	const parameters = {
		fieldsDefinedAs: this.getNodeParameter('fieldsDefinedAs', itemIndex, 'ui'),
		fieldsUi: this.getNodeParameter('fieldsUi', itemIndex, {}),
		fieldsJson: this.getNodeParameter('fieldsJson', itemIndex, ''),
	} as IDataObject;
	const input: IDataObject = { name: this.getNodeParameter('name', itemIndex) as string };
	const text = this.getNodeParameter('description', itemIndex, '') as string;
	if (text) input.description = text;
	const fields = readFields(this, itemIndex, parameters);
	if (!(Array.isArray(fields) && fields.length === 0)) input.fields = fields as IDataObject[];
	const created = await createScanner(this, validatedBody(this, itemIndex, input, 'create'), itemIndex);
	sink.emit(itemIndex, [created as IDataObject]);
}
