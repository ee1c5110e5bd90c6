import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { ANNOUNCED_KEEP_ALIVE_SECONDS, IDLE_CONNECTION_CLOSE_MS } from '../../sandbox/src/server';

/**
 * Keep-alive connections under a client's ordinary polling (docs/benchmark.md, "Connection
 * resets"). The sandbox reads every uploaded document on its one event loop (PDF reader, OCR);
 * under CPU load that holds the loop for seconds (3 to 18 s seen in the benchmark's peer
 * processes). A read a client sends on its idle keep-alive connection meanwhile waits in the
 * kernel. When the loop comes back, Node runs its timers before it reads sockets: if the server's
 * own idle timer of that connection ran out during the stall, the server closed a connection with
 * a request unread on it, the kernel answered with a reset, and the client got ECONNRESET (or
 * "other side closed") for a read it sent well inside the keep-alive time the server announced.
 *
 * The clients run in a worker thread (their own event loop, as n8n's process is another one); the
 * test's thread is the sandbox's, and it holds that loop for 5 s in each round, as a slow document
 * read does, while the clients' next reads arrive:
 * - fetch clients (undici, as the benchmark's peers use) reading 2 to 2.5 s after their last answer,
 *   the pace of the Firecrawl-style node and the naive loop;
 * - node:http clients with a keep-alive agent that keeps idle sockets whatever the server announces
 *   (the agent's default), reading 4.5 to 6 s after their last answer: around the server's
 *   keep-alive timeout.
 * Real timings, not fake timers: the race is between the kernel, libuv's phases and Node's timers.
 */

