/**
 * Issue 43: the same invoice as another file (a regenerated reminder PDF, a scan, a photo) is
 * flagged on its items: the action node and the Poller through n8n's engine against the sandbox,
 * n8n's deduplication store faked as its own is (test/harness/deduplication.ts: no lock).
 * `forgetAllUploads` and `forgetInvoiceMemory` leave what another n8n process knows: the marks.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { forgetInvoiceMemory } from '../../nodes/shared/duplicates/invoiceMarks';
import { forgetAllUploads } from '../../nodes/shared/http/uploadReceipts';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { INVOICES, renderInvoice, type InvoiceSample, type InvoiceTruth } from '../fixtures/documents/invoices';
import { binaryItem, runNode, type RunResult, type TestCredential } from '../harness/engine';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
});
afterAll(async () => await sandbox?.stop());

const today = () => new Date().toISOString().slice(0, 10);
let workflows = 0;
const newWorkflow = () => `wf-duplicate-invoices-${++workflows}`;

function newAccount(): { accountId: string; cred: TestCredential } {
	const account = sandbox.accounts.create({ plan: 'paid' });
	return { accountId: account.id, cred: { apiKey: account.keys[0], baseUrl: sandbox.baseUrl } };
}

/**
 * A file of the sample invoice: `printedFor` changes only the customer's address line (another
 * rendering of the same invoice: other bytes, the same fields), `truth` what the invoice says.
 */
async function invoiceFile(fileName: string, printedFor: string, truth: Partial<InvoiceTruth> = {}): Promise<INodeExecutionData> {
	const sample: InvoiceSample = { ...INVOICES.invoiceEn, customerAddress: printedFor, truth: { ...INVOICES.invoiceEn.truth, ...truth } };
	return binaryItem(await renderInvoice(sample), fileName, 'application/pdf');
}

const extract = (parameters: INodeParameters = {}): INodeParameters => ({ resource: 'document', operation: 'extract', ...parameters });

async function run(cred: TestCredential, workflowId: string, item: INodeExecutionData, parameters: INodeParameters = {}): Promise<RunResult> {
	const result = await runNode({ nodeType: 'action', parameters: extract(parameters), credential: cred, input: [item], workflowId, mode: 'webhook' });
	expect(result.error).toBeUndefined();
	return result;
}

const extraction = (result: RunResult) => result.outputs[0][0].json.extraction as IDataObject;
const flag = (result: RunResult) => {
	const { duplicate_invoice, duplicate_invoice_first_seen, duplicate_invoice_result_id, duplicate_invoice_file_name } = extraction(result);
	return { duplicate_invoice, duplicate_invoice_first_seen, duplicate_invoice_result_id, duplicate_invoice_file_name };
};
const NOT_FLAGGED = { duplicate_invoice: null, duplicate_invoice_first_seen: null, duplicate_invoice_result_id: null, duplicate_invoice_file_name: null };

