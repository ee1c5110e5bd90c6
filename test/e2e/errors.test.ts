import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { nodeError, outputJson } from '../../scripts/n8n/runData';
import { sandboxCredential } from '../../scripts/n8n/workflows';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, executeFailing, executeOk, readFiles, sandboxWithCredential } from './support';

const CREDENTIAL = 'e2eErrorsCred';
const WRONG_KEY = 'e2eWrongKeyCred';
const WRONG_URL = 'e2eWrongUrlCred';
const NO_PAGES_LEFT = 'e2eNoPagesCred';

/** What a user sees when things go wrong, inside n8n. */
describe('errors inside n8n', () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let folder: { dir: string; remove: () => void };

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL));
		const exhausted = await sandbox.accounts.create({ plan: 'free', pagesUsed: 20 });
		const prefix = sandbox.demoKey.split('_')[0];
		await cli.importCredentials([
			sandboxCredential(sandbox.baseUrl, `${prefix}_thisKeyWasNeverIssued0000`, { id: WRONG_KEY, name: WRONG_KEY }),
			sandboxCredential(`${sandbox.baseUrl}/not-the-service`, sandbox.demoKey, { id: WRONG_URL, name: WRONG_URL }),
			sandboxCredential(sandbox.baseUrl, exhausted.keys[0], { id: NO_PAGES_LEFT, name: NO_PAGES_LEFT }),
		]);
		folder = await documentFolder({ 'scan.pdf': 'scanned', 'invoice.pdf': 'invoiceEn' });
	});

	afterAll(async () => {
		folder?.remove();
		await sandbox?.stop();
	});

	it('reports a rejected document, a wrong key and a wrong base URL as items when the node continues on error', async () => {
		const continueOnError = { onError: 'continueRegularOutput' as const };
		const listTemplates = { resource: 'template', operation: 'getMany', returnAll: true };
		const workflow = new WorkflowBuilder('e2eErrorItems', 'e2e: errors as items')
			.add(readFiles('Read Scan', join(folder.dir, 'scan.pdf')), 'Start')
			.add(action('Extract Scan', CREDENTIAL, { resource: 'document', operation: 'extract' }, continueOnError), 'Read Scan')
			.add(action('With Wrong Key', WRONG_KEY, listTemplates, continueOnError), 'Start')
			.add(action('With Wrong Base URL', WRONG_URL, listTemplates, continueOnError), 'Start')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const [rejected] = outputJson(run, 'Extract Scan');
		expect(rejected).toMatchObject({ status: 'rejected', file_name: 'scan.pdf', pages_used: 0 });
		expect(rejected.error).toBe('Item 1: The document "scan.pdf" was rejected: no readable text was found in it (NO_TEXT)');
		expect(String(rejected.error_description)).toMatch(/text layer|higher quality/);

		const [wrongKey] = outputJson(run, 'With Wrong Key');
		expect(wrongKey).toMatchObject({ error: 'Item 1: The service refused the API key', error_code: 'INVALID_API_KEY', http_status: 401 });
		expect(String(wrongKey.error_description)).toContain('Copy the key again');

		const [wrongUrl] = outputJson(run, 'With Wrong Base URL');
		expect(wrongUrl.error).toBe('Item 1: The service does not know this address');
		expect(String(wrongUrl.error_description)).toContain('Check the Base URL');

		// No page was charged for the refused scan (the spec gives rejected pages back).
		const demo = (await sandbox.accounts.get(sandbox.demoAccountId))!;
		expect(demo.pagesAvailable).toBe(demo.monthlyPages);
	});

	it('stops the workflow with the quota message when no pages are left (402)', async () => {
		const workflow = new WorkflowBuilder('e2eQuotaGone', 'e2e: quota exhausted')
			.add(readFiles('Read Invoice', join(folder.dir, 'invoice.pdf')), 'Start')
			.add(action('Extract Invoice', NO_PAGES_LEFT, { resource: 'document', operation: 'extract' }), 'Read Invoice')
			.build();
		await cli.importWorkflows([workflow]);
		const { run } = await executeFailing(cli, workflow.id);

		const error = nodeError(run, 'Extract Invoice');
		expect(error?.message).toBe('Item 1: Not enough pages left in your quota: this document needs 1, 0 left on the free plan');
		expect(error?.description).toMatch(/renew/);
		expect(error?.httpCode).toBe('402');
		expect(run.data.resultData.error?.message).toBe(error?.message);
	});
});
