import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { createScanner } from '../../../shared/http/api';
import { formatCount, TEMPLATE_LIMITS } from '../../../shared/limits';
import { readFields, validatedBody } from './definition';
import { templateFieldsProperties } from './fields.description';
import { templateWrite } from './write';

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
export const { executeAll } = templateWrite((ctx, itemIndex) => {
	const parameters = {
		fieldsDefinedAs: ctx.getNodeParameter('fieldsDefinedAs', itemIndex, 'ui'),
		fieldsUi: ctx.getNodeParameter('fieldsUi', itemIndex, {}),
		fieldsJson: ctx.getNodeParameter('fieldsJson', itemIndex, ''),
	} as IDataObject;
	const input: IDataObject = { name: ctx.getNodeParameter('name', itemIndex) as string };
	const text = ctx.getNodeParameter('description', itemIndex, '') as string;
	if (text) input.description = text;
	const fields = readFields(ctx, itemIndex, parameters);
	if (!(Array.isArray(fields) && fields.length === 0)) input.fields = fields as IDataObject[];
	const body = validatedBody(ctx, itemIndex, input, 'create');
	return {
		done: `created template "${String(body.name)}"`,
		identity: ['create', body],
		send: async () => (await createScanner(ctx, body, itemIndex)) as IDataObject,
	};
});
