/**
 * The duplicate-invoice check's records in n8n's database, when another write at the same moment
 * puts back what a look-up took away (n8n's row is read, then written whole, with no lock): what a
 * look-up leaves behind must never make another invoice a duplicate. Each check below runs as in
 * another n8n process (this process's memory forgotten), so only the row speaks.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import type { InvoiceFacts } from '../../nodes/shared/duplicates/invoiceKey';
import { InvoiceCheck, forgetInvoiceMemory } from '../../nodes/shared/duplicates/invoiceMarks';
import { nodeWithDeduplication } from '../harness/deduplication';

const NOW = Date.parse('2026-11-26T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const COMPARE_TOTAL = { compareTotal: true };

/** A run of a node in the workflow; `losing`: every removal it makes is lost. */
function run(workflowId: string, { losing = false, at = NOW } = {}): InvoiceCheck {
	const ctx = nodeWithDeduplication(workflowId);
	const helpers = losing ? { ...ctx.helpers, removeProcessed: async () => {} } : ctx.helpers;
	return new InvoiceCheck({ ...ctx, helpers, getWorkflow: () => ({ id: workflowId }) } as unknown as IExecuteFunctions, () => at);
}

async function checkOnce(check: InvoiceCheck, identity: string, facts: InvoiceFacts) {
	const verdict = await check.check({ identity, resultId: `res-${identity}`, fileName: `${identity}.pdf` }, facts, COMPARE_TOTAL);
	await check.settle();
	return verdict;
}

// Two different invoices of one supplier, same total and date (a monthly subscription), other numbers.
const march = { supplier: 'vat:GB123456789', number: '1001', suffix: '', total: '4900', currency: 'GBP', date: '2026-11-20' };
const april = { ...march, number: '1002' };

describe('duplicate-invoice records under lost removals', () => {
	beforeEach(() => forgetInvoiceMemory());

	it('a look-up whose removals were all lost leaves nothing that flags another invoice', async () => {
		expect((await checkOnce(run('wf-inv-lost', { losing: true }), 'doc-march', march)).level).toBeNull();
		forgetInvoiceMemory();
		expect((await checkOnce(run('wf-inv-lost', { at: NOW + DAY }), 'doc-april', april)).level).toBeNull();
		forgetInvoiceMemory();
		// The same subscription a month later, once more: still a different invoice.
		expect((await checkOnce(run('wf-inv-lost', { at: NOW + 2 * DAY }), 'doc-may', { ...march, number: '1003' })).level).toBeNull();
	});

	it('another file of the same invoice is still flagged likely, with the day the first was seen', async () => {
		expect((await checkOnce(run('wf-inv-same', { losing: true }), 'doc-portal', march)).level).toBeNull();
		forgetInvoiceMemory();
		const verdict = await checkOnce(run('wf-inv-same', { at: NOW + 3 * DAY }), 'doc-scan', march);
		expect(verdict).toMatchObject({ level: 'likely', firstSeen: '2026-11-26' });
		forgetInvoiceMemory();
		// The scan's file met again (a Retry in another process): what its first check said.
		expect(await checkOnce(run('wf-inv-same', { at: NOW + 4 * DAY }), 'doc-scan', march)).toMatchObject({ level: 'likely', firstSeen: '2026-11-26' });
		// The first file met again: never its own duplicate.
		forgetInvoiceMemory();
		expect((await checkOnce(run('wf-inv-same', { at: NOW + 4 * DAY }), 'doc-portal', march)).level).toBeNull();
	});

	it('the days a lost removal put back never pass for the day the invoice was first seen', async () => {
		expect((await checkOnce(run('wf-inv-days'), 'doc-portal', march)).level).toBeNull();
		forgetInvoiceMemory();
		// A reminder's file two days later: its look-up asks for the days the invoice was seen, and
		// every removal of what that added is lost, so the 35 days before stand in the row.
		expect(await checkOnce(run('wf-inv-days', { losing: true, at: NOW + 2 * DAY }), 'doc-reminder', march)).toMatchObject({ level: 'likely', firstSeen: '2026-11-26' });
		forgetInvoiceMemory();
		expect(await checkOnce(run('wf-inv-days', { at: NOW + 3 * DAY }), 'doc-scan', march)).toMatchObject({ level: 'likely', firstSeen: '2026-11-26' });
	});
});
