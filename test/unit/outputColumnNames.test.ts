/**
 * Issue 42: the names the two nodes put on their output items are taken as they are by every
 * usual destination: Google Sheets (Append Row, automatic mapping), n8n Data Tables, CSV/XLSX
 * (Convert to File) and SQL databases. Each destination's rule is written below as the
 * destination states it; every output of every mode is produced through n8n's engine against the
 * sandbox (the URL source's file host through nock, as its own tests do) and each key of each
 * item is checked against each rule.
 *
 * Names from the template (the user's fields and table columns) are the user's own: the node keeps
 * them as they are (docs/output-columns.md says what happens to them), so they are the only keys
 * not checked here, and only as themselves: a name the node made from one (`document_total`) is
 * checked like any other.
 */
import dns, { type LookupAddress } from 'node:dns';

import nock from 'nock';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { forgetAllUploads } from '../../nodes/shared/http/uploadReceipts';
import { COLUMN_PREFIXES, NODE_COLUMN_NAMES } from '../../nodes/shared/output/columnNames';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { loadFixture, type FixtureName } from '../fixtures';
import { pngWithText } from '../fixtures/images';
import { binaryItem, runNode, type RunOptions, type RunResult, type TestCredential } from '../harness/engine';

// ---------------------------------------------------------------------------------------------
// The destinations' rules: each says why a column name is refused, or nothing.

type Rule = (name: string) => string | undefined;

/**
 * Google Sheets, Append Row with "Map Automatically" (n8n-nodes-base GoogleSheets.utils
 * `autoMapInputData`): `row_number` is the node's own reserved column (ROW_NUMBER) and is dropped;
 * with the default "Insert in New Column" every other key becomes a header.
 */
const googleSheets: Rule = (name) => {
	if (name === 'row_number') return 'row_number is Google Sheets\' own row number: the column is dropped';
	if (name.trim() === '') return 'an empty header';
	return undefined;
};

/** @n8n/api-types DATA_TABLE_COLUMN_REGEX and DATA_TABLE_COLUMN_MAX_LENGTH; n8n-workflow DATA_TABLE_SYSTEM_COLUMNS. */
const DATA_TABLE_COLUMN_REGEX = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const DATA_TABLE_COLUMN_MAX_LENGTH = 63;
const DATA_TABLE_SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];

const dataTables: Rule = (name) => {
	if (!DATA_TABLE_COLUMN_REGEX.test(name)) return 'a Data Table column starts with a letter and holds only letters, digits and underscores';
	if (name.length > DATA_TABLE_COLUMN_MAX_LENGTH) return `a Data Table column has at most ${DATA_TABLE_COLUMN_MAX_LENGTH} characters`;
	if (DATA_TABLE_SYSTEM_COLUMNS.includes(name)) return `${name} is a Data Table's own column`;
	return undefined;
};

