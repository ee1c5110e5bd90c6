/**
 * Charged once, per account: the action node and the Poller through n8n's engine against the
 * sandbox over real HTTP. What each test counts is what the sandbox received (its own stats), not
 * what the node says it did.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadFixture } from '../fixtures';
import { binaryItem, runNode, type RunOptions, type RunResult, type TestCredential } from '../harness/engine';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { forgetAllUploads } from '../../nodes/shared/http/uploadReceipts';
import { freshKey } from '../harness/keys';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
});
afterAll(async () => await sandbox?.stop());

function newAccount(target: Sandbox = sandbox): { accountId: string; cred: TestCredential } {
	const account = target.accounts.create({ plan: 'paid' });
	return { accountId: account.id, cred: { apiKey: account.keys[0], baseUrl: target.baseUrl } };
}

let workflows = 0;
const newWorkflow = () => `wf-charged-once-${++workflows}`;

const extract = (parameters: INodeParameters = {}): INodeParameters => ({ resource: 'document', operation: 'extract', ...parameters });

function run(cred: TestCredential, workflowId: string, parameters: INodeParameters, input: INodeExecutionData[], options: Partial<RunOptions> = {}): Promise<RunResult> {
	return runNode({ nodeType: 'action', parameters, credential: cred, input, workflowId, ...options });
}

async function invoice(): Promise<INodeExecutionData> {
	const fixture = await loadFixture('invoiceEn');
	return binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType);
}

/** Uploads the sandbox accepted for an account (what it charged for). */
const acceptedUploads = (accountId: string, target: Sandbox = sandbox) =>
	target.stats().uploads.filter((upload) => upload.accountId === accountId && upload.status === 202).length;

const extraction = (result: RunResult, index = 0) => result.outputs[0][index].json.extraction as IDataObject;

/** A sandbox of its own whose first upload ends in `error` (its faults are not shared with other tests). */
async function withFailingFirstUpload(test: (own: Sandbox, cred: TestCredential) => Promise<void>): Promise<void> {
	const own = await startSandbox({ timing: 'fast' });
	try {
		own.faults.enqueue('process', 'extractionError');
		await test(own, { apiKey: own.demoKey, baseUrl: own.baseUrl });
	} finally {
		await own.stop();
	}
}

/** The next run on the file uploads it again (a second accepted upload) and gets its data. */
async function expectUploadedAgain(own: Sandbox, cred: TestCredential, workflowId: string, item: INodeExecutionData, options: Partial<RunOptions> = {}): Promise<void> {
	const again = await run(cred, workflowId, extract(), [item], options);
	expect(again.error).toBeUndefined();
	expect(acceptedUploads(own.demoAccountId, own)).toBe(2);
	expect(extraction(again)).toMatchObject({ status: 'done', reused: false });
}

