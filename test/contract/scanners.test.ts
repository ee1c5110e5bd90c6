import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectRateHeaders, expectShape, scannerCreated, scannerDeleted, scannerDetail, scannerList } from './schemas';
import { call, closeTarget, createTemplate, freshAccount, openTarget, usingSandbox, type Target } from './target';

let target: Target;
beforeAll(async () => {
	target = await openTarget();
});
afterAll(() => closeTarget(target));

const FIELDS = [
	{ name: 'invoice_number', label: 'Invoice number', type: 'string', required: true, description: 'Top right.', format_hint: 'As printed', examples: ['INV-0001'] },
	{ name: 'total', type: 'currency' },
	{ name: 'lines', type: 'table', item_fields: [{ name: 'description', type: 'string' }, { name: 'amount', value_type: 'number' }] },
];

describe('template operations (spec 4.5-4.9)', () => {
	it.skipIf(!usingSandbox)('a new account starts with the 8 ready-made templates (spec 1)', async () => {
		const { key } = freshAccount(target);
		const response = await call(target, 'GET', '/api/v1/scanners', { key });
		expect(response.status).toBe(200);
		const list = expectShape(scannerList, response.body);
		expect(list.scanners.map((scanner) => scanner.name.toLowerCase())).toEqual([
			'invoice',
			'receipt',
			'delivery note',
			'quote',
			'purchase order',
			'id and passport',
			'business card',
			'bank statement',
		]);
		for (const scanner of list.scanners) expect(scanner.fields.length).toBeGreaterThan(0);
		expect(new Set(list.scanners.map((scanner) => scanner.scanner_id)).size).toBe(8);
	});

	it('lists templates with their fields and without updated_at (4.5)', async () => {
		const response = await call(target, 'GET', '/api/v1/scanners');
		expect(response.status).toBe(200);
		expectRateHeaders(response);
		expectShape(scannerList, response.body);
	});

	it('create -> 201 without updated_at; get -> 200 with updated_at; list contains it (4.6, 4.7)', async () => {
		const created = await createTemplate(target, { name: 'Contract invoice', description: 'For the contract suite', fields: FIELDS });
		expect(created.status).toBe(201);
		expectRateHeaders(created);
		const body = expectShape(scannerCreated, created.body);
		expect(body).toMatchObject({ name: 'Contract invoice', description: 'For the contract suite', fields: FIELDS });

		const read = await call(target, 'GET', `/api/v1/scanners/${body.scanner_id}`);
		expect(read.status).toBe(200);
		const detail = expectShape(scannerDetail, read.body);
		expect(detail).toMatchObject({ scanner_id: body.scanner_id, name: 'Contract invoice', fields: FIELDS, created_at: body.created_at });

		const list = expectShape(scannerList, (await call(target, 'GET', '/api/v1/scanners')).body);
		expect(list.scanners.find((scanner) => scanner.scanner_id === body.scanner_id)).toMatchObject({ name: 'Contract invoice' });
		await call(target, 'DELETE', `/api/v1/scanners/${body.scanner_id}`);
	});

	it('name alone is enough; description and fields default to empty', async () => {
		const created = await createTemplate(target, { name: 'Only a name' });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ name: 'Only a name', description: '', fields: [] });
		await call(target, 'DELETE', `/api/v1/scanners/${created.body.scanner_id}`);
	});

	it('update: fields replace the whole list, other members stay, updated_at moves (4.8)', async () => {
		const created = await createTemplate(target, { name: 'To change', description: 'd', fields: FIELDS });
		const id = created.body.scanner_id;
		const first = await call(target, 'GET', `/api/v1/scanners/${id}`);
		await sleep(5);

		const updated = await call(target, 'PATCH', `/api/v1/scanners/${id}`, { json: { fields: [{ name: 'only_one' }] } });
		expect(updated.status).toBe(200);
		expectRateHeaders(updated);
		const detail = expectShape(scannerDetail, updated.body);
		expect(detail).toMatchObject({ scanner_id: id, name: 'To change', description: 'd', fields: [{ name: 'only_one' }] });
		expect(Date.parse(detail.updated_at)).toBeGreaterThan(Date.parse(first.body.updated_at));
		expect(detail.created_at).toBe(created.body.created_at);

		const renamed = await call(target, 'PATCH', `/api/v1/scanners/${id}`, { json: { name: 'Changed' } });
		expect(renamed.body).toMatchObject({ name: 'Changed', description: 'd', fields: [{ name: 'only_one' }] });
		const described = await call(target, 'PATCH', `/api/v1/scanners/${id}`, { json: { description: 'new' } });
		expect(described.body).toMatchObject({ name: 'Changed', description: 'new' });
		expect((await call(target, 'GET', `/api/v1/scanners/${id}`)).body).toMatchObject({ name: 'Changed', description: 'new', fields: [{ name: 'only_one' }] });
		await call(target, 'DELETE', `/api/v1/scanners/${id}`);
	});

	it('update with none of name, description, fields gives VALIDATION_ERROR', async () => {
		const created = await createTemplate(target, { name: 'Patch me' });
		const id = created.body.scanner_id;
		expectError(await call(target, 'PATCH', `/api/v1/scanners/${id}`, { json: {} }), 400, 'VALIDATION_ERROR');
		expectError(await call(target, 'PATCH', `/api/v1/scanners/${id}`, { json: { other: 1 } }), 400, 'VALIDATION_ERROR');
		await call(target, 'DELETE', `/api/v1/scanners/${id}`);
	});

	it('delete -> {success, scanner_id, deleted: true}; then every per-id operation gives 404 (4.9)', async () => {
		const created = await createTemplate(target, { name: 'To delete' });
		const id = created.body.scanner_id;
		const deleted = await call(target, 'DELETE', `/api/v1/scanners/${id}`);
		expect(deleted.status).toBe(200);
		expectRateHeaders(deleted);
		expect(expectShape(scannerDeleted, deleted.body).scanner_id).toBe(id);

		expectError(await call(target, 'GET', `/api/v1/scanners/${id}`), 404, 'SCANNER_NOT_FOUND');
		expectError(await call(target, 'PATCH', `/api/v1/scanners/${id}`, { json: { name: 'x' } }), 404, 'SCANNER_NOT_FOUND');
		expectError(await call(target, 'DELETE', `/api/v1/scanners/${id}`), 404, 'SCANNER_NOT_FOUND');
		const list = expectShape(scannerList, (await call(target, 'GET', '/api/v1/scanners')).body);
		expect(list.scanners.some((scanner) => scanner.scanner_id === id)).toBe(false);
	});

	it('unknown template ids give 404 SCANNER_NOT_FOUND with the rate-limit headers', async () => {
		const response = await call(target, 'GET', '/api/v1/scanners/does-not-exist');
		expectError(response, 404, 'SCANNER_NOT_FOUND');
		expectRateHeaders(response);
	});

	it('invalid JSON gives 400 INVALID_JSON on create and update', async () => {
		const headers = { 'Content-Type': 'application/json' };
		expectError(await call(target, 'POST', '/api/v1/scanners', { headers, body: '{"name": "x",' }), 400, 'INVALID_JSON');
		const created = await createTemplate(target, { name: 'Json' });
		const id = created.body.scanner_id;
		expectError(await call(target, 'PATCH', `/api/v1/scanners/${id}`, { headers, body: 'not json' }), 400, 'INVALID_JSON');
		await call(target, 'DELETE', `/api/v1/scanners/${id}`);
	});
});

