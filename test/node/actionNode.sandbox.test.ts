/**
 * The action node through n8n's engine against the local sandbox over real HTTP: real PDFs in,
 * typed fields out, compared with the ground truth of the sample documents. Every test has its
 * own account (and so its own key, quota and templates).
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { binaryItem, runNode, type RunResult, type TestCredential } from '../harness/engine';
import { loadFixture, type FixtureName } from '../fixtures';
import { startSandbox, type AccountSettings, type Sandbox } from '../../sandbox/src';
import { expectPairedItems, searchTemplates } from './actionNode.support';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
});
afterAll(async () => await sandbox?.stop());

function newAccount(settings: AccountSettings = {}): { accountId: string; cred: TestCredential } {
	const account = sandbox.accounts.create(settings);
	return { accountId: account.id, cred: { apiKey: account.keys[0], baseUrl: sandbox.baseUrl } };
}

const run = (cred: TestCredential, parameters: INodeParameters, input: INodeExecutionData[] = [{ json: {} }], continueOnFail = false): Promise<RunResult> =>
	runNode({ nodeType: 'action', parameters, credential: cred, input, onError: continueOnFail ? 'continueRegularOutput' : undefined });

async function fixtureItem(name: FixtureName): Promise<INodeExecutionData> {
	const fixture = await loadFixture(name);
	return binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType);
}

/** The typed fields of a Fields-mode item, without the metadata the node adds. */
function fieldsOf(json: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(json).filter(([key]) => key !== 'extraction'));
}

/** The ready-made Invoice template's id, read the way a user would: Template > Get Many. */
async function invoiceTemplateId(cred: TestCredential): Promise<string> {
	const { outputs, error } = await run(cred, { resource: 'template', operation: 'getMany', returnAll: true });
	expect(error).toBeUndefined();
	const invoice = outputs[0].find((item) => item.json.name === 'Invoice');
	expect(invoice).toBeDefined();
	return String(invoice?.json.scanner_id);
}

// Each extraction waits for its first result read (the scheduler's estimate of a typical
// document, about 10 s); running them side by side keeps the file short.
describe.concurrent('extraction', () => {
	it('Extract with Template: the Invoice template turns a real invoice PDF into typed fields equal to the ground truth', async () => {
		const { cred } = newAccount();
		const templateId = await invoiceTemplateId(cred);
		const fixture = await loadFixture('invoiceEn');
		const { outputs, error } = await run(
			cred,
			{ resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'list', value: templateId } },
			[await fixtureItem('invoiceEn')],
		);
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expectPairedItems(outputs[0], [0]);
		const json = outputs[0][0].json;
		expect(fieldsOf(json)).toEqual(fixture.expected);
		expect(typeof json.total).toBe('number');
		expect(json.extraction).toMatchObject({
			status: 'done',
			template: { id: templateId, name: 'Invoice' },
			file_name: 'invoice-en.pdf',
			file_type: 'application/pdf',
			pages_used: 1,
			language: 'en',
			compliance: expect.any(Object),
		});
	});

	it('One Item per Table Row: one item per invoice line, the document fields on each', async () => {
		const { cred } = newAccount();
		// The template picker's search, over real HTTP.
		const found = await searchTemplates(cred, 'invoice');
		expect(found.results.map((result) => result.name)).toEqual(['Invoice']);
		const templateId = String(found.results[0].value);
		const expected = (await loadFixture('invoiceDe')).expected as IDataObject & { line_items: IDataObject[] };
		const { outputs, error } = await run(
			cred,
			{ resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value: templateId }, output: 'tableRows' },
			[await fixtureItem('invoiceDe')],
		);
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(expected.line_items.length);
		expectPairedItems(outputs[0], expected.line_items.map(() => 0));
		outputs[0].forEach((row, index) => {
			expect(row.json).toMatchObject({
				line_number: index + 1,
				...expected.line_items[index],
				invoice_number: expected.invoice_number,
				total: expected.total,
				currency: expected.currency,
			});
			expect(row.json.line_items).toBeUndefined();
		});
	});

	it('Extract (auto-detect): each document of a batch gets the right template and its ground truth', async () => {
		const { cred } = newAccount();
		const names: FixtureName[] = ['deliveryNote', 'receiptPng', 'invoiceFr'];
		const { outputs, error } = await run(cred, { resource: 'document', operation: 'extract' }, await Promise.all(names.map(fixtureItem)));
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 1, 2]);
		for (const item of outputs[0]) {
			const fixture = await loadFixture(names[(item.pairedItem as { item: number }).item]);
			expect((item.json.extraction as IDataObject).template).toMatchObject({ name: fixture.spec.template });
			expect(fieldsOf(item.json)).toEqual(fixture.expected);
		}
	});

	it('a scanned PDF without text is rejected with NO_TEXT and costs no page', async () => {
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, { resource: 'document', operation: 'extract' }, [await fixtureItem('scanned')]);
		expect(error?.message).toBe('Item 1: The document "scanned.pdf" was rejected: no readable text was found in it (NO_TEXT)');
		expect((error as unknown as { description: string }).description).toContain('No pages of your quota were used.');
		const pages = sandbox.stats().pages[accountId];
		expect(pages.charged).toBeGreaterThan(0);
		expect(pages.released).toBe(pages.charged);
		expect(sandbox.accounts.get(accountId)).toMatchObject({ pagesUsed: 0, pagesAvailable: 20 });
	});
});

