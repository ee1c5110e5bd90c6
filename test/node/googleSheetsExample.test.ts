/**
 * Issue 42: the example "email invoices to Google Sheets" (examples/email-invoices-to-google-sheets.json)
 * keeps every column it wants and no other, checked offline with n8n's own code from the n8n
 * installs of both lines (1.123.81 and 2.41.1, `npm run n8n:install`): Google is not reachable here.
 *
 * The rows are what the example's Extract Invoice Lines puts out (run through n8n's engine against
 * the sandbox, with the example's own parameters) for two emails: an invoice beside a
 * password-protected PDF, and a receipt photo. Each install's own Edit Fields (Set) node then runs
 * the example's two column nodes on them, and each install's own Google Sheets Append Row
 * (`append.operation`, version and parameters as in the example: Map Automatically) writes them
 * into a sheet that is an array in memory: only the Sheets API calls are replaced (read cells,
 * write cells, add a row), so n8n's autoMapInputData and its conversion to rows are n8n's.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadExample } from '../../scripts/n8n/workflows';
import { SAMPLES, loadFixture } from '../fixtures';
import { runNode } from '../harness/engine';
import { installedN8nLines, N8N_URLS } from '../harness/mailTriggers';
import { skipNotice } from '../harness/skipNotice';
import { startSandbox, type Sandbox } from '../../sandbox/src';

type Installed = ReturnType<typeof installedN8nLines>[number];
type ExampleNode = { name: string; type: string; typeVersion: number; parameters: INodeParameters };

const installs = installedN8nLines();
if (installs.length < 2) skipNotice('the Google Sheets example\'s mapping in an n8n line that is not installed here (npm run n8n:install)');

const example = loadExample('emailToGoogleSheets');
const exampleNode = (name: string): ExampleNode => {
	const found = example.nodes.find((node) => node.name === name);
	if (!found) throw new Error(`The example has no node named "${name}"`);
	return found as unknown as ExampleNode;
};
const NODES = {
	extract: 'Extract Invoice Lines',
	lineColumns: 'Invoice Line Columns',
	reviewedLineColumns: 'Reviewed Line Columns',
	attentionColumns: 'Needs Attention',
	appendLines: 'Append to Invoice Lines Sheet',
	appendReviewed: 'Append Reviewed Lines',
	appendAttention: 'Append to Needs Attention Sheet',
} as const;

/** The columns a column node keeps, in its order. */
const columnsOf = (setNode: string) => (exampleNode(setNode).parameters.assignments as { assignments: Array<{ name: string }> }).assignments.map((assignment) => assignment.name);

const BRIGHTLINE = 'Brightline Studio Billing <billing@brightline.example>';
const CAFE = 'Corner Cafe <receipts@cornercafe.example>';

/** Two emails as the Email Trigger (IMAP) hands them over: sender, subject, date, attachment_0, attachment_1. */
async function emails(): Promise<INodeExecutionData[]> {
	const file = async (name: 'invoiceEn' | 'encrypted' | 'receiptPng', fileName: string, mimeType: string) => {
		const bytes = (await loadFixture(name)).bytes;
		return { data: Buffer.from(bytes).toString('base64'), mimeType, fileName, fileSize: String(bytes.length) };
	};
	return [
		{
			json: { from: BRIGHTLINE, subject: 'Invoice INV-2026-0042 and our framework agreement', date: 'Thu, 05 Mar 2026 09:12:00 +0000' },
			binary: { attachment_0: await file('encrypted', 'framework-agreement-2026.pdf', 'application/pdf'), attachment_1: await file('invoiceEn', 'invoice-en.pdf', 'application/pdf') },
		},
		{
			json: { from: CAFE, subject: 'Your receipt from Corner Cafe', date: 'Sat, 14 Mar 2026 08:45:00 +0000' },
			binary: { attachment_0: await file('receiptPng', 'receipt.png', 'image/png') },
		},
	];
}

/** The parts of an install's n8n-workflow and n8n-core used here. */
interface WorkflowModule {
	Workflow: new (parameters: IDataObject) => unknown;
	NodeHelpers: { getVersionedNodeType(type: unknown, version?: number): unknown };
	createRunExecutionData(data: IDataObject): unknown;
}
interface CoreModule {
	WorkflowExecute: new (additionalData: IDataObject, mode: string, runExecutionData: unknown) => { processRunExecutionData(workflow: unknown): Promise<Run> };
	ExecutionLifecycleHooks: new (mode: string, executionId: string, workflowData: IDataObject) => { addHandler(name: string, handler: (run: Run) => void): void };
}
interface Run {
	data: { resultData: { runData: Record<string, Array<{ data?: { main: Array<INodeExecutionData[] | null> }; error?: { message: string } }>>; error?: { message: string } } };
}

