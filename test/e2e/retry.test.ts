/**
 * Charged once, the way a user meets it: a published workflow fails in real n8n, and the user
 * clicks Retry in the Executions list (both "with original workflow" and "with currently saved
 * workflow", the REST calls the editor makes). The retry must not upload again what the failed
 * run had the service accept. And a template Create whose second item the service refuses, under
 * Retry On Fail, creates the first template once and says so.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { N8nRestApi, waitForProductionWebhook } from '../../scripts/n8n/restApi';
import { nodeError } from '../../scripts/n8n/runData';
import { startN8nServer, type N8nServer } from '../../scripts/n8n/server';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, e2eOwner, executeFailing, n8n, readFiles, sandboxWithCredential, sortByFileName } from './support';

const CREDENTIAL = 'e2eRetryCred';
const WEBHOOK_PATH = 'e2e-retry-batch';

describe(`Retry of a failed execution in n8n ${n8n().version}: nothing accepted is uploaded again`, () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let server: N8nServer;
	let api: N8nRestApi;
	let folder: { dir: string; remove: () => void };

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL, { demoAccount: { monthlyPages: 200 } }));
		// a: readable; b: no text, so the service rejects it and the run stops (On Error = Stop).
		folder = await documentFolder({ 'a-invoice.pdf': 'invoiceEn', 'b-scan.pdf': 'scanned' });
		const workflow = new WorkflowBuilder('e2eRetryExecution', 'e2e: retry a failed execution')
			.add({
				name: 'Batch',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: 'e2e-retry-webhook',
				parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
			})
			.add(readFiles('Read Documents', join(folder.dir, '*.pdf')), 'Batch')
			.add(sortByFileName('In File-Name Order'), 'Read Documents')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extract' }), 'In File-Name Order')
			.build();
		await cli.importWorkflows([workflow]);
		server = await startN8nServer(cli);
		api = await N8nRestApi.asOwner(server, e2eOwner());
		await api.activateWorkflow(workflow.id);
		await waitForProductionWebhook(server.url, WEBHOOK_PATH);
	});

	afterAll(async () => {
		await server?.stop();
		await sandbox?.stop();
		folder?.remove();
	});

	it('the failed run said what Retry does; Retry (original, then saved workflow) uploads nothing and fails the same way', async () => {
		await sandbox.resetStats();
		const posted = await fetch(`${server.url}/webhook/${WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		expect(posted.status).toBe(200);
		const failed = await finished(api, 'e2eRetryExecution');
		expect(failed.status).toBe('error');
		const error = nodeError({ data: (await api.getExecution(failed.id)).data }, 'Extract');
		expect(error?.message).toMatch(/^Item 2: The document "b-scan.pdf" was rejected/);
		expect(String(error?.description)).toContain('Retry of this execution reads their results instead of uploading them again, when it runs in this n8n process within 7 days (after n8n restarts, or on another queue-mode worker, it uploads them again');
		const accepted = (await sandbox.stats()).uploads.map((upload) => upload.resultId);
		expect(accepted).toHaveLength(2);

		for (const loadWorkflow of [false, true]) {
			const retried = await api.retryExecution(failed.id, { loadWorkflow });
			const execution = await api.getExecution(retried.id);
			expect(execution.retryOf, 'a new execution, retrying the failed one').toBe(failed.id);
			expect(execution.mode).toBe('retry');
			expect((await sandbox.stats()).uploads, `Retry (loadWorkflow ${loadWorkflow}) uploaded nothing`).toHaveLength(2);
			const retryError = nodeError({ data: execution.data }, 'Extract');
			expect(retryError?.message).toMatch(/^Item 2: The document "b-scan.pdf" was rejected/);
			// The results it read are those of the uploads the failed run paid for.
			for (const resultId of accepted) expect(String(retryError?.description)).toContain(String(resultId));
		}
	});
});

describe(`Template Create under Retry On Fail in n8n ${n8n().version}: a change is made once`, () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;

	beforeAll(async () => {
		// The free plan allows 2 templates of one's own: after "Existing", room for one more.
		({ sandbox, cli } = await sandboxWithCredential(`${CREDENTIAL}T`));
		const made = await fetch(`${sandbox.baseUrl}/api/v1/scanners`, {
			method: 'POST',
			headers: { 'x-api-key': sandbox.demoKey, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'Existing', fields: [{ name: 'total', type: 'currency' }] }),
		});
		expect(made.status).toBe(201);
	});

	afterAll(async () => {
		await sandbox?.stop();
	});

	it('items "Supplier A" and "Supplier B", the second over the plan\'s limit, 3 tries: one template, and the error says which', async () => {
		const workflow = new WorkflowBuilder('e2eTemplateRetry', 'e2e: create templates, retry on fail')
			.add(
				{
					name: 'Names',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: "return [{ json: { name: 'Supplier A' } }, { json: { name: 'Supplier B' } }];" },
				},
				'Start',
			)
			.add(
				action(
					'Create Template',
					`${CREDENTIAL}T`,
					{ resource: 'template', operation: 'create', name: '={{ $json.name }}', fieldsUi: { field: [{ name: 'total', type: 'currency' }] } },
					{ retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 },
				),
				'Names',
			)
			.build();
		await cli.importWorkflows([workflow]);
		const { run } = await executeFailing(cli, workflow.id);

		const error = nodeError(run, 'Create Template');
		expect(error?.message).toMatch(/^Item 2: Template limit reached/);
		expect(String(error?.description)).toContain('- item 1: created template "Supplier A"');
		const listed = (await (await fetch(`${sandbox.baseUrl}/api/v1/scanners`, { headers: { 'x-api-key': sandbox.demoKey } })).json()) as { scanners?: Array<{ name: string }> };
		const names = (listed.scanners ?? []).map((scanner) => scanner.name);
		expect(names.filter((name) => name === 'Supplier A'), 'created once over three tries').toHaveLength(1);
		expect(names).not.toContain('Supplier B');
	});
});

/** The workflow's one execution, once it has finished. */
async function finished(api: N8nRestApi, workflowId: string, timeoutMs = 60_000): Promise<{ id: string; status: string }> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const [latest] = await api.listExecutions(workflowId);
		if (latest && !['new', 'running', 'waiting'].includes(latest.status)) return latest;
		if (Date.now() > deadline) throw new Error(`No finished execution of ${workflowId} after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
