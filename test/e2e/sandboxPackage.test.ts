import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { outputJson } from '../../scripts/n8n/runData';
import { findTemplate, sandboxCredential } from '../../scripts/n8n/workflows';
import { SAMPLES } from '../fixtures';
import { startInstalledSandbox, stopInstalledSandbox, type RunningSandbox } from '../harness/installedSandbox';
import { WorkflowBuilder, action, documentFolder, executeOk, n8n, readFiles, templateById } from './support';

const CREDENTIAL = 'e2eInstalledSandbox';
const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string; total: number };

/** A port free now, so the sandbox can come back on the same address the credential holds. */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/**
 * The sandbox as a user without a clone runs it: its npm package packed, installed into an empty
 * folder (once for the suite, by globalSetup), started by its command, and the credential filled
 * from what it prints. Real n8n extracts through it with the ready-made Invoice template picked by
 * id; the sandbox is stopped and started again on the same data folder, and the same workflow,
 * unchanged, runs again.
 */
describe('the installed sandbox package, beside a real n8n', () => {
	const folder = realpathSync(mkdtempSync(join(tmpdir(), 'e2e-sandbox-package-')));
	const data = join(folder, 'data');
	const installDir = inject('sandboxInstallDir');
	let args: string[];
	let sandbox: RunningSandbox | undefined;
	let cli: N8nCli;
	let documents: { dir: string; remove: () => void };

	beforeAll(async () => {
		args = ['--port', String(await freePort()), '--timing', 'fast', '--data', data];
		sandbox = await startInstalledSandbox(installDir, args);
		cli = n8n();
		await cli.importCredentials([sandboxCredential(sandbox.baseUrl, sandbox.apiKey, { id: CREDENTIAL, name: CREDENTIAL })]);
		documents = await documentFolder({ 'invoice.pdf': 'invoiceEn' });
	}, 300_000);

	afterAll(async () => {
		if (sandbox) await stopInstalledSandbox(sandbox);
		documents?.remove();
		rmSync(folder, { recursive: true, force: true });
	});

	it('extracts an invoice with the Invoice template, and the same workflow runs again after the sandbox restarts', { timeout: 240_000 }, async () => {
		const template = await findTemplate(sandbox!.baseUrl, sandbox!.apiKey, 'Invoice');
		const workflow = new WorkflowBuilder('e2eInstalledSandbox', 'e2e: the installed sandbox package')
			.add(readFiles('Read Invoice', join(documents.dir, 'invoice.pdf')), 'Start')
			.add(action('Extract', CREDENTIAL, { resource: 'document', operation: 'extractWithTemplate', templateId: templateById(template.id), options: { reuseUploads: false } }), 'Read Invoice')
			.build();
		await cli.importWorkflows([workflow]);

		const first = outputJson(await executeOk(cli, workflow.id), 'Extract');
		expect(first).toEqual([expect.objectContaining({ invoice_number: invoice.invoice_number, total: invoice.total })]);

		expect(await stopInstalledSandbox(sandbox!)).toBe(0);
		sandbox = await startInstalledSandbox(installDir, args);
		expect(sandbox.output()).toContain(`kept in ${join(data, 'state.json')}`);

		const again = outputJson(await executeOk(cli, workflow.id), 'Extract');
		expect(again).toEqual([expect.objectContaining({ invoice_number: invoice.invoice_number, total: invoice.total })]);
		expect(again[0].extraction).toMatchObject({ status: 'done', template: { name: 'Invoice' } });
	});
});