/** Run by the worker: plain JavaScript, so the worker needs no TypeScript loader. */
const CLIENTS = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { setTimeout: sleep } = require('node:timers/promises');
const { baseUrl, apiKey, rounds, fetchSpacingsMs, agentSpacingsMs } = workerData;
const headers = { 'X-API-Key': apiKey };
const describe = (error) => {
	const cause = error && error.cause;
	return [error && error.message, cause && (cause.code || cause.message), error && error.code].filter(Boolean).join(' / ');
};
const fetchClient = (spacingMs) => ({
	spacingMs,
	kind: 'fetch',
	read: async () => {
		const response = await fetch(baseUrl + '/api/v1/scanners', { headers });
		await response.text();
		return { status: response.status, reused: null };
	},
});
const agentClient = (spacingMs) => {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	return {
		spacingMs,
		kind: 'agent',
		read: () =>
			new Promise((resolve, reject) => {
				const request = http.get(baseUrl + '/api/v1/scanners', { agent, headers }, (response) => {
					response.resume();
					response.on('end', () => resolve({ status: response.statusCode, reused: request.reusedSocket }));
					response.on('error', reject);
				});
				request.on('error', reject);
			}),
	};
};
const clients = [...fetchSpacingsMs.map(fetchClient), ...agentSpacingsMs.map(agentClient)];
const outcomes = [];
const attempt = async (client, index, round, phase) => {
	try {
		const { status, reused } = await client.read();
		outcomes.push({ client: index, kind: client.kind, round, phase, status, reused, error: null });
	} catch (error) {
		outcomes.push({ client: index, kind: client.kind, round, phase, status: null, reused: null, error: describe(error) });
	}
};
(async () => {
	for (let round = 0; round < rounds; round++) {
		// Every client reads once; the sandbox is free and answers at once.
		await Promise.all(clients.map((client, index) => attempt(client, index, round, 'answered')));
		parentPort.postMessage({ type: 'answered', at: Date.now() });
		// Each client's next read at its own spacing, on the connection it just used.
		await Promise.all(clients.map((client, index) => sleep(client.spacingMs).then(() => attempt(client, index, round, 'next'))));
	}
	parentPort.postMessage({ type: 'done', outcomes });
})().catch((error) => parentPort.postMessage({ type: 'done', outcomes, crashed: describe(error) }));
`;

interface Outcome {
	client: number;
	kind: 'fetch' | 'agent';
	round: number;
	phase: 'answered' | 'next';
	status: number | null;
	reused: boolean | null;
	error: string | null;
}

/** After a round's first reads are answered: the loop is free for this long, then held (as a slow document read holds it). */
const FREE_BEFORE_STALL_MS = 1_500;
/** Until this long after the answers: past Node's 5 s (+1 s) idle timer, before the old one could close anything. */
const STALL_UNTIL_MS = 6_600;

function busyUntil(at: number): void {
	// The event loop held on purpose, as a synchronous document read holds it.
	while (Date.now() < at) {
		/* hold */
	}
}

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast', demoAccount: { plan: 'paid', monthlyPages: 1_000, rateLimitPerMinute: 100_000 } });
});
afterAll(() => sandbox.stop());

function headersOf(connection: 'keep-alive' | 'close'): Promise<IncomingHttpHeaders> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(`${sandbox.baseUrl}/api/v1/scanners`, { headers: { 'X-API-Key': sandbox.demoKey, Connection: connection } }, (response) => {
			response.resume();
			response.on('end', () => resolve(response.headers));
		});
		request.on('error', reject);
		request.end();
	});
}

describe('keep-alive connections while the sandbox is busy', () => {
	it('announces 5 s and keeps an idle connection far longer itself; a client asking to close gets Connection: close', async () => {
		expect(IDLE_CONNECTION_CLOSE_MS).toBeGreaterThanOrEqual(ANNOUNCED_KEEP_ALIVE_SECONDS * 1000 + 60_000);
		expect(await headersOf('keep-alive')).toMatchObject({ connection: 'keep-alive', 'keep-alive': `timeout=${ANNOUNCED_KEEP_ALIVE_SECONDS}` });
		const closing = await headersOf('close');
		expect(closing.connection).toBe('close');
		expect(closing).not.toHaveProperty('keep-alive');
	});

	it('every read a client sends on its idle keep-alive connection is answered, none reset', { timeout: 30_000 }, async () => {
		const rounds = 2;
		const worker = new Worker(CLIENTS, {
			eval: true,
			workerData: {
				baseUrl: sandbox.baseUrl,
				apiKey: sandbox.demoKey,
				rounds,
				fetchSpacingsMs: [2_000, 2_150, 2_300, 2_500],
				agentSpacingsMs: [4_500, 5_000, 5_500, 6_000],
			},
		});
		const finished = new Promise<{ outcomes: Outcome[]; crashed?: string }>((resolve, reject) => {
			worker.on('message', (message: { type: string; at?: number; outcomes?: Outcome[]; crashed?: string }) => {
				if (message.type === 'answered') {
					const answeredAt = message.at ?? Date.now();
					// From a check-phase callback, as a document read runs after the upload's bytes arrived:
					// once it returns, the next turn of the loop runs timers before it reads sockets.
					setTimeout(() => setImmediate(() => busyUntil(answeredAt + STALL_UNTIL_MS)), FREE_BEFORE_STALL_MS);
				} else if (message.type === 'done') resolve({ outcomes: message.outcomes ?? [], crashed: message.crashed });
			});
			worker.on('error', reject);
		});
		const { outcomes, crashed } = await finished.finally(() => worker.terminate());

		expect(crashed).toBeUndefined();
		const failed = outcomes.filter((outcome) => outcome.error !== null).map((o) => `round ${o.round} ${o.kind} client ${o.client}: ${o.error}`);
		expect(failed).toStrictEqual([]);
		expect(outcomes).toHaveLength(rounds * 2 * 8);
		expect(outcomes.every((outcome) => outcome.status === 200)).toBe(true);
		// The reads that waited out the stall went on the idle connections (what the test is about).
		const agentNext = outcomes.filter((outcome) => outcome.kind === 'agent' && outcome.phase === 'next');
		expect(agentNext.every((outcome) => outcome.reused === true)).toBe(true);
	});
});
