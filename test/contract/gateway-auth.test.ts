import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankPdf, notADocument, textPdf } from './documents';
import { expectDocumented } from './openapi';
import { expectError, expectRateHeaders } from './schemas';
import { call, closeTarget, fileForm, freshAccount, openTarget, usingSandbox, type Target } from './target';

let target: Target;
beforeAll(async () => {
	target = await openTarget();
});
afterAll(() => closeTarget(target));

const someId = randomUUID();
/** Well-formed (`<prefix>_<secret>`) but issued to nobody. */
const UNKNOWN_KEY = `dex_${'0'.repeat(28)}dead`;
/** The 8 operations of spec 4.1, with a body each would accept. */
const OPERATIONS: Array<{ name: string; method: string; path: string; body?: () => Promise<RequestInit['body']> }> = [
	{ name: 'processDocument', method: 'POST', path: '/api/v1/process', body: async () => fileForm(await textPdf(), 'a.pdf', 'application/pdf') },
	{
		name: 'uploadDocumentToScanner',
		method: 'POST',
		path: `/api/v1/scanners/${someId}/upload`,
		body: async () => fileForm(await textPdf(), 'a.pdf', 'application/pdf'),
	},
	{ name: 'getResult', method: 'GET', path: `/api/v1/results/${someId}` },
	{ name: 'listScanners', method: 'GET', path: '/api/v1/scanners' },
	{ name: 'createScanner', method: 'POST', path: '/api/v1/scanners', body: async () => JSON.stringify({ name: 'x' }) },
	{ name: 'getScanner', method: 'GET', path: `/api/v1/scanners/${someId}` },
	{ name: 'updateScanner', method: 'PATCH', path: `/api/v1/scanners/${someId}`, body: async () => JSON.stringify({ name: 'x' }) },
	{ name: 'deleteScanner', method: 'DELETE', path: `/api/v1/scanners/${someId}` },
];

describe('authentication (spec 5)', () => {
	it.each(OPERATIONS)('$name without X-API-Key gives 401 API_KEY_REQUIRED', async (operation) => {
		const response = await call(target, operation.method, operation.path, { key: null, body: await operation.body?.() });
		expectError(response, 401, 'API_KEY_REQUIRED');
	});

	it.each(OPERATIONS)('$name with an unknown key gives 401 INVALID_API_KEY', async (operation) => {
		const response = await call(target, operation.method, operation.path, { key: UNKNOWN_KEY, body: await operation.body?.() });
		expectError(response, 401, 'INVALID_API_KEY');
	});

	it('a key of another shape is invalid too, and an empty header counts as missing', async () => {
		expectError(await call(target, 'GET', '/api/v1/scanners', { key: 'not-a-key' }), 401, 'INVALID_API_KEY');
		expectError(await call(target, 'GET', '/api/v1/scanners', { key: '' }), 401, 'API_KEY_REQUIRED');
	});

	it.skipIf(!usingSandbox)('regenerating a key invalidates the previous one immediately (5.4)', async () => {
		const { key } = freshAccount(target);
		expect((await call(target, 'GET', '/api/v1/scanners', { key })).status).toBe(200);
		const newKey = target.sandbox!.accounts.regenerateKey(key);
		expect(newKey).toMatch(/^dex_/);
		expectError(await call(target, 'GET', '/api/v1/scanners', { key }), 401, 'INVALID_API_KEY');
		expect((await call(target, 'GET', '/api/v1/scanners', { key: newKey })).status).toBe(200);
	});

	it.skipIf(!usingSandbox)('several keys may share one account (same templates, same quota)', async () => {
		const { accountId, key } = freshAccount(target);
		const second = target.sandbox!.accounts.addKey(accountId);
		const created = await call(target, 'POST', '/api/v1/scanners', { key, json: { name: 'Shared' } });
		const seen = await call(target, 'GET', `/api/v1/scanners/${created.body.scanner_id}`, { key: second });
		expect(seen.status).toBe(200);
		expect(seen.body.name).toBe('Shared');
	});
});