/** CSV and XLSX (Convert to File): a header that needs no quoting, so every reader reads it back the same. */
const csv: Rule = (name) => (/[\r\n,"]/.test(name) ? 'a CSV header with a newline, a comma or a quote' : undefined);

/**
 * SQL databases (PostgreSQL, MySQL, SQLite, SQL Server...), conservatively: an identifier usable
 * unquoted everywhere is lower case (PostgreSQL folds the rest), a letter first, then letters,
 * digits and underscores, at most 63 characters (PostgreSQL's limit), and not a reserved word of
 * the SQL standard or of a common database.
 */
const SQL_RESERVED_WORDS = new Set(
	`all alter analyse analyze and any array as asc asymmetric authorization between binary both by call case cast check
	collate column constraint create cross current current_date current_role current_time current_timestamp current_user
	cursor database date day default dense_rank deferrable delete desc describe distinct do drop else end except exists false fetch
	file for foreign from full grant group having hour identity if ilike in index inner insert intersect interval into is
	join key keys lateral leading left like limit localtime localtimestamp match merge minute month natural not null number
	of offset on only option or order outer over partition percent placing position primary range references rename
	rank result returning revoke right row row_number rows schema second select session_user set show some symmetric system_user table
	tablesample then time timestamp to top trailing trigger true union unique update user using value values variadic
	verbose view when where window with year`.split(/\s+/),
);

const sql: Rule = (name) => {
	if (!/^[a-z][a-z0-9_]*$/.test(name)) return 'an SQL column usable without quotes is lower case: a letter, then letters, digits and underscores';
	if (name.length > 63) return 'an SQL column has at most 63 characters (PostgreSQL)';
	if (SQL_RESERVED_WORDS.has(name)) return `${name} is an SQL reserved word`;
	return undefined;
};

const DESTINATIONS: Record<string, Rule> = { 'Google Sheets': googleSheets, 'n8n Data Tables': dataTables, 'CSV/XLSX': csv, SQL: sql };

/** Every rule a name breaks, as "name: destination: why". */
function refusals(name: string): string[] {
	return Object.entries(DESTINATIONS).flatMap(([destination, rule]) => {
		const why = rule(name);
		return why ? [`"${name}": ${destination}: ${why}`] : [];
	});
}

describe('the rules, on names they must refuse', () => {
	it.each([
		['row_number', ['Google Sheets', 'SQL']],
		['_reused', ['n8n Data Tables', 'SQL']],
		['_first_extracted_at', ['n8n Data Tables', 'SQL']],
		['id', ['n8n Data Tables']],
		['createdAt', ['n8n Data Tables', 'SQL']],
		['2nd_line', ['n8n Data Tables', 'SQL']],
		['a'.repeat(64), ['n8n Data Tables', 'SQL']],
		['unit price', ['n8n Data Tables', 'SQL']],
		['a,b', ['n8n Data Tables', 'CSV/XLSX', 'SQL']],
		['date', ['SQL']],
		['value', ['SQL']],
	])('%s', (name, destinations) => {
		const refusedBy = Object.entries(DESTINATIONS)
			.filter(([, rule]) => rule(name) !== undefined)
			.map(([destination]) => destination);
		expect(refusedBy).toEqual(destinations);
	});
});

describe('the names the node chooses (columnNames.ts)', () => {
	it.each(Object.entries(NODE_COLUMN_NAMES))('%s: %s is taken by every destination', (_, name) => {
		expect(refusals(name)).toEqual([]);
	});

	it.each(Object.entries(COLUMN_PREFIXES))('the prefix %s (%s) keeps an accepted name accepted', (_, prefix) => {
		expect(refusals(`${prefix}total`)).toEqual([]);
	});
});

// ---------------------------------------------------------------------------------------------
// Every output of every mode, through n8n's engine against the sandbox.

let sandbox: Sandbox;
/** Field and column names of every ready-made template: the user's own names (see the header). */
const templateNames = new Set<string>();

beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
	const { cred } = newAccount();
	const { outputs, error } = await runNode({ nodeType: 'action', parameters: { resource: 'template', operation: 'getMany', returnAll: true }, credential: cred });
	expect(error).toBeUndefined();
	const collect = (fields: unknown) => {
		for (const field of (Array.isArray(fields) ? fields : []) as IDataObject[]) {
			templateNames.add(String(field.name));
			collect(field.item_fields);
		}
	};
	for (const template of outputs[0]) collect(template.json.fields);
	expect(templateNames.size).toBeGreaterThan(10);
});
afterAll(async () => await sandbox?.stop());

function newAccount(): { accountId: string; cred: TestCredential } {
	const account = sandbox.accounts.create({ plan: 'paid' });
	return { accountId: account.id, cred: { apiKey: account.keys[0], baseUrl: sandbox.baseUrl } };
}

let workflows = 0;
const newWorkflow = () => `wf-output-columns-${++workflows}`;

type Run = Omit<RunOptions, 'nodeType' | 'parameters' | 'credential' | 'input'>;

const action = (cred: TestCredential, parameters: INodeParameters, input: INodeExecutionData[] = [{ json: {} }], options: Run = {}) =>
	runNode({ nodeType: 'action', parameters, credential: cred, input, ...options });

const poller = (cred: TestCredential, parameters: INodeParameters, input: INodeExecutionData[], options: Run = {}) =>
	runNode({ nodeType: 'poller', parameters, credential: cred, input, ...options });

async function document(name: FixtureName, json: IDataObject = {}): Promise<INodeExecutionData> {
	const fixture = await loadFixture(name);
	return binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType, 'data', json);
}

