import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { getTableFields } from '../shared/templates/tableFieldOptions';
import * as document from './actions/document';
import { router } from './actions/router';
import { operationSubtitle } from './actions/subtitle';
import * as template from './actions/template';
import { searchTemplates } from './methods/listSearch';

const resource: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Document', value: 'document', description: 'Extract data from documents and read results' },
		{ name: 'Template', value: 'template', description: 'Manage the templates (the service calls them scanners) that define which fields to extract' },
	],
	default: 'document',
};

const properties: INodeProperties[] = [resource, ...document.description, ...template.description];

export class DocumentExtraction implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction',
		name: 'documentExtraction',
		icon: { light: 'file:../../icons/documentExtraction.svg', dark: 'file:../../icons/documentExtraction.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(properties, 'document'),
		description: 'Extract structured data (fields and table rows) from PDF, JPEG and PNG documents such as invoices, receipts and bank statements',
		defaults: { name: 'Document Extraction' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentExtractionApi', required: true }],
		properties,
	};

	methods = { listSearch: { searchTemplates }, loadOptions: { getTableFields } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