describe('template count limit (spec 4.6, 8)', () => {
	it.skipIf(!usingSandbox)('the free plan allows 10 templates in total: 2 more than the 8 ready-made, then 403 SCANNER_LIMIT', async () => {
		const { key } = freshAccount(target, { plan: 'free' });
		expect((await createTemplate(target, { name: 'Ninth' }, key)).status).toBe(201);
		expect((await createTemplate(target, { name: 'Tenth' }, key)).status).toBe(201);
		const refused = await createTemplate(target, { name: 'Eleventh' }, key);
		const body = expectError(refused, 403, 'SCANNER_LIMIT');
		expectRateHeaders(refused);
		expect(body.limit).toBe(10);
		expect(body.next_action).toMatchObject({ type: 'upgrade', pricing_url: expect.stringMatching(/^https?:\/\//) });

		// Deleting one frees a slot: the limit counts templates that exist.
		const list = (await call(target, 'GET', '/api/v1/scanners', { key })).body;
		await call(target, 'DELETE', `/api/v1/scanners/${list.scanners[0].scanner_id}`, { key });
		expect((await createTemplate(target, { name: 'Eleventh' }, key)).status).toBe(201);
	});

	it.skipIf(!usingSandbox)('a paid plan allows more than 10', async () => {
		const { key } = freshAccount(target, { plan: 'paid' });
		for (const name of ['a', 'b', 'c']) expect((await createTemplate(target, { name }, key)).status).toBe(201);
	});
});
