/**
 * The package's headline job, as a user sets it up: the example "email attachments to a
 * spreadsheet" as shipped (only its credentials and the template picked), published in a real n8n
 * left at n8n's defaults for files (`N8nCli` runs n8n from its home), its Email Trigger (IMAP) reading a real mailbox
 * (Dovecot, a local process). A morning's mail arrives at once, so n8n hands it to one execution:
 * an invoice with its signature logo, a receipt photo with a calendar invite, a password-protected
 * PDF beside an invoice, a newsletter, the first invoice sent again and a copier scan too large to
 * send; later a reply saying thanks, a phone photo of a receipt, a zip of invoices, Outlook's
 * winmail.dat, a new invoice and the first one forwarded by a colleague. No Code node.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dovecotMissing, startDovecot, type Mailbox } from '../../scripts/n8n/dovecot';
import { EMAIL_NODES, SORT_OUTPUTS, createN8nHome, emailExampleWorkflow, runEmailExample, writtenFiles, type EmailRun } from '../../scripts/n8n/emailExample';
import { outputItems, type RunData, type RunItem } from '../../scripts/n8n/runData';
import { PROTECTED_CONTRACT, sampleMailbox, type SampleEmail, type SampleMailbox } from '../../scripts/n8n/sampleEmails';
import { EXAMPLE_CREDENTIAL, findTemplate, sandboxCredential, withParameters } from '../../scripts/n8n/workflows';
import { SAMPLES } from '../fixtures';
import { skipNotice } from '../harness/skipNotice';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { e2eOwner, n8n, startE2eSandbox } from './support';

const missing = dovecotMissing();
// .ci/run installs Dovecot and sets REQUIRE_DOVECOT: there a missing one is a broken setup.
if (missing && process.env.REQUIRE_DOVECOT === '1') throw new Error(`REQUIRE_DOVECOT is set: ${missing}`);
if (missing) skipNotice(`the real-email suite: ${missing.split('\n')[0]}`);

type Row = Record<string, unknown>;
type Lines = Array<{ description: string }>;
const pairedEmail = (item: RunItem) => (Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem)?.item;
const descriptions = (rows: Row[]) => rows.map((row) => row.description);
const lineDescriptions = (lines: Lines) => lines.map((line) => line.description);

/** Each readable document's lines, as the sample's truth has them. */
const EXPECTED_LINES: Record<string, unknown[]> = {
	'invoice-en.pdf': lineDescriptions((SAMPLES.invoiceEn.expected as { line_items: Lines }).line_items),
	'receipt.png': lineDescriptions((SAMPLES.receiptPng.expected as { items: Lines }).items),
	'IMG_2041.jpg': lineDescriptions((SAMPLES.receiptJpeg.expected as { items: Lines }).items),
	'rechnung-de.pdf': lineDescriptions((SAMPLES.invoiceDe.expected as { line_items: Lines }).line_items),
	'facture-fr.pdf': lineDescriptions((SAMPLES.invoiceFr.expected as { line_items: Lines }).line_items),
};

/**
 * As shipped (Format: Simple, Download Attachments: an inline logo is not handed over at all), and
 * with Format: Resolved (it is, as attachment_0, and must be skipped and listed).
 */
