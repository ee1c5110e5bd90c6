import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from './documents';
import { expectError, expectRateHeaders } from './schemas';
import { call, closeTarget, freshAccount, openTarget, upload, usingSandbox, type Target } from './target';

let target: Target;
beforeAll(async () => {
	target = await openTarget();
});
afterAll(() => closeTarget(target));

describe.skipIf(!usingSandbox)('rate limit per key (spec 2.8, 7.2 429, 8)', () => {
	it('free plan: 60 requests a minute with the headers counting down, then 429 RATE_LIMITED with Retry-After', async () => {
		const { key } = freshAccount(target, { plan: 'free' });
		const remaining: number[] = [];
		for (let index = 0; index < 60; index++) {
			const response = await call(target, 'GET', '/api/v1/scanners', { key });
			expect(response.status).toBe(200);
			const headers = expectRateHeaders(response);
			expect(headers.limit).toBe(60);
			remaining.push(headers.remaining);
		}
		expect(remaining).toStrictEqual(Array.from({ length: 60 }, (_, index) => 59 - index));

		const limited = await call(target, 'GET', '/api/v1/scanners', { key });
		const body = expectError(limited, 429, 'RATE_LIMITED');
		const headers = expectRateHeaders(limited);
		expect(headers).toMatchObject({ limit: 60, remaining: 0 });
		expect(body.limit_per_minute).toBe(60);
		expect(Number.isInteger(body.retry_after_seconds)).toBe(true);
		expect(body.retry_after_seconds).toBeGreaterThan(0);
		expect(body.retry_after_seconds).toBeLessThanOrEqual(60);
		expect(limited.headers.get('retry-after')).toBe(String(body.retry_after_seconds));

		// Every operation counts, and other operations are limited as well.
		expectError(await call(target, 'GET', '/api/v1/results/00000000-0000-4000-8000-000000000000', { key }), 429, 'RATE_LIMITED');
		expectError(await upload(target, await textPdf(), { key }), 429, 'RATE_LIMITED');

		// Waiting for the window (here: moving the sandbox's clock past it) lets requests through again.
		target.sandbox!.clock.advance(body.retry_after_seconds * 1000);
		const again = await call(target, 'GET', '/api/v1/scanners', { key });
		expect(again.status).toBe(200);
		expect(expectRateHeaders(again).remaining).toBe(59);
	});

	it('the limit is counted per key, not per account', async () => {
		const { accountId, key } = freshAccount(target, { plan: 'free', rateLimitPerMinute: 3 });
		const second = target.sandbox!.accounts.addKey(accountId);
		for (let index = 0; index < 3; index++) expect((await call(target, 'GET', '/api/v1/scanners', { key })).status).toBe(200);
		expect((await call(target, 'GET', '/api/v1/scanners', { key })).status).toBe(429);
		expect((await call(target, 'GET', '/api/v1/scanners', { key: second })).status).toBe(200);
	});

	it('paid plan: 120 requests a minute', async () => {
		const { key } = freshAccount(target, { plan: 'paid' });
		expect(expectRateHeaders(await call(target, 'GET', '/api/v1/scanners', { key })).limit).toBe(120);
	});

	it('the counter counts 429s sent', async () => {
		const { key } = freshAccount(target, { rateLimitPerMinute: 1 });
		const before = target.sandbox!.stats().rateLimited;
		await call(target, 'GET', '/api/v1/scanners', { key });
		await call(target, 'GET', '/api/v1/scanners', { key });
		await call(target, 'GET', '/api/v1/scanners', { key });
		expect(target.sandbox!.stats().rateLimited - before).toBe(2);
	});
});

describe.skipIf(!usingSandbox)('simultaneous uploads (spec 7.2 503, 8.7)', () => {
	it('more uploads of one account in flight than allowed give 503 BUSY with retryable true', async () => {
		const { accountId, key } = freshAccount(target, { plan: 'paid', maxConcurrentUploads: 2 });
		const other = freshAccount(target, { plan: 'paid', maxConcurrentUploads: 2 });
		// Uploads take a while, so they overlap.
		target.sandbox!.faults.configure({ latencyMs: { process: 300 } });
		try {
			const pdf = await textPdf();
			const responses = await Promise.all([
				upload(target, pdf, { key }),
				upload(target, pdf, { key }),
				upload(target, pdf, { key }),
				upload(target, pdf, { key: other.key }),
			]);
			const statuses = responses.map((response) => response.status);
			expect(statuses.filter((status) => status === 202)).toHaveLength(3);
			const busy = responses.find((response) => response.status === 503)!;
			const body = expectError(busy, 503, 'BUSY');
			expect(body.retryable).toBe(true);
			expectRateHeaders(busy);
			expect(responses[3].status).toBe(202); // another account is not affected
			expect(target.sandbox!.accounts.get(accountId)!.pagesUsed).toBe(2);
		} finally {
			target.sandbox!.faults.clear();
		}
		// Once the others have finished, uploads go through again.
		expect((await upload(target, await textPdf(), { key })).status).toBe(202);
	});
});
