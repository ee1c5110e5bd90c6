/**
 * `npm run demo [-- --n8n 1]`: the package's main job inside a real n8n, on one command.
 *
 * Builds and packs the package, installs n8n (the newest 2.x by default, `--n8n 1` for 1.x; once,
 * cached) and the tarball as a community package, starts the local sandbox of the service and a
 * real mailbox (Dovecot, a local process), publishes the example workflow "email attachments to a
 * spreadsheet" as shipped, in an n8n left at its defaults for files, delivers the sample mailbox
 * (a morning's five emails at once, then two more), and prints what n8n extracted, what needs
 * attention and what was already extracted; the files n8n wrote are copied to demo-output/.
 *
 * A mailbox of one's own instead: IMAP_HOST, IMAP_PORT, IMAP_USER, IMAP_PASSWORD (IMAP_SECURE=false
 * without TLS); the sample emails are appended to its INBOX. Without Dovecot and without those, the
 * demo says how to get one and runs a stand-in that reads the emails' files from disk.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { corpusFile } from '../test/harness/corpusLocation';
import { startSandbox } from '../sandbox/src';
import { cleanUp, cleanUpOnSignals, onCleanup } from './n8n/cleanup';
import { dovecotMissing, startDovecot } from './n8n/dovecot';
import { OUTPUT_FOLDER, createN8nHome, emailExampleWorkflow, emailRunOf, runEmailExample, standInWorkflow, writeEmailFiles, writtenFiles, type EmailRun } from './n8n/emailExample';
import { prepareN8n } from './n8n/environment';
import { describeFailure } from './n8n/failure';
import { ownMailboxFromEnvironment } from './n8n/ownMailbox';
import { DEMO_OUTPUT_DIR } from './n8n/paths';
import { withHeartbeat } from './n8n/progress';
import { NEWEST_LINE, selectReleases } from './n8n/releases';
import type { RunItem } from './n8n/runData';
import { sampleMailbox } from './n8n/sampleEmails';
import { findTemplate, sandboxCredential } from './n8n/workflows';

const log = (message: string) => console.log(message);
/** A real phone photo of a till receipt (real-world corpus, development set): OCR reads its total 10.20. */
const DEMO_RECEIPT_PHOTO = 'dev-invoices/files/mindee-receipt-clachan-en-gb.jpg';

