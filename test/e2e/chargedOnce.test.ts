/**
 * Charged once in a real n8n, where each `n8n execute` is a process of its own (as an n8n restart
 * or another queue-mode worker is): only n8n's own database carries what was charged from one run
 * to the next. Counted from the sandbox's records.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { N8nRestApi, waitForProductionWebhook } from '../../scripts/n8n/restApi';
import { startN8nServer } from '../../scripts/n8n/server';
import { outputJson } from '../../scripts/n8n/runData';
import { sandboxCredential } from '../../scripts/n8n/workflows';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, e2eOwner, executeOk, n8n, poller, readFiles, sandboxWithCredential } from './support';

const CREDENTIAL = 'e2eChargedOnceCred';

describe(`charged once across processes in n8n ${n8n().version}`, () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let folder: { dir: string; remove: () => void };
	const today = new Date().toISOString().slice(0, 10);
	const accepted = async (accountId: string) => (await sandbox.stats()).uploads.filter((upload) => upload.accountId === accountId && upload.status === 202).length;

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL, { demoAccount: { monthlyPages: 200 } }));
		folder = await documentFolder({ 'invoice.pdf': 'invoiceEn', 'delivery-note.pdf': 'deliveryNote' });
	});

	afterAll(async () => {
		folder?.remove();
		await sandbox?.stop();
	});

	it('the same file in a new execution is not charged again and says when it was; another key (account) is charged in its own account', async () => {
		const workflow = new WorkflowBuilder('e2eChargedOnce', 'e2e: the same invoice twice')
			.add(readFiles('Read Invoice', join(folder.dir, 'invoice.pdf')), 'Start')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extract' }), 'Read Invoice')
			.build();
		await cli.importWorkflows([workflow]);

		const first = outputJson(await executeOk(cli, workflow.id), 'Extract');
		expect(first).toHaveLength(1);
		expect(first[0].extraction).toMatchObject({ status: 'done', reused: false, pages_used: 1 });
		expect(await accepted(sandbox.demoAccountId)).toBe(1);

		const second = outputJson(await executeOk(cli, workflow.id), 'Extract');
		expect(await accepted(sandbox.demoAccountId), 'another process, the same invoice: not uploaded').toBe(1);
		expect(second).toEqual([expect.objectContaining({ status: 'duplicate', first_extracted_at: today, file_name: 'invoice.pdf', pages_used: 0 })]);

		// The user edits the credential: another account's key.
		const other = await sandbox.accounts.create({ plan: 'paid' });
		await cli.importCredentials([sandboxCredential(sandbox.baseUrl, other.keys[0], { id: CREDENTIAL, name: CREDENTIAL })]);
		try {
			const inOther = outputJson(await executeOk(cli, workflow.id), 'Extract');
			expect(await accepted(other.id), 'the new account extracts it').toBe(1);
			expect(inOther[0].extraction).toMatchObject({ status: 'done', reused: false });
		} finally {
			await cli.importCredentials([sandboxCredential(sandbox.baseUrl, sandbox.demoKey, { id: CREDENTIAL, name: CREDENTIAL })]);
		}
	});

	it('a result that ended in error, read by the Poller, is sent again by the next execution', async () => {
		const workflow = new WorkflowBuilder('e2eErrorThenAgain', 'e2e: an error result is sent again')
			.add(readFiles('Read Delivery Note', join(folder.dir, 'delivery-note.pdf')), 'Start')
			.add(action('Upload', CREDENTIAL, { resource: 'document', operation: 'extract', waitForResult: false }), 'Read Delivery Note')
			.add(poller('Wait for Results', CREDENTIAL, { resultId: '={{ $json.result_id }}' }), 'Upload')
			.build();
		await cli.importWorkflows([workflow]);
		const before = await accepted(sandbox.demoAccountId);
		await sandbox.faults.enqueue('process', 'extractionError');
		const failed = await executeOk(cli, workflow.id);
		expect(outputJson(failed, 'Wait for Results', 2)).toEqual([expect.objectContaining({ status: 'error', error_code: 'PROCESSING_FAILED' })]);

		const again = await executeOk(cli, workflow.id);
		expect((await accepted(sandbox.demoAccountId)) - before, 'uploaded again, once').toBe(2);
		expect(outputJson(again, 'Wait for Results', 0)).toEqual([expect.objectContaining({ extraction: expect.objectContaining({ status: 'done', reused: false }) })]);
	});
});

describe(`two executions at once in n8n ${n8n().version}`, () => {
	it('the same file posted twice at once is uploaded once, and both executions get its data', async () => {
		const { sandbox, cli } = await sandboxWithCredential(`${CREDENTIAL}A`, { demoAccount: { monthlyPages: 200 } });
		const folder = await documentFolder({ 'invoice.pdf': 'invoiceEn' });
		const path = 'e2e-twice-at-once';
		const workflow = new WorkflowBuilder('e2eTwiceAtOnce', 'e2e: one file, two executions at once')
			.add({
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: 'e2e-twice-at-once',
				// Answers with the extraction once the execution has finished.
				parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} },
			})
			.add(readFiles('Read Invoice', join(folder.dir, 'invoice.pdf')), 'Webhook')
			.add(action('Extract', `${CREDENTIAL}A`, { resource: 'document', operation: 'extract' }), 'Read Invoice')
			.build();
		await cli.importWorkflows([workflow]);
		const server = await startN8nServer(cli);
		try {
			const api = await N8nRestApi.asOwner(server, e2eOwner());
			await api.activateWorkflow(workflow.id);
			await waitForProductionWebhook(server.url, path);
			const post = async () => {
				const response = await fetch(`${server.url}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
				expect(response.status).toBe(200);
				return (await response.json()) as { invoice_number?: unknown; extraction?: { result_id?: string; reused?: boolean } };
			};
			const [a, b] = await Promise.all([post(), post()]);
			expect((await sandbox.stats()).uploads.filter((upload) => upload.status === 202), 'one upload for both').toHaveLength(1);
			expect(a.extraction?.result_id).toBe(b.extraction?.result_id);
			expect([a.extraction?.reused, b.extraction?.reused].sort()).toEqual([false, true]);
			expect(a.invoice_number).toBe('INV-2026-0042');
			expect(b.invoice_number).toBe('INV-2026-0042');
		} finally {
			await server.stop();
			await sandbox.stop();
			folder.remove();
		}
	});
});
