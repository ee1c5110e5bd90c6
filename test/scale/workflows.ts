import type { WorkflowJson } from '../../scripts/n8n/cli';
import { NODE_TYPES } from '../../scripts/n8n/paths';

/** How an execution waits for its documents: the action node's "Wait for Result", or upload without waiting + the Poller. */
export type ScaleMode = 'wait' | 'poller';
export const SCALE_MODES: ScaleMode[] = ['wait', 'poller'];

/** Where each output of the workflows reports (the collector records it under this name). */
export type OutputName = 'done' | 'rejected' | 'error' | 'still-processing' | 'error-output';

export const SCALE_CREDENTIAL = { id: 'ScaleSandboxCred', name: 'Document Extraction (scale sandbox)' } as const;

export const WORKFLOW_IDS: Record<ScaleMode, string> = { wait: 'ScaleWaitForResult', poller: 'ScaleUploadThenPoller' };
export const WEBHOOK_PATHS: Record<ScaleMode, string> = { wait: 'scale-wait-for-result', poller: 'scale-upload-then-poller' };

/** Node names the suite reads from saved executions. */
export const NODES = { upload: 'Upload Documents', poller: 'Wait for Results' } as const;

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	[key: string]: unknown;
}

type Connections = Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;

/** Where the workflows post: output items, and (the Poller workflow) upload receipts. */
export interface CollectorUrls {
	url: string;
	receiptsUrl: string;
}

/** The workflow that finishes stored result IDs with the Poller (what a user runs after a worker died). */
export const FINISH_STORED = { id: 'ScaleFinishStoredResults', path: 'scale-finish-stored-results' } as const;

const CREDENTIALS = { documentExtractionApi: { id: SCALE_CREDENTIAL.id, name: SCALE_CREDENTIAL.name } };

/**
 * The workflows the suite runs, as a user would build them for queue mode: a Webhook receives a
 * batch of files (one multipart request; the main process stores them as binary data, a worker
 * runs the execution), Edit Fields + Split Out make one item per file, and the Document Extraction
 * node uploads them, either waiting for the results itself or handing the receipts to the Poller.
 * Every output item is posted to the suite's collector (an HTTP Request node per output), with the
 * output's name and the execution's id; the webhook answers when the execution has finished.
 *
 * The Poller workflow first stores each upload receipt outside n8n (a branch that runs before the
 * Poller; a user would append rows to a Data Table or a sheet): if the worker dies while the
 * Poller waits, n8n 2.41 fails the execution and discards its saved data, and the stored result
 * IDs are what a user finishes the documents from (see "When a worker dies" in docs/scaling-out.md).
 */
export function scaleWorkflow(mode: ScaleMode, collector: CollectorUrls): WorkflowJson {
	const nodes: Node[] = [
		{
			name: 'Batch of Files',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: `${WORKFLOW_IDS[mode]}-webhook`,
			parameters: { httpMethod: 'POST', path: WEBHOOK_PATHS[mode], responseMode: 'lastNode', responseData: 'noData', options: {} },
		},
		{
			name: 'List Files',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'manual',
				assignments: {
					assignments: [
						{ id: 'files', name: 'files', type: 'array', value: '={{ Object.keys($binary).map(key => ({ key, file_name: $binary[key].fileName })) }}' },
					],
				},
				includeOtherFields: true,
				include: 'all',
				options: { stripBinary: false },
			},
		},
		{
			name: 'One Item per File',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'files', include: 'noOtherFields', options: { includeBinary: true } },
		},
		{
			name: NODES.upload,
			type: NODE_TYPES.action,
			typeVersion: 1,
			credentials: CREDENTIALS,
			parameters: { resource: 'document', operation: 'extract', binaryPropertyName: '={{ $json.key }}', waitForResult: mode === 'wait', options: {} },
			// Wait for Result fails a rejected document: it goes to the error output with its result ID.
			...(mode === 'wait' ? { onError: 'continueErrorOutput' } : {}),
		},
	];
	const connections: Connections = {};
	connect(connections, 'Batch of Files', 'List Files');
	connect(connections, 'List Files', 'One Item per File');
	connect(connections, 'One Item per File', NODES.upload);
	if (mode === 'wait') {
		addReports(nodes, connections, NODES.upload, ['done', 'error-output'], mode, collector.url);
	} else {
		// Placed above the Poller: with execution order v1, n8n runs this branch first.
		nodes.push({ ...postJson('Store Receipts', collector.receiptsUrl, '{ execution: $execution.id, result_id: $json.result_id, file_name: $json.file_name ?? null }'), position: [880, -220] });
		connect(connections, NODES.upload, 'Store Receipts');
		nodes.push(pollerNode());
		connect(connections, NODES.upload, NODES.poller);
		addReports(nodes, connections, NODES.poller, POLLER_OUTPUTS, mode, collector.url);
	}
	return {
		id: WORKFLOW_IDS[mode],
		name: mode === 'wait' ? 'Scale: Wait for Result' : 'Scale: upload, then the Poller',
		active: true,
		settings: { executionOrder: 'v1' },
		nodes: placed(WORKFLOW_IDS[mode], nodes),
		connections,
	};
}

