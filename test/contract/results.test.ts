import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/src';
import { blankPdf, corruptPdf, pagesOf, plainPng, textPdf } from './documents';
import { expectError, expectRateHeaders, expectShape, result, uploadAccepted } from './schemas';
import { call, closeTarget, createTemplate, freshAccount, openTarget, upload, usingSandbox, waitForResult, type Target } from './target';

let target: Target;
beforeAll(async () => {
	target = await openTarget();
});
afterAll(() => closeTarget(target));

const ORDER = ['queued', 'processing', 'done'];

describe('result states (spec 3, 4.4)', () => {
	it('queued -> processing -> done, with extracted_data only when done', async () => {
		if (target.sandbox) {
			// A sandbox with slow, jitter-free timing whose clock the test moves: every state is seen.
			const sandbox = await startSandbox({ timing: { queuedMs: 60_000, baseMs: 60_000, perPageMs: 0, jitter: 0 } });
			try {
				const own = { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey };
				const accepted = (await upload(own, await textPdf())).body;
				const read = async () => expectShape(result, (await call(own, 'GET', `/api/v1/results/${accepted.result_id}`)).body);
				const queued = await read();
				expect(queued).toMatchObject({ status: 'queued', scanner_id: 'auto', tokens_used: null });
				expect(queued).not.toHaveProperty('extracted_data');
				expect(queued).not.toHaveProperty('error_code');
				sandbox.clock.advance(60_000);
				const processing = await read();
				expect(processing.status).toBe('processing');
				expect(processing).not.toHaveProperty('extracted_data');
				sandbox.clock.advance(60_000);
				const done = await read();
				expect(done.status).toBe('done');
				expect(done.extracted_data).toBeDefined();
			} finally {
				await sandbox.stop();
			}
			return;
		}
		// Elsewhere: the states seen while polling follow the order of spec part 3.
		const accepted = (await upload(target, await textPdf())).body;
		const seen: number[] = [];
		await waitForResult(target, accepted.result_id, undefined, (response) => seen.push(ORDER.indexOf(response.body?.status)));
		expect(seen.at(-1)).toBe(ORDER.indexOf('done'));
		expect(seen).not.toContain(-1);
		expect(seen).toStrictEqual([...seen].sort((a, b) => a - b));
	});

	it('a done result has every member of 2.4 and an ExtractedData of 2.5/2.6, one field per template field', async () => {
		const template = (
			await createTemplate(target, {
				name: 'Invoice basics',
				fields: [
					{ name: 'invoice_number', label: 'Invoice number', type: 'string' },
					{ name: 'total', label: 'Total', type: 'currency' },
					{ name: 'lines', type: 'table', item_fields: [{ name: 'description' }, { name: 'amount', type: 'number' }] },
				],
			})
		).body;
		const accepted = (await upload(target, await textPdf(), { scannerId: template.scanner_id, filename: 'inv.pdf' })).body;
		const response = await waitForResult(target, accepted.result_id);
		expect(response.status).toBe(200);
		expectRateHeaders(response);
		const done = expectShape(result, response.body);
		expect(done).toMatchObject({
			result_id: accepted.result_id,
			status: 'done',
			scanner_id: template.scanner_id,
			scanner_name: 'Invoice basics',
			filename: 'inv.pdf',
			source_type: 'api',
		});
		expect(Number(done.tokens_used)).toBe(1);
		expect(done.confidence).toBeTypeOf('number');
		expect(done).not.toHaveProperty('error_code');
		expect(done.extracted_data!.fields.map((field) => field.name)).toEqual(['invoice_number', 'total', 'lines']);
		expect(done.extracted_data!.doc_metadata.num_paginas).toBe(1);
		expect(done.extracted_data!.fields[0].value).toBe('INV-2024-0042');
		const lines = done.extracted_data!.fields[2].value;
		expect(lines === null || Array.isArray(lines)).toBe(true);
		await call(target, 'DELETE', `/api/v1/scanners/${template.scanner_id}`);
	});

	it('automatic mode: the result carries the chosen template and an auto block', async () => {
		const accepted = (await upload(target, await textPdf())).body;
		expect(accepted.scanner_id).toBe('auto');
		const done = expectShape(result, (await waitForResult(target, accepted.result_id)).body);
		expect(done.status).toBe('done');
		expect(done.scanner_id).not.toBe('auto');
		expect(done.scanner_name).not.toBe(accepted.scanner_name);
		expect(done.extracted_data).toHaveProperty('auto');
		const templates = (await call(target, 'GET', '/api/v1/scanners')).body.scanners;
		expect(templates.find((scanner: { scanner_id: string }) => scanner.scanner_id === done.scanner_id)?.name).toBe(done.scanner_name);
		if (usingSandbox) expect(done.scanner_name).toBe('Invoice');
	});

	it('a document without readable text ends rejected NO_TEXT and consumes no pages (7.4)', async () => {
		for (const [bytes, contentType] of [
			[await blankPdf(2), 'application/pdf'],
			[plainPng(), 'image/png'],
		] as const) {
			const accepted = expectShape(uploadAccepted, (await upload(target, bytes, { contentType })).body);
			const rejected = expectShape(result, (await waitForResult(target, accepted.result_id)).body);
			expect(rejected.status).toBe('rejected');
			expect(rejected.error_code).toBe('NO_TEXT');
			expect(rejected.error_message).toEqual(expect.any(String));
			expect(rejected).not.toHaveProperty('extracted_data');
			expect([0, '0', null]).toContain(rejected.tokens_used);
			// The pages reserved at upload are back: the next upload sees them.
			const next = expectShape(uploadAccepted, (await upload(target, await textPdf())).body);
			expect(next.tokens_remaining).toBe(accepted.tokens_remaining + accepted.tokens_required - 1);
		}
	});

	it('a result can be read again after it is done; each read counts toward the rate limit', async () => {
		const accepted = (await upload(target, await textPdf())).body;
		await waitForResult(target, accepted.result_id);
		const first = await call(target, 'GET', `/api/v1/results/${accepted.result_id}`);
		const second = await call(target, 'GET', `/api/v1/results/${accepted.result_id}`);
		expect(second.body).toStrictEqual(first.body);
		const [a, b] = [expectRateHeaders(first), expectRateHeaders(second)];
		if (a.reset >= b.reset) expect(b.remaining).toBe(a.remaining - 1);
	});

	it('unknown result ids give 404 RESULT_NOT_FOUND', async () => {
		const response = await call(target, 'GET', `/api/v1/results/${randomUUID()}`);
		expectError(response, 404, 'RESULT_NOT_FOUND');
		expectRateHeaders(response);
		expectError(await call(target, 'GET', '/api/v1/results/not-a-uuid'), 404, 'RESULT_NOT_FOUND');
	});

	it('changing or deleting the template does not change documents already processed (spec 3)', async () => {
		const template = (await createTemplate(target, { name: 'Before', fields: [{ name: 'invoice_number' }] })).body;
		const accepted = (await upload(target, await textPdf(), { scannerId: template.scanner_id })).body;
		const before = (await waitForResult(target, accepted.result_id)).body;
		await call(target, 'PATCH', `/api/v1/scanners/${template.scanner_id}`, { json: { name: 'After', fields: [{ name: 'other' }] } });
		expect((await call(target, 'GET', `/api/v1/results/${accepted.result_id}`)).body).toStrictEqual(before);
		await call(target, 'DELETE', `/api/v1/scanners/${template.scanner_id}`);
		const after = await call(target, 'GET', `/api/v1/results/${accepted.result_id}`);
		expect(after.status).toBe(200);
		expect(after.body).toStrictEqual(before);
	});
});

