import { randomUUID } from 'node:crypto';

import type { N8nCli } from './cli';
import { freePort } from './ports';
import { startService, type Service } from './processes';

const START_TIMEOUT_MS = 180_000;

/** A running `n8n start` on its own loopback port. */
export interface N8nServer {
	url: string;
	service: Service;
	stop(): Promise<void>;
}

/** The owner account a fresh n8n asks for on its first start (n8n wants 8+ characters, a digit and a capital). */
export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export function throwAwayOwner(): Owner {
	return { email: 'owner@example.com', password: `Owner-${randomUUID()}`, firstName: 'Ada', lastName: 'Owner' };
}

/** `n8n start` (editor and REST API) with its own web and task-broker ports; resolves once the REST API answers. */
export async function startN8nServer(cli: N8nCli, extraEnv: NodeJS.ProcessEnv = {}): Promise<N8nServer> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const env = await cli.processEnv({
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_EDITOR_BASE_URL: url,
		WEBHOOK_URL: `${url}/`,
		N8N_SECURE_COOKIE: 'false',
		...extraEnv,
	});
	const [command, args] = cli.command('start');
	const service = startService(command, args, { env });
	await waitUntilReady(url, service);
	return { url, service, stop: () => service.stop() };
}

async function waitUntilReady(url: string, service: Service): Promise<void> {
	const deadline = Date.now() + START_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (service.exited()) throw new Error(`n8n start ended before it was ready. Its output:\n${service.output().slice(-3000)}`);
		try {
			// /healthz answers before the REST API is mounted, and n8n 2.x answers every path with
			// 200 "n8n is starting up" (text/html) until it is ready: wait for the settings as JSON.
			const response = await fetch(`${url}/rest/settings`);
			if (response.ok && (response.headers.get('content-type') ?? '').includes('application/json')) return;
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`n8n start did not become ready in ${START_TIMEOUT_MS / 1000} s. Its output:\n${service.output().slice(-3000)}`);
}

/** Sets up the owner of a fresh n8n through its REST API; returns the session cookie. */
export async function setUpOwner(server: N8nServer, owner: Owner): Promise<string> {
	const response = await fetch(`${server.url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	if (response.status !== 200) throw new Error(`POST /rest/owner/setup answered ${response.status}: ${await response.text()}`);
	const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
	if (!cookie.startsWith('n8n-auth=')) throw new Error(`POST /rest/owner/setup set no session cookie (${cookie || 'none'})`);
	return cookie;
}
