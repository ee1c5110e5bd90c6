/**
 * Issue 42: the example "email invoices to n8n Data Tables" (examples/email-invoices-to-data-table.json),
 * for n8n Cloud, which has no Read/Write Files from Disk. Published in a real n8n with only its
 * credentials set, its Email Trigger (IMAP) reading a real mailbox (Dovecot) that receives the same
 * mail as the spreadsheet example's (email.test.ts, scripts/n8n/sampleEmails.ts): a morning's mail
 * in one execution, an afternoon's in a second. The rows are then read back from n8n's own data
 * tables through its REST API (what the editor's Data tables tab shows).
 *
 * n8n 2.41.1: as shipped; the workflow creates both tables itself (Data table → Table → Create,
 * Reuse Existing Tables) and writes into them By Name.
 * n8n 1.123.81: its Data table node has no Table resource and no By Name mode, so the example's
 * sticky note "The Two Tables" has the user create both tables by hand, deactivate the two Create
 * nodes and pick each table From List; the test does exactly that through the REST API (as the
 * editor does) before publishing, and checks the same rows.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dovecotMissing, startDovecot, type Mailbox } from '../../scripts/n8n/dovecot';
import { createN8nHome, runEmailExample, type EmailRun } from '../../scripts/n8n/emailExample';
import { PROTECTED_CONTRACT, sampleMailbox, type SampleEmail, type SampleMailbox } from '../../scripts/n8n/sampleEmails';
import { EXAMPLE_CREDENTIAL, loadExample, sandboxCredential } from '../../scripts/n8n/workflows';
import { SAMPLES } from '../fixtures';
import { skipNotice } from '../harness/skipNotice';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { columnsOf, DATA_TABLE_NODES, exampleNode as node, personalProject, rowsOf, setColumns, setUpAsOnN8n1, tableOf, tablesNamed, type DataTable, type Row } from './dataTables';
import { e2eOwner, n8n, startE2eSandbox } from './support';

const missing = dovecotMissing();
if (missing && process.env.REQUIRE_DOVECOT === '1') throw new Error(`REQUIRE_DOVECOT is set: ${missing}`);
if (missing) skipNotice(`the Data Table example: ${missing.split('\n')[0]}`);

type Lines = Array<{ description: string; quantity?: number; unit_price?: number; amount?: number }>;

const NODES = DATA_TABLE_NODES;

/** Each readable document's lines, as the sample's truth has them. */
const EXPECTED_LINES: Record<string, Lines> = {
	'invoice-en.pdf': (SAMPLES.invoiceEn.expected as { line_items: Lines }).line_items,
	'receipt.png': (SAMPLES.receiptPng.expected as { items: Lines }).items,
	'IMG_2041.jpg': (SAMPLES.receiptJpeg.expected as { items: Lines }).items,
	'rechnung-de.pdf': (SAMPLES.invoiceDe.expected as { line_items: Lines }).line_items,
	'facture-fr.pdf': (SAMPLES.invoiceFr.expected as { line_items: Lines }).line_items,
};

