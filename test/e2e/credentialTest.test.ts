import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startService, type Service } from '../../scripts/n8n/processes';
import { sandboxCredential } from '../../scripts/n8n/workflows';
import type { Sandbox } from '../sandbox';
import { sandboxWithCredential } from './support';

const GOOD = 'e2eCredTestGood';
const WRONG_KEY = 'e2eCredTestKey';
const WRONG_URL = 'e2eCredTestUrl';
const START_TIMEOUT_MS = 120_000;
/** A throw-away owner of a throw-away n8n (n8n asks for 8+ characters, a digit and a capital). */
const ownerPassword = `E2e-${randomUUID()}`;

/**
 * The credential's "Test" button, as n8n's editor runs it: `n8n start`, an owner account, and
 * `POST /rest/credentials/test` with a stored credential.
 */
describe('credential test in a running n8n', () => {
	let sandbox: Sandbox;
	let n8nServer: Service | undefined;
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

		const port = await freePort();
		baseUrl = `http://127.0.0.1:${port}`;
		n8nServer = startService(process.execPath, [cli.bin, 'start'], {
			env: { ...cli.env, N8N_PORT: String(port), N8N_LISTEN_ADDRESS: '127.0.0.1', N8N_SECURE_COOKIE: 'false' },
		});
		await waitUntilHealthy(baseUrl, n8nServer);
		const setup = await fetch(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: 'owner@example.com', firstName: 'E2E', lastName: 'Owner', password: ownerPassword }),
		});
		expect(setup.status, await setup.clone().text()).toBe(200);
		cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0];
		expect(cookie).toMatch(/^n8n-auth=/);
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
		expect(sandbox.stats().requests.listScanners).toBeGreaterThan(0);
	});

	// The credential reads the answer whatever its status and matches its body, so the user reads
	// the credential's own advice rather than n8n's generic status texts.
	it('fails with a wrong key (401), saying what to fix', async () => {
		const before = sandbox.stats().responses['401'] ?? 0;
		const result = await testCredential(WRONG_KEY);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service refused the API key \(401 INVALID_API_KEY\)\. Copy the key again/);
		expect(sandbox.stats().responses['401']).toBeGreaterThan(before);
	});

	it('fails with a base URL that is not the service (403 Missing Authentication Token)', async () => {
		const before = sandbox.stats().unknownPathRequests;
		const result = await testCredential(WRONG_URL);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service does not know this address \(403 "Missing Authentication Token"\)\. Check the Base URL/);
		expect(sandbox.stats().unknownPathRequests).toBeGreaterThan(before);
	});
});

async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
		});
	});
}

async function waitUntilHealthy(baseUrl: string, server: Service): Promise<void> {
	const deadline = Date.now() + START_TIMEOUT_MS;
	while (Date.now() < deadline) {
		try {
			// /healthz answers before the REST API is mounted; the settings endpoint only after.
			const response = await fetch(`${baseUrl}/rest/settings`);
			if (response.ok) return;
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`n8n start did not become ready in ${START_TIMEOUT_MS / 1000} s. Its output:\n${server.output().slice(-3000)}`);
}
