import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateScanner } from '../../../shared/http/api';
import { itemError } from '../../../shared/items/itemError';
import { formatCount, TEMPLATE_LIMITS } from '../../../shared/limits';
import { readBoolean } from '../../../shared/items/parameters';
import { readFields, validatedBody } from './definition';
import { templateFieldsProperties } from './fields.description';
import { templateIdOf, templateLocator } from './locator';
import { templateWrite } from './write';

const show = { show: { resource: ['template'], operation: ['update'] } };

export const description: INodeProperties[] = [
	templateLocator(show, 'The template to change'),
	{
		// Not n8n's usual "Update Fields" collection: this operation also edits the template's
		// fields, and two "Add Field" buttons for unrelated things confused users (issue 11).
		displayName: 'Name and Description',
		name: 'nameAndDescription',
		type: 'collection',
		placeholder: 'Add Name or Description',
		default: {},
		displayOptions: show,
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				typeOptions: { rows: 2 },
				description: `New description (up to ${formatCount(TEMPLATE_LIMITS.descriptionLength)} characters). Automatic mode reads it to pick a template.`,
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: `New name (up to ${formatCount(TEMPLATE_LIMITS.nameLength)} characters)`,
			},
		],
	},
	{
		displayName: 'Replace Fields',
		name: 'replaceFields',
		type: 'boolean',
		default: false,
		displayOptions: show,
		description:
			'Whether to send a new list of fields. Warning: the new list REPLACES all existing fields of the template (the service does not merge). Documents already processed keep their data.',
	},
	...templateFieldsProperties({ show: { ...show.show, replaceFields: [true] } }),
];

/** PATCH /scanners/{id} (spec 4.8): only what the user set is sent. */
export const { executeAll } = templateWrite(async (ctx, itemIndex) => {
	const input: IDataObject = { ...(ctx.getNodeParameter('nameAndDescription', itemIndex, {}) as IDataObject) };
	if (readBoolean(ctx, 'replaceFields', itemIndex, false, 'Replace Fields')) {
		const fields = readFields(ctx, itemIndex, {
			fieldsDefinedAs: ctx.getNodeParameter('fieldsDefinedAs', itemIndex, 'ui'),
			fieldsUi: ctx.getNodeParameter('fieldsUi', itemIndex, {}),
			fieldsJson: ctx.getNodeParameter('fieldsJson', itemIndex, ''),
		} as IDataObject);
		if (Array.isArray(fields) && fields.length === 0) {
			// An empty list would silently delete every field of the template (spec 4.8 replaces the list).
			throw itemError(
				ctx.getNode(),
				itemIndex,
				'"Replace Fields" is on but no fields are defined',
				'Define the new fields, or turn "Replace Fields" off to keep the current ones. Nothing was sent to the service.',
			);
		}
		input.fields = fields as IDataObject[];
	}
	const templateId = await templateIdOf(ctx, itemIndex);
	const body = validatedBody(ctx, itemIndex, input, 'update');
	return {
		done: `updated template ${templateId}`,
		identity: ['update', templateId, body],
		changesTemplate: templateId,
		send: async () => (await updateScanner(ctx, templateId, body, itemIndex)) as IDataObject,
	};
});
