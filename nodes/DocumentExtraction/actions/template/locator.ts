import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../../../shared/items/itemError';
import { checkTemplateId } from '../../../shared/preflight/ids';

/**
 * What n8n accepts as a template ID typed into By ID (n8n anchors it with ^ and $; n8n's engine
 * applies the same check before a run, expressions excepted). The spec gives IDs no format (the
 * sandbox issues UUIDs), so the check refuses only what cannot be one and what users paste by
 * mistake: spaces (a template's name), quotes, the URL characters / \ ? # (a link), control
 * characters, and '.' or '..'. `checkTemplateId`, the run-time check, refuses nothing this accepts.
 */
export const TEMPLATE_ID_PATTERN = '\\s*(?!\\.{1,2}\\s*$)[^\\s"\'/\\\\?#<>\\x00-\\x1f\\x7f]+\\s*';

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
								'Not a template ID. Pick the template from the list, or enter its ID (the scanner_id that Template > Get Many returns): one word, without spaces, quotes or the characters / \\ ? #.',
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
		throw itemError(ctx.getNode(), itemIndex, checked.message, checked.description);
	}
	return checked.id;
}
