import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkTemplateId } from '../../../shared/preflight';

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
				placeholder: 'e.g. 3f1c2a9e-...',
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