/** An item as n8n's Email Trigger (IMAP) gives it: `from`, `subject`, `date` and `attachment_<n>`. */
async function email(documents: FixtureName[], withLogo = true): Promise<INodeExecutionData> {
	const binary: NonNullable<INodeExecutionData['binary']> = {};
	const files = await Promise.all(documents.map(loadFixture));
	const all = [...files.map(({ bytes, fileName, mimeType }) => ({ bytes, fileName, mimeType }))];
	if (withLogo) all.push({ bytes: pngWithText([], 120, 40), fileName: 'logo.png', mimeType: 'image/png' });
	all.forEach(({ bytes, fileName, mimeType }, n) => {
		binary[`attachment_${n}`] = { data: Buffer.from(bytes).toString('base64'), fileName, mimeType, fileSize: String(bytes.length) };
	});
	return { json: { from: 'Billing <billing@supplier.example>', subject: 'Invoice INV-7', date: '2026-03-05T09:00:00.000Z' }, binary };
}

/** Every output option that adds keys, and an input field copied onto every item. */
const EVERY_OPTION: INodeParameters = { options: { includeConfidence: true, includeSourceFragments: true, reviewThreshold: 0.99, inputFields: 'subject' } };

const withTemplate = (templateId: string, parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'document',
	operation: 'extractWithTemplate',
	templateId: { __rl: true, mode: 'id', value: templateId },
	...EVERY_OPTION,
	...parameters,
});

const everyAttachment = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'document',
	operation: 'extract',
	documentSource: 'binaryFields',
	...EVERY_OPTION,
	...parameters,
});

async function invoiceTemplateId(cred: TestCredential): Promise<string> {
	const { outputs } = await action(cred, { resource: 'template', operation: 'getMany', returnAll: true });
	return String(outputs[0].find((item) => item.json.name === 'Invoice')?.json.scanner_id);
}

/**
 * The headers Convert to File (CSV, XLSX) writes for an item: nested objects and lists spread over
 * columns named with dots (n8n-nodes-base utilities `flattenObject`).
 */
function spreadsheetHeaders(data: IDataObject, prefix = ''): string[] {
	return Object.entries(data).flatMap(([key, value]) =>
		value !== null && typeof value === 'object' && !(value instanceof Date) ? spreadsheetHeaders(value as IDataObject, `${prefix}${key}.`) : [`${prefix}${key}`],
	);
}

/**
 * The items of a run, checked: each key of each item on each output (the keys inside an error
 * output's `error` too: n8n's error output carries the item there) against every destination,
 * and every header Convert to File makes of the item against the CSV rule. `expected` is how many
 * items each output must hold, so a scenario that went wrong fails as such.
 */
function expectAcceptedEverywhere(scenario: string, result: RunResult, expected: number[]): IDataObject[] {
	expect(result.error?.message, scenario).toBeUndefined();
	expect(
		result.outputs.map((items) => items.length),
		`${scenario}: items per output`,
	).toEqual(expected);
	const found: string[] = [];
	for (const [output, items] of result.outputs.entries()) {
		for (const { json } of items) {
			const keys = Object.keys(json);
			const error = json.error;
			if (keys.length === 2 && typeof json.message === 'string' && error && typeof error === 'object' && !Array.isArray(error)) keys.push(...Object.keys(error));
			for (const key of keys) {
				if (templateNames.has(key)) continue;
				for (const refusal of refusals(key)) found.push(`${scenario}, output ${output}: ${refusal}`);
			}
			for (const header of spreadsheetHeaders(json)) {
				const own = header.split('.').filter((part) => !templateNames.has(part) && !/^\d+$/.test(part));
				if (own.some((part) => csv(part) !== undefined)) found.push(`${scenario}, output ${output}: "${header}": CSV/XLSX: ${csv(header)}`);
			}
		}
	}
	expect([...new Set(found)]).toEqual([]);
	return result.outputs.flat().map((item) => item.json);
}