/** Hands the test's items on, as a trigger would: the node in front of the one under test. */
const INPUT_TYPE = {
	description: { displayName: 'Input', name: 'test.input', group: ['input'], version: 1, description: '', defaults: { name: 'Input' }, inputs: ['main'], outputs: ['main'], properties: [] },
	async execute(this: { getInputData(): INodeExecutionData[] }) {
		return [this.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	},
};

/** The example's Edit Fields (Set) node `setNode`, run by the install's own engine on `input`: its output items. */
async function runInstalledSet(n8n: Installed, setNode: string, input: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { Workflow, NodeHelpers, createRunExecutionData } = n8n.load<WorkflowModule>('n8n-workflow');
	const { WorkflowExecute, ExecutionLifecycleHooks } = n8n.load<CoreModule>('n8n-core');
	const { Set } = n8n.load<{ Set: new () => unknown }>('n8n-nodes-base/dist/nodes/Set/Set.node.js');
	const types: Record<string, unknown> = { 'n8n-nodes-base.set': new Set(), 'test.input': INPUT_TYPE };
	const spec = exampleNode(setNode);
	const nodes = [
		{ id: 'input', name: 'Input', type: 'test.input', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'set', name: spec.name, type: spec.type, typeVersion: spec.typeVersion, position: [200, 0], parameters: spec.parameters },
	];
	const connections = { Input: { main: [[{ node: spec.name, type: 'main', index: 0 }]] } };
	const nodeTypes = {
		getByName: (name: string) => types[name],
		getByNameAndVersion: (name: string, version?: number) => NodeHelpers.getVersionedNodeType(types[name], version),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ id: 'wf-sheets', name: 'sheets', nodes, connections, active: false, nodeTypes, settings: { executionOrder: 'v1' } });
	const hooks = new ExecutionLifecycleHooks('manual', 'exec-sheets', { id: 'wf-sheets', name: 'sheets', nodes, connections });
	let finished!: (run: Run) => void;
	const afterRun = new Promise<Run>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
	const additionalData = {
		hooks,
		executionId: 'exec-sheets',
		currentNodeExecutionIndex: 0,
		...N8N_URLS,
		variables: {},
		logAiEvent: () => undefined,
	};
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: nodes[0], data: { main: [structuredClone(input)] }, source: null }] },
	});
	const run = await Promise.race([new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow), afterRun]);
	const task = run.data.resultData.runData[spec.name]?.[0];
	if (!task?.data) throw new Error(`${spec.name} did not run in n8n ${n8n.version}: ${task?.error?.message ?? run.data.resultData.error?.message ?? 'no run data'}`);
	return task.data.main[0] ?? [];
}

/** A sheet (tab) as the Google Sheets API keeps it: rows of cells, the first the header. */
class MemorySheet {
	readonly rows: unknown[][] = [];

	/** `Name`, `Name!1:1`, `Name!A:Z`: the rows asked for; undefined when there are none (the API leaves `values` out). */
	read(range: string): unknown[][] | undefined {
		const rows = /!(\d+):(\d+)$/.exec(range);
		const found = rows ? this.rows.slice(Number(rows[1]) - 1, Number(rows[2])) : this.rows;
		return found.length ? found.map((row) => [...row]) : undefined;
	}

	/** Writes `data` from row `row` (1-based) on, as values.update does. */
	write(data: unknown[][], row: number): void {
		data.forEach((cells, n) => (this.rows[row - 1 + n] = [...cells]));
	}

	/** The data rows as objects under the header, as a person reads the sheet. */
	records(): Array<Record<string, unknown>> {
		const [header, ...rows] = this.rows;
		return rows.map((cells) => Object.fromEntries((header as string[]).map((name, i) => [name, cells[i]])));
	}
}

/** A parameter by its dotted path (`columns.mappingMode`), as the node asks for it. */
function parameterAt(parameters: INodeParameters, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), parameters);
}

