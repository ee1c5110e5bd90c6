/**
 * The package's headline job, as a user sets it up: the example "email attachments to a
 * spreadsheet" published in a real n8n, its Email Trigger (IMAP) reading a real mailbox (Dovecot,
 * a local process) into which three emails are delivered: an invoice PDF with a signature logo
 * shown inline, a receipt photo with a calendar invite, and one with no attachment. No Code node.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dovecotMissing, startDovecot, type Mailbox } from '../../scripts/n8n/dovecot';
import { EMAIL_NODES, SPREADSHEET_FILES, emailExampleWorkflow, runEmailExample, type EmailRun } from '../../scripts/n8n/emailExample';
import type { RunItem } from '../../scripts/n8n/runData';
import { sampleEmails } from '../../scripts/n8n/sampleEmails';
import { EXAMPLE_CREDENTIAL, findTemplate, sandboxCredential, withParameters } from '../../scripts/n8n/workflows';
import { SAMPLES } from '../fixtures';
import { skipNotice } from '../harness/skipNotice';
import { startSandbox, type Sandbox } from '../sandbox';
import { e2eOwner, n8n } from './support';

const missing = dovecotMissing();
// .ci/run installs Dovecot and sets REQUIRE_DOVECOT: there a missing one is a broken setup.
if (missing && process.env.REQUIRE_DOVECOT === '1') throw new Error(`REQUIRE_DOVECOT is set: ${missing}`);
if (missing) skipNotice(`the real-email suite: ${missing.split('\n')[0]}`);

type Row = Record<string, unknown>;
const pairedEmail = (item: RunItem) => (Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem)?.item;

/**
 * As shipped (Format: Simple, Download Attachments: an inline logo is not handed over at all), and
 * with Format: Resolved (it is, as attachment_0, and must be skipped and listed).
 */
describe.skipIf(Boolean(missing)).each([
	{ format: 'simple', inlineLogo: false },
	{ format: 'resolved', inlineLogo: true },
])('email attachments to a spreadsheet, from a real mailbox (trigger format $format)', ({ format, inlineLogo }) => {
	let sandbox: Sandbox;
	let mailbox: Mailbox;
	let output: string;
	let run: EmailRun;
	const emails = sampleEmails();

	beforeAll(async () => {
		sandbox = await startSandbox({ timing: 'fast' });
		mailbox = await startDovecot(() => undefined);
		output = mkdtempSync(join(tmpdir(), 'n8n-docx-e2e-email-'));
		const example = emailExampleWorkflow(output, await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Invoice'));
		const workflow = format === 'simple' ? example : { ...withParameters(example, { [EMAIL_NODES.trigger]: { format: 'resolved' } }), id: `${example.id}Resolved` };
		run = await runEmailExample(n8n(), {
			workflow,
			mailbox,
			credentials: [sandboxCredential(sandbox.baseUrl, sandbox.demoKey, EXAMPLE_CREDENTIAL)],
			log: () => undefined,
			emails,
			owner: e2eOwner(),
		});
	});

	afterAll(async () => {
		await mailbox?.stop();
		await sandbox?.stop();
		if (output) rmSync(output, { recursive: true, force: true });
	});

	/** The trigger's item for the email with this subject, and the rows paired with it. */
	function email(subject: string): { index: number; attachments: string[]; rows: Row[] } {
		const index = run.emails.findIndex((item) => item.json.subject === subject);
		expect(index, subject).toBeGreaterThanOrEqual(0);
		const attachments = Object.values(run.emails[index].binary ?? {}).map((file) => String(file.fileName));
		// Items of several executions: an email's rows are those after it paired with its index in its own run.
		const rows = run.rows.filter((row) => row.json.subject === subject).map((row) => row.json);
		return { index, attachments, rows };
	}

	it('n8n read every email once, and only the two documents were sent to the service', () => {
		expect(run.emails.map((item) => item.json.subject).sort()).toEqual(emails.map((sample) => sample.subject).sort());
		expect(sandbox.stats().uploads.map((upload) => upload.filename).sort()).toEqual(['invoice-en.pdf', 'receipt.png']);
		expect(run.executions.every((execution) => execution.status === 'success')).toBe(true);
	});

	it('the invoice: one row per line, with the email\'s sender, subject and date, the file it came from, and an inline logo handed over listed as skipped', () => {
		const invoice = email(emails[0].subject);
		expect(invoice.attachments.sort()).toEqual(inlineLogo ? ['brightline-logo.png', 'invoice-en.pdf'] : ['invoice-en.pdf']);
		const expected = SAMPLES.invoiceEn.expected as { invoice_number: string; line_items: Array<{ description: string }> };
		expect(invoice.rows.map((row) => row.description)).toEqual(expected.line_items.map((line) => line.description));
		for (const row of invoice.rows) {
			expect(row).toMatchObject({ invoice_number: expected.invoice_number, file_name: 'invoice-en.pdf', binary_field: expect.stringMatching(/^attachment_\d$/) });
			expect(JSON.stringify(row.from)).toContain('billing@brightline.example');
			expect(row.date).toBeTruthy();
			const skipped = JSON.parse(String(row.skipped_files)) as Array<{ file_name: string; reason: string }>;
			expect(skipped).toEqual(inlineLogo ? [expect.objectContaining({ file_name: 'brightline-logo.png', reason: expect.stringContaining('240 x 80 px') })] : []);
			if (format === 'simple') expect(row.from).toBe('Brightline Studio Billing <billing@brightline.example>');
		}
	});

	it('the receipt photo: its lines as rows; the calendar invite not sent, and listed', () => {
		const receipt = email(emails[1].subject);
		expect(receipt.attachments.sort()).toEqual(['invite.ics', 'receipt.png']);
		const items = (SAMPLES.receiptPng.expected as { items: Array<{ description: string }> }).items;
		expect(receipt.rows.map((row) => row.description)).toEqual(items.map((line) => line.description));
		for (const row of receipt.rows) {
			expect(row.file_name).toBe('receipt.png');
			expect(JSON.parse(String(row.skipped_files))).toEqual([expect.objectContaining({ file_name: 'invite.ics', reason: 'not a PDF, JPEG or PNG: a text file' })]);
		}
	});

	it('the email without an attachment leaves once, saying so, and the workflow goes on', () => {
		const lunch = email(emails[2].subject);
		expect(lunch.attachments).toEqual([]);
		expect(lunch.rows).toEqual([expect.objectContaining({ status: 'no_document', message: 'No document: the item has no binary fields starting with "attachment_"' })]);
	});

	it('every row is paired with its email', () => {
		for (const row of run.rows) expect(pairedEmail(row)).toEqual(expect.any(Number));
	});

	it('n8n wrote the rows to CSV and XLSX', () => {
		const csv = readFileSync(join(output, SPREADSHEET_FILES.csv), 'utf8').trim().split('\n');
		expect(csv[0]).toContain('file_name');
		expect(csv[0]).toContain('subject');
		expect(csv.length).toBeGreaterThan(1);
		const { runtime } = n8n();
		const xlsx = createRequire(join(runtime.installDir, 'package.json'))(runtime.release.xlsxModule) as {
			readFile(path: string): { SheetNames: string[]; Sheets: Record<string, unknown> };
			utils: { sheet_to_json(sheet: unknown): Row[] };
		};
		const sheet = xlsx.utils.sheet_to_json(xlsx.readFile(join(output, SPREADSHEET_FILES.xlsx)).Sheets['Invoice lines']);
		expect(sheet.length).toBe(csv.length - 1);
	});
});
