import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './schemas';
import { call, closeTarget, createTemplate, openTarget, type Target } from './target';

/** Every input limit of spec 2.1, 2.2, 4.6 and 8: at the limit accepted, one past it 400 VALIDATION_ERROR naming the path. */

let target: Target;
let scannerId: string;
beforeAll(async () => {
	target = await openTarget();
	scannerId = (await createTemplate(target, { name: 'Limits' })).body.scanner_id;
});
afterAll(async () => {
	await call(target, 'DELETE', `/api/v1/scanners/${scannerId}`);
	await closeTarget(target);
});

const chars = (count: number) => 'x'.repeat(count);
const field = (extra: Record<string, unknown> = {}) => ({ name: 'f', ...extra });
const fields = (count: number) => Array.from({ length: count }, (_, index) => ({ name: `field_${index}` }));
const table = (items: unknown[]) => ({ name: 'lines', type: 'table', item_fields: items });

/** [case, body member(s), path the message must name]: first accepted at the limit... */
const AT_LIMIT: Array<[string, Record<string, unknown>]> = [
	['name of 200 characters', { name: chars(200) }],
	['description of 2,000 characters', { description: chars(2000) }],
	['100 fields', { fields: fields(100) }],
	['100 table columns', { fields: [table(fields(100))] }],
	['field name of 100 characters', { fields: [{ name: chars(100) }] }],
	['label of 200 characters', { fields: [field({ label: chars(200) })] }],
	['field description of 2,000 characters', { fields: [field({ description: chars(2000) })] }],
	['format_hint of 500 characters', { fields: [field({ format_hint: chars(500) })] }],
	['10 examples', { fields: [field({ examples: Array(10).fill('e') })] }],
	['every allowed type', { fields: ['string', 'number', 'date', 'boolean', 'currency', 'email', 'phone'].map((type) => ({ name: type, type })) }],
	['value_type alias', { fields: [field({ value_type: 'date' })] }],
	['required flag', { fields: [field({ required: true })] }],
	['a table column with every member', { fields: [table([{ name: 'c', label: 'C', type: 'number', required: false, description: 'd', format_hint: 'h', examples: ['1'] }])] }],
	['definition just under 100 KB', { fields: Array.from({ length: 45 }, (_, index) => ({ name: `f${index}`, description: chars(2000) })) }],
];

/** ...then refused one step past it. */
const PAST_LIMIT: Array<[string, Record<string, unknown>, string]> = [
	['name of 201 characters', { name: chars(201) }, 'name'],
	['description of 2,001 characters', { description: chars(2001) }, 'description'],
	['101 fields', { fields: fields(101) }, 'fields'],
	['101 table columns', { fields: [table(fields(101))] }, 'fields[0].item_fields'],
	['field name of 101 characters', { fields: [{ name: chars(101) }] }, 'fields[0].name'],
	['field without a name', { fields: [{ label: 'No name' }] }, 'fields[0].name'],
	['field with an empty name', { fields: [{ name: '' }] }, 'fields[0].name'],
	['label of 201 characters', { fields: [field(), field({ label: chars(201) })] }, 'fields[1].label'],
	['field description of 2,001 characters', { fields: [field({ description: chars(2001) })] }, 'fields[0].description'],
	['format_hint of 501 characters', { fields: [field({ format_hint: chars(501) })] }, 'fields[0].format_hint'],
	['11 examples', { fields: [field({ examples: Array(11).fill('e') })] }, 'fields[0].examples'],
	['examples that are not strings', { fields: [field({ examples: [1] })] }, 'fields[0].examples'],
	['unknown type', { fields: [field({ type: 'integer' })] }, 'fields[0].type'],
	['unknown value_type', { fields: [field({ value_type: 'text' })] }, 'fields[0].value_type'],
	['table without item_fields', { fields: [{ name: 'lines', type: 'table' }] }, 'fields[0].item_fields'],
	['nested table', { fields: [table([table([{ name: 'x' }])])] }, 'fields[0].item_fields[0]'],
	['column name of 101 characters deep inside', { fields: [field(), field(), table([{ name: chars(101) }])] }, 'fields[2].item_fields[0].name'],
	['fields that are not an array', { fields: { name: 'x' } }, 'fields'],
	['definition over 100 KB', { fields: Array.from({ length: 60 }, (_, index) => ({ name: `f${index}`, description: chars(2000) })) }, ''],
];

describe('template input limits', () => {
	it.each(AT_LIMIT)('accepts %s (update)', async (_case, members) => {
		const response = await call(target, 'PATCH', `/api/v1/scanners/${scannerId}`, { json: members });
		expect(response.status, response.text.slice(0, 300)).toBe(200);
	});

	it.each(PAST_LIMIT)('refuses %s on create and update, naming %s', async (_case, members, path) => {
		const created = await createTemplate(target, { name: 'Too much', ...members });
		const updated = await call(target, 'PATCH', `/api/v1/scanners/${scannerId}`, { json: members });
		for (const response of [created, updated]) {
			const body = expectError(response, 400, 'VALIDATION_ERROR');
			if (path) expect(body.message).toContain(path);
		}
	});

	it.each([
		['missing name', {}],
		['empty name', { name: '' }],
		['name that is not a string', { name: 42 }],
		['a JSON array instead of an object', []],
	])('creation refuses a %s', async (_case, body) => {
		expectError(await createTemplate(target, body as Record<string, unknown>), 400, 'VALIDATION_ERROR');
	});

	it('the update refuses an empty name too', async () => {
		expectError(await call(target, 'PATCH', `/api/v1/scanners/${scannerId}`, { json: { name: '' } }), 400, 'VALIDATION_ERROR');
	});

	it('a refused update changes nothing', async () => {
		await call(target, 'PATCH', `/api/v1/scanners/${scannerId}`, { json: { name: 'Kept', fields: [{ name: 'kept' }] } });
		await call(target, 'PATCH', `/api/v1/scanners/${scannerId}`, { json: { name: 'Lost', fields: fields(101) } });
		expect((await call(target, 'GET', `/api/v1/scanners/${scannerId}`)).body).toMatchObject({ name: 'Kept', fields: [{ name: 'kept' }] });
	});
});
