/**
 * What n8n's editor says of the Template picker's value: the parameter issues n8n's own
 * NodeHelpers compute for the node (the resource locator's validation), for one mode and value.
 */
import { NodeHelpers, type INode } from 'n8n-workflow';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';

const { description } = new DocumentExtraction();

/** The editor's issues for the Template parameter when `value` is typed into the `mode` of the picker. */
export function templateEditorIssues(mode: 'id' | 'name', value: string, operation = 'extractWithTemplate'): string[] {
	const resource = operation === 'extractWithTemplate' ? 'document' : 'template';
	const node: INode = {
		id: 'n',
		name: 'Document Extraction',
		type: 'n8n-nodes-document-extraction.documentExtraction',
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource, operation, templateId: { __rl: true, mode, value } },
	};
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
	return (issues?.parameters?.templateId as string[] | undefined) ?? [];
}