describe.skipIf(Boolean(missing))('email invoices to n8n Data Tables, from a real mailbox', () => {
	const line = n8n().runtime.release.line;
	const example = loadExample('emailToDataTable');
	const tables = { lines: tableOf(example, NODES.createLines), attention: tableOf(example, NODES.createAttention) };
	let sandbox: RemoteSandbox;
	let mailbox: Mailbox;
	let home: string;
	let fetches: SampleMailbox;
	let emails: SampleEmail[];
	let run: EmailRun;
	/** Before publishing, the tables of that name in the owner's project. */
	let before: { lines: DataTable[]; attention: DataTable[] };
	/** After both batches. */
	let after: { lines: DataTable[]; attention: DataTable[]; lineRows: Row[]; attentionRows: Row[]; lineColumns: string[]; attentionColumns: Array<{ name: string; type: string }> };

	beforeAll(async () => {
		fetches = await sampleMailbox();
		emails = fetches.flat();
		sandbox = await startE2eSandbox({ timing: 'fast' });
		mailbox = await startDovecot(() => undefined);
		home = createN8nHome('n8n-docx-e2e-data-table-');
		let projectId = '';
		run = await runEmailExample(n8n(), {
			// As shipped: only the credentials are set (the IMAP one by runEmailExample).
			workflow: example,
			mailbox,
			credentials: [sandboxCredential(sandbox.baseUrl, sandbox.demoKey, EXAMPLE_CREDENTIAL)],
			log: () => undefined,
			fetches,
			home,
			owner: e2eOwner(),
			beforeActivate: async (api) => {
				projectId = await personalProject(api);
				before = { lines: await tablesNamed(api, projectId, tables.lines.name), attention: await tablesNamed(api, projectId, tables.attention.name) };
				if (line === '1') await setUpAsOnN8n1(api, projectId, example.id, tables);
			},
			afterRuns: async (api) => {
				const lines = await tablesNamed(api, projectId, tables.lines.name);
				const attention = await tablesNamed(api, projectId, tables.attention.name);
				after = {
					lines,
					attention,
					lineRows: lines[0] ? await rowsOf(api, lines[0]) : [],
					attentionRows: attention[0] ? await rowsOf(api, attention[0]) : [],
					lineColumns: lines[0] ? (await columnsOf(api, lines[0])).map((column) => column.name) : [],
					attentionColumns: attention[0] ? (await columnsOf(api, attention[0])).map(({ name, type }) => ({ name, type })) : [],
				};
			},
		});
	});

	afterAll(async () => {
		await mailbox?.stop();
		await sandbox?.stop();
		if (home) rmSync(home, { recursive: true, force: true });
	});

	const email = (predicate: (sample: SampleEmail) => boolean) => {
		const found = emails.find(predicate);
		if (!found) throw new Error('The sample mailbox lacks an email the test needs');
		return found;
	};
	const address = (sample: SampleEmail) => /<([^>]+)>/.exec(sample.from)?.[1] ?? sample.from;
	const dateHeader = (sample: SampleEmail) => /^Date: (.+)$/m.exec(sample.message.toString('latin1'))?.[1]?.trim();

	it('n8n ran the morning\'s and the afternoon\'s mail, each in one execution, and both succeeded', () => {
		expect(run.executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(run.emails).toHaveLength(emails.length);
	});

	it(line === '2' ? 'the workflow created both tables itself on its first run, once, with its columns' : 'n8n 1.x: the tables made by hand as the sticky note says are the ones written to', () => {
		if (line === '2') expect(before).toEqual({ lines: [], attention: [] });
		expect(after.lines).toHaveLength(1);
		expect(after.attention).toHaveLength(1);
		expect(after.lineColumns).toEqual(tables.lines.columns.map((column) => column.name));
		expect(after.attentionColumns).toEqual(tables.attention.columns);
		// The explicit mapping: every column an Edit Fields node keeps is a column of its table, and no other;
		// reviewed_by and reviewed_at are filled only on the lines a person reviewed (reviewExample.test.ts).
		expect(setColumns(example, NODES.lineColumns)).toEqual(after.lineColumns.filter((column) => !column.startsWith('reviewed_')));
		expect(setColumns(example, NODES.reviewedLineColumns)).toEqual(after.lineColumns);
		expect(setColumns(example, NODES.attentionColumns)).toEqual(after.attentionColumns.map((column) => column.name));
		// The note an n8n 1.x user follows lists the same columns and types.
		const note = String(node(example, NODES.tablesNote).parameters.content);
		for (const column of [...tables.lines.columns, ...tables.attention.columns]) expect(note).toContain(`\`${column.name}\` (${column.type})`);
	});

	it('every invoice line is a row once, numbered, with its invoice, amounts, the email\'s sender, subject and date, its file and result', () => {
		const withDocuments = emails.filter((sample) => sample.documents.length > 0);
		const key = (row: Row) => `${String(row.email_subject)} / ${String(row.file_name)}`;
		expect([...new Set(after.lineRows.map(key))].sort()).toEqual(withDocuments.flatMap((sample) => sample.documents.map((name) => `${sample.subject} / ${name}`)).sort());
		for (const sample of withDocuments) {
			for (const fileName of sample.documents) {
				const rows = after.lineRows.filter((row) => row.email_subject === sample.subject && row.file_name === fileName);
				const expected = EXPECTED_LINES[fileName];
				const byNumber = [...rows].sort((a, b) => Number(a.line_number) - Number(b.line_number));
				expect(byNumber.map((row) => row.line_number), `${fileName}: line numbers`).toEqual(expected.map((_, n) => n + 1));
				expect(byNumber.map((row) => row.description), fileName).toEqual(expected.map((expectedLine) => expectedLine.description));
				// The invoices' amounts as numbers (the receipts, read with the Invoice template, are checked by their lines).
				if (fileName.endsWith('.pdf')) {
					expect(byNumber.map(({ quantity, unit_price, amount }) => ({ quantity, unit_price, amount })), `${fileName}: amounts`).toEqual(
						expected.map(({ quantity, unit_price, amount }) => ({ quantity, unit_price, amount })),
					);
				}
				expect(new Set(rows.map((row) => row.result_id)).size, `${fileName}: one result`).toBe(1);
				for (const row of rows) {
					expect(row.result_id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
					expect(String(row.email_from)).toContain(address(sample));
					expect(Date.parse(String(row.email_date)), `${fileName}: email_date`).toBe(Date.parse(String(dateHeader(sample))));
				}
			}
		}
		const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string; supplier_name: string; total: number; currency: string };
		const invoiceRows = after.lineRows.filter((row) => row.file_name === 'invoice-en.pdf');
		for (const row of invoiceRows) {
			expect(row).toMatchObject({ invoice_number: invoice.invoice_number, supplier_name: invoice.supplier_name, invoice_total: invoice.total, currency: invoice.currency });
		}
		// Only the columns of the table: n8n's own id and times besides.
		for (const row of after.lineRows) expect(Object.keys(row).sort()).toEqual([...after.lineColumns, 'id', 'createdAt', 'updatedAt'].sort());
	});

	it('the invoice mailed again and forwarded was not added twice: its lines are there once, from the first email', () => {
		const first = email((sample) => sample.documents.includes('invoice-en.pdf'));
		const repeats = emails.filter((sample) => sample.repeated.length > 0);
		expect(repeats.length).toBeGreaterThanOrEqual(2);
		expect(after.lineRows.filter((row) => row.file_name === 'invoice-en.pdf')).toHaveLength(EXPECTED_LINES['invoice-en.pdf'].length);
		expect(new Set(after.lineRows.filter((row) => row.file_name === 'invoice-en.pdf').map((row) => row.email_subject))).toEqual(new Set([first.subject]));
		for (const sample of repeats) expect(after.lineRows.filter((row) => row.email_subject === sample.subject), sample.subject).toEqual([]);
		// They went to Already Extracted, in the first execution and in the second.
		expect([...new Set(run.alreadyExtracted.map((item) => item.json.subject))].sort()).toEqual(repeats.map((sample) => sample.subject).sort());
		const total = Object.values(EXPECTED_LINES).reduce((sum, lines) => sum + lines.length, 0);
		expect(after.lineRows).toHaveLength(total);
	});

	it('every file that cannot be read is a Needs Attention row: which email, which file, the reason and what to do', () => {
		const expected = emails.flatMap((sample) => Object.entries(sample.unreadable).map(([fileName, why]) => ({ sample, fileName, why })));
		const key = (subject: unknown, fileName: unknown) => `${String(subject)} / ${String(fileName)}`;
		expect(after.attentionRows.map((row) => key(row.email_subject, row.file_name)).sort()).toEqual(expected.map(({ sample, fileName }) => key(sample.subject, fileName)).sort());
		for (const { sample, fileName, why } of expected) {
			const row = after.attentionRows.find((candidate) => key(candidate.email_subject, candidate.file_name) === key(sample.subject, fileName));
			expect(row, fileName).toMatchObject({
				email_subject: sample.subject,
				file_name: fileName,
				reason: expect.stringContaining(why),
				what_to_do: expect.stringMatching(/\w/),
				// Refused before anything was sent: no answer from the service, no result.
				error_code: null,
				result_id: null,
			});
			expect(String(row?.email_from)).toContain(address(sample));
			expect(Date.parse(String(row?.email_date))).toBe(Date.parse(String(dateHeader(sample))));
		}
		const contract = after.attentionRows.find((row) => row.file_name === PROTECTED_CONTRACT);
		expect(contract?.what_to_do).toEqual(expect.stringContaining('Remove the password'));
		for (const row of after.attentionRows) expect(Object.keys(row).sort()).toEqual([...after.attentionColumns.map((column) => column.name), 'id', 'createdAt', 'updatedAt'].sort());
	});
});
