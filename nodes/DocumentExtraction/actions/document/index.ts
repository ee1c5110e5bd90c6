import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as extract from './extractAuto.operation';
import * as extractWithTemplate from './extractWithTemplate.operation';
import * as getResult from './getResult.operation';

export { extract, extractWithTemplate, getResult };

const operations: INodePropertyOptions[] = [
	{
		name: 'Extract (Auto-Detect Template)',
		value: 'extract',
		action: 'Extract data automatically',
		description: 'Upload a PDF, JPEG or PNG; the service picks the best-matching template and extracts its fields',
	},
	{
		name: 'Extract with Template',
		value: 'extractWithTemplate',
		action: 'Extract data with a template',
		description: 'Upload a PDF, JPEG or PNG and extract the fields of the chosen template',
	},
	{
		name: 'Get Result',
		value: 'getResult',
		action: 'Get an extraction result',
		description: 'Read the status and the extracted data of an uploaded document by its result ID',
	},
];

/**
 * Two operation lists, one shown at a time. As an AI agent's tool (n8n's `@tool` condition) the
 * node starts on Get Result: an agent cannot hand a tool a file, so Extract fails there. As a
 * workflow step it keeps Extract, the default saved workflows rely on (n8n stores no defaults).
 */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] }, hide: { '@tool': [true] } },
		options: operations,
		default: 'extract',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'], '@tool': [true] } },
		options: operations,
		default: 'getResult',
	},
	{
		displayName:
			'An AI agent cannot hand this tool a file, so Extract from a binary field fails here. Set Document Source to URL (the model gives the link), or upload documents with a Document Extraction node in the workflow and give the agent the result_id for Get Result.',
		name: 'toolNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { resource: ['document'], operation: ['extract', 'extractWithTemplate'], documentSource: ['binaryField', 'binaryFields'], '@tool': [true] },
		},
	},
	...extract.description,
	...extractWithTemplate.description,
	...getResult.description,
];
