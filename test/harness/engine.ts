/**
 * Runs our nodes through n8n's real execution engine (n8n-core's WorkflowExecute), the way n8n
 * runs a node in a workflow: real parameter resolution, real execute context, real
 * httpRequestWithAuthentication with the credential's own `authenticate`, real continueOnFail and
 * cancellation. Only storage is replaced: credentials come from memory, and there is no database.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	ICredentialsHelper,
	LoggerProxy,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type IRequestOptionsSimplified,
	type ExecutionError,
	type IExecuteFunctions,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { DocumentExtractionApi } from '../../credentials/DocumentExtractionApi.credentials';
import { deduplicationStore } from './deduplication';
import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionPoller } from '../../nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.ts';

export const PACKAGE = 'n8n-nodes-document-extraction';
export const NODE_TYPES = {
	action: `${PACKAGE}.documentExtraction`,
	poller: `${PACKAGE}.documentExtractionPoller`,
} as const;

/**
 * The node in front of the node under test: it hands the test's input items on, as a trigger or a
 * Read File node would. Having a real previous node matters: the engine looks input items up
 * through it (`executionData.source`), e.g. to merge the input's JSON into error-output items.
 */
const INPUT_NODE_TYPE = 'test.input';
class InputNode implements INodeType {
	description = {
		displayName: 'Input',
		name: INPUT_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Hands the test input on',
		defaults: { name: 'Input' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

const nodeTypeByName: Record<string, INodeType> = {
	[NODE_TYPES.action]: new DocumentExtraction(),
	[NODE_TYPES.poller]: new DocumentExtractionPoller(),
	[INPUT_NODE_TYPE]: new InputNode(),
};

const nodeTypes: INodeTypes = {
	getByName: (name) => nodeTypeByName[name] as INodeType | IVersionedNodeType,
	getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(nodeTypeByName[name], version),
	getKnownTypes: () => ({}),
};

export const credentialTypes: Record<string, ICredentialType> = { documentExtractionApi: new DocumentExtractionApi() };

export interface TestCredential {
	apiKey: string;
	baseUrl: string;
	allowPlainHttpOnOwnNetwork?: boolean;
}

/** Credentials from memory; `authenticate` is n8n's own logic for function and generic blocks. */
class MemoryCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: ICredentialDataDecryptedObject) {
		super();
	}
	getParentTypes(): string[] {
		return [];
	}
	isCredentialUsableByNode(): boolean {
		return true;
	}
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		if (typeof type.authenticate === 'function') return await type.authenticate(credentials, requestOptions as IHttpRequestOptions);
		if (type.authenticate?.type === 'generic' && workflow && node) {
			const resolve = (value: string) => String(workflow.expression.getParameterValue(value, null, 0, 0, node.name, [], 'internal', { $credentials: credentials } as never) ?? '');
			for (const [outerKey, entries] of Object.entries(type.authenticate.properties)) {
				const target = ((requestOptions as unknown as Record<string, Record<string, string>>)[outerKey] ??= {});
				for (const [key, value] of Object.entries(entries as Record<string, string>)) target[resolve(key)] = resolve(value);
			}
		}
		return requestOptions as IHttpRequestOptions;
	}
	async preAuthentication() {
		return undefined;
	}
	async runPreAuthentication() {
		return undefined;
	}
	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these nodes');
	}
	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		return { ...this.data };
	}
	async updateCredentials(): Promise<void> {}
	async updateCredentialsOauthTokenData(): Promise<void> {}
	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type].properties;
	}
}

/** Everything n8n logged during the tests, so tests can prove the key never appears there. */
export const capturedLogs: string[] = [];
const capture =
	(level: string) =>
	(message: string, meta?: object): void => {
		capturedLogs.push(`${level} ${message} ${meta ? safeStringify(meta) : ''}`);
	};
LoggerProxy.init({ error: capture('error'), warn: capture('warn'), info: capture('info'), debug: capture('debug') } as never);

function safeStringify(value: unknown): string {
	try {
		return JSON.stringify(value);
	} catch {
		return String(value);
	}
}


