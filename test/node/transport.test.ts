/**
 * The HTTP layer (nodes/shared/http/transport.ts, errors.ts) driven through the real engine with the
 * action node's operations, against nock: exact requests, every error row of spec 7.2/7.3 as the
 * user reads it, each retry rule, the rate budget, and "an upload is sent once".
 */
import nock, { cleanAll, disableNetConnect, enableNetConnect, isDone } from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { RETRY } from '../../nodes/shared/http/transport';
import { binaryItem, capturedLogs, runNode, visibleText, type TestCredential } from '../harness/engine';
import { freshKey } from '../harness/keys';
import { minimalPdf } from '../harness/documents';

const BASE = 'https://extract.example.test';
const RESULT_ID = '6f1c2a9e-0b7d-4c55-9a7e-3d2b1c0a9f8e';
const original = { ...RETRY };

beforeAll(() => {
	disableNetConnect();
	// The real waits are seconds long; the rules under test are the same with short ones.
	Object.assign(RETRY, { busyBaseDelayMs: 5, idempotentBaseDelayMs: 5, idempotentMinDelayMs: 5, maxBackoffMs: 20, uploadTimeoutMs: 500, readTimeoutMs: 500 });
});
afterAll(() => {
	Object.assign(RETRY, original);
	enableNetConnect();
});
afterEach(() => cleanAll());

function credential(): TestCredential {
	return { apiKey: freshKey(), baseUrl: BASE };
}

/** Template › Get Many, once per input item (`items`). */
const listTemplates = (cred: TestCredential, onError?: 'continueRegularOutput', items = 1) =>
	runNode({ nodeType: 'action', parameters: { resource: 'template', operation: 'getMany', returnAll: true }, credential: cred, onError, input: Array.from({ length: items }, () => ({ json: {} })) });

const uploadWithoutWait = async (cred: TestCredential, onError?: 'continueRegularOutput') =>
	runNode({
		nodeType: 'action',
		parameters: { resource: 'document', operation: 'extract', waitForResult: false },
		credential: cred,
		input: [binaryItem(await minimalPdf(), 'invoice.pdf', 'application/pdf')],
		onError,
	});

const accepted = { success: true, result_id: RESULT_ID, scanner_id: 'auto', status: 'queued', tokens_required: 1, tokens_remaining: 19 };

