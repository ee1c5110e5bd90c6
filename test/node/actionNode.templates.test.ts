/**
 * The action node's Template resource through n8n's engine against nock: the exact JSON of
 * create and update (UI rows and JSON), every limit of spec 2.2 / 8 refused before any request
 * with the field's path, get, get fields, get many, delete, and the template picker's list search.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { BASE, answer, credential, expectPairedItems, jsonBody, runAction, searchTemplates as search, trapAllRequests, useNock, type SeenRequest } from './actionNode.support';

useNock();

const template = (operation: string, parameters: INodeParameters = {}): INodeParameters => ({ resource: 'template', operation, ...parameters });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

const SCANNER = {
	success: true,
	scanner_id: 'scn_1',
	name: 'Supplier invoice',
	description: 'Invoices from suppliers',
	fields: [{ name: 'invoice_number', type: 'string' }],
	created_at: '2026-01-01T00:00:00.000Z',
	updated_at: '2026-01-02T00:00:00.000Z',
};

/** Answers one request to `path` and records it; anything else is caught as unexpected. */
function service(method: 'get' | 'post' | 'patch' | 'delete', path: string, status: number, body: unknown) {
	const requests: SeenRequest[] = [];
	answer(nock(BASE)[method](path), requests, [status, body]);
	return { requests, unexpected: trapAllRequests() };
}