/** What n8n's CLI would hand the engine; only the parts these nodes touch are real. */
export function buildAdditionalData(credential: TestCredential | undefined, hooks?: ExecutionLifecycleHooks, executionId?: string): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		executionId,
		credentialsHelper: new MemoryCredentialsHelper({ ...(credential ?? { apiKey: '', baseUrl: '' }) }),
		executeWorkflow: async () => {
			throw new Error('not used');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not used');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunOptions {
	nodeType: keyof typeof NODE_TYPES;
	parameters: INodeParameters;
	credential?: TestCredential;
	input?: INodeExecutionData[];
	/**
	 * n8n's "On Error" setting: undefined is "Stop Workflow"; 'continueRegularOutput' ("Continue")
	 * and 'continueErrorOutput' ("Continue (using error output)") both make continueOnFail() true.
	 */
	onError?: INode['onError'];
	/** n8n's "Retry On Fail" settings: the engine itself runs the node again after an error. */
	retry?: { maxTries?: number; waitBetweenTries?: number };
	/** The execution's id; a fresh one per run unless given (a retry by the engine keeps it). */
	executionId?: string;
	/**
	 * The workflow's id; a fresh one per run unless given, as if every test ran its own workflow
	 * (the upload ledger remembers uploads per workflow and node).
	 */
	workflowId?: string;
	/** How n8n started the execution: 'manual' ("Execute step"), 'retry' (Retry of a failed execution), 'webhook'... */
	mode?: WorkflowExecuteMode;
}

export interface RunResult {
	/**
	 * Items per output of the node (the action node has one output, the poller four), plus the
	 * error output when On Error is "Continue (using error output)".
	 */
	outputs: INodeExecutionData[][];
	/** The node's error when it failed the execution. */
	error?: ExecutionError;
	/** The warnings the node showed in the editor (n8n's execution hints). */
	hints: string[];
	run: IRun;
}

export interface RunningNode {
	result: Promise<RunResult>;
	cancel(): void;
}

const NODE_NAME = 'Under Test';
const INPUT_NODE_NAME = 'Input';
let executions = 0;

export function startNode(options: RunOptions): RunningNode {
	// As in n8n, whose database holds what the deduplication helpers record.
	deduplicationStore();
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type: NODE_TYPES[options.nodeType],
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters,
		onError: options.onError,
		...(options.retry ? { retryOnFail: true, maxTries: options.retry.maxTries, waitBetweenTries: options.retry.waitBetweenTries } : {}),
		credentials: { documentExtractionApi: { id: 'cred-1', name: 'Document Extraction account' } },
	};
	const inputNode: INode = { id: 'input', name: INPUT_NODE_NAME, type: INPUT_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const connections = { [INPUT_NODE_NAME]: { main: [[{ node: NODE_NAME, type: 'main' as const, index: 0 }]] } };
	const executionId = options.executionId ?? `exec-${++executions}`;
	const workflowId = options.workflowId ?? `wf-${executionId}`;
	const mode = options.mode ?? 'manual';
	const workflow = new Workflow({ id: workflowId, nodes: [inputNode, node], connections, active: false, nodeTypes });
	const hooks = new ExecutionLifecycleHooks(mode, executionId, { id: workflowId, name: 'test', nodes: [inputNode, node], connections } as never);
	let finished!: (run: IRun) => void;
	const afterRun = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));

	const additionalData = buildAdditionalData(options.credential, hooks, executionId);

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: inputNode, data: { main: [options.input ?? [{ json: {} }]] }, source: null }],
		},
	});
	const execution = new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
	const result = (async () => {
		const run = await Promise.race([execution, afterRun]);
		const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
		return {
			outputs: (taskData?.data?.main ?? []).map((items) => items ?? []),
			error: taskData?.error ?? run.data.resultData.error,
			hints: (taskData?.hints ?? []).map((hint) => hint.message),
			run,
		};
	})();
	return { result, cancel: () => execution.cancel() };
}

export async function runNode(options: RunOptions): Promise<RunResult> {
	return await startNode(options).result;
}

/** An item as an email trigger or a Read File node delivers it: the file inline as base64. */
export function binaryItem(bytes: Uint8Array, fileName: string, mimeType: string, property = 'data', json: Record<string, unknown> = {}): INodeExecutionData {
	return {
		json: json as INodeExecutionData['json'],
		binary: { [property]: { data: Buffer.from(bytes).toString('base64'), mimeType, fileName, fileSize: String(bytes.length) } },
	};
}

/** Everything a user can see of a run (outputs, errors) as one string, to search for secrets. */
export function visibleText(result: RunResult): string {
	const error = result.error as (ExecutionError & { description?: string; context?: unknown }) | undefined;
	return safeStringify({
		outputs: result.outputs,
		error: error && { message: error.message, description: error.description, context: error.context, stack: error.stack },
	});
}
