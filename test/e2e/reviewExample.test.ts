/**
 * Issue 43, a person's look: the example "email invoices to n8n Data Tables"
 * (examples/email-invoices-to-data-table.json) as shipped, published in a real n8n with only its
 * credentials set, its Email Trigger (IMAP) reading a real mailbox (Dovecot).
 *
 * First fetch: an invoice's PDF. Second fetch, one execution: the same invoice as another file (a
 * reminder, rendered again: other bytes, the same fields: a likely duplicate), the same invoice
 * resubmitted as `INV-2026-0042-R` (a possible duplicate) and another invoice whose total does not
 * add up (read with low confidence). All three go to the review branch instead of the table: the
 * execution waits on the Wait node's form, the link to which the notify node holds. The test does
 * what the reviewer does with a browser: opens the link (pre-filled values, the reasons), submits
 * the form over HTTP as a browser posts it (multipart/form-data, `field-<n>`). The duplicates are
 * left out (their Decision kept at "Do not add it"), the other invoice's lines land with the
 * corrected total, `reviewed_by` and `reviewed_at`, only after its form was submitted; a third
 * invoice of that fetch, needing no look, is in the table before the first form is shown.
 *
 * The workflow is imported under its own ID, so that its duplicate and charge marks (kept per
 * workflow in n8n's database) are not those of dataTableExample.test.ts in the same user folder;
 * tables of the example's names left by another test are deleted first, and this test's at the end.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dovecotMissing, startDovecot, type Mailbox } from '../../scripts/n8n/dovecot';
import { createN8nHome, runEmailExample, type EmailRun } from '../../scripts/n8n/emailExample';
import type { N8nRestApi } from '../../scripts/n8n/restApi';
import { EXAMPLE_CREDENTIAL, loadExample, sandboxCredential } from '../../scripts/n8n/workflows';
import { INVOICES, renderInvoice } from '../fixtures/documents/invoices';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { skipNotice } from '../harness/skipNotice';
import { DATA_TABLE_NODES, deleteTable, personalProject, rowsOf, setUpAsOnN8n1, tableOf, tablesNamed, type Row } from './dataTables';
import { ADD, inputValue, mail, REVIEWER, reviewer, SKIP } from './review';
import { e2eOwner, n8n, startE2eSandbox } from './support';

const missing = dovecotMissing();
if (missing && process.env.REQUIRE_DOVECOT === '1') throw new Error(`REQUIRE_DOVECOT is set: ${missing}`);
if (missing) skipNotice(`the review step of the Data Table example: ${missing.split('\n')[0]}`);

const CORRECTED_TOTAL = 1234.56;

const FIRST = 'INV-2026-0042.pdf';
const REMINDER = 'INV-2026-0042-reminder.pdf';
const RESUBMITTED = 'INV-2026-0042-R.pdf';
const DOUBTFUL = 'INV-2026-0043.pdf';
const CLEAN = 'RE-2026-1187.pdf';

describe.skipIf(Boolean(missing))('the Data Table example: a person looks before the rows', () => {
	const line = n8n().runtime.release.line;
	const example = { ...loadExample('emailToDataTable'), id: 'DocExEmailToDataTableReview' };
	const tables = { lines: tableOf(example, DATA_TABLE_NODES.createLines), attention: tableOf(example, DATA_TABLE_NODES.createAttention) };
	let sandbox: RemoteSandbox;
	let mailbox: Mailbox;
	let home: string;
	let run: EmailRun;
	let rows: Row[] = [];
	let projectId = '';
	const linesTable = async (api: N8nRestApi) => (await tablesNamed(api, projectId, tables.lines.name))[0];
	// The reviewer leaves a duplicate out (its Decision pre-set to "Do not add it") and corrects the total of any other.
	const { reviews, onWaiting } = reviewer({
		rows: async (api) => {
			const table = await linesTable(api);
			return table ? await rowsOf(api, table) : [];
		},
		decide: (item) => (item.duplicate_invoice ? { Decision: SKIP } : { Decision: ADD, Total: String(CORRECTED_TOTAL) }),
	});
	let seconds = 0;

	beforeAll(async () => {
		const started = Date.now();
		const same = INVOICES.invoiceEn;
		const morning = [mail('Invoice INV-2026-0042 from Brightline Studio', FIRST, await renderInvoice({ ...same, customerAddress: '48 Sample Road, Leeds LS1 4AP' }), 'Thu, 05 Mar 2026 09:12:00 +0000')];
		const afternoon = [
			mail('Reminder: invoice INV-2026-0042', REMINDER, await renderInvoice({ ...same, customerAddress: '48 Sample Road, Leeds LS1 4AP, United Kingdom' }), 'Thu, 05 Mar 2026 15:40:00 +0000'),
			// The same invoice resubmitted under its number with a resubmission mark: a possible duplicate.
			mail('Invoice INV-2026-0042-R (resubmitted)', RESUBMITTED, await renderInvoice({ ...same, truth: { ...same.truth, invoice_number: 'INV-2026-0042-R' } }), 'Thu, 05 Mar 2026 15:40:30 +0000'),
			mail('Invoice INV-2026-0043 from Brightline Studio', DOUBTFUL, await renderInvoice(INVOICES.invoiceInconsistent), 'Thu, 05 Mar 2026 15:41:00 +0000'),
			// Another supplier's invoice in the same fetch, needing no look.
			mail('Rechnung RE-2026-1187', CLEAN, await renderInvoice(INVOICES.invoiceDe), 'Thu, 05 Mar 2026 15:42:00 +0000'),
		];
		sandbox = await startE2eSandbox({ timing: 'fast' });
		mailbox = await startDovecot(() => undefined);
		home = createN8nHome('n8n-docx-e2e-review-');

		run = await runEmailExample(n8n(), {
			workflow: example,
			mailbox,
			credentials: [sandboxCredential(sandbox.baseUrl, sandbox.demoKey, EXAMPLE_CREDENTIAL)],
			log: () => undefined,
			fetches: [morning, afternoon],
			home,
			owner: e2eOwner(),
			onWaiting,
			beforeActivate: async (api) => {
				projectId = await personalProject(api);
				// Tables of these names left in the shared user folder by another test file.
				for (const spec of [tables.lines, tables.attention]) for (const table of await tablesNamed(api, projectId, spec.name)) await deleteTable(api, table);
				if (line === '1') await setUpAsOnN8n1(api, projectId, example.id, tables);
			},
			afterRuns: async (api) => {
				const table = await linesTable(api);
				rows = table ? await rowsOf(api, table) : [];
				for (const spec of [tables.lines, tables.attention]) for (const found of await tablesNamed(api, projectId, spec.name)) await deleteTable(api, found);
			},
		});
		seconds = Math.round((Date.now() - started) / 1000);
		process.stdout.write(`[review] n8n ${line}: the mail, the forms and the rows took ${seconds} s\n`);
	});

	afterAll(async () => {
		await mailbox?.stop();
		await sandbox?.stop();
		if (home) rmSync(home, { recursive: true, force: true });
	});

	const byFile = (fileName: string) => rows.filter((row) => row.file_name === fileName);
	const reviewOf = (fileName: string) => {
		const found = reviews.find((candidate) => candidate.item.file_name === fileName);
		if (!found) throw new Error(`No form was shown for ${fileName}`);
		return found;
	};

	it('both executions succeeded; the second waited three times, one form per document, and went on after each submission', () => {
		expect(run.executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(reviews.map((candidate) => candidate.item.file_name)).toEqual([REMINDER, RESUBMITTED, DOUBTFUL]);
		expect(new Set(reviews.map((candidate) => candidate.executionId))).toEqual(new Set([run.executions[1].id]));
		for (const candidate of reviews) {
			expect(candidate.answer).toBe(200);
			expect(candidate.link).toContain(`/form-waiting/${run.executions[1].id}`);
		}
	});

	it('the first file of the invoice went straight to the table, without a look', () => {
		expect(byFile(FIRST).map((row) => row.line_number)).toEqual(INVOICES.invoiceEn.truth.line_items.map((_, n) => n + 1));
		for (const row of byFile(FIRST)) expect(row).toMatchObject({ invoice_number: 'INV-2026-0042', invoice_total: INVOICES.invoiceEn.truth.total, reviewed_by: null, reviewed_at: null });
	});

	it('an invoice of the same fetch that needs no look is not held back: its rows are there before the first form is shown', () => {
		expect(reviews[0].rowsBefore.filter((row) => row.file_name === CLEAN).map((row) => row.line_number)).toEqual(INVOICES.invoiceDe.truth.line_items.map((_, n) => n + 1));
		for (const row of byFile(CLEAN)) expect(row).toMatchObject({ invoice_number: INVOICES.invoiceDe.truth.invoice_number, reviewed_by: null });
	});

	it('the same invoice as a second, different file is flagged a likely duplicate, shown to the reviewer as one, and kept out of the rows', () => {
		const reminder = reviewOf(REMINDER);
		expect(reminder.item).toMatchObject({ duplicate_invoice: 'likely', duplicate_invoice_file_name: FIRST, invoice_number: 'INV-2026-0042' });
		expect(reminder.page).toContain('likely duplicate');
		expect(reminder.page).toContain(FIRST);
		expect(reminder.rowsBefore.filter((row) => row.file_name === REMINDER)).toEqual([]);
		expect(byFile(REMINDER)).toEqual([]);
	});

	it('the same invoice resubmitted under its number with a resubmission mark (-R) is flagged a possible duplicate, shown to the reviewer as one, and kept out of the rows', () => {
		const resubmitted = reviewOf(RESUBMITTED);
		expect(resubmitted.item).toMatchObject({ duplicate_invoice: 'possible', duplicate_invoice_file_name: FIRST, invoice_number: 'INV-2026-0042-R' });
		expect(resubmitted.page).toContain('possible duplicate');
		expect(resubmitted.page).toContain(FIRST);
		expect(inputValue(resubmitted.page, 'field-0')).toBe('INV-2026-0042-R');
		expect(resubmitted.rowsBefore.filter((row) => row.file_name === RESUBMITTED)).toEqual([]);
		expect(byFile(RESUBMITTED)).toEqual([]);
	});

	it('the invoice with a doubtful total waited: no row until the form was submitted, pre-filled with its values and why', () => {
		const doubtful = reviewOf(DOUBTFUL);
		expect(String(doubtful.item.needs_review)).toMatch(/(^|, )total(,|$)/);
		expect(doubtful.rowsBefore.filter((row) => row.file_name === DOUBTFUL)).toEqual([]);
		// Pre-filled: what the browser would post unchanged.
		expect(inputValue(doubtful.page, 'field-0')).toBe('INV-2026-0043');
		expect(Number(inputValue(doubtful.page, 'field-3'))).toBe(INVOICES.invoiceInconsistent.truth.total);
		expect(inputValue(doubtful.page, 'field-7')).toBe(doubtful.item.result_id);
		expect(doubtful.page).toContain('low confidence');
	});

	it('after the submission its lines are rows with the corrected total, reviewed_by and reviewed_at', () => {
		const doubtful = reviewOf(DOUBTFUL);
		const landed = byFile(DOUBTFUL);
		expect(landed.map((row) => row.line_number)).toEqual(INVOICES.invoiceInconsistent.truth.line_items.map((_, n) => n + 1));
		for (const row of landed) {
			expect(row).toMatchObject({ invoice_number: 'INV-2026-0043', invoice_total: CORRECTED_TOTAL, reviewed_by: REVIEWER, email_subject: 'Invoice INV-2026-0043 from Brightline Studio', result_id: doubtful.item.result_id });
			const reviewedAt = Date.parse(String(row.reviewed_at));
			expect(reviewedAt).toBeGreaterThan(Date.now() - 10 * 60_000);
		}
		expect(rows).toHaveLength(INVOICES.invoiceEn.truth.line_items.length + INVOICES.invoiceInconsistent.truth.line_items.length + INVOICES.invoiceDe.truth.line_items.length);
		expect(seconds, 'the test\'s run time').toBeLessThan(180);
	});
});
