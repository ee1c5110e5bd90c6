import { Workflow, type INode, type INodeType, type INodeTypeDescription, type INodeTypes } from 'n8n-workflow';

/**
 * The tool variant n8n derives from `usableAsTool` (n8n's convertNodeToAiTool): the same
 * description under a name ending in "Tool", which is what n8n's `@tool` display condition tests.
 */
export function asTool(type: INodeType): INodeType {
	const description: INodeTypeDescription = structuredClone(type.description);
	return {
		...type,
		description: { ...description, name: `${description.name}Tool`, displayName: `${description.displayName} Tool`, inputs: [], outputs: ['ai_tool'] },
	};
}

/**
 * A one-node workflow as the editor and the engine build it: n8n's Workflow fills in the
 * parameters' defaults (and drops hidden ones) with the node type's description.
 */
export function workflowWith(type: INodeType, parameters: INode['parameters']): { workflow: Workflow; node: INode } {
	const nodeTypes: INodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
	const workflow = new Workflow({
		nodes: [{ id: 'n', name: 'Node', type: `n8n-nodes-document-extraction.${type.description.name}`, typeVersion: 1, position: [0, 0], parameters }],
		connections: {},
		active: false,
		nodeTypes,
	});
	return { workflow, node: workflow.getNode('Node') as INode };
}
