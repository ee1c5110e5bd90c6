import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { nodeError, nodeRuns, outputJson } from '../../scripts/n8n/runData';
import { SAMPLES, loadFixture, type FixtureName } from '../fixtures';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, executeFailing, executeOk, n8n, noOp, poller, readFiles, sandboxWithCredential, sortByFileName } from './support';

const CREDENTIAL = 'e2eOnErrorCred';
const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string };
const UNKNOWN_RESULT = '00000000-0000-4000-8000-000000000000';

/**
 * n8n's own node settings, as a user sets them in the node's Settings tab, in a real n8n: On Error
 * (Stop, Continue, Continue using error output) and Retry On Fail. n8n 1.x and 2.x route error
 * items by different rules, so these run on both lines.
 */
describe(`On Error and Retry On Fail in n8n ${n8n().version}`, () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let folder: { dir: string; remove: () => void };

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL, { demoAccount: { monthlyPages: 200 } }));
		// a: readable, b: no text (rejected NO_TEXT), c: empty (refused before any upload).
		folder = await documentFolder({ 'batch/a-invoice.pdf': 'invoiceEn', 'batch/b-scan.pdf': 'scanned', 'stop/a-invoice.pdf': 'invoiceDe', 'stop/b-invoice.pdf': 'invoiceFr', 'stop/c-scan.pdf': 'scanned' });
		writeFileSync(join(folder.dir, 'batch', 'c-empty.pdf'), new Uint8Array(0));
	});

	afterAll(async () => {
		folder?.remove();
		await sandbox?.stop();
	});

	const readBatch = (builder: WorkflowBuilder, dir: string) =>
		builder.add(readFiles('Read Documents', join(folder.dir, dir, '*.pdf')), 'Start').add(sortByFileName('In File-Name Order'), 'Read Documents');

	it('Continue (using error output): failed items go to the error branch, with their data; only results to the success branch', async () => {
		await sandbox.resetStats();
		const workflow = readBatch(new WorkflowBuilder('e2eErrorOutput', 'e2e: extract with error output'), 'batch')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extract' }, { onError: 'continueErrorOutput' }), 'In File-Name Order')
			.add(noOp('Extracted'), 'Extract', 0)
			.add(noOp('Needs Attention'), 'Extract', 1)
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const success = outputJson(run, 'Extract', 0);
		expect(success).toHaveLength(1);
		expect(success[0]).toMatchObject({ invoice_number: invoice.invoice_number });
		expect(success[0]).not.toHaveProperty('error');

		const failed = outputJson(run, 'Extract', 1);
		expect(failed.map((item) => item.message)).toEqual([
			'Item 2: The document "b-scan.pdf" was rejected: no readable text was found in it (NO_TEXT)',
			'Item 3 (c-empty.pdf): The file is empty (0 bytes)',
		]);
		expect(failed[0].error).toMatchObject({ status: 'rejected', error_code: 'NO_TEXT', result_id: expect.any(String) });
		// The branches a user wires behind the outputs received the items.
		expect(outputJson(run, 'Needs Attention')).toEqual(failed);
		expect(outputJson(run, 'Extracted')).toEqual(success);
		// The empty file was refused before anything was sent: two uploads, each once.
		expect((await sandbox.stats()).uploads).toHaveLength(2);
	});

	it('Continue (regular output): failed items stay on the one output, flat, in input order', async () => {
		const workflow = readBatch(new WorkflowBuilder('e2eContinueRegular', 'e2e: extract, continue'), 'batch')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extract' }, { onError: 'continueRegularOutput' }), 'In File-Name Order')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const items = outputJson(run, 'Extract');
		expect(items).toHaveLength(3);
		expect(items[0]).toMatchObject({ invoice_number: invoice.invoice_number });
		expect(items[1]).toMatchObject({ status: 'rejected', error_code: 'NO_TEXT', error: expect.stringMatching(/^Item 2: /) });
		expect(items[2]).toMatchObject({ error: 'Item 3 (c-empty.pdf): The file is empty (0 bytes)' });
	});

	it("the Poller sends a result it cannot read to n8n's error output, next to its own four", async () => {
		const done = await uploadDirectly(sandbox, 'invoiceEn');
		const rejected = await uploadDirectly(sandbox, 'scanned');
		const workflow = new WorkflowBuilder('e2ePollerErrorOutput', 'e2e: poller with error output')
			.add(
				{
					name: 'Result IDs',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: `return ${JSON.stringify([done, rejected, UNKNOWN_RESULT, 'not-an-id'])}.map((result_id) => ({ json: { result_id } }));` },
				},
				'Start',
			)
			.add(poller('Poller', CREDENTIAL, { options: { timeout: 60 } }, { onError: 'continueErrorOutput' }), 'Result IDs')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const [doneItems, rejectedItems, errorItems, stillProcessing, errorOutput] = [0, 1, 2, 3, 4].map((index) => outputJson(run, 'Poller', index));
		expect(doneItems).toEqual([expect.objectContaining({ invoice_number: invoice.invoice_number })]);
		expect(rejectedItems).toEqual([expect.objectContaining({ result_id: rejected, error_code: 'NO_TEXT' })]);
		expect([errorItems, stillProcessing]).toEqual([[], []]);
		expect(errorOutput.map((item) => item.message)).toEqual([`Item 3: No result with ID ${UNKNOWN_RESULT} exists in this account`, 'Item 4: "not-an-id" is not a result ID']);
	});

	it('Stop with Retry On Fail: a rejected document stops the run naming every result, and no retry uploads again', async () => {
		await sandbox.resetStats();
		const workflow = readBatch(new WorkflowBuilder('e2eStopRetry', 'e2e: stop, retry on fail'), 'stop')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extract' }, { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 }), 'In File-Name Order')
			.build();
		await cli.importWorkflows([workflow]);
		const { run } = await executeFailing(cli, workflow.id);

		const error = nodeError(run, 'Extract');
		expect(error?.message).toMatch(/^Item 3: The document "c-scan.pdf" was rejected/);
		// Nothing paid for is lost: the error lists each document with its result ID.
		const stats = await sandbox.stats();
		expect(stats.uploads).toHaveLength(3);
		for (const upload of stats.uploads) expect(String(error?.description)).toContain(upload.resultId);
		// Three tries of the node, one upload per document.
		expect(new Set(stats.uploads.map((upload) => upload.sha256)).size).toBe(3);
	});

	it('an option from an expression that is not a number stops the run before anything is uploaded', async () => {
		await sandbox.resetStats();
		const workflow = readBatch(new WorkflowBuilder('e2eBadTimeout', 'e2e: bad wait timeout'), 'batch')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extract', options: { waitTimeout: '={{ "5 minutes" }}' } }), 'In File-Name Order')
			.build();
		await cli.importWorkflows([workflow]);
		const { run } = await executeFailing(cli, workflow.id);
		expect(nodeError(run, 'Extract')?.message).toMatch(/Wait Timeout/);
		expect(nodeRuns(run, 'Extract')).toHaveLength(1);
		expect((await sandbox.stats()).uploads).toHaveLength(0);
	});

	it('clones a template by mapping Get Template\'s fields into Create with an expression', async () => {
		const source = await templateNamed(sandbox, 'Invoice');
		const workflow = new WorkflowBuilder('e2eCloneTemplate', 'e2e: clone a template')
			.add(action('Get Template', CREDENTIAL, { resource: 'template', operation: 'get', templateId: { __rl: true, mode: 'id', value: source.scanner_id } }), 'Start')
			.add(
				action('Create Copy', CREDENTIAL, { resource: 'template', operation: 'create', name: '={{ $json.name }} (copy)', fieldsDefinedAs: 'json', fieldsJson: '={{ $json.fields }}' }),
				'Get Template',
			)
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);
		const [copy] = outputJson(run, 'Create Copy');
		expect(copy.name).toBe('Invoice (copy)');
		expect(copy.fields).toEqual(source.fields);
	});
});

/** An upload made outside n8n (e.g. by another workflow), for the Poller to wait for. */
async function uploadDirectly(sandbox: RemoteSandbox, fixture: FixtureName): Promise<string> {
	const file = await loadFixture(fixture);
	const form = new FormData();
	form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.mimeType }), file.fileName);
	const response = await fetch(`${sandbox.baseUrl}/api/v1/process`, { method: 'POST', headers: { 'X-API-Key': sandbox.demoKey }, body: form });
	expect(response.status).toBe(202);
	return ((await response.json()) as { result_id: string }).result_id;
}

async function templateNamed(sandbox: RemoteSandbox, name: string): Promise<{ scanner_id: string; name: string; fields: unknown[] }> {
	const response = await fetch(`${sandbox.baseUrl}/api/v1/scanners`, { headers: { 'X-API-Key': sandbox.demoKey } });
	const { scanners } = (await response.json()) as { scanners: Array<{ scanner_id: string; name: string; fields: unknown[] }> };
	const found = scanners.find((scanner) => scanner.name === name);
	if (!found) throw new Error(`No template named ${name}`);
	return found;
}
