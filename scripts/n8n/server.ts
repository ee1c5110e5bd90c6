import { randomUUID } from 'node:crypto';

import type { N8nCli } from './cli';
import { freePort } from './ports';
import { startService, waitUntilReady, type Service } from './processes';

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
	const { url, service } = await startN8nProcess(cli, 'start', extraEnv);
	return { url, service, stop: () => service.stop() };
}

/** What `startN8nProcess` started: the process, and the address of its web server (main) or health server (worker). */
export interface N8nProcess {
	kind: N8nProcessKind;
	url: string;
	service: Service;
}

/** `start`: the main process (editor, REST API, webhooks, the queue's producer in queue mode); `worker`: a queue-mode worker. */
export type N8nProcessKind = 'start' | 'worker';

/**
 * Starts one n8n process on its own loopback ports (web server or worker health server, and task
 * broker) and resolves once it is ready: the main process when its REST API answers, a worker when
 * its readiness endpoint says it is connected to the database and the queue.
 */
export async function startN8nProcess(cli: N8nCli, kind: N8nProcessKind, extraEnv: NodeJS.ProcessEnv = {}): Promise<N8nProcess> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const ports: NodeJS.ProcessEnv =
		kind === 'start'
			? {
					N8N_PORT: String(port),
					N8N_LISTEN_ADDRESS: '127.0.0.1',
					N8N_HOST: '127.0.0.1',
					N8N_EDITOR_BASE_URL: url,
					WEBHOOK_URL: `${url}/`,
					N8N_SECURE_COOKIE: 'false',
				}
			: { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' };
	const env = await cli.processEnv({ ...ports, ...extraEnv });
	const [command, args] = cli.command(kind);
	const service = startService(command, args, { env });
	const ready = kind === 'start' ? () => restApiAnswers(url) : () => answersOk(`${url}/healthz/readiness`);
	await waitUntilReady(ready, service, `n8n ${kind}`, START_TIMEOUT_MS, 1000);
	return { kind, url, service };
}

// /healthz answers before the REST API is mounted, and n8n 2.x answers every path with 200 "n8n is
// starting up" (text/html) until it is ready: wait for the settings as JSON.
async function restApiAnswers(url: string): Promise<boolean> {
	try {
		const response = await fetch(`${url}/rest/settings`);
		return response.ok && (response.headers.get('content-type') ?? '').includes('application/json');
	} catch {
		return false;
	}
}

async function answersOk(url: string): Promise<boolean> {
	try {
		return (await fetch(url)).ok;
	} catch {
		return false;
	}
}

/** Sets up the owner of a fresh n8n through its REST API; returns the session cookie. */
export async function setUpOwner(server: { url: string }, owner: Owner): Promise<string> {
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

/**
 * A session as `owner`: sets the owner up on a fresh instance, or signs in where it was set up
 * before (a user folder shared by several tests).
 */
export async function ownerSession(server: { url: string }, owner: Owner): Promise<string> {
	try {
		return await setUpOwner(server, owner);
	} catch (error) {
		if (!/already setup/i.test((error as Error).message)) throw error;
	}
	const response = await fetch(`${server.url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		// n8n 1.x and 2.x name the login field emailOrLdapLoginId; older releases email.
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password }),
	});
	const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
	if (response.status !== 200 || !cookie.startsWith('n8n-auth=')) throw new Error(`POST /rest/login answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
	return cookie;
}