/** The install's Append Row, as the example's node `appendNode` sets it, appending `items` to `sheet`. */
async function appendInstalled(n8n: Installed, appendNode: string, sheet: MemorySheet, items: INodeExecutionData[]): Promise<void> {
	const { GoogleSheet } = n8n.load<{ GoogleSheet: new (id: string, ctx: unknown) => Record<string, unknown> }>('n8n-nodes-base/dist/nodes/Google/Sheet/v2/helpers/GoogleSheet.js');
	const append = n8n.load<{ execute(this: unknown, sheet: unknown, range: string, sheetId: string): Promise<INodeExecutionData[]> }>(
		'n8n-nodes-base/dist/nodes/Google/Sheet/v2/actions/sheet/append.operation.js',
	);
	const spec = exampleNode(appendNode);
	const node = { id: 'append', name: spec.name, type: spec.type, typeVersion: spec.typeVersion, position: [0, 0], parameters: spec.parameters };
	const ctx = {
		getInputData: () => items,
		getNode: () => node,
		getNodeParameter: (name: string, _item: number, fallback?: unknown) => parameterAt(spec.parameters, name) ?? fallback,
	};
	const api = new GoogleSheet('spreadsheet-id', ctx);
	// Only the Sheets API calls are the sheet in memory; everything between them is n8n's.
	api.getData = async (range: string) => sheet.read(range);
	api.updateRows = async (_range: string, data: unknown[][], _valueInputMode: string, row = 1) => sheet.write(data, row);
	api.appendEmptyRowsOrColumns = async () => undefined;
	const sheetName = (spec.parameters.sheetName as { value: string }).value;
	await append.execute.call(ctx, api, sheetName, '0');
}