/** Webhook with `{ results: [{ result_id }] }` (the stored receipts) → one item per result → the Poller → the reports. */
export function finishStoredWorkflow(collector: CollectorUrls): WorkflowJson {
	const nodes: Node[] = [
		{
			name: 'Stored Result IDs',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: `${FINISH_STORED.id}-webhook`,
			parameters: { httpMethod: 'POST', path: FINISH_STORED.path, responseMode: 'lastNode', responseData: 'noData', options: {} },
		},
		{ name: 'One Item per Result', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.results', include: 'noOtherFields', options: {} } },
		pollerNode(),
	];
	const connections: Connections = {};
	connect(connections, 'Stored Result IDs', 'One Item per Result');
	connect(connections, 'One Item per Result', NODES.poller);
	addReports(nodes, connections, NODES.poller, POLLER_OUTPUTS, 'poller', collector.url);
	return { id: FINISH_STORED.id, name: 'Scale: finish stored result IDs', active: true, settings: { executionOrder: 'v1' }, nodes: placed(FINISH_STORED.id, nodes), connections };
}

const POLLER_OUTPUTS: OutputName[] = ['done', 'rejected', 'error', 'still-processing'];

function pollerNode(): Node {
	return { name: NODES.poller, type: NODE_TYPES.poller, typeVersion: 1, credentials: CREDENTIALS, parameters: { resultId: '={{ $json.result_id }}', options: { timeout: 300 } } };
}

/** An HTTP Request node that posts one JSON body per item; `body` is the expression's object literal. */
function postJson(name: string, url: string, body: string): Node {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody: `={{ JSON.stringify(${body}) }}`, options: {} },
	};
}

/** One "Report <output>" node per output of `from`, each posting its items to the collector. */
function addReports(nodes: Node[], connections: Connections, from: string, outputs: OutputName[], mode: ScaleMode, collectorUrl: string): void {
	outputs.forEach((output, index) => {
		const body =
			`{ output: '${output}', mode: '${mode}', execution: $execution.id, result_id: $json.extraction?.result_id ?? $json.result_id ?? $json.error?.result_id ?? null, ` +
			'file_name: $json.extraction?.file_name ?? $json.file_name ?? null, message: $json.error_message ?? $json.message ?? null, ' +
			'status: $json.extraction?.status ?? $json.status ?? null, reused: $json.extraction?.reused ?? null, ' +
			'duplicate_invoice: $json.extraction?.duplicate_invoice ?? null }';
		nodes.push(postJson(`Report ${output}`, collectorUrl, body));
		connect(connections, from, `Report ${output}`, index);
	});
}

function connect(connections: Connections, from: string, to: string, output = 0): void {
	const outputs = (connections[from] ??= { main: [] }).main;
	while (outputs.length <= output) outputs.push([]);
	outputs[output].push({ node: to, type: 'main', index: 0 });
}

/** Ids and canvas positions, left to right (nodes that bring their own position keep it). */
function placed(workflowId: string, nodes: Node[]): Node[] {
	return nodes.map((node, i) => ({ id: `${workflowId}-${i}`, position: [i * 220, 0], ...node }));
}
