/** The credential test as n8n runs it: real RoutingNode, the credential's own authenticate and rules. */
import nock, { cleanAll, disableNetConnect, enableNetConnect } from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { testCredential } from '../harness/credentialTest';
import { credentialTypes } from '../harness/engine';
import { freshKey } from '../harness/keys';

const BASE = 'https://extract.example.test';

beforeAll(() => disableNetConnect());
afterAll(() => enableNetConnect());
afterEach(() => cleanAll());

describe('credential test', () => {
	it('succeeds with a good key, sending it as X-API-Key to GET /api/v1/scanners', async () => {
		const apiKey = freshKey();
		const scope = nock(BASE, { reqheaders: { 'x-api-key': apiKey } }).get('/api/v1/scanners').reply(200, { success: true, scanners: [] });
		expect(await testCredential({ apiKey, baseUrl: BASE })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(scope.isDone()).toBe(true);
	});

	it.each([`${BASE}/`, `${BASE}/api/v1`, `${BASE}/api/v1/`, `  ${BASE}//  `])('normalises the base URL %j', async (baseUrl) => {
		const scope = nock(BASE).get('/api/v1/scanners').reply(200, { success: true, scanners: [] });
		expect((await testCredential({ apiKey: freshKey(), baseUrl })).status).toBe('OK');
		expect(scope.isDone()).toBe(true);
	});

	it('says what to fix when the key is refused (401 INVALID_API_KEY)', async () => {
		const scope = nock(BASE).get('/api/v1/scanners').reply(401, { success: false, error_code: 'INVALID_API_KEY', message: 'Invalid API key' });
		const result = await testCredential({ apiKey: freshKey(), baseUrl: BASE });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the API key \(401 INVALID_API_KEY\).*Copy the key again/);
		expect(scope.isDone()).toBe(true);
	});

	it('says what to fix when no key reached the service (401 API_KEY_REQUIRED)', async () => {
		nock(BASE).get('/api/v1/scanners').reply(401, { success: false, error_code: 'API_KEY_REQUIRED', message: 'API key required' });
		expect((await testCredential({ apiKey: freshKey(), baseUrl: BASE })).message).toMatch(/received no API key \(401 API_KEY_REQUIRED\)/);
	});

	it('points at the Base URL when the gateway does not know the address (403 Missing Authentication Token)', async () => {
		nock(`${BASE}`).get('/wrong/api/v1/scanners').reply(403, { message: 'Missing Authentication Token' });
		const result = await testCredential({ apiKey: freshKey(), baseUrl: `${BASE}/wrong` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Check the Base URL/);
	});

	it.each([
		['an HTML page', 404, '<html><body>Not Found</body></html>'],
		['another JSON API', 200, { ok: true }],
		['a server error', 500, { success: false, error_code: 'INTERNAL_ERROR', message: 'boom' }],
	])('fails when the Base URL answers with %s instead of the list of templates', async (_name, status, body) => {
		nock(BASE).get('/api/v1/scanners').reply(status, body);
		const result = await testCredential({ apiKey: freshKey(), baseUrl: BASE });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/did not answer like the extraction service/);
	});

	it('says the key works but is rate-limited on 429', async () => {
		nock(BASE).get('/api/v1/scanners').reply(429, { success: false, error_code: 'RATE_LIMITED', message: 'x', retry_after_seconds: 5 });
		expect((await testCredential({ apiKey: freshKey(), baseUrl: BASE })).message).toMatch(/over its per-minute request limit/);
	});

	it('refuses an empty key, a key with whitespace and a key without an underscore before any request', async () => {
		const scope = nock(BASE).get('/api/v1/scanners').times(3).reply(200, { success: true, scanners: [] });
		expect((await testCredential({ apiKey: '', baseUrl: BASE })).message).toMatch(/API key of the credential is empty/);
		expect((await testCredential({ apiKey: `${freshKey()} \n`, baseUrl: BASE })).message).toMatch(/spaces or line breaks/);
		expect((await testCredential({ apiKey: 'abcdef123456', baseUrl: BASE })).message).toMatch(/prefix and an underscore \(prefix_secret\)/);
		expect(scope.pendingMocks()).toHaveLength(1);
	});

	it('refuses to send the key over plain http to another machine, and allows loopback', async () => {
		const remote = nock('http://extract.example.test').get('/api/v1/scanners').reply(200, { success: true, scanners: [] });
		const refused = await testCredential({ apiKey: freshKey(), baseUrl: 'http://extract.example.test' });
		expect(refused.message).toMatch(/Refusing to send the API key over plain http/);
		expect(remote.isDone()).toBe(false);
		const local = nock('http://127.0.0.1:4010').get('/api/v1/scanners').reply(200, { success: true, scanners: [] });
		expect((await testCredential({ apiKey: freshKey(), baseUrl: 'http://127.0.0.1:4010' })).status).toBe('OK');
		expect(local.isDone()).toBe(true);
	});

	it('reaches a sandbox beside n8n in Docker over plain http only with Allow Plain HTTP on My Own Network on', async () => {
		const apiKey = freshKey();
		const keysSeen: string[] = [];
		const sandbox = nock('http://host.docker.internal:4010')
			.get('/api/v1/scanners')
			.reply(function () {
				keysSeen.push(String(this.req.headers['x-api-key']));
				return [200, { success: true, scanners: [] }];
			});
		const refused = await testCredential({ apiKey, baseUrl: 'http://host.docker.internal:4010' });
		expect(refused).toEqual({ status: 'Error', message: expect.stringMatching(/^Refusing to send the API key over plain http to host\.docker\.internal: .*turn on Allow Plain HTTP on My Own Network/) });
		expect(refused.message).not.toContain(apiKey);
		expect(keysSeen, 'nothing was sent').toEqual([]);
		expect(await testCredential({ apiKey, baseUrl: 'http://host.docker.internal:4010', allowPlainHttpOnOwnNetwork: true })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(sandbox.isDone()).toBe(true);
		expect(keysSeen).toEqual([apiKey]);
	});

	it('with Allow Plain HTTP on My Own Network on, still refuses plain http to a public name, and still does not follow a redirect', async () => {
		const apiKey = freshKey();
		const remote = nock('http://sandbox.mycompany.example').get('/api/v1/scanners').reply(200, { success: true, scanners: [] });
		const refused = await testCredential({ apiKey, baseUrl: 'http://sandbox.mycompany.example', allowPlainHttpOnOwnNetwork: true });
		expect(refused.message).toMatch(/^Refusing to send the API key over plain http to sandbox\.mycompany\.example: it is neither a private network address nor a local name/);
		expect(refused.message).not.toContain(apiKey);
		expect(remote.isDone()).toBe(false);

		nock('http://sandbox:4010').get('/api/v1/scanners').reply(302, '', { Location: 'http://elsewhere.example.test/api/v1/scanners' });
		const elsewhere = nock('http://elsewhere.example.test').get('/api/v1/scanners').reply(200, { success: true, scanners: [] });
		const redirected = await testCredential({ apiKey, baseUrl: 'http://sandbox:4010', allowPlainHttpOnOwnNetwork: true });
		expect(redirected.status).toBe('Error');
		expect(elsewhere.isDone(), 'the redirect was followed').toBe(false);
	});

	it('offers Allow Plain HTTP on My Own Network, off unless turned on, with a notice when on', () => {
		const properties = credentialTypes.documentExtractionApi.properties;
		expect(properties.find((property) => property.name === 'allowPlainHttpOnOwnNetwork')).toMatchObject({
			displayName: 'Allow Plain HTTP on My Own Network',
			type: 'boolean',
			default: false,
			description: expect.stringMatching(/unencrypted.*sandbox or a test server.*never/),
		});
		expect(properties.find((property) => property.type === 'notice')).toMatchObject({
			displayName: expect.stringMatching(/unencrypted/),
			displayOptions: { show: { allowPlainHttpOnOwnNetwork: [true] } },
		});
	});

	it('explains a base URL without a scheme', async () => {
		const result = await testCredential({ apiKey: freshKey(), baseUrl: 'extract.example.test' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not a valid address|https:\/\//);
	});

	it('does not follow a redirect: the key never reaches the host it points to, and the test does not pass', async () => {
		const apiKey = freshKey();
		nock(BASE).get('/api/v1/scanners').reply(302, '', { Location: 'https://elsewhere.example.test/api/v1/scanners' });
		const keysSeen: string[] = [];
		const elsewhere = nock('https://elsewhere.example.test')
			.get('/api/v1/scanners')
			.reply(function () {
				keysSeen.push(String(this.req.headers['x-api-key'] ?? ''));
				return [200, { success: true, scanners: [] }];
			});
		const result = await testCredential({ apiKey, baseUrl: BASE });
		expect(elsewhere.isDone(), 'the redirect was followed').toBe(false);
		expect(keysSeen).toEqual([]);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/did not answer like the extraction service.*Check the Base URL/);
	});

	it('never repeats the key in its messages', async () => {
		const apiKey = freshKey();
		nock(BASE).get('/api/v1/scanners').reply(401, { success: false, error_code: 'INVALID_API_KEY', message: `bad key ${apiKey}` });
		const results = [await testCredential({ apiKey, baseUrl: BASE }), await testCredential({ apiKey: `${apiKey} `, baseUrl: BASE })];
		for (const result of results) expect(result.message).not.toContain(apiKey.trim());
	});
});