describe.concurrent('the same invoice as another file', () => {
	it('the second file of one invoice, in another execution, is a likely duplicate with the first one\'s day, result ID and file name; another process knows the day', async () => {
		const workflowId = newWorkflow();
		const { accountId, cred } = newAccount();
		const portal = await run(cred, workflowId, await invoiceFile('portal.pdf', '48 Sample Road, Leeds LS1 4AP'));
		expect(flag(portal)).toEqual(NOT_FLAGGED);

		const reminder = await run(cred, workflowId, await invoiceFile('reminder.pdf', '48 Sample Road, Leeds LS1 4AP, United Kingdom'));
		expect(extraction(reminder)).toMatchObject({ reused: false, pages_used: 1 });
		expect(flag(reminder)).toEqual({
			duplicate_invoice: 'likely',
			duplicate_invoice_first_seen: today(),
			duplicate_invoice_result_id: extraction(portal).result_id,
			duplicate_invoice_file_name: 'portal.pdf',
		});
		expect(sandbox.stats().uploads.filter((upload) => upload.accountId === accountId && upload.status === 202)).toHaveLength(2);
	});

	it('a resubmission mark on the number makes a possible duplicate; another invoice of the supplier is none', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		expect(flag(await run(cred, workflowId, await invoiceFile('a.pdf', 'Leeds')))).toEqual(NOT_FLAGGED);
		const resubmitted = await run(cred, workflowId, await invoiceFile('a-r.pdf', 'Leeds', { invoice_number: 'INV-2026-0042-R' }));
		expect(flag(resubmitted)).toMatchObject({ duplicate_invoice: 'possible', duplicate_invoice_first_seen: today(), duplicate_invoice_file_name: 'a.pdf' });
		const next = await run(cred, workflowId, await invoiceFile('b.pdf', 'Leeds', { invoice_number: 'INV-2026-0043' }));
		expect(flag(next)).toEqual(NOT_FLAGGED);
	});

	it('the same file met again (its upload reused) does not flag itself', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		const item = await invoiceFile('same.pdf', 'Leeds');
		await run(cred, workflowId, item);
		const again = await run(cred, workflowId, item);
		expect(extraction(again).reused).toBe(true);
		expect(flag(again)).toEqual(NOT_FLAGGED);
	});

	it('Flag Duplicate Invoices off: no keys; table rows carry them when on', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		await run(cred, workflowId, await invoiceFile('one.pdf', 'Leeds'));
		const off = await run(cred, workflowId, await invoiceFile('two.pdf', 'Leeds, UK'), { options: { flagDuplicateInvoices: false } });
		expect(Object.keys(extraction(off)).filter((key) => key.startsWith('duplicate_invoice'))).toEqual([]);
		const rows = await run(cred, workflowId, await invoiceFile('three.pdf', 'Leeds, GB'), { output: 'tableRows' });
		for (const row of rows.outputs[0]) expect(row.json).toMatchObject({ duplicate_invoice: 'likely', duplicate_invoice_first_seen: today() });
	});

	it('Compare Total off: the same number with another total is likely', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		await run(cred, workflowId, await invoiceFile('one.pdf', 'Leeds'));
		const other = await invoiceFile('two.pdf', 'Leeds', { line_items: [{ description: 'Website design package', quantity: 1, unit_price: 750, amount: 750 }], subtotal: 750, tax_amount: 150, total: 900 });
		expect(flag(await run(cred, workflowId, other))).toMatchObject({ duplicate_invoice: 'possible' });
		const third = await invoiceFile('three.pdf', 'Leeds, UK', { line_items: [{ description: 'Website design package', quantity: 1, unit_price: 750, amount: 750 }], subtotal: 750, tax_amount: 150, total: 900 });
		expect(flag(await run(cred, workflowId, third, { options: { duplicateInvoiceCompareTotal: false } }))).toMatchObject({ duplicate_invoice: 'likely' });
	});
});

describe('what another n8n process knows', () => {
	it('executions at once lose no record (the store has no lock): after a restart each invoice\'s second file is flagged with the day only', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		const numbers = ['INV-2026-0100', 'INV-2026-0101', 'INV-2026-0102', 'INV-2026-0103', 'INV-2026-0104'];
		const firsts = await Promise.all(numbers.map(async (number) => await run(cred, workflowId, await invoiceFile(`${number}.pdf`, 'Leeds', { invoice_number: number }))));
		for (const first of firsts) expect(flag(first)).toEqual(NOT_FLAGGED);

		forgetAllUploads();
		forgetInvoiceMemory();
		const seconds = await Promise.all(numbers.map(async (number) => await run(cred, workflowId, await invoiceFile(`${number}-scan.pdf`, 'Leeds, UK', { invoice_number: number }))));
		for (const second of seconds) {
			expect(flag(second)).toEqual({ duplicate_invoice: 'likely', duplicate_invoice_first_seen: today(), duplicate_invoice_result_id: null, duplicate_invoice_file_name: null });
		}
	});

	it('the Poller reading a receipt again in another process says what the first check said', async () => {
		const workflowId = newWorkflow();
		const { cred } = newAccount();
		await run(cred, workflowId, await invoiceFile('first.pdf', 'Leeds'));
		const receipt = await runNode({ nodeType: 'action', parameters: extract({ waitForResult: false }), credential: cred, input: [await invoiceFile('second.pdf', 'Leeds, UK')], workflowId, mode: 'webhook' });
		const poll = async () => (await runNode({ nodeType: 'poller', parameters: {}, credential: cred, input: [receipt.outputs[0][0]], workflowId })).outputs[0][0].json.extraction as IDataObject;
		expect(await poll()).toMatchObject({ duplicate_invoice: 'likely', duplicate_invoice_file_name: 'first.pdf' });
		forgetInvoiceMemory();
		expect(await poll()).toMatchObject({ duplicate_invoice: 'likely', duplicate_invoice_first_seen: today(), duplicate_invoice_file_name: null });
	});
});