// Each extraction waits for its first result read (the scheduler's estimate, about 10 s): side by
// side, with room for a slow machine.
describe.concurrent('every output of the action node and the Poller', { timeout: 120_000 }, () => {
	it('Extract with Template: One Item per Document, One Item per Table Row (an earlier upload reused) and Raw (reused)', async () => {
		const { cred } = newAccount();
		const templateId = await invoiceTemplateId(cred);
		const workflowId = newWorkflow();
		const input = [await document('invoiceEn', { subject: 'Invoice INV-7' })];

		const fields = expectAcceptedEverywhere('fields', await action(cred, withTemplate(templateId), input, { workflowId }), [1]);
		expect(Object.keys(fields[0])).toContain('invoice_number');
		const rows = expectAcceptedEverywhere('table rows', await action(cred, withTemplate(templateId, { output: 'tableRows' }), input, { workflowId }), [3]);
		expect(rows[0]).toMatchObject({ line_number: 1, reused: true, first_extracted_at: expect.any(String) });
		const [raw] = expectAcceptedEverywhere('raw', await action(cred, withTemplate(templateId, { output: 'raw' }), input, { workflowId }), [1]);
		expect(raw.extraction).toMatchObject({ reused: true, pages_used: 0 });
	});

	it('Every Attachment: documents with the attachment they came from and the files skipped; an email without a document', async () => {
		const { cred } = newAccount();
		const input = [await email(['invoiceEn', 'receiptPng']), await email([])];
		expectAcceptedEverywhere('every attachment, fields', await action(cred, everyAttachment(), input), [3]);
		expectAcceptedEverywhere('every attachment, table rows', await action(cred, everyAttachment({ output: 'tableRows' }), input), [7]);
	});

	it('Document Source URL: the link on the item', async () => {
		const { cred } = newAccount();
		const fixture = await loadFixture('invoiceEn');
		nock(`https://${FILES_ADDRESS}`).matchHeader('host', 'files.example.test').get('/invoice.pdf').reply(200, Buffer.from(fixture.bytes), { 'content-type': 'application/pdf' });
		const items = expectAcceptedEverywhere(
			'url',
			await action(cred, { resource: 'document', operation: 'extract', documentSource: 'url', fileUrl: 'https://files.example.test/invoice.pdf', output: 'tableRows' }),
			[3],
		);
		expect(items[0].file_url).toBe('https://files.example.test/invoice.pdf');
	});

	it('a rejected document: its error item under Continue, and on the error output', async () => {
		const { cred } = newAccount();
		const input = [await document('scanned')];
		const extract = { resource: 'document', operation: 'extract' };
		const [regular, errorOutput] = await Promise.all([
			action(cred, extract, input, { onError: 'continueRegularOutput', workflowId: newWorkflow() }),
			action(cred, extract, input, { onError: 'continueErrorOutput', workflowId: newWorkflow() }),
		]);
		expectAcceptedEverywhere('rejected, continue', regular, [1]);
		expectAcceptedEverywhere('rejected, error output', errorOutput, [0, 1]);
	});

	it('items that fail before an upload, and an upload the service refuses', async () => {
		const { cred } = newAccount();
		const missing = { resource: 'document', operation: 'extract', binaryPropertyName: 'nothing' };
		expectAcceptedEverywhere('no binary field, continue', await action(cred, missing, [{ json: {} }], { onError: 'continueRegularOutput' }), [1]);
		expectAcceptedEverywhere('no binary field, error output', await action(cred, missing, [{ json: {} }], { onError: 'continueErrorOutput' }), [0, 1]);
		const broke = sandbox.accounts.create({ monthlyPages: 20, pagesUsed: 20 });
		const refused = await action({ apiKey: broke.keys[0], baseUrl: sandbox.baseUrl }, { resource: 'document', operation: 'extract' }, [await document('invoiceEn')], {
			onError: 'continueRegularOutput',
		});
		const [item] = expectAcceptedEverywhere('quota exhausted', refused, [1]);
		expect(item.error_code).toEqual(expect.any(String));
	});

	it('Wait for Result off: receipts, then the Poller on every output in every mode, a reused receipt, an unreadable result', async () => {
		const { cred } = newAccount();
		const workflowId = newWorkflow();
		const input = [await email(['invoiceEn']), await email(['scanned'], false)];
		const receipts = await action(cred, everyAttachment({ waitForResult: false }), input, { workflowId });
		expectAcceptedEverywhere('receipts', receipts, [2]);
		const polled = receipts.outputs[0];
		expectAcceptedEverywhere('poller, fields', await poller(cred, { ...EVERY_OPTION }, polled, { workflowId }), [1, 1, 0, 0]);
		expectAcceptedEverywhere('poller, table rows', await poller(cred, { output: 'tableRows', ...EVERY_OPTION }, polled, { workflowId }), [3, 1, 0, 0]);
		expectAcceptedEverywhere('poller, raw', await poller(cred, { output: 'raw', ...EVERY_OPTION }, polled, { workflowId }), [1, 1, 0, 0]);

		const reused = await action(cred, everyAttachment({ waitForResult: false }), [input[0]], { workflowId });
		const [receipt] = expectAcceptedEverywhere('reused receipt', reused, [1]);
		expect(receipt.reused).toBe(true);
		expectAcceptedEverywhere('poller, table rows, reused', await poller(cred, { output: 'tableRows' }, reused.outputs[0], { workflowId }), [3, 0, 0, 0]);
		expectAcceptedEverywhere('poller, raw, reused', await poller(cred, { output: 'raw' }, reused.outputs[0], { workflowId }), [1, 0, 0, 0]);

		const unknown = [{ json: { result_id: '6f1c2a9e-0b7d-4c55-9a7e-3d2b1c0a9f80' } }, { json: { result_id: 'not-an-id' } }];
		expectAcceptedEverywhere('poller, unreadable, continue', await poller(cred, {}, unknown, { onError: 'continueRegularOutput' }), [0, 0, 2, 0]);
		expectAcceptedEverywhere('poller, unreadable, error output', await poller(cred, {}, unknown, { onError: 'continueErrorOutput' }), [0, 0, 0, 0, 2]);
	});

	// The test's own expect: in a concurrent block the global one cannot tell which test a poll belongs to.
	it('Get Result in every mode, and an unknown result', async ({ expect }) => {
		const { cred } = newAccount();
		const receipts = await action(cred, { resource: 'document', operation: 'extract', waitForResult: false }, [await document('invoiceEn')]);
		const resultId = String(receipts.outputs[0][0].json.result_id);
		const get = (parameters: INodeParameters) => ({ resource: 'document', operation: 'getResult', resultId, ...EVERY_OPTION, ...parameters });
		// The first read may find it still processing: that item is checked too.
		expectAcceptedEverywhere('get result, first read', await action(cred, get({})), [1]);
		await expect.poll(async () => (await action(cred, get({ output: 'raw' }))).outputs[0][0].json.status, { timeout: 20_000, interval: 500 }).toBe('done');
		expectAcceptedEverywhere('get result, fields', await action(cred, get({})), [1]);
		expectAcceptedEverywhere('get result, table rows', await action(cred, get({ output: 'tableRows' })), [3]);
		expectAcceptedEverywhere('get result, raw', await action(cred, get({ output: 'raw' })), [1]);
		const unknown = get({ resultId: '6f1c2a9e-0b7d-4c55-9a7e-3d2b1c0a9f80' });
		expectAcceptedEverywhere('get result, unknown', await action(cred, unknown, [{ json: {} }], { onError: 'continueRegularOutput' }), [1]);
	});

	it('template operations', async () => {
		const { cred } = newAccount();
		const templateId = await invoiceTemplateId(cred);
		const template = (operation: string, parameters: INodeParameters = {}, options: Run = {}) => action(cred, { resource: 'template', operation, ...parameters }, [{ json: {} }], options);
		const byId = (value: string) => ({ templateId: { __rl: true, mode: 'id', value } });
		expectAcceptedEverywhere('template get many', await template('getMany', { returnAll: true }), [8]);
		expectAcceptedEverywhere('template get', await template('get', byId(templateId)), [1]);
		expectAcceptedEverywhere('template get fields', await template('getFields', byId(templateId)), [expect.any(Number) as unknown as number]);
		const fieldsUi = { field: [{ name: 'order_number', type: 'string' }, { name: 'lines', type: 'table', columns: { column: [{ name: 'sku' }] } }] };
		const [created] = expectAcceptedEverywhere('template create', await template('create', { name: 'Supplier order', fieldsUi }), [1]);
		const createdId = String(created.scanner_id);
		expectAcceptedEverywhere('template get fields, own template', await template('getFields', byId(createdId)), [2]);
		expectAcceptedEverywhere('template update', await template('update', { ...byId(createdId), nameAndDescription: { name: 'Supplier orders' } }), [1]);
		expectAcceptedEverywhere('template delete', await template('delete', byId(createdId)), [1]);
		expectAcceptedEverywhere('template get, deleted', await template('get', byId(createdId), { onError: 'continueRegularOutput' }), [1]);
	});
});

