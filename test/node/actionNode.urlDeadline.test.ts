/**
 * Document Source "URL": one deadline for the whole download (60 s; shortened here), not only an
 * idle timeout. A server on this machine that sends a byte now and then never leaves the
 * connection idle, and without it would hold the item for ever.
 */
import dns from 'node:dns';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import nock, { disableNetConnect, enableNetConnect } from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { DOWNLOAD } from '../../nodes/DocumentExtraction/actions/document/readers/download/deadline';
import { minimalPdf } from '../harness/documents';
import { startNode } from '../harness/engine';
import { BASE, credential, runAction, useNock } from './actionNode.support';

useNock();

const DEADLINE_MS = 1500;
const DRIP_EVERY_MS = 200;

let server: Server;
let port = 0;
const open = new Set<ServerResponse>();

beforeAll(async () => {
	const pdf = Buffer.from(await minimalPdf());
	server = createServer((request, response) => {
		open.add(response);
		response.on('close', () => open.delete(response));
		if (request.url === '/silent.pdf') return;
		if (request.url === '/redirect') return void response.writeHead(302, { location: '/drip.pdf' }).end();
		response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
		// A byte every 200 ms: never idle for long, done after some minutes.
		let at = 0;
		const drip = setInterval(() => (at < pdf.length ? response.write(pdf.subarray(at, ++at)) : response.end()), DRIP_EVERY_MS);
		response.on('close', () => clearInterval(drip));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
	for (const response of open) response.destroy();
	await new Promise((resolve) => server.close(resolve));
});

const original = DOWNLOAD.deadlineMs;
beforeEach(() => {
	DOWNLOAD.deadlineMs = DEADLINE_MS;
	enableNetConnect((host: string) => /^127\.0\.0\.1(:\d+)?$/.test(host));
});
afterEach(() => {
	DOWNLOAD.deadlineMs = original;
	disableNetConnect();
});

describe('a download has one deadline, whatever the server does', () => {
	it.each([
		['sends a byte every 200 ms', '/drip.pdf'],
		['redirects, then sends a byte every 200 ms', '/redirect'],
		['accepts the connection and says nothing', '/silent.pdf'],
	])('a server that %s: the item fails with a clear message after the deadline, nothing uploaded', async (_case, path) => {
		const upload = nock(BASE).post('/api/v1/process').reply(500);
		const started = Date.now();

		const result = await runAction({ resource: 'document', operation: 'extract', documentSource: 'url', fileUrl: `http://127.0.0.1:${port}${path}`, options: { allowPrivateNetworkAddresses: true } }, [{ json: {} }]);

		const seconds = (Date.now() - started) / 1000;
		expect(result.error?.message).toMatch(/^Item 1: The file could not be downloaded: it did not arrive within 2 seconds \(http:\/\/127\.0\.0\.1:\d+\/(drip|silent)\.pdf\)$/);
		expect((result.error as { description?: string }).description).toMatch(/too slowly.*Nothing was sent to the service/);
		expect(seconds).toBeGreaterThanOrEqual(DEADLINE_MS / 1000 - 0.1);
		expect(seconds).toBeLessThan(DEADLINE_MS / 1000 + 2);
		expect(upload.isDone()).toBe(false);
	});

	it('a name whose lookup never answers: the same message after the deadline', async () => {
		const realLookup = dns.lookup;
		vi.spyOn(dns, 'lookup').mockImplementation(((host: string, ...rest: unknown[]) =>
			host === 'silent-dns.example.test' ? undefined : (realLookup as (...args: unknown[]) => void)(host, ...rest)) as typeof dns.lookup);
		const started = Date.now();

		const result = await runAction({ resource: 'document', operation: 'extract', documentSource: 'url', fileUrl: 'https://silent-dns.example.test/a.pdf' }, [{ json: {} }]);

		vi.restoreAllMocks();
		expect(result.error?.message).toBe('Item 1: The file could not be downloaded: it did not arrive within 2 seconds (https://silent-dns.example.test/a.pdf)');
		expect((Date.now() - started) / 1000).toBeLessThan(DEADLINE_MS / 1000 + 2);
	});

	it('cancelling the execution stops a download at once, long before the deadline, and closes its connection', async () => {
		DOWNLOAD.deadlineMs = 60_000;
		const upload = nock(BASE).post('/api/v1/process').reply(500);
		const started = Date.now();
		const running = startNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', documentSource: 'url', fileUrl: `http://127.0.0.1:${port}/drip.pdf`, options: { allowPrivateNetworkAddresses: true } },
			credential: credential(),
			input: [{ json: {} }],
		});
		await new Promise((resolve) => setTimeout(resolve, 500));
		running.cancel();
		await running.result;

		expect((Date.now() - started) / 1000).toBeLessThan(3);
		expect(upload.isDone()).toBe(false);
		await expect.poll(() => open.size, { timeout: 2000 }).toBe(0);
	});
});