describe.skipIf(!usingSandbox)('results: sandbox-only details', () => {
	it('a damaged PDF ends in error with error_code and error_message, and keeps its pages', async () => {
		const { accountId, key } = freshAccount(target);
		const accepted = (await upload(target, corruptPdf(), { key })).body;
		const failed = expectShape(result, (await waitForResult(target, accepted.result_id, key)).body);
		expect(failed).toMatchObject({ status: 'error', error_code: expect.any(String), error_message: expect.any(String) });
		expect(failed).not.toHaveProperty('extracted_data');
		expect(target.sandbox!.accounts.get(accountId)!.pagesUsed).toBe(1);
	});

	it('processing time grows with pages (realistic model: typical 3-20 s, a 50-page statement about 2 minutes)', async () => {
		const stats = () => target.sandbox!.stats().results;
		const one = (await upload(target, await textPdf())).body.result_id;
		const many = (await upload(target, await textPdf(pagesOf(20)))).body.result_id;
		const duration = (id: string) => stats()[id].terminalAt! - stats()[id].createdAt;
		expect(duration(many)).toBeGreaterThan(duration(one));
	});

	it('rejected results give their pages back in the stats too', async () => {
		const { accountId, key } = freshAccount(target);
		const accepted = (await upload(target, await blankPdf(3), { key })).body;
		await waitForResult(target, accepted.result_id, key);
		expect(target.sandbox!.stats().pages[accountId]).toStrictEqual({ charged: 3, released: 3 });
		expect(target.sandbox!.accounts.get(accountId)!.pagesUsed).toBe(0);
	});
});

describe.skipIf(!usingSandbox)('account isolation', () => {
	it("no account sees another's results or templates", async () => {
		const alice = freshAccount(target);
		const bob = freshAccount(target);
		const template = (await createTemplate(target, { name: 'Alice only' }, alice.key)).body;
		const accepted = (await upload(target, await textPdf(), { key: alice.key })).body;

		expectError(await call(target, 'GET', `/api/v1/results/${accepted.result_id}`, { key: bob.key }), 404, 'RESULT_NOT_FOUND');
		expectError(await call(target, 'GET', `/api/v1/scanners/${template.scanner_id}`, { key: bob.key }), 404, 'SCANNER_NOT_FOUND');
		expectError(await call(target, 'PATCH', `/api/v1/scanners/${template.scanner_id}`, { key: bob.key, json: { name: 'x' } }), 404, 'SCANNER_NOT_FOUND');
		expectError(await call(target, 'DELETE', `/api/v1/scanners/${template.scanner_id}`, { key: bob.key }), 404, 'SCANNER_NOT_FOUND');
		expectError(await upload(target, await textPdf(), { key: bob.key, scannerId: template.scanner_id }), 404, 'SCANNER_NOT_FOUND');
		const bobs = (await call(target, 'GET', '/api/v1/scanners', { key: bob.key })).body.scanners;
		expect(bobs.some((scanner: { scanner_id: string }) => scanner.scanner_id === template.scanner_id)).toBe(false);
		expect(bobs).toHaveLength(8);

		// Alice still has everything.
		expect((await call(target, 'GET', `/api/v1/results/${accepted.result_id}`, { key: alice.key })).status).toBe(200);
		expect((await call(target, 'GET', `/api/v1/scanners/${template.scanner_id}`, { key: alice.key })).status).toBe(200);
	});

	it('ready-made templates get their own ids in every account', async () => {
		const ids = async (key: string) =>
			(await call(target, 'GET', '/api/v1/scanners', { key })).body.scanners.map((scanner: { scanner_id: string }) => scanner.scanner_id);
		const [a, b] = [await ids(freshAccount(target).key), await ids(freshAccount(target).key)];
		expect(a.filter((id: string) => b.includes(id))).toEqual([]);
	});
});