/** The sandbox's faults apply to every account: these run one at a time, after the others. */
describe('results that fail or never finish', { timeout: 120_000 }, () => {
	afterEach(() => sandbox.faults.clear());

	it('a document whose processing fails: the action node\'s error item, the Poller\'s Error output', async () => {
		const { cred } = newAccount();
		sandbox.faults.enqueue('process', 'extractionError', 2);
		const receipt = await action(cred, { resource: 'document', operation: 'extract', waitForResult: false }, [await document('invoiceFr')]);
		const [failed, polled] = await Promise.all([
			action(cred, { resource: 'document', operation: 'extract' }, [await document('invoiceEn')], { onError: 'continueRegularOutput' }),
			poller(cred, {}, receipt.outputs[0]),
		]);
		expectAcceptedEverywhere('failed, continue', failed, [1]);
		expectAcceptedEverywhere('poller, failed', polled, [0, 0, 1, 0]);
	});

	it('a document that never finishes: pending items, the timeout error, the Poller\'s Still Processing', async () => {
		const { cred } = newAccount();
		sandbox.faults.enqueue('process', 'neverFinish', 3);
		const extract = (options: IDataObject) => ({ resource: 'document', operation: 'extract', options: { waitTimeout: 1, ...options } });
		const input = (name: FixtureName) => document(name).then((item) => [item]);
		expectAcceptedEverywhere('timeout, pending', await action(cred, extract({ onTimeout: 'emitPending' }), await input('invoiceEn')), [1]);
		expectAcceptedEverywhere('timeout, continue', await action(cred, extract({}), await input('invoiceFr'), { onError: 'continueRegularOutput' }), [1]);
		const receipt = await action(cred, { resource: 'document', operation: 'extract', waitForResult: false }, await input('invoiceDe'));
		expectAcceptedEverywhere('poller, still processing', await poller(cred, { options: { timeout: 1 } }, receipt.outputs[0]), [0, 0, 0, 1]);
	});
});

