import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteTemplate from './delete.operation';
import * as get from './get.operation';
import * as getFields from './getFields.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, deleteTemplate as delete, get, getFields, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a template', description: 'Define a new template: the fields to extract from a kind of document' },
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a template',
				description: 'Delete a template. Documents already processed with it keep their data.',
			},
			{ name: 'Get', value: 'get', action: 'Get a template', description: 'Read a template with its fields' },
			{
				name: 'Get Fields',
				value: 'getFields',
				action: 'Get the fields of a template',
				description: 'One item per field of a template: its name, label, type, whether it is required, its description',
			},
			{ name: 'Get Many', value: 'getMany', action: 'Get many templates', description: 'List the templates of the account with their fields' },
			{
				name: 'Update',
				value: 'update',
				action: 'Update a template',
				description: 'Change a template\'s name, description or fields. New fields replace the whole list.',
			},
		],
		default: 'getMany',
	},
	...create.description,
	...get.description,
	...getFields.description,
	...getMany.description,
	...update.description,
	...deleteTemplate.description,
];
