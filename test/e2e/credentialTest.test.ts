import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ownerSession, startN8nServer, type N8nServer } from '../../scripts/n8n/server';
import { sandboxCredential } from '../../scripts/n8n/workflows';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { e2eOwner, sandboxWithCredential } from './support';

const GOOD = 'e2eCredTestGood';
const WRONG_KEY = 'e2eCredTestKey';
const WRONG_URL = 'e2eCredTestUrl';
const START_TIMEOUT_MS = 180_000;

/**
 * The credential's "Test" button, as n8n's editor runs it: `n8n start`, an owner account, and
 * `POST /rest/credentials/test` with a stored credential.
 */
describe('credential test in a running n8n', () => {
	let sandbox: RemoteSandbox;
	let n8nServer: N8nServer | undefined;
	let baseUrl: string;
	let cookie: string;
	const data: Record<string, { apiKey: string; baseUrl: string }> = {};

	beforeAll(async () => {
		let cli;
		({ sandbox, cli } = await sandboxWithCredential(GOOD));
		const prefix = sandbox.demoKey.split('_')[0];
		data[GOOD] = { apiKey: sandbox.demoKey, baseUrl: sandbox.baseUrl };
		data[WRONG_KEY] = { apiKey: `${prefix}_thisKeyWasNeverIssued0000`, baseUrl: sandbox.baseUrl };
		data[WRONG_URL] = { apiKey: sandbox.demoKey, baseUrl: `${sandbox.baseUrl}/not-the-service` };
		await cli.importCredentials(
			[WRONG_KEY, WRONG_URL].map((id) => sandboxCredential(data[id].baseUrl, data[id].apiKey, { id, name: id })),
		);

		n8nServer = await startN8nServer(cli);
		baseUrl = n8nServer.url;
		cookie = await ownerSession(n8nServer, e2eOwner());
	}, START_TIMEOUT_MS + 60_000);

	afterAll(async () => {
		await n8nServer?.stop();
		await sandbox?.stop();
	});

	const testCredential = async (id: string) => {
		const response = await fetch(`${baseUrl}/rest/credentials/test`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ credentials: { id, name: id, type: 'documentExtractionApi', data: data[id] } }),
		});
		expect(response.status, await response.clone().text()).toBe(200);
		return ((await response.json()) as { data: { status: string; message: string } }).data;
	};

	it('passes with the right key and base URL', async () => {
		expect(await testCredential(GOOD)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect((await sandbox.stats()).requests.listScanners).toBeGreaterThan(0);
	});

	// The credential reads the answer whatever its status and matches its body, so the user reads
	// the credential's own advice rather than n8n's generic status texts.
	it('fails with a wrong key (401), saying what to fix', async () => {
		const before = (await sandbox.stats()).responses['401'] ?? 0;
		const result = await testCredential(WRONG_KEY);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service refused the API key \(401 INVALID_API_KEY\)\. Copy the key again/);
		expect((await sandbox.stats()).responses['401']).toBeGreaterThan(before);
	});

	it('fails with a base URL that is not the service (403 Missing Authentication Token)', async () => {
		const before = (await sandbox.stats()).unknownPathRequests;
		const result = await testCredential(WRONG_URL);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service does not know this address \(403 "Missing Authentication Token"\)\. Check the Base URL/);
		expect((await sandbox.stats()).unknownPathRequests).toBeGreaterThan(before);
	});
});