describe.concurrent('charged once, per account', () => {
	it('switching the credential to another account extracts in that account; going back reuses the first upload, and the items say so', async () => {
		const workflowId = newWorkflow();
		const first = newAccount();
		const second = newAccount();
		const item = await invoice();

		const inFirst = await run(first.cred, workflowId, extract(), [item]);
		expect(inFirst.error).toBeUndefined();
		expect(extraction(inFirst)).toMatchObject({ reused: false, pages_used: 1 });

		const inSecond = await run(second.cred, workflowId, extract(), [item]);
		expect(inSecond.error).toBeUndefined();
		expect(acceptedUploads(second.accountId), 'the new account is charged, not handed the old result').toBe(1);
		expect(extraction(inSecond).result_id).not.toBe(extraction(inFirst).result_id);
		expect(extraction(inSecond)).toMatchObject({ reused: false, pages_used: 1 });

		const backInFirst = await run(first.cred, workflowId, extract(), [item]);
		expect(backInFirst.error).toBeUndefined();
		expect(acceptedUploads(first.accountId), 'the first account is not charged again').toBe(1);
		expect(extraction(backInFirst)).toMatchObject({
			result_id: extraction(inFirst).result_id,
			reused: true,
			pages_used: 0,
			// When the service accepted the first upload: its result's created_at.
			first_extracted_at: extraction(inFirst).created_at,
		});
		const { extraction: reusedMeta, ...reusedFields } = backInFirst.outputs[0][0].json;
		const { extraction: firstMeta, ...firstFields } = inFirst.outputs[0][0].json;
		expect(reusedMeta).toBeDefined();
		expect(firstMeta).toBeDefined();
		expect(reusedFields).toEqual(firstFields);
		expect(backInFirst.hints.join(' ')).toMatch(/1 document was uploaded earlier by this node/);
	});

	it('two executions at once on one file upload it once and both get the data', async () => {
		const workflowId = newWorkflow();
		const { accountId, cred } = newAccount();
		const item = await invoice();
		const [a, b] = await Promise.all([run(cred, workflowId, extract(), [item]), run(cred, workflowId, extract(), [item])]);
		expect(a.error).toBeUndefined();
		expect(b.error).toBeUndefined();
		expect(acceptedUploads(accountId)).toBe(1);
		expect(extraction(a).result_id).toBe(extraction(b).result_id);
		expect([extraction(a).reused, extraction(b).reused].sort()).toEqual([false, true]);
		expect(a.outputs[0][0].json.invoice_number).toBeDefined();
		expect(b.outputs[0][0].json.invoice_number).toEqual(a.outputs[0][0].json.invoice_number);
	});

	it('a reused upload is marked on table rows and on the receipt, and the Poller reading that receipt says so too', async () => {
		const workflowId = newWorkflow();
		const { accountId, cred } = newAccount();
		const item = await invoice();
		const rows = await run(cred, workflowId, extract({ output: 'tableRows' }), [item]);
		expect(rows.error).toBeUndefined();
		expect(rows.outputs[0].length).toBeGreaterThan(1);
		for (const row of rows.outputs[0]) expect(row.json).toMatchObject({ reused: false, first_extracted_at: null });

		const receipt = await run(cred, workflowId, extract({ waitForResult: false }), [item]);
		expect(receipt.error).toBeUndefined();
		expect(acceptedUploads(accountId)).toBe(1);
		const receiptJson = receipt.outputs[0][0].json;
		expect(receiptJson).toMatchObject({ result_id: rows.outputs[0][0].json.result_id, reused: true, tokens_required: 0 });
		expect(typeof receiptJson.first_extracted_at).toBe('string');

		const polled = await runNode({ nodeType: 'poller', parameters: {}, credential: cred, input: [{ json: receiptJson }], workflowId });
		expect(polled.error).toBeUndefined();
		expect(polled.outputs[0][0].json.extraction).toMatchObject({ reused: true, pages_used: 0, first_extracted_at: receiptJson.first_extracted_at });

		const rowsAgain = await run(cred, workflowId, extract({ output: 'tableRows' }), [item]);
		expect(rowsAgain.outputs[0]).toHaveLength(rows.outputs[0].length);
		for (const row of rowsAgain.outputs[0]) expect(row.json).toMatchObject({ reused: true, first_extracted_at: receiptJson.first_extracted_at });
		expect(acceptedUploads(accountId)).toBe(1);
	});

	it('a template changed after the upload (e.g. in the web app) is never answered with the old extraction', async () => {
		const workflowId = newWorkflow();
		const { accountId, cred } = newAccount();
		const api = async (method: string, path: string, body?: unknown) => {
			const response = await fetch(`${cred.baseUrl}/api/v1${path}`, {
				method,
				headers: { 'X-API-Key': cred.apiKey, 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			return (await response.json()) as IDataObject;
		};
		const created = await api('POST', '/scanners', { name: 'Invoice number only', fields: [{ name: 'invoice_number', type: 'string' }] });
		const withTemplate = extract({ operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value: String(created.scanner_id) } });
		const item = await invoice();

		expect((await run(cred, workflowId, withTemplate, [item])).error).toBeUndefined();
		const unchanged = await run(cred, workflowId, withTemplate, [item]);
		expect(acceptedUploads(accountId), 'the template did not change: the result is reused').toBe(1);
		expect(extraction(unchanged).reused).toBe(true);

		await api('PATCH', `/scanners/${String(created.scanner_id)}`, { fields: [{ name: 'invoice_number', type: 'string' }, { name: 'total', type: 'number' }] });
		const changed = await run(cred, workflowId, withTemplate, [item]);
		expect(changed.error).toBeUndefined();
		expect(acceptedUploads(accountId), 'the template changed: the file is extracted again').toBe(2);
		expect(extraction(changed).reused).toBe(false);
		expect(changed.outputs[0][0].json).toHaveProperty('total');
	});
});

describe('results that cannot stand for a new upload', () => {
	it('a result the service no longer knows (RESULT_NOT_FOUND) is forgotten and the file uploaded once, in the same run', async () => {
		const workflowId = newWorkflow();
		const key = freshKey();
		const before = await startSandbox({ timing: 'fast', demoKey: key });
		const port = before.port;
		const cred = { apiKey: key, baseUrl: before.baseUrl };
		const item = await invoice();
		try {
			expect((await run(cred, workflowId, extract(), [item])).error).toBeUndefined();
		} finally {
			await before.stop();
		}
		// The same address and key, but a service that never saw the upload.
		const after = await startSandbox({ timing: 'fast', demoKey: key, port });
		try {
			const again = await run(cred, workflowId, extract(), [item]);
			expect(again.error).toBeUndefined();
			expect(acceptedUploads(after.demoAccountId, after)).toBe(1);
			expect(extraction(again)).toMatchObject({ reused: false, pages_used: 1 });
			const waitOff = await run(cred, workflowId, extract({ waitForResult: false }), [item]);
			expect(acceptedUploads(after.demoAccountId, after), 'the upload just made is the one reused').toBe(1);
			expect(waitOff.outputs[0][0].json).toMatchObject({ result_id: extraction(again).result_id, reused: true });
		} finally {
			await after.stop();
		}
	});

	for (const reader of ['poller', 'getResult'] as const) {
		it(`a result that ended in error, read by ${reader === 'poller' ? 'the Poller' : 'Get Result'}, is sent again by the next run`, async () => {
			const workflowId = newWorkflow();
			await withFailingFirstUpload(async (own, cred) => {
				const item = await invoice();
				const receipt = await run(cred, workflowId, extract({ waitForResult: false }), [item]);
				expect(receipt.error).toBeUndefined();
				const errorItem = reader === 'poller' ? await pollerErrorItem(cred, workflowId, receipt.outputs[0][0]) : await getResultUntilFinal(cred, workflowId, receipt.outputs[0][0]);
				expect(errorItem).toMatchObject({ status: 'error', error_code: 'PROCESSING_FAILED' });
				await expectUploadedAgain(own, cred, workflowId, item);
			});
		});
	}
});

async function pollerErrorItem(cred: TestCredential, workflowId: string, receipt: INodeExecutionData): Promise<IDataObject> {
	const read = await runNode({ nodeType: 'poller', parameters: {}, credential: cred, input: [receipt], workflowId });
	return read.outputs[2][0].json;
}

/** Get Result as a workflow loops it (Get Result, Wait, again) until the result is final. */
async function getResultUntilFinal(cred: TestCredential, workflowId: string, receipt: INodeExecutionData): Promise<IDataObject> {
	for (let attempt = 0; attempt < 30; attempt++) {
		const read = await run(cred, workflowId, { resource: 'document', operation: 'getResult' }, [receipt], { onError: 'continueRegularOutput' });
		const json = read.outputs[0][0].json;
		if (json.pending !== true) return json;
		await sleep(1000);
	}
	throw new Error('the result stayed pending');
}

/**
 * Another n8n process (n8n restarted, another queue-mode worker) does not hold this one's memory,
 * only what n8n's database holds: the marks of the deduplication helpers. `forgetAllUploads`
 * leaves exactly that behind.
 */
describe('what another n8n process knows: the marks in n8n\'s database', () => {
	const today = () => new Date().toISOString().slice(0, 10);

	it('a new execution does not upload a document this node extracted and says when; an Execute step or a Retry uploads it again and says so', async () => {
		const workflowId = newWorkflow();
		const { accountId, cred } = newAccount();
		const item = await invoice();
		const first = await run(cred, workflowId, extract(), [item], { mode: 'webhook' });
		expect(first.error).toBeUndefined();
		expect(acceptedUploads(accountId)).toBe(1);

		forgetAllUploads();
		const duplicate = await run(cred, workflowId, extract(), [item], { mode: 'webhook' });
		expect(duplicate.error).toBeUndefined();
		expect(acceptedUploads(accountId), 'the same invoice in another email is not charged again').toBe(1);
		expect(duplicate.outputs[0].map((out) => out.json)).toEqual([
			{
				status: 'duplicate',
				message: `Not extracted again: this node extracted the same file on ${today()}, in another execution. Its data is in that execution's output and in your account.`,
				file_name: 'invoice-en.pdf',
				first_extracted_at: today(),
				pages_used: 0,
			},
		]);
		expect(duplicate.outputs[0][0].pairedItem).toEqual({ item: 0 });
		expect(duplicate.hints.join(' ')).toMatch(/1 document was not uploaded: this node extracted the same file in an earlier execution/);

		const manual = await run(cred, workflowId, extract(), [item], { mode: 'manual' });
		expect(manual.error).toBeUndefined();
		expect(acceptedUploads(accountId), 'an Execute step wants the data: uploaded again').toBe(2);
		expect(extraction(manual)).toMatchObject({ reused: false, charged_again: true, first_extracted_at: today(), pages_used: 1 });
		expect(manual.hints.join(' ')).toMatch(/1 document was extracted before by this node in another n8n process .* uploaded and charged again/);

		forgetAllUploads();
		const retried = await run(cred, workflowId, extract({ waitForResult: false }), [item], { mode: 'retry' });
		expect(acceptedUploads(accountId), 'a Retry wants the data: uploaded again').toBe(3);
		expect(retried.outputs[0][0].json).toMatchObject({ charged_again: true, first_extracted_at: today() });
		const polled = await runNode({ nodeType: 'poller', parameters: {}, credential: cred, input: [retried.outputs[0][0]], workflowId });
		expect(polled.outputs[0][0].json.extraction).toMatchObject({ reused: false, charged_again: true, first_extracted_at: today() });
	});

	it('a result that ended in error leaves no mark: another process extracts the file again', async () => {
		const workflowId = newWorkflow();
		await withFailingFirstUpload(async (own, cred) => {
			const item = await invoice();
			const failed = await run(cred, workflowId, extract(), [item], { mode: 'webhook', onError: 'continueRegularOutput' });
			expect(failed.outputs[0][0].json).toMatchObject({ status: 'error', error_code: 'PROCESSING_FAILED' });
			forgetAllUploads();
			await expectUploadedAgain(own, cred, workflowId, item, { mode: 'webhook' });
		});
	});

	it('a result that ended in error, read by the Poller in another process, takes the mark away by the receipt\'s document key', async () => {
		const workflowId = newWorkflow();
		await withFailingFirstUpload(async (own, cred) => {
			const item = await invoice();
			const receipt = await run(cred, workflowId, extract({ waitForResult: false }), [item], { mode: 'webhook' });
			expect(receipt.outputs[0][0].json.document_key).toMatch(/^[0-9a-f]{64}$/);
			forgetAllUploads();
			expect((await pollerErrorItem(cred, workflowId, receipt.outputs[0][0])).status).toBe('error');
			forgetAllUploads();
			await expectUploadedAgain(own, cred, workflowId, item, { mode: 'webhook' });
		});
	});

	it('an upload the service refused leaves no mark: the next execution uploads the file', async () => {
		const workflowId = newWorkflow();
		const account = sandbox.accounts.create({ plan: 'free', pagesUsed: 20 });
		const cred = { apiKey: account.keys[0], baseUrl: sandbox.baseUrl };
		const item = await invoice();
		const refused = await run(cred, workflowId, extract({ waitForResult: false }), [item], { mode: 'webhook' });
		expect(refused.error?.message).toMatch(/Not enough pages left in your quota/);
		sandbox.accounts.update(account.id, { pagesUsed: 0 });
		const accepted = await run(cred, workflowId, extract({ waitForResult: false }), [item], { mode: 'webhook' });
		expect(accepted.error).toBeUndefined();
		expect(accepted.outputs[0][0].json).toMatchObject({ status: 'queued' });
		expect(accepted.outputs[0][0].json).not.toHaveProperty('charged_again');
		expect(acceptedUploads(account.id)).toBe(1);
	});
});

describe('template changes, sent once', () => {
	it('only a failed run keeps its changes for a Retry: a later execution that creates the same template creates it anew', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		const create = { resource: 'template', operation: 'create', name: '={{ $json.name }}', fieldsUi: { field: [{ name: 'total', type: 'currency' }] } };
		const input = [{ json: { name: 'Weekly supplier' } }];
		const first = await run(cred, workflowId, create, input, { mode: 'webhook' });
		expect(first.error).toBeUndefined();
		const firstId = String(first.outputs[0][0].json.scanner_id);
		// The workflow uses the template, then deletes it.
		const deleted = await run(cred, workflowId, { resource: 'template', operation: 'delete', templateId: { __rl: true, mode: 'id', value: firstId } }, [{ json: {} }]);
		expect(deleted.error).toBeUndefined();

		// A Retry of another execution that failed later on: this node runs again with the same input.
		const again = await run(cred, workflowId, create, input, { mode: 'retry' });
		expect(again.error).toBeUndefined();
		const secondId = String(again.outputs[0][0].json.scanner_id);
		expect(secondId).not.toBe(firstId);
		const listed = (await (await fetch(`${cred.baseUrl}/api/v1/scanners`, { headers: { 'X-API-Key': cred.apiKey } })).json()) as { scanners: Array<{ scanner_id: string }> };
		expect(listed.scanners.map((template) => template.scanner_id)).toContain(secondId);
	});
});
