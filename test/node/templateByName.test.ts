/**
 * The Template picker's "By Name" mode through n8n's engine against the local sandbox over real
 * HTTP: the name is looked up in the credential's account (GET /scanners, one list per run of the
 * node whatever the number of items and names), before any upload, and an unknown or ambiguous
 * name fails its item saying what to do. Every test has its own account; the tests run one after
 * the other so that the sandbox's request counts are theirs.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadFixture, type FixtureName } from '../fixtures';
import { binaryItem, runNode, visibleText, type RunResult, type TestCredential } from '../harness/engine';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { readyMadeScannerId } from '../../sandbox/src/scanners';
import { expectPairedItems } from './actionNode.support';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
});
afterAll(async () => await sandbox?.stop());

function newAccount(): { accountId: string; cred: TestCredential } {
	const account = sandbox.accounts.create();
	return { accountId: account.id, cred: { apiKey: account.keys[0], baseUrl: sandbox.baseUrl } };
}

const byName = (value: string) => ({ __rl: true, mode: 'name', value });

const run = (cred: TestCredential, parameters: INodeParameters, input: INodeExecutionData[] = [{ json: {} }], continueOnFail = false): Promise<RunResult> =>
	runNode({ nodeType: 'action', parameters, credential: cred, input, onError: continueOnFail ? 'continueRegularOutput' : undefined });

/** Extract with Template, receipts only (no wait): what was uploaded and with which template is the point here. */
const extractByName = (value: string): INodeParameters => ({ resource: 'document', operation: 'extractWithTemplate', templateId: byName(value), waitForResult: false });

async function fixtureItem(name: FixtureName, json: IDataObject = {}): Promise<INodeExecutionData> {
	const fixture = await loadFixture(name);
	return binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType, 'data', json);
}

/** Requests the sandbox received for each operation while `action` ran, and the files uploaded. */
async function counted<T>(action: () => Promise<T>): Promise<{ value: T; lists: number; uploads: number; gets: number }> {
	const before = sandbox.stats();
	const value = await action();
	const after = sandbox.stats();
	return {
		value,
		lists: after.requests.listScanners - before.requests.listScanners,
		uploads: after.uploads.length - before.uploads.length,
		gets: after.requests.getScanner - before.requests.getScanner,
	};
}

/** A template created straight through the service's API, as another user of the account would. */
async function createTemplate(cred: TestCredential, name: string): Promise<string> {
	const response = await fetch(`${cred.baseUrl}/api/v1/scanners`, {
		method: 'POST',
		headers: { 'X-API-Key': cred.apiKey, 'Content-Type': 'application/json' },
		body: JSON.stringify({ name, fields: [{ name: 'total', type: 'currency' }] }),
	});
	expect(response.status).toBe(201);
	return String(((await response.json()) as IDataObject).scanner_id);
}

const descriptionOf = (error: unknown) => (error as { description?: string }).description ?? '';
const itemIndexOf = (error: unknown) => (error as { context?: { itemIndex?: number } }).context?.itemIndex;