describe.skipIf(installs.length < 2)('email invoices to Google Sheets: the columns reach the sheet, each of them, and no other', () => {
	let sandbox: Sandbox;
	let rows: INodeExecutionData[];
	let unreadable: INodeExecutionData[];

	beforeAll(async () => {
		sandbox = await startSandbox({ timing: 'fast' });
		const extract = exampleNode(NODES.extract);
		const result = await runNode({
			nodeType: 'action',
			parameters: extract.parameters,
			credential: { apiKey: sandbox.accounts.create().keys[0], baseUrl: sandbox.baseUrl },
			input: await emails(),
			onError: 'continueErrorOutput',
		});
		expect(result.error).toBeUndefined();
		[rows, unreadable] = [result.outputs[0], result.outputs[1] ?? []];
	});

	afterAll(async () => {
		await sandbox?.stop();
	});

	it('the example appends automatically, its column nodes keep only their own fields', () => {
		for (const name of [NODES.appendLines, NODES.appendReviewed, NODES.appendAttention]) {
			expect(exampleNode(name)).toMatchObject({ type: 'n8n-nodes-base.googleSheets', parameters: { operation: 'append', columns: { mappingMode: 'autoMapInputData' }, options: {} } });
		}
		for (const name of [NODES.lineColumns, NODES.reviewedLineColumns, NODES.attentionColumns]) expect(exampleNode(name).parameters.includeOtherFields ?? false).toBe(false);
		expect(columnsOf(NODES.lineColumns)).toContain('line_number');
		// What Extract gives: the rows of two documents, and the protected PDF on the error output.
		const invoiceLines = (SAMPLES.invoiceEn.expected as { line_items: unknown[] }).line_items;
		expect(rows.filter((row) => row.json.file_name === 'invoice-en.pdf')).toHaveLength(invoiceLines.length);
		expect(rows.some((row) => row.json.file_name === 'receipt.png')).toBe(true);
		expect(unreadable.map((item) => (item.json.error as IDataObject).file_name)).toEqual(['framework-agreement-2026.pdf']);
	});

	for (const line of ['1', '2'] as const) {
		describe(`in n8n ${line}.x`, () => {
			const n8n = () => installs.find((install) => install.line === line)!;

			it('Invoice Line Columns → Append Row: the header is exactly the wanted columns, line_number included; every row is there with every value', async () => {
				const wanted = columnsOf(NODES.lineColumns);
				const items = await runInstalledSet(n8n(), NODES.lineColumns, rows);
				expect(items).toHaveLength(rows.length);
				for (const item of items) expect(Object.keys(item.json)).toEqual(wanted);

				// Two executions' worth, one after the other: the first writes the header, the second finds it.
				const sheet = new MemorySheet();
				const half = Math.ceil(items.length / 2);
				await appendInstalled(n8n(), NODES.appendLines, sheet, items.slice(0, half));
				await appendInstalled(n8n(), NODES.appendLines, sheet, items.slice(half));

				expect(sheet.rows[0]).toEqual(wanted);
				const cell = (value: unknown) => (value === null || value === undefined ? '' : value);
				expect(sheet.records()).toEqual(items.map((item) => Object.fromEntries(wanted.map((name) => [name, cell(item.json[name])]))));
				// The values a person looks for, from the rows Extract gave.
				const records = sheet.records();
				rows.forEach((row, n) => {
					expect(records[n]).toMatchObject({
						line_number: row.json.line_number,
						description: row.json.description,
						amount: cell(row.json.amount),
						invoice_number: cell(row.json.invoice_number),
						invoice_total: cell(row.json.total),
						email_from: row.json.from,
						email_subject: row.json.subject,
						email_date: row.json.date,
						file_name: row.json.file_name,
						result_id: row.json.result_id,
					});
				});
				expect(records.filter((record) => record.file_name === 'invoice-en.pdf').map((record) => record.line_number)).toEqual(
					(SAMPLES.invoiceEn.expected as { line_items: unknown[] }).line_items.map((_, n) => n + 1),
				);
			});

			it('a reviewed invoice (Reviewed Line Columns → Append Reviewed Lines) lands under the same header, with reviewed_by and reviewed_at', async () => {
				const wanted = columnsOf(NODES.lineColumns);
				expect(columnsOf(NODES.reviewedLineColumns)).toEqual(wanted);
				expect(wanted.slice(-2)).toEqual(['reviewed_by', 'reviewed_at']);
				const invoice = rows.filter((row) => row.json.file_name === 'invoice-en.pdf');
				const others = rows.filter((row) => row.json.file_name !== 'invoice-en.pdf');
				// What the review branch hands on: the lines with the form's corrections and who submitted it when.
				const reviewed = invoice.map((row) => ({ json: { ...row.json, total: 1250, reviewed_by: 'Dana Whitfield', reviewed_at: '2026-03-05T16:02:11.000+00:00' } }));
				const sheet = new MemorySheet();
				await appendInstalled(n8n(), NODES.appendLines, sheet, await runInstalledSet(n8n(), NODES.lineColumns, others));
				await appendInstalled(n8n(), NODES.appendReviewed, sheet, await runInstalledSet(n8n(), NODES.reviewedLineColumns, reviewed));
				expect(sheet.rows[0]).toEqual(wanted);
				const records = sheet.records();
				expect(records).toHaveLength(rows.length);
				for (const record of records.slice(0, others.length)) expect(record).toMatchObject({ reviewed_by: '', reviewed_at: '' });
				for (const record of records.slice(others.length)) {
					expect(record).toMatchObject({ file_name: 'invoice-en.pdf', invoice_total: 1250, reviewed_by: 'Dana Whitfield', reviewed_at: '2026-03-05T16:02:11.000+00:00' });
				}
			});

			it('Needs Attention → Append Row: the file, the email, the reason and what to do, under exactly the wanted columns', async () => {
				const wanted = columnsOf(NODES.attentionColumns);
				const items = await runInstalledSet(n8n(), NODES.attentionColumns, unreadable);
				const sheet = new MemorySheet();
				await appendInstalled(n8n(), NODES.appendAttention, sheet, items);
				expect(sheet.rows[0]).toEqual(wanted);
				expect(sheet.records()).toEqual([
					expect.objectContaining({
						email_from: BRIGHTLINE,
						email_subject: 'Invoice INV-2026-0042 and our framework agreement',
						email_date: 'Thu, 05 Mar 2026 09:12:00 +0000',
						file_name: 'framework-agreement-2026.pdf',
						reason: expect.stringContaining('protected by a password'),
						what_to_do: expect.stringContaining('Remove the password'),
					}),
				]);
			});

			it('without the column node, Map Automatically would add a column for every other key of the rows', async () => {
				const sheet = new MemorySheet();
				await appendInstalled(n8n(), NODES.appendLines, sheet, rows);
				const wanted = new Set(columnsOf(NODES.lineColumns));
				expect((sheet.rows[0] as string[]).filter((name) => !wanted.has(name))).toEqual(expect.arrayContaining(['binary_field', 'skipped_files', 'reused']));
			});
		});
	}
});