describe('unknown paths (spec 7.3.2)', () => {
	it.each([
		['GET', '/'],
		['GET', '/api/v1'],
		['GET', '/api/v1/unknown'],
		['GET', '/api/v2/scanners'],
		['GET', '/api/v1/scanners/x/y/z'],
		['GET', '/api/v1/results'],
		['PUT', '/api/v1/scanners'],
		['POST', `/api/v1/results/${someId}`],
		['GET', '/api/v1/process'],
		['DELETE', '/api/v1/scanners'],
	])('%s %s gives 403 {"message":"Missing Authentication Token"} exactly', async (method, path) => {
		const response = await call(target, method, path);
		expect(response.status).toBe(403);
		expect(response.body).toStrictEqual({ message: 'Missing Authentication Token' });
	});
});

describe('request size at the gateway (spec 7.3.1, 8)', () => {
	// "about 4.4 MB of file": 4.5 MB is clearly over, 4.3 MB clearly under.
	const over = () => fileForm(new Uint8Array(4_500_000), 'big.pdf', 'application/pdf');

	it('a request over about 4.4 MB gives 413 {"message":"Request Too Long"} exactly, on both upload paths', async () => {
		for (const path of ['/api/v1/process', `/api/v1/scanners/${someId}/upload`]) {
			const response = await call(target, 'POST', path, { body: over() });
			expect(response.status).toBe(413);
			expect(response.body).toStrictEqual({ message: 'Request Too Long' });
		}
	});

	it('the gateway answers 413 before authentication runs', async () => {
		const response = await call(target, 'POST', '/api/v1/process', { key: null, body: over() });
		expect(response.status).toBe(413);
		expect(response.body).toStrictEqual({ message: 'Request Too Long' });
	});

	it('a file under the limit passes the gateway (and is then judged by its bytes)', async () => {
		const response = await call(target, 'POST', '/api/v1/process', { body: fileForm(notADocument(4_300_000), 'big.pdf', 'application/pdf') });
		expectError(response, 400, 'UNSUPPORTED_FILE_TYPE');
	});

	it.skipIf(!usingSandbox)('a streamed (chunked) body over the limit gets 413 too', async () => {
		const chunk = new Uint8Array(500_000);
		let sent = 0;
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent >= 10) return controller.close();
				sent += 1;
				controller.enqueue(chunk);
			},
		});
		const response = await fetch(`${target.baseUrl}/api/v1/process`, {
			method: 'POST',
			headers: { 'X-API-Key': target.apiKey, 'Content-Type': 'multipart/form-data; boundary=x' },
			body: stream,
			duplex: 'half',
		} as RequestInit);
		const text = await response.text();
		expectDocumented({ method: 'POST', path: '/api/v1/process', status: response.status, headers: response.headers, text });
		expect(response.status).toBe(413);
		expect(JSON.parse(text)).toStrictEqual({ message: 'Request Too Long' });
	});

	it.skipIf(!usingSandbox)('a refused large upload is never counted as a received file', async () => {
		const before = target.sandbox!.stats();
		await call(target, 'POST', '/api/v1/process', { body: over() });
		expect(target.sandbox!.stats().uploads.length).toBe(before.uploads.length);
	});
});

describe('rate-limit headers on documented responses (spec 2.8)', () => {
	it('success and error responses of the operations carry the three integer headers', async () => {
		expectRateHeaders(await call(target, 'GET', '/api/v1/scanners'));
		expectRateHeaders(await call(target, 'GET', `/api/v1/results/${someId}`)); // 404
		expectRateHeaders(await call(target, 'POST', '/api/v1/scanners', { json: { name: '' } })); // 400
		expectRateHeaders(
			await call(target, 'POST', '/api/v1/process', { body: fileForm(await blankPdf(), 'a.pdf', 'application/pdf') }),
		);
	});
});
