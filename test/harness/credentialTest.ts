/**
 * The credential test as n8n runs it for a credential with a declarative `test` (the CLI's
 * CredentialsTester): n8n-core's RoutingNode sends `test.request` through the credential's own
 * `authenticate`, and `rules` turn failing status codes into the message the user sees.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import { NodeHelpers, Workflow, createRunExecutionData, type INode, type INodeType, type INodeTypes } from 'n8n-workflow';

import { buildAdditionalData, credentialTypes, type TestCredential } from './engine';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export async function testCredential(credential: TestCredential): Promise<CredentialTestResult> {
	const type = credentialTypes.documentExtractionApi;
	const test = type.test!;
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType, 1),
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type.name]: { id: 'cred-1', name: 'test' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new ExecuteContext(
		workflow,
		node,
		buildAdditionalData(credential),
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, nodeType, { id: 'cred-1', name: 'test', type: type.name, data: { ...credential } });
	let response: Awaited<ReturnType<typeof routingNode.runNode>>;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status?: number; statusText?: string }; code?: string } }).cause;
		if (cause?.response?.status !== undefined) {
			const rule = test.rules?.find((candidate) => candidate.type === 'responseCode' && candidate.properties.value === cause.response!.status);
			if (rule && rule.type === 'responseCode') return { status: 'Error', message: rule.properties.message };
			return { status: 'Error', message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}` };
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	// As n8n's CredentialsTester: body rules are checked on the answer, in order.
	const body = response?.[0]?.[0]?.json as unknown;
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && valueAt(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** lodash `get` for a one-level key, as the rules here use. */
function valueAt(body: unknown, key: string): unknown {
	return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}
