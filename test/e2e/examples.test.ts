import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { SAMPLES_DIR } from '../../scripts/n8n/paths';
import { nodeRuns, outputJson } from '../../scripts/n8n/runData';
import { EXAMPLE_CREDENTIAL, findTemplate, loadExample, templateLocatorValue, withParameters } from '../../scripts/n8n/workflows';
import { createN8nHome } from '../../scripts/n8n/emailExample';
import { SAMPLES, loadFixture, type FixtureName } from '../fixtures';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { scriptedAccountant } from './agentScript';
import { startFakeChatModel } from './fakeChatModel';
import { executeOk, sandboxWithCredential } from './support';

type Lines = Array<{ description: string }>;

/**
 * n8n run from a fresh home (see N8nCli) holding the given files in its `~/.n8n-files`, where the
 * examples as shipped read them: n8n's default file access, no path in the example changed.
 */
async function atHomeWith(cli: N8nCli, files: Record<string, FixtureName | { copyOf: string }>): Promise<{ cli: N8nCli; remove: () => void }> {
	const home = createN8nHome('n8n-docx-e2e-examples-');
	const atHome = cli.withHome(home);
	for (const [name, file] of Object.entries(files)) {
		const path = join(atHome.filesFolder, name);
		mkdirSync(dirname(path), { recursive: true });
		if (typeof file === 'string') writeFileSync(path, (await loadFixture(file)).bytes);
		else copyFileSync(file.copyOf, path);
	}
	return { cli: atHome, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * Every workflow in examples/ but the email ones (email.test.ts, dataTableExample.test.ts; the Google
 * Sheets one cannot reach Google: test/node/googleSheetsExample.test.ts), executed by n8n (external
 * services replaced by local files).
 */
describe('example workflows', () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let home: { cli: N8nCli; remove: () => void };

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(EXAMPLE_CREDENTIAL.id, { timing: 'fast' }));
		// Where the examples as shipped read: .n8n-files/inbox/*.pdf and .n8n-files/invoices/invoice.pdf.
		home = await atHomeWith(cli, {
			'inbox/scan.pdf': 'scanned',
			'inbox/invoice-en.pdf': { copyOf: join(SAMPLES_DIR, 'invoice-en.pdf') },
			'inbox/delivery-note.pdf': { copyOf: join(SAMPLES_DIR, 'delivery-note.pdf') },
			'invoices/invoice.pdf': { copyOf: join(SAMPLES_DIR, 'invoice-en.pdf') },
		});
	});

	afterAll(async () => {
		home?.remove();
		await sandbox?.stop();
	});

	it('a folder of PDFs through the Poller, as shipped: rows of the done documents, the scan on Rejected', async () => {
		const workflow = loadExample('folderThroughPoller');
		await cli.importWorkflows([workflow]);
		const run = await executeOk(home.cli, workflow.id);

		expect(outputJson(run, 'Upload Without Waiting').every((receipt) => typeof receipt.result_id === 'string')).toBe(true);
		const rows = outputJson(run, 'Rows');
		const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string; line_items: Lines };
		expect(rows.filter((row) => row.invoice_number === invoice.invoice_number)).toHaveLength(invoice.line_items.length);
		expect(new Set(rows.map((row) => row.result_id)).size).toBe(2);
		expect(outputJson(run, 'Rejected Documents')).toEqual([expect.objectContaining({ status: 'rejected', error_code: 'NO_TEXT' })]);
		expect(outputJson(run, 'Failed Documents')).toEqual([]);
		expect(outputJson(run, 'Not Finished in Time')).toEqual([]);
	});

	it('the AI agent as shipped, with a scripted stand-in for the chat model: it lists the templates and reads the result', async () => {
		await sandbox.resetStats();
		const model = await startFakeChatModel(scriptedAccountant);
		try {
			const openAi = { id: 'e2eFakeOpenAi', name: 'Scripted chat model' };
			await cli.importCredentials([{ ...openAi, type: 'openAiApi', data: { apiKey: 'sk-offline-stand-in', url: model.url } }]);
			const workflow = loadExample('aiAgentTool');
			workflow.nodes = workflow.nodes.map((node) => (node.name === 'Chat Model' ? { ...node, credentials: { openAiApi: openAi } } : node));
			await cli.importWorkflows([workflow]);
			const run = await executeOk(home.cli, workflow.id);

			const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string; total: number };
			const [answer] = outputJson(run, 'Invoice Assistant');
			expect(answer.output).toBe(`Invoice ${invoice.invoice_number}: total ${invoice.total} (template Invoice)`);
			// The tools ran inside n8n; the model saw each answer before its next step (Read Result
			// again while the document was still pending).
			expect(nodeRuns(run, 'List Templates')).toHaveLength(1);
			const reads = nodeRuns(run, 'Read Result').length;
			expect(reads).toBeGreaterThanOrEqual(1);
			expect(model.requests.map((request) => request.messages.filter((message) => message.role === 'tool').length)).toEqual(
				Array.from({ length: reads + 2 }, (_, i) => i),
			);
			expect((await sandbox.stats()).requests).toMatchObject({ process: 1, listScanners: 1, getResult: reads });
		} finally {
			await model.stop();
		}
	});
});

/** Same credential id, a sandbox of its own: statements take long here. */
describe('example: a long bank statement with a Still Processing loop', () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let home: { cli: N8nCli; remove: () => void };

	beforeAll(async () => {
		// Three times the service's usual speed for a 3-page statement: about 35 s, so the first
		// Poller run (20 s) ends on Still Processing and the loop comes round at least once.
		({ sandbox, cli } = await sandboxWithCredential(EXAMPLE_CREDENTIAL.id, { timing: 3 }));
		home = await atHomeWith(cli, { 'statements/statement.pdf': 'bankStatement' });
	});

	afterAll(async () => {
		home?.remove();
		await sandbox?.stop();
	});

	it('loops through the Wait node until the statement is done, then outputs every transaction', async () => {
		const template = await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Bank statement');
		const workflow = withParameters(loadExample('bankStatementLoop'), {
			'Upload Statement': { templateId: templateLocatorValue(template) },
			'Check the Statement': { 'options.timeout': 20 },
			'Wait Before Asking Again': { amount: 2 },
		});
		await cli.importWorkflows([workflow]);
		const run = await executeOk(home.cli, workflow.id);

		expect(nodeRuns(run, 'Check the Statement').length).toBeGreaterThanOrEqual(2);
		expect(nodeRuns(run, 'Wait Before Asking Again').length).toBe(nodeRuns(run, 'Check the Statement').length - 1);
		expect(outputJson(run, 'Check the Statement', 3)[0]).toMatchObject({ status: 'processing' });
		const transactions = (SAMPLES.bankStatement.expected as { transactions: Lines }).transactions;
		expect(outputJson(run, 'Transactions').map((row) => row.description)).toEqual(transactions.map((row) => row.description));
	});
});