describe('Create', () => {
	it('sends the fields defined in the UI, a table with its columns included, as spec 2.2 JSON', async () => {
		const cred = credential();
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const { outputs, error } = await runAction(
			template('create', {
				name: 'Supplier invoice',
				description: 'Invoices from suppliers',
				fieldsDefinedAs: 'ui',
				fieldsUi: {
					field: [
						{
							name: 'invoice_number',
							type: 'string',
							label: 'Invoice Number',
							required: true,
							description: 'Top right, after "Invoice No."',
							formatHint: 'INV-0000',
							examples: 'INV-0001, INV-0002',
						},
						{ name: 'total', type: 'currency' },
						{
							name: 'line_items',
							type: 'table',
							label: 'Lines',
							columns: { column: [{ name: 'description' }, { name: 'unit_price', type: 'currency', examples: '1,234.56\n9.99' }] },
						},
					],
				},
			}),
			[{ json: {} }],
			{ cred },
		);
		expect(error).toBeUndefined();
		expect(created.requests).toHaveLength(1);
		expect(created.requests[0].headers['x-api-key']).toBe(cred.apiKey);
		expect(jsonBody(created.requests[0])).toEqual({
			name: 'Supplier invoice',
			description: 'Invoices from suppliers',
			fields: [
				{
					name: 'invoice_number',
					type: 'string',
					label: 'Invoice Number',
					required: true,
					description: 'Top right, after "Invoice No."',
					format_hint: 'INV-0000',
					examples: ['INV-0001', 'INV-0002'],
				},
				{ name: 'total', type: 'currency' },
				{
					name: 'line_items',
					type: 'table',
					label: 'Lines',
					item_fields: [
						{ name: 'description', type: 'string' },
						{ name: 'unit_price', type: 'currency', examples: ['1,234.56', '9.99'] },
					],
				},
			],
		});
		expect(outputs[0]).toEqual([{ json: SCANNER, pairedItem: { item: 0 } }]);
		expect(created.unexpected).toEqual([]);
	});

	const jsonFields = [
		{ name: 'invoice_number', value_type: 'string', required: true },
		{ name: 'lines', type: 'table', item_fields: [{ name: 'amount', type: 'currency', format_hint: '0.00' }] },
	];

	it.each([
		['a list of fields', JSON.stringify(jsonFields)],
		['an object with "fields", as Get Template returns it', JSON.stringify({ ...SCANNER, fields: jsonFields })],
	])('sends the fields given as JSON (%s)', async (_name, fieldsJson) => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const { error } = await runAction(template('create', { name: 'Supplier invoice', fieldsDefinedAs: 'json', fieldsJson }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(jsonBody(created.requests[0])).toEqual({ name: 'Supplier invoice', fields: jsonFields });
		expect(created.unexpected).toEqual([]);
	});

	it.each([
		['the list of fields of a template read with Get Template', { fields: jsonFields }, '={{ $json.fields }}'],
		['the whole template read with Get Template', { template: { ...SCANNER, fields: jsonFields } }, '={{ $json.template }}'],
	])('takes Fields (JSON) from an expression giving %s, as it is (cloning a template by mapping)', async (_name, json, fieldsJson) => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const { error } = await runAction(template('create', { name: 'Copy', fieldsDefinedAs: 'json', fieldsJson }), [{ json }]);
		expect(error).toBeUndefined();
		expect(jsonBody(created.requests[0])).toEqual({ name: 'Copy', fields: jsonFields });
		expect(created.unexpected).toEqual([]);
	});

	it('counts lengths in characters, as the spec: a name of 150 emoji (300 UTF-16 units) is sent, 201 are refused', async () => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const name = '\u{1F9FE}'.repeat(150);
		expect(name.length).toBe(300);
		const { error } = await runAction(template('create', { name }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(jsonBody(created.requests[0])).toEqual({ name });
		const refused = await runAction(template('create', { name: '\u{1F9FE}'.repeat(201) }), [{ json: {} }]);
		expect(refused.error?.message).toBe('Item 1: name: The template name is 201 characters long; the limit is 200');
		expect(created.requests).toHaveLength(1);
	});

	it('a server error on create says the template may have been created, and is not sent again', async () => {
		const created = service('post', '/api/v1/scanners', 500, { success: false, error_code: 'INTERNAL_ERROR', message: 'boom', request_id: 'req-7' });
		const { error } = await runAction(template('create', { name: 'Supplier invoice' }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: The service had an internal error');
		expect((error as unknown as { description: string }).description).toMatch(/The change was not sent again: the service may have applied it\. Check the template with Get Template or Get Many before running the node again\.$/);
		expect(created.requests).toHaveLength(1);
		expect(created.unexpected).toEqual([]);
	});

	it('reads a field\'s Required from an expression: "true" is true, "maybe" is refused before any request', async () => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const fieldsUi = (required: string) => ({ field: [{ name: 'total', type: 'currency', required }] });
		const { error } = await runAction(template('create', { name: 'T', fieldsUi: fieldsUi('={{ "true" }}') }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(jsonBody(created.requests[0])).toEqual({ name: 'T', fields: [{ name: 'total', type: 'currency', required: true }] });
		const refused = await runAction(template('create', { name: 'T', fieldsUi: fieldsUi('={{ "maybe" }}') }), [{ json: {} }]);
		expect(refused.error?.message).toBe('Item 1: fields[0].required: "required" of field "total" must be true or false, not a string');
		expect(created.requests).toHaveLength(1);
	});

	it('sends no fields key when the UI has no field rows', async () => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const { error } = await runAction(template('create', { name: 'Empty' }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(jsonBody(created.requests[0])).toEqual({ name: 'Empty' });
	});

	it('sends a definition that is exactly at every limit', async () => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const columns = Array.from({ length: 100 }, (_, i) => ({ name: `column_${i}` }));
		const fields = [
			{ name: 'lines', type: 'table', item_fields: columns },
			{ name: 'n'.repeat(100), label: 'l'.repeat(200), description: 'd'.repeat(2000), format_hint: 'f'.repeat(500), examples: Array.from({ length: 10 }, (_, i) => `E-${i}`) },
			...Array.from({ length: 98 }, (_, i) => ({ name: `field_${i}` })),
		];
		const input = { name: 'N'.repeat(200), description: 'D'.repeat(2000), fieldsDefinedAs: 'json', fieldsJson: JSON.stringify(fields) };
		const { error } = await runAction(template('create', input), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(jsonBody(created.requests[0])).toEqual({ name: input.name, description: input.description, fields });
	});

	const field = (extra: IDataObject = {}): IDataObject => ({ name: 'invoice_number', type: 'string', ...extra });
	const table = (columns: IDataObject[]): IDataObject => ({ name: 'line_items', type: 'table', item_fields: columns });
	const many = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

	/** [what, name, description, fields, the error the user reads]. Spec 2.1, 2.2, 4.6 and 8. */
	const limits: Array<[string, string, string, IDataObject[], string]> = [
		['template name over 200', 'N'.repeat(201), '', [], 'name: The template name is 201 characters long; the limit is 200'],
		['template name blank', '   ', '', [], 'name: The template name is empty'],
		['template description over 2,000', 'T', 'D'.repeat(2001), [], 'description: The template description is 2,001 characters long; the limit is 2,000'],
		['more than 100 fields', 'T', '', many(101, (i) => ({ name: `f${i}` })), 'fields: The template has 101 fields; the limit is 100'],
		['more than 100 table columns', 'T', '', [table(many(101, (i) => ({ name: `c${i}` })))], 'fields[0].item_fields: The table "line_items" has 101 columns; the limit is 100'],
		['field name over 100', 'T', '', [field(), field({ name: 'n'.repeat(101) })], 'fields[1].name: The name of field 2 is 101 characters long; the limit is 100'],
		['field without a name', 'T', '', [field(), { type: 'number' }], 'fields[1].name: Field 2 needs a name'],
		['label over 200', 'T', '', [field({ label: 'l'.repeat(201) })], 'fields[0].label: The label of field "invoice_number" is 201 characters long; the limit is 200'],
		[
			'field description over 2,000',
			'T',
			'',
			[field({ description: 'd'.repeat(2001) })],
			'fields[0].description: The description of field "invoice_number" is 2,001 characters long; the limit is 2,000',
		],
		[
			'format hint over 500',
			'T',
			'',
			[field({ format_hint: 'f'.repeat(501) })],
			'fields[0].format_hint: The format hint of field "invoice_number" is 501 characters long; the limit is 500',
		],
		['more than 10 examples', 'T', '', [field({ examples: many(11, (i) => `E-${i}`) })], 'fields[0].examples: The field "invoice_number" has 11 examples; the limit is 10'],
		[
			'a type outside the allowed list',
			'T',
			'',
			[field({ type: 'money' })],
			'fields[0].type: The type of field "invoice_number" is "money"; it must be one of string, number, date, boolean, currency, email, phone, table',
		],
		[
			'a value_type outside the allowed list',
			'T',
			'',
			[{ name: 'total', value_type: 'float' }],
			'fields[0].value_type: The type of field "total" is "float"; it must be one of string, number, date, boolean, currency, email, phone, table',
		],
		['a table without columns', 'T', '', [table([])], 'fields[0].item_fields: Field "line_items" is a table but has no columns: add at least one column (item_fields)'],
		[
			'a table inside a table',
			'T',
			'',
			[table([{ name: 'inner', type: 'table', item_fields: [{ name: 'x' }] }])],
			'fields[0].item_fields[0].type: Column "inner" is a table inside a table; tables cannot contain tables',
		],
		[
			'a column name over 100',
			'T',
			'',
			[table([{ name: 'ok' }, { name: 'c'.repeat(101) }])],
			'fields[0].item_fields[1].name: The name of column 2 is 101 characters long; the limit is 100',
		],
		[
			'two fields with one name',
			'T',
			'',
			[field(), field()],
			'fields[1].name: The name "invoice_number" is already used by fields[0]: each field needs its own name, because names become the output keys',
		],
	];

	it.each(limits)('refuses %s before any request, naming the path', async (_what, name, description, fields, message) => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('create', { name, description, fieldsDefinedAs: 'json', fieldsJson: JSON.stringify(fields) }), [{ json: {} }]);
		expect(error?.message).toBe(`Item 1: ${message}`);
		expect((error as unknown as { description: string }).description).toContain('Nothing was sent to the service.');
		expect(unexpected).toEqual([]);
	});

	/** Fields whose definition `{ name: 'T', fields }` is exactly `bytes` long as JSON. */
	function definitionOf(bytes: number): IDataObject[] {
		const fields = many(61, (i) => ({ name: `field_${i}`, description: 'd'.repeat(1600) }));
		const missing = bytes - JSON.stringify({ name: 'T', fields }).length;
		fields[60].description += 'd'.repeat(missing);
		return fields;
	}

	it('sends a definition of exactly 100,000 bytes', async () => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const { error } = await runAction(template('create', { name: 'T', fieldsDefinedAs: 'json', fieldsJson: JSON.stringify(definitionOf(100_000)) }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(created.requests[0].body.byteLength).toBe(100_000);
	});

	it('refuses a definition over 100 KB before any request', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('create', { name: 'T', fieldsDefinedAs: 'json', fieldsJson: JSON.stringify(definitionOf(100_001)) }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: fields: The template definition is 100 KB (100,001 bytes) as JSON; the limit is 100 KB. Shorten descriptions or remove fields');
		expect(unexpected).toEqual([]);
	});

	it('refuses a UI column over the limit with the same path as JSON would have', async () => {
		const unexpected = trapAllRequests();
		const fieldsUi = { field: [{ name: 'total', type: 'currency' }, { name: 'lines', type: 'table', columns: { column: [{ name: 'c'.repeat(101) }] } }] };
		const { error } = await runAction(template('create', { name: 'T', fieldsUi }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: fields[1].item_fields[0].name: The name of column 1 is 101 characters long; the limit is 100');
		expect(unexpected).toEqual([]);
	});

	it('refuses a table defined in the UI without columns', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('create', { name: 'T', fieldsUi: { field: [{ name: 'lines', type: 'table' }] } }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: fields[0].item_fields: Field "lines" is a table but has no columns: add at least one column (item_fields)');
		expect(unexpected).toEqual([]);
	});

	it('refuses fields JSON that does not parse, saying where', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('create', { name: 'T', fieldsDefinedAs: 'json', fieldsJson: '[{ "name": "total", }]' }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: the template fields are not valid JSON');
		expect((error as unknown as { description: string }).description).toMatch(/^The fields JSON is not valid: /);
		expect(unexpected).toEqual([]);
	});

	it('under continueOnFail one invalid item does not stop the others', async () => {
		const created = service('post', '/api/v1/scanners', 201, SCANNER);
		const { outputs, error } = await runAction(template('create', { name: '={{ $json.name }}' }), [{ json: { name: 'N'.repeat(201) } }, { json: { name: 'Good' } }], {
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(created.requests.map(jsonBody)).toEqual([{ name: 'Good' }]);
		expectPairedItems(outputs[0], [0, 1]);
		expect(outputs[0][0].json.error).toMatch(/^Item 1: name: /);
	});
});

describe('Update', () => {
	it.each([
		['only the name', { nameAndDescription: { name: 'Renamed' } }, { name: 'Renamed' }],
		['only the description', { nameAndDescription: { description: 'New text' } }, { description: 'New text' }],
		[
			'the fields (the whole list replaces the old one)',
			{ replaceFields: true, fieldsUi: { field: [{ name: 'total', type: 'currency' }, { name: 'iban' }] } },
			{ fields: [{ name: 'total', type: 'currency' }, { name: 'iban', type: 'string' }] },
		],
		[
			'name and fields as JSON',
			{ nameAndDescription: { name: 'Renamed' }, replaceFields: true, fieldsDefinedAs: 'json', fieldsJson: '[{ "name": "total" }]' },
			{ name: 'Renamed', fields: [{ name: 'total' }] },
		],
	])('sends %s and nothing else', async (_name, parameters, body) => {
		const patched = service('patch', '/api/v1/scanners/scn_1', 200, SCANNER);
		const { outputs, error } = await runAction(template('update', { templateId: byId('scn_1'), ...parameters }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(patched.requests.map(jsonBody)).toEqual([body]);
		expect(outputs[0]).toEqual([{ json: SCANNER, pairedItem: { item: 0 } }]);
		expect(patched.unexpected).toEqual([]);
	});

	it('refuses an update that changes nothing, before any request', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('update', { templateId: byId('scn_1') }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: Nothing to update: give a new name, a new description or new fields');
		expect(unexpected).toEqual([]);
	});

	it('refuses Replace Fields with no fields, which would delete every field, before any request', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('update', { templateId: byId('scn_1'), replaceFields: true, fieldsUi: {} }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: "Replace Fields" is on but no fields are defined');
		expect(unexpected).toEqual([]);
	});

	it('checks the limits of replaced fields too', async () => {
		const unexpected = trapAllRequests();
		const fieldsJson = JSON.stringify([{ name: 'x', examples: Array.from({ length: 11 }, () => 'e') }]);
		const { error } = await runAction(template('update', { templateId: byId('scn_1'), replaceFields: true, fieldsDefinedAs: 'json', fieldsJson }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: fields[0].examples: The field "x" has 11 examples; the limit is 10');
		expect(unexpected).toEqual([]);
	});
});

describe('Get, Get Many, Delete', () => {
	it.each(['list', 'id'])('Get reads /scanners/{id} with the template chosen in mode "%s"', async (mode) => {
		const cred = credential();
		const read = service('get', '/api/v1/scanners/scn_1', 200, SCANNER);
		const { outputs, error } = await runAction(template('get', { templateId: { __rl: true, mode, value: 'scn_1' } }), [{ json: {} }], { cred });
		expect(error).toBeUndefined();
		expect(read.requests[0].headers['x-api-key']).toBe(cred.apiKey);
		expect(outputs[0]).toEqual([{ json: SCANNER, pairedItem: { item: 0 } }]);
		expect(read.unexpected).toEqual([]);
	});

	it('Get of a template that does not exist says so', async () => {
		service('get', '/api/v1/scanners/gone', 404, { success: false, error_code: 'SCANNER_NOT_FOUND', message: 'Scanner not found' });
		const { error } = await runAction(template('get', { templateId: byId('gone') }), [{ json: {} }]);
		expect(error?.message).toBe('Item 1: The template "gone" does not exist in this account');
		expect((error as unknown as { description: string }).description).not.toMatch(/Auto-Detect/);
	});

	const scanners = ['Invoice', 'Receipt', 'Bank statement'].map((name, i) => ({ scanner_id: `scn_${i}`, name, description: `${name} template`, fields: [], created_at: '2026-01-01T00:00:00.000Z' }));

	it.each([
		['Return All', { returnAll: true }, 3],
		['Limit 2', { returnAll: false, limit: 2 }, 2],
		['the default limit', {}, 3],
	])('Get Many with %s', async (_name, parameters, count) => {
		const listed = service('get', '/api/v1/scanners', 200, { success: true, scanners });
		const { outputs, error } = await runAction(template('getMany', parameters), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(outputs[0].map((out) => out.json)).toEqual(scanners.slice(0, count));
		expectPairedItems(outputs[0], Array(count).fill(0));
		expect(listed.unexpected).toEqual([]);
	});

	it.each([
		[-1, 'not -1'],
		[0, 'not 0'],
		[2.5, 'not 2.5'],
		['={{ "all" }}', 'not "all"'],
	])('Get Many refuses a Limit of %j before any request (-1 would drop the last template, 0 return none)', async (limit, shown) => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(template('getMany', { returnAll: false, limit }), [{ json: {} }]);
		expect(error?.message).toBe(`Item 1: "Limit" must be a whole number of at least 1, ${shown}`);
		expect(unexpected).toEqual([]);
	});

	it('Get Many takes a Limit an expression gives as text', async () => {
		const listed = service('get', '/api/v1/scanners', 200, { success: true, scanners });
		const { outputs, error } = await runAction(template('getMany', { returnAll: '={{ "false" }}', limit: '={{ "2" }}' }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(2);
		expect(listed.unexpected).toEqual([]);
	});

	it('Delete sends DELETE /scanners/{id} and outputs the confirmation', async () => {
		const deleted = service('delete', '/api/v1/scanners/scn_1', 200, { success: true, scanner_id: 'scn_1', deleted: true });
		const { outputs, error } = await runAction(template('delete', { templateId: byId('scn_1') }), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(deleted.requests).toHaveLength(1);
		expect(outputs[0]).toEqual([{ json: { success: true, scanner_id: 'scn_1', deleted: true }, pairedItem: { item: 0 } }]);
		expect(deleted.unexpected).toEqual([]);
	});
});

describe('Get Fields', () => {
	const TABLE_SCANNER = {
		...SCANNER,
		fields: [
			{ name: 'invoice_number', label: 'Invoice number', type: 'string', required: true, description: 'Top right, after "No."' },
			{ name: 'total', value_type: 'currency' },
			{ name: 'lines', type: 'table', item_fields: [{ name: 'item' }, { name: 'amount', type: 'number' }] },
		],
	};

	it('reads /scanners/{id} once and outputs one item per field, in the template\'s order', async () => {
		const cred = credential();
		const read = service('get', '/api/v1/scanners/scn_1', 200, TABLE_SCANNER);
		const { outputs, error } = await runAction(template('getFields', { templateId: byId('scn_1') }), [{ json: {} }], { cred });
		expect(error).toBeUndefined();
		expect(read.requests).toHaveLength(1);
		expect(read.requests[0].headers['x-api-key']).toBe(cred.apiKey);
		const of = { template_id: 'scn_1', template_name: 'Supplier invoice' };
		expect(outputs[0]).toEqual([
			{ json: { name: 'invoice_number', label: 'Invoice number', type: 'string', required: true, description: 'Top right, after "No."', ...of }, pairedItem: { item: 0 } },
			{ json: { name: 'total', label: null, type: 'currency', required: false, description: null, ...of }, pairedItem: { item: 0 } },
			{ json: { name: 'lines', label: null, type: 'table', required: false, description: null, columns: ['item', 'amount'], ...of }, pairedItem: { item: 0 } },
		]);
		expect(read.unexpected).toEqual([]);
	});

	it('pairs each input item\'s fields with it, and a template without fields gives one item that says so', async () => {
		const requests: SeenRequest[] = [];
		answer(nock(BASE).get('/api/v1/scanners/scn_1'), requests, [200, SCANNER]);
		answer(nock(BASE).get('/api/v1/scanners/scn_empty'), requests, [200, { ...SCANNER, scanner_id: 'scn_empty', fields: [] }]);
		answer(nock(BASE).get('/api/v1/scanners/scn_1'), requests, [200, SCANNER]);
		const unexpected = trapAllRequests();
		const input = ['scn_1', 'scn_empty', 'scn_1'].map((id) => ({ json: { id } }));
		const { outputs, error } = await runAction(template('getFields', { templateId: byId('={{ $json.id }}') }), input);
		expect(error).toBeUndefined();
		expect(outputs[0].map((out) => out.json.name)).toEqual(['invoice_number', null, 'invoice_number']);
		expect(outputs[0][1].json).toEqual({ name: null, label: null, type: null, required: false, description: null, template_id: 'scn_empty', template_name: SCANNER.name });
		expectPairedItems(outputs[0], [0, 1, 2]);
		expect(unexpected).toEqual([]);
	});

	it('a template that does not exist fails its item; under continueOnFail the others go on', async () => {
		const requests: SeenRequest[] = [];
		answer(nock(BASE).get('/api/v1/scanners/gone'), requests, [404, { success: false, error_code: 'SCANNER_NOT_FOUND', message: 'Scanner not found' }]);
		answer(nock(BASE).get('/api/v1/scanners/scn_1'), requests, [200, SCANNER]);
		const unexpected = trapAllRequests();
		const input = ['gone', 'scn_1'].map((id) => ({ json: { id } }));
		const { outputs, error } = await runAction(template('getFields', { templateId: byId('={{ $json.id }}') }), input, { continueOnFail: true });
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 1]);
		expect(outputs[0][0].json.error).toBe('Item 1: The template "gone" does not exist in this account');
		expect(outputs[0][1].json.name).toBe('invoice_number');
		expect(unexpected).toEqual([]);
	});
});

describe('the template picker (listSearch searchTemplates)', () => {
	const scanners = [
		{ scanner_id: 'scn_r', name: 'Receipt', description: 'Till receipts', fields: [] },
		{ scanner_id: 'scn_i', name: 'Invoice', description: 'Supplier invoices', fields: [] },
		{ scanner_id: 'inv_custom', name: 'Bank statement', fields: [] },
	];

	it('lists every template by name, with the key', async () => {
		const cred = credential();
		const listed = service('get', '/api/v1/scanners', 200, { success: true, scanners });
		const found = await search(cred);
		expect(listed.requests[0].headers['x-api-key']).toBe(cred.apiKey);
		expect(found).toEqual({
			results: [
				{ name: 'Bank statement', value: 'inv_custom', description: undefined },
				{ name: 'Invoice', value: 'scn_i', description: 'Supplier invoices' },
				{ name: 'Receipt', value: 'scn_r', description: 'Till receipts' },
			],
		});
	});

	it('filters by name or id, ignoring case', async () => {
		service('get', '/api/v1/scanners', 200, { success: true, scanners });
		expect((await search(credential(), ' INV ')).results.map((result) => result.value)).toEqual(['inv_custom', 'scn_i']);
	});

	it('reports a refused key as the service said it', async () => {
		service('get', '/api/v1/scanners', 401, { success: false, error_code: 'INVALID_API_KEY', message: 'Invalid key' });
		await expect(search(credential())).rejects.toThrow('The service refused the API key');
	});
});
