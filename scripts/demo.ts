/**
 * `npm run demo [-- --n8n 1]`: the package's main job inside a real n8n, on one command.
 *
 * Builds and packs the package, installs n8n (the newest 2.x by default, `--n8n 1` for 1.x; once,
 * cached) and the tarball as a community package, starts the local sandbox of the service, imports
 * a credential and the example workflow "email attachments to a spreadsheet", runs it, and prints
 * what was extracted.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../test/sandbox';
import { cleanUp, cleanUpOnSignals, onCleanup } from './n8n/cleanup';
import { prepareN8n } from './n8n/environment';
import { describeFailure } from './n8n/failure';
import { withHeartbeat } from './n8n/progress';
import { outputItems, type RunItem } from './n8n/runData';
import { DEMO_OUTPUT_DIR, SAMPLES_DIR } from './n8n/paths';
import { NEWEST_LINE, selectReleases } from './n8n/releases';
import { EMAIL_ATTACHMENTS as ATTACHMENTS, EMAIL_NODES, SPREADSHEET_FILES, emailExampleWorkflow } from './n8n/emailExample';
import { findTemplate, sandboxCredential } from './n8n/workflows';

const log = (message: string) => console.log(message);

async function main(): Promise<void> {
	cleanUpOnSignals();
	const started = Date.now();
	const [release] = selectReleases(process.argv.slice(2), [NEWEST_LINE]);
	log(`n8n ${release.version}`);
	const cli = await prepareN8n(release, log, { userFolderPrefix: 'n8n-docx-demo-' });
	onCleanup(() => rmSync(cli.userFolder, { recursive: true, force: true }));

	const attachmentsDir = join(cli.userFolder, 'attachments');
	mkdirSync(attachmentsDir, { recursive: true });
	for (const file of ATTACHMENTS) copyFileSync(join(SAMPLES_DIR, file), join(attachmentsDir, file));
	rmSync(DEMO_OUTPUT_DIR, { recursive: true, force: true });
	mkdirSync(DEMO_OUTPUT_DIR, { recursive: true });

	const sandbox = await startSandbox({ timing: 'realistic' });
	onCleanup(() => sandbox.stop());
	log(`Sandbox of the extraction service on ${sandbox.baseUrl} (demo account, free plan)`);

	const invoiceTemplate = await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Invoice');
	const workflow = emailExampleWorkflow(attachmentsDir, DEMO_OUTPUT_DIR, invoiceTemplate);
	await withHeartbeat(log, 'Importing the credential and the workflow into n8n', async () => {
		await cli.importCredentials([sandboxCredential(sandbox.baseUrl, sandbox.demoKey)]);
		await cli.importWorkflows([workflow]);
	});

	const execution = await withHeartbeat(log, `Running "${workflow.name}" (${ATTACHMENTS.length} attachments in ${ATTACHMENTS.length / 2} emails)`, () =>
		cli.execute(workflow.id),
	);
	if (!execution.ok || !execution.run) throw new Error(describeFailure(execution));

	const files = outputItems(execution.run, EMAIL_NODES.attachments);
	const rows = outputItems(execution.run, EMAIL_NODES.extract);
	log('');
	log(`Extracted ${rows.length} invoice lines from ${files.length} attachments:`);
	printTable(rows.map((row) => tableRow(row, files)));
	log('');
	log('Spreadsheets written by n8n:');
	for (const file of Object.values(SPREADSHEET_FILES)) log(`  ${join(DEMO_OUTPUT_DIR, file)}`);
	const stats = sandbox.stats();
	const requests = Object.values(stats.requests).reduce((sum, count) => sum + count, 0);
	log(`Sandbox: ${stats.uploads.length} uploads, ${requests} API requests. n8n ${release.version}. Done in ${Math.round((Date.now() - started) / 1000)} s.`);
}

function tableRow(row: RunItem, files: RunItem[]): Record<string, string> {
	const source = files[pairedIndex(row)]?.json.attachment;
	const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
	return {
		attachment: text(source),
		invoice: text(row.json.invoice_number),
		supplier: text(row.json.supplier_name),
		line: text(row.json.row_number),
		description: text(row.json.description),
		qty: text(row.json.quantity),
		amount: text(row.json.amount),
		total: `${text(row.json.total)} ${text(row.json.currency)}`.trim(),
	};
}

function pairedIndex(item: RunItem): number {
	const paired = (item as { pairedItem?: { item: number } | Array<{ item: number }> }).pairedItem;
	return (Array.isArray(paired) ? paired[0]?.item : paired?.item) ?? -1;
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
