import type { INodeProperties } from 'n8n-workflow';

import * as extract from './extractAuto.operation';
import * as extractWithTemplate from './extractWithTemplate.operation';
import * as getResult from './getResult.operation';

export { extract, extractWithTemplate, getResult };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Extract (Auto-Detect Template)',
				value: 'extract',
				action: 'Extract data from a document with automatic template detection',
				description: 'Upload a PDF, JPEG or PNG; the service picks the best-matching template and extracts its fields',
			},
			{
				name: 'Extract with Template',
				value: 'extractWithTemplate',
				action: 'Extract data from a document with a template',
				description: 'Upload a PDF, JPEG or PNG and extract the fields of the chosen template',
			},
			{
				name: 'Get Result',
				value: 'getResult',
				action: 'Get the result of an extraction',
				description: 'Read the status and the extracted data of an uploaded document by its result ID',
			},
		],
		default: 'extract',
	},
	...extract.description,
	...extractWithTemplate.description,
	...getResult.description,
];