describe('requests', () => {
	it('sends the key as X-API-Key to the normalised base URL and parses the answer', async () => {
		const cred = { ...credential(), baseUrl: `${BASE}/api/v1/` };
		const scope = nock(BASE, { reqheaders: { 'x-api-key': cred.apiKey, accept: 'application/json' } })
			.get('/api/v1/scanners')
			.reply(200, { success: true, scanners: [{ scanner_id: 's1', name: 'Invoice', description: 'x', fields: [], created_at: '2026-01-01T00:00:00Z', extra: 1 }] });
		const { outputs, error } = await listTemplates(cred);
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(outputs[0].map((item) => item.json)).toEqual([expect.objectContaining({ scanner_id: 's1', name: 'Invoice', extra: 1 })]);
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('uploads multipart with part "file", its file name and the real content type', async () => {
		const cred = credential();
		let body = '';
		let contentType = '';
		nock(BASE)
			.post('/api/v1/process', (raw) => {
				// nock hands over a binary body as a hex string.
				body = typeof raw === 'string' && /^[0-9a-f]+$/i.test(raw) ? Buffer.from(raw, 'hex').toString('latin1') : String(raw);
				return true;
			})
			.reply(function () {
				contentType = String(this.req.headers['content-type']);
				return [202, accepted];
			});
		const { outputs, error } = await uploadWithoutWait(cred);
		expect(error).toBeUndefined();
		expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(body).toMatch(/Content-Disposition: form-data; name="file"; filename="invoice.pdf"/);
		expect(body).toMatch(/Content-Type: application\/pdf/);
		expect(body).toContain('%PDF-');
		expect(outputs[0][0].json).toMatchObject({ result_id: RESULT_ID, tokens_required: 1, tokens_remaining: 19 });
	});

	it('encodes template ids so they cannot change the path', async () => {
		const cred = credential();
		const scope = nock(BASE).get('/api/v1/scanners/a%2Fb%3Fc%23d%20%C3%A9').reply(200, { scanner_id: 'a/b?c#d é', name: 'x' });
		// Through an expression: typed into By ID, the editor (and n8n's pre-run check) refuses it.
		const { error } = await runNode({
			nodeType: 'action',
			parameters: { resource: 'template', operation: 'get', templateId: { __rl: true, mode: 'id', value: '={{ "a/b?c#d é" }}' } },
			credential: cred,
		});
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it.each([
		['dex_abc \n', /spaces or line breaks/],
		['abcdef', /prefix and an underscore \(prefix_secret\)/],
		['', /API key of the credential is empty/],
	])('explains an unusable key %j before any request', async (apiKey, message) => {
		const scope = nock(BASE).get(/.*/).reply(200, {});
		const { error } = await listTemplates({ apiKey, baseUrl: BASE });
		expect(error?.message).toMatch(message);
		expect(scope.isDone()).toBe(false);
	});

	it('refuses to send the key over plain http to a host that is not loopback', async () => {
		const cred = { ...credential(), baseUrl: 'http://extract.example.test' };
		const scope = nock('http://extract.example.test').get(/.*/).reply(200, {});
		const { error } = await listTemplates(cred);
		expect(error?.message).toMatch(/Refusing to send the API key over plain http/);
		expect(scope.isDone()).toBe(false);
	});

	it('reaches a sandbox on the own network over plain http only with Allow Plain HTTP on My Own Network on', async () => {
		for (const baseUrl of ['http://sandbox:4010', 'http://192.168.1.20:4010']) {
			const cred = { ...credential(), baseUrl };
			const keysSeen: string[] = [];
			nock(baseUrl)
				.persist()
				.get('/api/v1/scanners')
				.reply(function () {
					keysSeen.push(String(this.req.headers['x-api-key']));
					return [200, { success: true, scanners: [] }];
				});
			const refused = await listTemplates(cred);
			expect(refused.error?.message, baseUrl).toMatch(/^Item 1: Refusing to send the API key over plain http to .*: .*turn on Allow Plain HTTP on My Own Network in the credential\.$/);
			expect(visibleText(refused), baseUrl).not.toContain(cred.apiKey);
			expect(keysSeen, `${baseUrl}: nothing was sent`).toEqual([]);
			const allowed = await listTemplates({ ...cred, allowPlainHttpOnOwnNetwork: true });
			expect(allowed.error, baseUrl).toBeUndefined();
			expect(keysSeen, baseUrl).toEqual([cred.apiKey]);
			cleanAll();
		}
	});

	it('with Allow Plain HTTP on My Own Network on, still refuses plain http to a public address, with nothing sent', async () => {
		const cred = { ...credential(), baseUrl: 'http://93.184.216.34:4010', allowPlainHttpOnOwnNetwork: true };
		const scope = nock('http://93.184.216.34:4010').get(/.*/).reply(200, { success: true, scanners: [] });
		const { error } = await listTemplates(cred);
		expect(error?.message).toMatch(/^Item 1: Refusing to send the API key over plain http to 93\.184\.216\.34: it is neither a private network address nor a local name.*Use the https:\/\/ address/);
		expect(error?.message).not.toContain(cred.apiKey);
		expect(scope.isDone()).toBe(false);
	});
});

/** Each row of spec 7.2 and 7.3: what the user reads, status and code kept, extra members carried. */
const errorRows: Array<{ status: number; body: object; message: RegExp; description: RegExp; details?: object }> = [
	{ status: 400, body: { success: false, error_code: 'NO_FILE', message: 'No file' }, message: /received no file/, description: /binary property/ },
	{ status: 400, body: { success: false, error_code: 'UNSUPPORTED_FILE_TYPE', message: 'x' }, message: /does not accept this type/, description: /PDF, JPEG and PNG/ },
	{ status: 400, body: { success: false, error_code: 'DOCUMENT_TOO_LONG', message: 'x' }, message: /more than 50 pages/, description: /Split the PDF/ },
	{ status: 400, body: { success: false, error_code: 'VALIDATION_ERROR', message: 'fields[0].name too long' }, message: /fields\[0\]\.name too long/, description: /Correct the field/ },
	{ status: 400, body: { success: false, error_code: 'INVALID_JSON', message: 'x' }, message: /could not read the request as JSON/, description: /valid JSON/ },
	{ status: 401, body: { success: false, error_code: 'API_KEY_REQUIRED', message: 'x' }, message: /received no API key/, description: /paste your API key/ },
	{ status: 401, body: { success: false, error_code: 'INVALID_API_KEY', message: 'x' }, message: /refused the API key/, description: /Copy the key again/ },
	{
		status: 402,
		body: {
			success: false,
			error_code: 'INSUFFICIENT_TOKENS',
			message: 'x',
			tokens_required: 3,
			tokens_available: 1,
			plan: 'free',
			next_action: { type: 'upgrade_or_wait', renews_at: '2026-12-01T00:00:00Z', pricing_url: 'https://example.test/pricing', message: 'Upgrade or wait.' },
		},
		message: /needs 3, 1 left on the free plan/,
		description: /renew on 2026-12-01T00:00:00Z.*https:\/\/example.test\/pricing/,
		details: { tokens_required: 3, tokens_available: 1, plan: 'free' },
	},
	{
		status: 402,
		body: { success: false, error_code: 'PAYMENT_REQUIRED', message: 'x', next_action: { type: 'billing_portal', url: 'https://example.test/billing' } },
		message: /unpaid invoice/,
		description: /https:\/\/example.test\/billing/,
		details: { next_action: { type: 'billing_portal', url: 'https://example.test/billing' } },
	},
	{
		status: 403,
		body: { success: false, error_code: 'SCANNER_LIMIT', message: 'x', limit: 10, next_action: { type: 'upgrade', pricing_url: 'https://example.test/pricing' } },
		message: /Template limit reached \(10 templates\)/,
		description: /upgrade your plan: https:\/\/example.test\/pricing/,
		details: { limit: 10 },
	},
	{ status: 404, body: { success: false, error_code: 'SCANNER_NOT_FOUND', message: 'x' }, message: /template does not exist/, description: /Pick the template/ },
	{ status: 404, body: { success: false, error_code: 'RESULT_NOT_FOUND', message: 'x' }, message: /No result with this ID/, description: /same account's API key/ },
	{ status: 400, body: { success: false, error_code: 'UPLOAD_PARSE_ERROR', message: 'x' }, message: /could not read the uploaded file/, description: /opens on your computer, then run the node again\.$/ },
	{ status: 404, body: { success: false, error_code: 'ROUTE_NOT_FOUND', message: 'x' }, message: /does not know this address/, description: /Check the Base URL/ },
	{ status: 404, body: { success: false, error_code: 'COMPANY_NOT_FOUND', message: 'x' }, message: /found no account for this API key/, description: /create a new API key/ },
	{ status: 413, body: { message: 'Request Too Long' }, message: /too large for the service \(over about 4\.4 MB\)/, description: /2,600 px.*split the PDF/ },
	{ status: 403, body: { message: 'Missing Authentication Token' }, message: /does not know this address/, description: /Base URL/ },
	{ status: 409, body: { success: false, error_code: 'SOMETHING_NEW', message: 'A new rule' }, message: /409 SOMETHING_NEW: A new rule/, description: /SOMETHING_NEW/ },
];

describe('error answers (spec 7.2, 7.3)', () => {
	it.each([
		[502, /^Item 1: The service is unavailable right now \(HTTP 502\)$/, /error page instead of an answer.*Wait a few minutes/],
		[404, /^Item 1: The address answered with a web page instead of the service's API \(HTTP 404\)$/, /Check the Base URL/],
	])('an HTML page with HTTP %i says what it means and what to do', async (status, message, description) => {
		nock(BASE).get('/api/v1/scanners').times(RETRY.idempotentRetries + 1).reply(status, '<html><body><h1>Bad Gateway</h1></body></html>', { 'Content-Type': 'text/html' });
		const { outputs } = await listTemplates(credential(), 'continueRegularOutput');
		expect(outputs[0][0].json.error).toMatch(message);
		expect(outputs[0][0].json.error_description).toMatch(description);
	});

	it.each(errorRows)('$status $body.error_code $body.message', async ({ status, body, message, description, details }) => {
		const cred = credential();
		nock(BASE).get('/api/v1/scanners').reply(status, body);
		const { outputs, error } = await listTemplates(cred, 'continueRegularOutput');
		expect(error).toBeUndefined();
		const json = outputs[0][0].json;
		expect(json.error).toMatch(message);
		expect(json.error_description).toMatch(description);
		expect(json.http_status).toBe(status);
		expect(json.error_code).toBe((body as { error_code?: string }).error_code ?? null);
		if (details) expect(json.error_details).toMatchObject(details);
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('fails the node with a NodeApiError that keeps the HTTP status when not continuing on fail', async () => {
		const cred = credential();
		nock(BASE).get('/api/v1/scanners').reply(401, { success: false, error_code: 'INVALID_API_KEY', message: 'bad' });
		const { error } = await listTemplates(cred);
		expect(error?.name).toBe('NodeApiError');
		expect((error as unknown as { httpCode: string }).httpCode).toBe('401');
		expect(error?.message).toMatch(/refused the API key/);
	});

	it('quotes the request id of a 500 INTERNAL_ERROR after the GET retries are used up', async () => {
		const cred = credential();
		const scope = nock(BASE)
			.get('/api/v1/scanners')
			.times(RETRY.idempotentRetries + 1)
			.reply(500, { success: false, error_code: 'INTERNAL_ERROR', message: 'boom', request_id: 'req-42' });
		const { outputs } = await listTemplates(cred, 'continueRegularOutput');
		expect(scope.isDone()).toBe(true);
		expect(outputs[0][0].json.error_description).toMatch(/quote request ID req-42/);
	});
});

describe('retries', () => {
	it('retries an idempotent GET after 500 and a dropped connection, then succeeds', async () => {
		const cred = credential();
		nock(BASE)
			.get('/api/v1/scanners')
			.reply(500, { success: false, error_code: 'INTERNAL_ERROR', message: 'x' })
			.get('/api/v1/scanners')
			.replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
			.get('/api/v1/scanners')
			.reply(200, '{not json')
			.get('/api/v1/scanners')
			.reply(200, { success: true, scanners: [] });
		const { error, outputs } = await listTemplates(cred);
		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([]);
		expect(isDone()).toBe(true);
	});

	it('waits Retry-After after a 429 and retries, also for an upload (a 429 proves nothing was accepted)', async () => {
		const cred = credential();
		const times: number[] = [];
		nock(BASE)
			.post('/api/v1/process')
			.reply(() => {
				times.push(Date.now());
				return [429, { success: false, error_code: 'RATE_LIMITED', message: 'slow down', limit_per_minute: 60, retry_after_seconds: 1 }, { 'Retry-After': '1' }];
			})
			.post('/api/v1/process')
			.reply(() => {
				times.push(Date.now());
				return [202, accepted];
			});
		const { error } = await uploadWithoutWait(cred);
		expect(error).toBeUndefined();
		expect(times).toHaveLength(2);
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
	});

	it('retries an upload answered 503 BUSY, with backoff', async () => {
		const cred = credential();
		nock(BASE)
			.post('/api/v1/process')
			.times(2)
			.reply(503, { success: false, error_code: 'BUSY', message: 'busy', retryable: true })
			.post('/api/v1/process')
			.reply(202, accepted);
		const { error, outputs } = await uploadWithoutWait(cred);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.result_id).toBe(RESULT_ID);
		expect(isDone()).toBe(true);
	});

	it('gives up on BUSY after the configured attempts and says so', async () => {
		const cred = credential();
		const scope = nock(BASE)
			.post('/api/v1/process')
			.times(RETRY.busyRetries + 1)
			.reply(503, { success: false, error_code: 'BUSY', message: 'busy', retryable: true });
		const { outputs } = await uploadWithoutWait(cred, 'continueRegularOutput');
		expect(scope.isDone()).toBe(true);
		expect(outputs[0][0].json).toMatchObject({ error_code: 'BUSY', http_status: 503 });
	});
});

describe('an upload is sent once', () => {
	const ambiguous: Array<[string, (scope: nock.Interceptor) => nock.Scope]> = [
		['500 INTERNAL_ERROR', (i) => i.reply(500, { success: false, error_code: 'INTERNAL_ERROR', message: 'x', request_id: 'r1' })],
		['502 from the gateway', (i) => i.reply(502, { message: 'Bad Gateway' })],
		['503 that is not BUSY', (i) => i.reply(503, { message: 'Service Unavailable' })],
		['connection reset after the body was sent', (i) => i.replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })],
		['no answer before the timeout', (i) => i.delay(2_000).reply(202, accepted)],
		['a 202 whose body cannot be read', (i) => i.reply(202, '{"result_')],
	];

	it.each(ambiguous)('%s: reported, not retried', async (_name, respond) => {
		const cred = credential();
		let uploads = 0;
		const interceptor = nock(BASE).post('/api/v1/process', () => {
			uploads++;
			return true;
		});
		respond(interceptor);
		// A second interceptor that a retry would consume.
		nock(BASE).post('/api/v1/process', () => {
			uploads++;
			return true;
		}).reply(202, accepted);
		const { outputs } = await uploadWithoutWait(cred, 'continueRegularOutput');
		expect(uploads).toBe(1);
		expect(String(outputs[0][0].json.error) + String(outputs[0][0].json.error_description)).toMatch(/not sent again|may have/);
	});
});

describe('rate budget', () => {
	it('waits for the window to reset instead of provoking a 429 when the headers say nothing is left', async () => {
		const cred = credential();
		const times: number[] = [];
		nock(BASE)
			.get('/api/v1/scanners')
			.times(2)
			.reply(() => {
				times.push(Date.now());
				return [200, { success: true, scanners: [] }, { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1' }];
			});
		const { error } = await listTemplates(cred, undefined, 2);
		expect(error).toBeUndefined();
		expect(times).toHaveLength(2);
		// The second request waited for the announced reset (1 s, plus rounding allowance).
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(1_000);
	});

	it('on a key another process uses, retries a GET whose connection was reset at once, not when the window ends', async () => {
		const cred = credential();
		// The first answer shows 51 requests of others: the key is shared, 8 left, one request in flight at a time.
		const shared = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '8', 'X-RateLimit-Reset': '40' };
		nock(BASE)
			.get('/api/v1/scanners')
			.reply(200, { success: true, scanners: [] }, shared)
			.get('/api/v1/scanners')
			.replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
			.get('/api/v1/scanners')
			.reply(200, { success: true, scanners: [] }, { ...shared, 'X-RateLimit-Remaining': '6' });
		const started = Date.now();
		const { error } = await listTemplates(cred, undefined, 2);
		expect(error).toBeUndefined();
		expect(isDone()).toBe(true);
		// Before, the reset request held its place in flight until the window ended (40 s).
		expect(Date.now() - started).toBeLessThan(5_000);
	}, 60_000);
});

describe('the API key stays secret', () => {
	it('never appears in outputs, errors or logs, whatever fails', async () => {
		const cred = credential();
		nock(BASE)
			.get('/api/v1/scanners')
			.times(RETRY.idempotentRetries + 1)
			.replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
		const failed = await listTemplates(cred);
		nock(BASE).get('/api/v1/scanners').reply(401, { success: false, error_code: 'INVALID_API_KEY', message: `Invalid key ${cred.apiKey}` });
		const continued = await listTemplates(cred, 'continueRegularOutput');
		expect(failed.error?.message).toMatch(/Could not reach the service|did not answer in time/);
		for (const text of [visibleText(failed), visibleText(continued), capturedLogs.join('\n')]) {
			expect(text.includes(cred.apiKey.split('_')[1])).toBe(false);
		}
	});
});
