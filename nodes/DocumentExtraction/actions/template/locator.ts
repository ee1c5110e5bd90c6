import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkTemplateId } from '../../../shared/preflight';

/**
 * What the editor accepts as a template ID (n8n anchors it with ^ and $). The spec gives IDs no
 * format (the sandbox issues UUIDs), so this is the form of an ID in a URL path: one word of
 * letters, digits and - _ . ~, starting with a letter or digit. It refuses what users paste by
 * mistake (a template's name with spaces, a URL, quotes) and every ID `checkTemplateId` refuses
 * at run time ('.', '..', control characters), which in turn refuses nothing this accepts.
 */
export const TEMPLATE_ID_PATTERN = '\\s*[A-Za-z0-9][\\w.~-]*\\s*';

/** The template picker: a searchable list of the account's templates, or an ID. */
export function templateLocator(displayOptions: IDisplayOptions, description: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f1c2a9e-7b4d-4c1e-9a2f-0d6e5b8c1a7f',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: TEMPLATE_ID_PATTERN,
							errorMessage:
								'Not a template ID. Pick the template from the list, or enter its ID (the scanner_id that Template > Get Many returns): letters, digits and - _ . ~ only, no spaces.',
						},
					},
				],
			},
		],
	};
}

export function templateIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('templateId', itemIndex, '', { extractValue: true });
	const checked = checkTemplateId(raw);
	if (!checked.ok) {
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: ${checked.message}`, { itemIndex, description: checked.description });
	}
	return checked.id;
}
