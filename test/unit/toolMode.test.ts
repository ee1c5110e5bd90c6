/**
 * The nodes as AI-agent tools. n8n derives a tool variant from `usableAsTool` and shows or hides
 * parameters with the `@tool` display condition; these tests resolve parameters with n8n's own
 * NodeHelpers and Workflow, as the editor and the engine do.
 */
import { NodeHelpers, type INodeProperties, type INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionPoller } from '../../nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.ts';
import { asTool, workflowWith } from '../harness/toolVariant';

const action = new DocumentExtraction();
const tool = asTool(action);

const resolved = (type: INodeType, parameters: Record<string, unknown>) => workflowWith(type, parameters as never).node.parameters;

/** Whether n8n's editor shows the parameter named `name` (any of its variants) for these values. */
function shown(type: INodeType, name: string, parameters: Record<string, unknown>): boolean {
	const { node } = workflowWith(type, parameters as never);
	return type.description.properties
		.filter((property: INodeProperties) => property.name === name)
		.some((property) => NodeHelpers.displayParameter(node.parameters, property, node, type.description));
}

describe('which node is a tool', () => {
	it('offers the action node to agents', () => {
		expect(action.description.usableAsTool).toBe(true);
	});

	it('does not offer the Poller: an agent would get only its Done output, and rejected, failed or unfinished documents as nothing', () => {
		const poller = new DocumentExtractionPoller();
		expect('usableAsTool' in poller.description).toBe(true);
		expect(Boolean(poller.description.usableAsTool)).toBe(false);
		expect(poller.description.outputNames).toEqual(['Done', 'Rejected', 'Error', 'Still Processing']);
	});
});

describe('the action node as a tool', () => {
	it('starts on Get Result, with the result ID given by the model', () => {
		expect(resolved(tool, {})).toMatchObject({
			resource: 'document',
			operation: 'getResult',
			resultId: "={{ $fromAI('result_id', 'The result_id of an uploaded document (a UUID)', 'string') }}",
		});
	});

	it('keeps what a saved tool node chose', () => {
		expect(resolved(tool, { resource: 'template', operation: 'get' })).toMatchObject({ resource: 'template', operation: 'get' });
		expect(resolved(tool, { operation: 'extractWithTemplate' })).toMatchObject({ resource: 'document', operation: 'extractWithTemplate' });
		expect(resolved(tool, { operation: 'getResult', resultId: '={{ $fromAI("id") }}' })).toMatchObject({ resultId: '={{ $fromAI("id") }}' });
	});

	it('extracts a document by URL, the link given by the model: an agent cannot hand a tool a file', () => {
		for (const operation of ['extract', 'extractWithTemplate']) {
			expect(resolved(tool, { operation })).toMatchObject({
				documentSource: 'url',
				fileUrl: "={{ $fromAI('file_url', 'Direct link to the PDF, JPEG or PNG document to extract', 'string') }}",
			});
			expect(shown(tool, 'fileUrl', { operation })).toBe(true);
			expect(shown(tool, 'binaryPropertyName', { operation })).toBe(false);
		}
	});

	it('shows a notice where an agent cannot feed the operation a file (a binary field), naming what works', () => {
		expect(shown(tool, 'toolNotice', { operation: 'extract', documentSource: 'binaryField' })).toBe(true);
		expect(shown(tool, 'toolNotice', { operation: 'extractWithTemplate', documentSource: 'binaryFields' })).toBe(true);
		expect(shown(tool, 'toolNotice', { operation: 'extract' })).toBe(false);
		expect(shown(tool, 'toolNotice', {})).toBe(false);
		expect(shown(tool, 'toolNotice', { resource: 'template' })).toBe(false);
		const notice = tool.description.properties.find((property) => property.name === 'toolNotice') as INodeProperties;
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/Document Source to URL/);
		expect(notice.displayName).toMatch(/Get Result/);
	});

	it('gets the tool description n8n builds from the action', () => {
		const { node } = workflowWith(tool, {});
		expect(NodeHelpers.getToolDescriptionForNode({ ...node, parameters: { ...node.parameters, descriptionType: 'auto' } }, tool)).toBe(
			'Get an extraction result in Document Extraction',
		);
	});
});

describe('the action node as a workflow step is unchanged', () => {
	it('still starts on Extract from a binary field, so saved workflows (n8n stores no defaults) keep their operation and source', () => {
		expect(resolved(action, {})).toMatchObject({ resource: 'document', operation: 'extract', documentSource: 'binaryField', binaryPropertyName: 'data' });
		expect(resolved(action, { operation: 'getResult' })).toMatchObject({ operation: 'getResult', resultId: '={{ $json.result_id }}' });
	});

	it('shows no tool notice', () => {
		expect(shown(action, 'toolNotice', { operation: 'extract' })).toBe(false);
	});
});