describe('Template > By Name at run time', () => {
	it('extracts with the template of that name in the credential\'s account, the name trimmed', async () => {
		const { accountId, cred } = newAccount();
		const { value, lists, uploads } = await counted(async () => await run(cred, extractByName('  Invoice '), [await fixtureItem('invoiceEn')]));
		expect(value.error).toBeUndefined();
		expect(value.outputs[0]).toHaveLength(1);
		expect(value.outputs[0][0].json).toMatchObject({ scanner_id: readyMadeScannerId(accountId, 'invoice'), scanner_name: 'Invoice', status: 'queued' });
		expect(lists).toBe(1);
		expect(uploads).toBe(1);
		expect(sandbox.stats().uploads.at(-1)).toMatchObject({ endpoint: 'upload', accountId });
		expect(visibleText(value)).not.toContain(cred.apiKey);
	});

	it('Get, Get Fields, Update and Delete take a template by name too', async () => {
		const { accountId, cred } = newAccount();
		const template = (operation: string, parameters: INodeParameters) => run(cred, { resource: 'template', operation, ...parameters });
		const receiptId = readyMadeScannerId(accountId, 'receipt');

		const got = await template('get', { templateId: byName('Receipt') });
		expect(got.error).toBeUndefined();
		expect(got.outputs[0][0].json).toMatchObject({ scanner_id: receiptId, name: 'Receipt' });

		const fields = await template('getFields', { templateId: byName('Receipt') });
		expect(fields.error).toBeUndefined();
		expect(fields.outputs[0][0].json).toMatchObject({ template_id: receiptId, template_name: 'Receipt' });

		const ownId = await createTemplate(cred, 'Supplier order');
		const renamed = await template('update', { templateId: byName('Supplier order'), nameAndDescription: { name: 'Supplier order v2' } });
		expect(renamed.error).toBeUndefined();
		expect(renamed.outputs[0][0].json).toMatchObject({ scanner_id: ownId, name: 'Supplier order v2' });

		const deleted = await template('delete', { templateId: byName('Supplier order v2') });
		expect(deleted.error).toBeUndefined();
		expect(deleted.outputs[0][0].json).toMatchObject({ scanner_id: ownId, deleted: true });
		expect((await template('get', { templateId: byName('Supplier order v2') })).error?.message).toBe('Item 1: No template in this account is named "Supplier order v2"');
	});

	it('an unknown name fails the item before any upload, saying which names exist and how to create one', async () => {
		const { cred } = newAccount();
		const { value, lists, uploads } = await counted(async () => await run(cred, extractByName('Invoce'), [await fixtureItem('invoiceEn')]));
		expect(value.error?.message).toBe('Item 1: No template in this account is named "Invoce"');
		expect(itemIndexOf(value.error)).toBe(0);
		const description = descriptionOf(value.error);
		expect(description).toContain('"Invoice"');
		expect(description).toContain('and 3 more');
		expect(description).toMatch(/Template > Create/);
		expect(lists).toBe(1);
		expect(uploads).toBe(0);
		expect(visibleText(value)).not.toContain(cred.apiKey);
	});

	it('names are matched with their capital letters: "invoice" is not "Invoice", and the error says so', async () => {
		const { cred } = newAccount();
		const { value, uploads } = await counted(async () => await run(cred, extractByName('invoice'), [await fixtureItem('invoiceEn')]));
		expect(value.error?.message).toBe('Item 1: No template in this account is named "invoice"');
		expect(descriptionOf(value.error)).toMatch(/^Did you mean "Invoice"\? Names must match exactly, capital letters included\./);
		expect(uploads).toBe(0);
	});

	it('several templates with the name fail the item: how many, their IDs, and to pick By ID or From List', async () => {
		const { cred } = newAccount();
		const first = await createTemplate(cred, 'Twin');
		const second = await createTemplate(cred, ' Twin');
		const { value, uploads } = await counted(async () => await run(cred, extractByName('Twin'), [await fixtureItem('invoiceEn')]));
		expect(value.error?.message).toBe('Item 1: 2 templates in this account are named "Twin"');
		const description = descriptionOf(value.error);
		expect(description).toMatch(/From List/);
		expect(description).toMatch(/By ID/);
		expect(description).toContain(first);
		expect(description).toContain(second);
		expect(uploads).toBe(0);
	});

	it('a name from an expression per item: each item gets its own template, one list request for the run', async () => {
		const { accountId, cred } = newAccount();
		const input = [await fixtureItem('invoiceEn', { kind: 'Invoice' }), await fixtureItem('receiptPng', { kind: 'Receipt' }), await fixtureItem('invoiceDe', { kind: 'Invoice' })];
		const { value, lists, uploads } = await counted(async () => await run(cred, extractByName('={{ $json.kind }}'), input));
		expect(value.error).toBeUndefined();
		expectPairedItems(value.outputs[0], [0, 1, 2]);
		const templateOf = (item: number) => value.outputs[0].find((out) => (out.pairedItem as { item: number }).item === item)?.json.scanner_id;
		expect([0, 1, 2].map(templateOf)).toEqual([readyMadeScannerId(accountId, 'invoice'), readyMadeScannerId(accountId, 'receipt'), readyMadeScannerId(accountId, 'invoice')]);
		// Two names, at most one list request each; the service lists every template in one answer.
		expect(lists).toBe(1);
		expect(uploads).toBe(3);
	});

	it('Get with a name per item (one item at a time): one list request for the run', async () => {
		const { accountId, cred } = newAccount();
		const input = ['Invoice', 'Receipt', 'Invoice'].map((kind) => ({ json: { kind } }));
		const { value, lists, gets } = await counted(async () => await run(cred, { resource: 'template', operation: 'get', templateId: byName('={{ $json.kind }}') }, input));
		expect(value.error).toBeUndefined();
		expect(value.outputs[0].map((item) => item.json.scanner_id)).toEqual([
			readyMadeScannerId(accountId, 'invoice'),
			readyMadeScannerId(accountId, 'receipt'),
			readyMadeScannerId(accountId, 'invoice'),
		]);
		expect(lists).toBe(1);
		expect(gets).toBe(3);
	});

	it('every name is resolved before the first upload: an unknown name on item 2 stops the run with nothing uploaded', async () => {
		const { accountId, cred } = newAccount();
		const input = [await fixtureItem('invoiceEn', { kind: 'Invoice' }), await fixtureItem('invoiceDe', { kind: 'Nope' })];
		const { value, uploads } = await counted(async () => await run(cred, extractByName('={{ $json.kind }}'), input));
		expect(value.error?.message).toBe('Item 2: No template in this account is named "Nope"');
		expect(itemIndexOf(value.error)).toBe(1);
		expect(uploads).toBe(0);
		expect(sandbox.accounts.get(accountId)?.pagesUsed).toBe(0);
	});

	it('with On Error = Continue the unknown name is its item\'s error and the other items still run', async () => {
		const { accountId, cred } = newAccount();
		const input = [await fixtureItem('invoiceEn', { kind: 'Invoice' }), await fixtureItem('invoiceDe', { kind: 'Nope' }), await fixtureItem('receiptPng', { kind: 'Receipt' })];
		const { value, lists, uploads } = await counted(async () => await run(cred, extractByName('={{ $json.kind }}'), input, true));
		expect(value.error).toBeUndefined();
		expectPairedItems(value.outputs[0], [0, 1, 2]);
		const [first, second, third] = value.outputs[0];
		expect(first.json).toMatchObject({ scanner_id: readyMadeScannerId(accountId, 'invoice'), status: 'queued' });
		expect(second.json.error).toBe('Item 2: No template in this account is named "Nope"');
		expect(third.json).toMatchObject({ scanner_id: readyMadeScannerId(accountId, 'receipt'), status: 'queued' });
		expect(lists).toBe(1);
		expect(uploads).toBe(2);
	});

	it('a list request the service refuses is each item\'s error, asked once for the run', async () => {
		const { cred } = newAccount();
		sandbox.accounts.revokeKey(cred.apiKey);
		const input = [await fixtureItem('invoiceEn', { kind: 'Invoice' }), await fixtureItem('receiptPng', { kind: 'Receipt' })];
		const { value, lists, uploads } = await counted(async () => await run(cred, extractByName('={{ $json.kind }}'), input, true));
		expect(value.error).toBeUndefined();
		expect(value.outputs[0].map((item) => item.json.error)).toEqual([expect.stringMatching(/^Item 1: /), expect.stringMatching(/^Item 2: /)]);
		expect(value.outputs[0].map((item) => item.json.error_code)).toEqual(['INVALID_API_KEY', 'INVALID_API_KEY']);
		expect(lists).toBe(1);
		expect(uploads).toBe(0);
		expect(visibleText(value)).not.toContain(cred.apiKey);
	});
});