describe.skipIf(Boolean(missing)).each([
	{ format: 'simple', inlineLogo: false },
	{ format: 'resolved', inlineLogo: true },
])('email attachments to a spreadsheet, from a real mailbox (trigger format $format)', ({ format, inlineLogo }) => {
	let sandbox: RemoteSandbox;
	let mailbox: Mailbox;
	let home: string;
	let run: EmailRun;
	let fetches: SampleMailbox;
	let emails: SampleEmail[];

	beforeAll(async () => {
		fetches = await sampleMailbox();
		emails = fetches.flat();
		sandbox = await startE2eSandbox({ timing: 'fast' });
		mailbox = await startDovecot(() => undefined);
		home = createN8nHome('n8n-docx-e2e-home-');
		const example = emailExampleWorkflow(await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Invoice'));
		const workflow = format === 'simple' ? example : { ...withParameters(example, { [EMAIL_NODES.trigger]: { format: 'resolved' } }), id: `${example.id}Resolved` };
		run = await runEmailExample(n8n(), {
			workflow,
			mailbox,
			credentials: [sandboxCredential(sandbox.baseUrl, sandbox.demoKey, EXAMPLE_CREDENTIAL)],
			log: () => undefined,
			fetches,
			home,
			owner: e2eOwner(),
		});
	});

	afterAll(async () => {
		await mailbox?.stop();
		await sandbox?.stop();
		if (home) rmSync(home, { recursive: true, force: true });
	});

	const subjectsOf = (items: RunItem[]) => [...new Set(items.map((item) => String(item.json.subject)))].sort();
	const bySubject = (items: RunItem[], email: SampleEmail) => items.filter((item) => item.json.subject === email.subject).map((item) => item.json);
	const perExecution = (node: string, output = 0) => run.executions.map((execution) => outputItems({ data: execution.data } as RunData, node, output));
	const email = (predicate: (sample: SampleEmail) => boolean) => {
		const found = emails.find(predicate);
		if (!found) throw new Error('The sample mailbox lacks an email the test needs');
		return found;
	};

	it('n8n fetched the morning\'s emails in one execution and the afternoon\'s in another, and both executions succeeded', () => {
		expect(perExecution(EMAIL_NODES.trigger).map((items) => items.map((item) => item.json.subject).sort())).toEqual(fetches.map((batch) => batch.map((sample) => sample.subject).sort()));
		expect(run.executions.map((execution) => execution.status)).toEqual(['success', 'success']);
	});

	it('each readable document was uploaded once: the invoice sent three times was charged once, the protected PDF not at all', async () => {
		const uploads = await sandbox.stats();
		expect(uploads.uploads.map((upload) => upload.filename).sort()).toEqual(['IMG_2041.jpg', 'facture-fr.pdf', 'invoice-en.pdf', 'receipt.png', 'rechnung-de.pdf']);
		const invoice = email((sample) => sample.documents.includes('invoice-en.pdf')).files['invoice-en.pdf'];
		expect(uploads.uploadsByHash[createHash('sha256').update(invoice).digest('hex')]).toEqual({ received: 1, accepted: 1 });
		expect(Object.values(uploads.uploadsByHash).every((count) => count.received === 1)).toBe(true);
	});

	it('every readable invoice\'s lines reach New Invoice Lines once, with the email\'s sender, subject and date and the file they came from', () => {
		const withDocuments = emails.filter((sample) => sample.documents.length > 0);
		expect(subjectsOf(run.newLines)).toEqual(withDocuments.map((sample) => sample.subject).sort());
		for (const sample of withDocuments) {
			const rows = bySubject(run.newLines, sample);
			expect(descriptions(rows), sample.subject).toEqual(sample.documents.flatMap((name) => EXPECTED_LINES[name]));
			for (const row of rows) {
				expect(row).toMatchObject({ reused: false, binary_field: expect.stringMatching(/^attachment_\d$/) });
				expect(sample.documents).toContain(row.file_name);
				expect(JSON.stringify(row.from)).toContain(/<([^>]+)>/.exec(sample.from)?.[1]);
				expect(row.date).toBeTruthy();
			}
		}
		const invoice = email((sample) => sample.documents.includes('invoice-en.pdf'));
		for (const row of bySubject(run.newLines, invoice)) {
			expect(row.invoice_number).toBe((SAMPLES.invoiceEn.expected as { invoice_number: string }).invoice_number);
			const skipped = JSON.parse(String(row.skipped_files)) as Array<{ file_name: string; reason: string }>;
			expect(skipped).toEqual(inlineLogo ? [expect.objectContaining({ file_name: 'brightline-logo.png', reason: expect.stringContaining('240 x 80 px') })] : []);
			if (format === 'simple') expect(row.from).toBe(invoice.from);
		}
		for (const row of bySubject(run.newLines, email((sample) => sample.documents.includes('receipt.png')))) {
			expect(JSON.parse(String(row.skipped_files))).toEqual([expect.objectContaining({ file_name: 'invite.ics', reason: 'not a PDF, JPEG or PNG: a text file' })]);
		}
	});

	it('every file that cannot be read is on Needs Attention with its email, its file, why and what to do; the invoice beside the protected PDF still reached the rows', () => {
		const expected = emails.flatMap((sample) => Object.entries(sample.unreadable).map(([fileName, why]) => ({ sample, fileName, why })));
		const key = (subject: unknown, fileName: unknown) => `${String(subject)} / ${String(fileName)}`;
		expect(run.attention.map((item) => key(item.json.subject, item.json.file_name)).sort()).toEqual(expected.map(({ sample, fileName }) => key(sample.subject, fileName)).sort());
		for (const { sample, fileName, why } of expected) {
			const item = run.attention.find((candidate) => key(candidate.json.subject, candidate.json.file_name) === key(sample.subject, fileName));
			expect(item?.json, fileName).toEqual({
				date: expect.any(String),
				from: expect.anything(),
				subject: sample.subject,
				binary_field: expect.stringMatching(/^attachment_\d$/),
				file_name: fileName,
				error: expect.stringContaining(why),
				error_description: expect.stringMatching(/\w/),
				// Refused before anything was sent: no answer from the service, no result.
				error_code: null,
				result_id: null,
			});
		}
		const protectedPdf = email((candidate) => PROTECTED_CONTRACT in candidate.unreadable);
		const contract = run.attention.find((item) => item.json.file_name === PROTECTED_CONTRACT);
		expect(contract?.json).toMatchObject({ binary_field: 'attachment_0', error_description: expect.stringContaining('Remove the password (open it with the password and save a copy without protection)') });
		expect(JSON.stringify(contract?.json.from)).toContain('buchhaltung@mueller-buero.example');
		expect(descriptions(bySubject(run.newLines, protectedPdf))).toEqual(EXPECTED_LINES['rechnung-de.pdf']);
	});

	it('the invoice sent again and forwarded adds no rows: it is on Already Extracted, marked as reused', () => {
		const repeats = emails.filter((sample) => sample.repeated.length > 0);
		expect(subjectsOf(run.alreadyExtracted)).toEqual(repeats.map((sample) => sample.subject).sort());
		for (const sample of repeats) {
			const items = bySubject(run.alreadyExtracted, sample);
			// Read again in the same n8n process: the rows, marked; from another process it would be one `duplicate` item.
			expect(descriptions(items), sample.subject).toEqual(EXPECTED_LINES['invoice-en.pdf']);
			for (const item of items) expect(item).toMatchObject({ reused: true, file_name: 'invoice-en.pdf', first_extracted_at: expect.any(String) });
			expect(bySubject(run.newLines, sample)).toEqual([]);
		}
	});

	it('the newsletter and the reply saying thanks are no rows: they are on No Document', () => {
		const newsletters = emails.filter((sample) => Object.keys(sample.files).length === 0);
		expect(run.noDocument.map((item) => item.json)).toEqual(
			newsletters.map((sample) => expect.objectContaining({ subject: sample.subject, status: 'no_document', message: 'No document: the item has no binary fields starting with "attachment_"' })),
		);
		for (const sample of newsletters) expect(bySubject(run.newLines, sample)).toEqual([]);
	});

	it('every item is paired with its email, and none is lost between Extract and Sort Results', () => {
		for (const item of [...run.extracted, ...run.attention]) expect(pairedEmail(item)).toEqual(expect.any(Number));
		expect(run.newLines.length + run.alreadyExtracted.length + run.noDocument.length).toBe(run.extracted.length);
	});

	it('the files accumulate in ~/.n8n-files: each execution wrote its own CSV and XLSX of its new lines, and the Needs Attention list, none overwritten', () => {
		const { runtime } = n8n();
		const xlsx = createRequire(join(runtime.installDir, 'package.json'))(runtime.release.xlsxModule) as {
			readFile(path: string): { SheetNames: string[]; Sheets: Record<string, unknown> };
			utils: { sheet_to_json(sheet: unknown): Row[] };
		};
		const sheet = (path: string, name?: string) => {
			const book = xlsx.readFile(path);
			return xlsx.utils.sheet_to_json(book.Sheets[name ?? book.SheetNames[0]]);
		};
		const files = writtenFiles(home);
		const ids = run.executions.map((execution) => execution.id);
		expect(files.map((file) => `${file.kind}.${file.format}@${file.executionId}`).sort()).toEqual(
			ids.flatMap((id) => [`invoice-lines.csv@${id}`, `invoice-lines.xlsx@${id}`, `needs-attention.csv@${id}`]).sort(),
		);
		const newLines = perExecution(EMAIL_NODES.sort, SORT_OUTPUTS.newLines);
		ids.forEach((id, n) => {
			const expected = descriptions(newLines[n].map((item) => item.json));
			const csv = files.find((file) => file.executionId === id && file.kind === 'invoice-lines' && file.format === 'csv');
			const workbook = files.find((file) => file.executionId === id && file.format === 'xlsx');
			expect(descriptions(sheet(String(csv?.path))), `CSV of execution ${id}`).toEqual(expected);
			expect(descriptions(sheet(String(workbook?.path), 'Invoice lines')), `XLSX of execution ${id}`).toEqual(expected);
		});
		expect(files.filter((file) => file.kind === 'invoice-lines' && file.format === 'csv').flatMap((file) => descriptions(sheet(file.path))).sort()).toEqual(
			Object.values(EXPECTED_LINES).flat().sort(),
		);
		// Each execution's list holds the files of its own emails that could not be read.
		ids.forEach((id, n) => {
			const attention = files.find((file) => file.executionId === id && file.kind === 'needs-attention');
			const unreadable = fetches[n].flatMap((sample) => Object.keys(sample.unreadable));
			expect(sheet(String(attention?.path)).map((row) => row.file_name).sort(), `Needs Attention of execution ${id}`).toEqual(unreadable.sort());
		});
	});
});