/** What another n8n process knows (n8n's database only): `forgetAllUploads` leaves that behind. */
describe('a document extracted in another n8n process', { timeout: 120_000 }, () => {
	it('a new execution: status duplicate; an Execute step: charged again', async () => {
		const { cred } = newAccount();
		const workflowId = newWorkflow();
		const item = [await document('invoiceEn')];
		const extract = (parameters: INodeParameters = {}) => ({ resource: 'document', operation: 'extract', output: 'tableRows', ...parameters });
		expectAcceptedEverywhere('first', await action(cred, extract(), item, { workflowId, mode: 'webhook' }), [3]);
		forgetAllUploads();
		const [duplicate] = expectAcceptedEverywhere('duplicate', await action(cred, extract(), item, { workflowId, mode: 'webhook' }), [1]);
		expect(duplicate.status).toBe('duplicate');
		expectAcceptedEverywhere('charged again', await action(cred, extract(), item, { workflowId, mode: 'manual' }), [3]);
		forgetAllUploads();
		const [receipt] = expectAcceptedEverywhere('charged again, receipt', await action(cred, extract({ waitForResult: false }), item, { workflowId, mode: 'retry' }), [1]);
		expect(receipt.charged_again).toBe(true);
	});
});

// The URL source's file host: its name resolves to a public address, where nock answers.
const FILES_ADDRESS = '93.184.216.34';
const realLookup = dns.lookup;
beforeAll(() => {
	vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, callback: (error: Error | null, found: LookupAddress[] | string, family?: number) => void) => {
		if (host !== 'files.example.test') return (realLookup as (...args: unknown[]) => void)(host, options, callback);
		if ((options as { all?: boolean }).all) callback(null, [{ address: FILES_ADDRESS, family: 4 }]);
		else callback(null, FILES_ADDRESS, 4);
	}) as typeof dns.lookup);
});
afterAll(() => {
	vi.restoreAllMocks();
	nock.cleanAll();
});