async function main(): Promise<void> {
	cleanUpOnSignals();
	const started = Date.now();
	const [release] = selectReleases(process.argv.slice(2), [NEWEST_LINE]);
	log(`n8n ${release.version}`);
	const cli = await prepareN8n(release, log, { userFolderPrefix: 'n8n-docx-demo-' });
	onCleanup(() => rmSync(cli.userFolder, { recursive: true, force: true }));
	// n8n's home, as in its Docker image: the example writes into its .n8n-files.
	const home = createN8nHome('n8n-docx-demo-home-');
	onCleanup(() => rmSync(home, { recursive: true, force: true }));
	rmSync(DEMO_OUTPUT_DIR, { recursive: true, force: true });
	mkdirSync(DEMO_OUTPUT_DIR, { recursive: true });

	const sandbox = await startSandbox({ timing: 'realistic' });
	onCleanup(() => sandbox.stop());
	log(`Sandbox of the extraction service on ${sandbox.baseUrl} (demo account, free plan)`);
	const credentials = [sandboxCredential(sandbox.baseUrl, sandbox.demoKey)];
	const workflow = emailExampleWorkflow(await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Invoice'));
	// A real phone photo of a receipt, read by the sandbox's OCR, when the real-world corpus is here.
	const photo = corpusFile(DEMO_RECEIPT_PHOTO);
	log(photo ? `A real receipt photo from the corpus joins the mailbox (${DEMO_RECEIPT_PHOTO})` : `No real receipt photo: the corpus is not here (npm run corpus fetches it); the mailbox has the project's own images only`);
	const fetches = await sampleMailbox({ receiptPhoto: photo ? readFileSync(photo) : undefined });
	const emailCount = fetches.flat().length;

	let run: EmailRun;
	const ownMailbox = ownMailboxFromEnvironment();
	const missing = dovecotMissing();
	if (ownMailbox || !missing) {
		const mailbox = ownMailbox ?? (await startDovecot(log));
		onCleanup(() => mailbox.stop());
		if (ownMailbox) log(`Your mailbox ${ownMailbox.user} on ${ownMailbox.host}:${ownMailbox.port}: the ${emailCount} sample emails are appended to its INBOX`);
		run = await withHeartbeat(log, `Publishing "${workflow.name}" with its Email Trigger (IMAP) on ${mailbox.host}:${mailbox.port}, then delivering ${emailCount} emails`, () =>
			runEmailExample(cli, { workflow, mailbox, credentials, log, fetches, home }),
		);
	} else {
		log(`\n${missing}\nRunning the stand-in instead: the emails' files are read from disk and packed into emails by a Code node.\n`);
		// Inside n8n's one default file folder, where n8n 2.x lets the Read/Write Files node read.
		const filesDir = join(home, OUTPUT_FOLDER, 'sample-emails');
		writeEmailFiles(filesDir, fetches.flat());
		const standIn = standInWorkflow(workflow, filesDir);
		await cli.importCredentials(credentials);
		await cli.importWorkflows([standIn]);
		const execution = await withHeartbeat(log, `Running "${standIn.name}"`, () => cli.withHome(home).execute(standIn.id));
		if (!execution.ok || !execution.run) throw new Error(describeFailure(execution));
		run = emailRunOf([execution.run]);
	}

	log('');
	log(summaryLine(run));
	printTable(run.newLines.map(tableRow));
	if (run.attention.length > 0) {
		log('\nNeeds attention:');
		for (const item of run.attention) log(`  ${text(item.json.subject)}: ${text(item.json.file_name)}: ${text(item.json.error)}`);
	}
	if (run.alreadyExtracted.length > 0) {
		log('\nAlready extracted (no rows added, not charged again):');
		for (const key of new Set(run.alreadyExtracted.map((item) => `${text(item.json.subject)}: ${text(item.json.file_name)}`))) log(`  ${key}`);
	}
	log('');
	log(`Files n8n wrote into ~/${OUTPUT_FOLDER}, one set per execution (copied to demo-output/):`);
	for (const file of writtenFiles(home)) {
		copyFileSync(file.path, join(DEMO_OUTPUT_DIR, file.name));
		log(`  ${join(DEMO_OUTPUT_DIR, file.name)}`);
	}
	const stats = sandbox.stats();
	const requests = Object.values(stats.requests).reduce((sum, count) => sum + count, 0);
	log(`Sandbox: ${stats.uploads.length} uploads, ${requests} API requests. n8n ${release.version}. Done in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/**
 * `demo: emails=E attachments=A documents=D skipped=S rows=R attention=N duplicates=M`, counted
 * from what n8n output: new documents and their rows, files on Needs Attention, documents that
 * came again (on Already Extracted).
 */
export function summaryLine({ emails, extracted, newLines, alreadyExtracted, attention }: EmailRun): string {
	const attachments = emails.reduce((sum, email) => sum + Object.keys(email.binary ?? {}).length, 0);
	const documentsOf = (items: RunItem[]) => new Set(items.filter((item) => typeof item.json.file_name === 'string').map((item) => `${text(item.json.subject)}|${text(item.json.binary_field ?? item.json.file_name)}`)).size;
	const skippedByEmail = new Map<string, number>();
	for (const item of extracted) skippedByEmail.set(text(item.json.subject), skippedFiles(item).length);
	const skipped = [...skippedByEmail.values()].reduce((sum, count) => sum + count, 0);
	const lines = newLines.filter((row) => typeof row.json.line_number === 'number').length;
	return `demo: emails=${emails.length} attachments=${attachments} documents=${documentsOf(newLines)} skipped=${skipped} rows=${lines} attention=${attention.length} duplicates=${documentsOf(alreadyExtracted)}`;
}

function skippedFiles(row: RunItem): unknown[] {
	const value = row.json.skipped_files;
	if (Array.isArray(value)) return value;
	try {
		return typeof value === 'string' ? (JSON.parse(value) as unknown[]) : [];
	} catch {
		return [];
	}
}

const text = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

function tableRow(row: RunItem): Record<string, string> {
	return {
		email: text(row.json.subject),
		file: text(row.json.file_name ?? row.json.message),
		invoice: text(row.json.invoice_number),
		supplier: text(row.json.supplier_name),
		line: text(row.json.line_number),
		description: text(row.json.description),
		amount: text(row.json.amount),
		total: `${text(row.json.total)} ${text(row.json.currency)}`.trim(),
	};
}

const MAX_CELL = 28;

function printTable(rows: Array<Record<string, string>>): void {
	if (rows.length === 0) return;
	const columns = Object.keys(rows[0]);
	const cell = (value: string) => (value.length > MAX_CELL ? `${value.slice(0, MAX_CELL - 1)}…` : value);
	const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
	const line = (values: string[]) => `  ${values.map((value, i) => cell(value).padEnd(widths[i])).join('  ')}`;
	log(line(columns));
	log(line(widths.map((width) => '-'.repeat(width))));
	for (const row of rows) log(line(columns.map((column) => row[column])));
}

main()
	.catch((error: unknown) => {
		console.error(`\nThe demo failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exitCode = 1;
	})
	.finally(() => cleanUp());
