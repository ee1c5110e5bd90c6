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

/**
 * The workflows the suite runs, as a user would build them for queue mode: a Webhook receives a
 * batch of files (one multipart request; the main process stores them as binary data, a worker
 * runs the execution), Edit Fields + Split Out make one item per file, and the Document Extraction
 * node uploads them, either waiting for the results itself or handing the receipts to the Poller.
 * Every output item is posted to the suite's collector (an HTTP Request node per output), with the
 * output's name and the execution's id; the webhook answers when the execution has finished.
 *
 * The Poller workflow saves its progress after each node (workflow setting "Save execution
 * progress"): once the upload node has finished, the receipts are in the database, so a worker
 * that dies while the Poller waits loses nothing (see the README's "Scaling out").
 */
export function scaleWorkflow(mode: ScaleMode, collectorUrl: string): WorkflowJson {
	const credentials = { documentExtractionApi: { id: SCALE_CREDENTIAL.id, name: SCALE_CREDENTIAL.name } };
	const report = (output: OutputName): Node => ({
		name: `Report ${output}`,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: collectorUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ output: '${output}', mode: '${mode}', execution: $execution.id, result_id: $json._extraction?.result_id ?? $json.result_id ?? $json.error?.result_id ?? null, file_name: $json._extraction?.file_name ?? $json.file_name ?? null, message: $json.error_message ?? $json.message ?? null }) }}`,
			options: {},
		},
	});
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
			credentials,
			parameters: { resource: 'document', operation: 'extract', binaryPropertyName: '={{ $json.key }}', waitForResult: mode === 'wait', options: {} },
			// Wait for Result fails a rejected document: it goes to the error output with its result ID.
			...(mode === 'wait' ? { onError: 'continueErrorOutput' } : {}),
		},
	];
	const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }> = {};
	const connect = (from: string, to: string, output = 0) => {
		const outputs = (connections[from] ??= { main: [] }).main;
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: 0 });
	};
	connect('Batch of Files', 'List Files');
	connect('List Files', 'One Item per File');
	connect('One Item per File', NODES.upload);
	const outputs: OutputName[] = mode === 'wait' ? ['done', 'error-output'] : ['done', 'rejected', 'error', 'still-processing'];
	let from: string = NODES.upload;
	if (mode === 'poller') {
		nodes.push({ name: NODES.poller, type: NODE_TYPES.poller, typeVersion: 1, credentials, parameters: { resultId: '={{ $json.result_id }}', options: { timeout: 300 } } });
		connect(NODES.upload, NODES.poller);
		from = NODES.poller;
	}
	outputs.forEach((output, index) => {
		nodes.push(report(output));
		connect(from, `Report ${output}`, index);
	});
	return {
		id: WORKFLOW_IDS[mode],
		name: mode === 'wait' ? 'Scale: Wait for Result' : 'Scale: upload, then the Poller',
		active: true,
		settings: { executionOrder: 'v1', ...(mode === 'poller' ? { saveExecutionProgress: true } : {}) },
		nodes: nodes.map((node, i) => ({ id: `${WORKFLOW_IDS[mode]}-${i}`, position: [i * 220, 0], ...node })),
		connections,
	};
}