describe('templates', () => {
	const templateId = (value: string) => ({ __rl: true, mode: 'id', value });

	it('create, read, update and delete round-trip, then the deleted template is reported as missing', async () => {
		const { cred } = newAccount();
		const template = (operation: string, parameters: INodeParameters) => run(cred, { resource: 'template', operation, ...parameters });
		const fieldsUi = {
			field: [
				{ name: 'order_number', type: 'string', required: true, description: 'After "Order No."' },
				{ name: 'lines', type: 'table', columns: { column: [{ name: 'sku' }, { name: 'quantity', type: 'number' }] } },
			],
		};
		const created = await template('create', { name: 'Supplier order', description: 'Orders from suppliers', fieldsUi });
		expect(created.error).toBeUndefined();
		const id = String(created.outputs[0][0].json.scanner_id);
		const definedFields = [
			{ name: 'order_number', type: 'string', required: true, description: 'After "Order No."' },
			{ name: 'lines', type: 'table', item_fields: [{ name: 'sku', type: 'string' }, { name: 'quantity', type: 'number' }] },
		];

		const read = await template('get', { templateId: templateId(id) });
		expect(read.outputs[0][0].json).toMatchObject({ scanner_id: id, name: 'Supplier order', description: 'Orders from suppliers' });
		expect(read.outputs[0][0].json.fields).toMatchObject(definedFields);

		const renamed = await template('update', { templateId: templateId(id), nameAndDescription: { name: 'Supplier order v2' } });
		expect(renamed.error).toBeUndefined();
		const afterRename = (await template('get', { templateId: templateId(id) })).outputs[0][0].json;
		expect(afterRename.name).toBe('Supplier order v2');
		expect(afterRename.fields).toMatchObject(definedFields);

		const replaced = await template('update', { templateId: templateId(id), replaceFields: true, fieldsDefinedAs: 'json', fieldsJson: '[{ "name": "total", "type": "currency" }]' });
		expect(replaced.error).toBeUndefined();
		const afterReplace = (await template('get', { templateId: templateId(id) })).outputs[0][0].json;
		expect((afterReplace.fields as IDataObject[]).map((field) => field.name)).toEqual(['total']);

		const deleted = await template('delete', { templateId: templateId(id) });
		expect(deleted.outputs[0]).toEqual([{ json: expect.objectContaining({ scanner_id: id, deleted: true }), pairedItem: { item: 0 } }]);
		const gone = await template('get', { templateId: templateId(id) });
		expect(gone.error?.message).toBe(`Item 1: The template "${id}" does not exist in this account`);
		// A template operation: the advice is to pick another template, not to switch to auto-detect.
		expect((gone.error as unknown as { description: string }).description).toMatch(/Template > Get Many\.$/);
	});

	it('Get Fields lists a template created in the UI field by field, as Get reads it', async () => {
		const { cred } = newAccount();
		const fieldsUi = {
			field: [
				{ name: 'order_number', type: 'string', required: true, description: 'After "Order No."' },
				{ name: 'lines', type: 'table', columns: { column: [{ name: 'sku' }, { name: 'quantity', type: 'number' }] } },
			],
		};
		const created = await run(cred, { resource: 'template', operation: 'create', name: 'Supplier order', fieldsUi });
		expect(created.error).toBeUndefined();
		const id = String(created.outputs[0][0].json.scanner_id);
		const { outputs, error } = await run(cred, { resource: 'template', operation: 'getFields', templateId: templateId(id) });
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json)).toMatchObject([
			{ name: 'order_number', type: 'string', required: true, description: 'After "Order No."', template_id: id, template_name: 'Supplier order' },
			{ name: 'lines', type: 'table', columns: ['sku', 'quantity'], template_id: id },
		]);
		expectPairedItems(outputs[0], [0, 0]);
	});

	it('the node and the service count text limits alike, in characters: 200 emoji are accepted by both, 201 refused by both', async () => {
		const { cred } = newAccount({ plan: 'paid' });
		const emoji = (count: number) => '\u{1F9FE}'.repeat(count);
		const atLimit = await run(cred, { resource: 'template', operation: 'create', name: emoji(200), fieldsUi: { field: [{ name: 'total', label: emoji(200) }] } });
		expect(atLimit.error).toBeUndefined();
		expect(atLimit.outputs[0][0].json).toMatchObject({ name: emoji(200) });
		const past = await run(cred, { resource: 'template', operation: 'create', name: emoji(201) });
		expect(past.error?.message).toBe('Item 1: name: The template name is 201 characters long; the limit is 200');
		// The same name sent straight to the service is refused there too.
		const direct = await fetch(`${sandbox.baseUrl}/api/v1/scanners`, {
			method: 'POST',
			headers: { 'X-API-Key': cred.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: emoji(201) }),
		});
		expect(direct.status).toBe(400);
		expect(await direct.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
	});

	it('Extract with Template naming a template the account does not have: 404, and no page used', async () => {
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, { resource: 'document', operation: 'extractWithTemplate', templateId: templateId('no-such-template') }, [await fixtureItem('invoiceEn')]);
		expect(error?.message).toBe('Item 1: The template "no-such-template" does not exist in this account');
		expect((error as unknown as { description: string }).description).toMatch(/use "Extract \(Auto-Detect Template\)" to let the service choose/);
		expect(sandbox.accounts.get(accountId)?.pagesUsed).toBe(0);
	});

	it('the free plan\'s 10-template limit is reported as the user should read it', async () => {
		const { cred } = newAccount();
		const { outputs, error } = await run(cred, { resource: 'template', operation: 'create', name: '={{ $json.name }}' }, [{ json: { name: 'A' } }, { json: { name: 'B' } }, { json: { name: 'C' } }], true);
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 1, 2]);
		expect(outputs[0].slice(0, 2).map((item) => item.json.name)).toEqual(['A', 'B']);
		expect(outputs[0][2].json).toMatchObject({ error: 'Item 3: Template limit reached (10 templates)', error_code: 'SCANNER_LIMIT', http_status: 403 });
	});
});

describe('quota', () => {
	it('an exhausted free quota gives the 402 message a user sees, and no upload is accepted', async () => {
		const { accountId, cred } = newAccount({ pagesUsed: 20 });
		const { error } = await run(cred, { resource: 'document', operation: 'extract' }, [await fixtureItem('invoiceEn')]);
		expect(error?.message).toBe('Item 1: Not enough pages left in your quota: this document needs 1, 0 left on the free plan');
		expect((error as unknown as { description: string }).description).toMatch(/Your pages renew on \d{4}-\d{2}-\d{2}T.*Upgrade or buy pages: https?:\/\//);
		const uploads = sandbox.stats().uploads.filter((upload) => upload.accountId === accountId);
		expect(uploads.map((upload) => ({ status: upload.status, resultId: upload.resultId }))).toEqual([{ status: 402, resultId: null }]);
		expect(sandbox.accounts.get(accountId)?.pagesUsed).toBe(20);
	});
});
