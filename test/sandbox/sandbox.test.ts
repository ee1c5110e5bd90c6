import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blankPdf, textPdf } from '../contract/documents';
import { call, fileForm, type Target } from '../contract/target';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { parseCliArgs } from '../../sandbox/src/cliOptions';
import { FaultInjector } from '../../sandbox/src/faults';
import { isLoopback } from '../../sandbox/src/http';
import { resolveTiming, scheduleResult } from '../../sandbox/src/timing';

/** The sandbox's own mechanics, which the contract suite cannot see: faults, stats, admin, stop, state file. */

let sandbox: Sandbox;
let target: Target;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast', demoAccount: { plan: 'paid', monthlyPages: 15_000, rateLimitPerMinute: 100_000 } });
	// The fault cases below give answers the service's interface does not have, on purpose.
	target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey, offContract: true };
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.faults.clear());

const uploadAuto = async (bytes?: Uint8Array) =>
	call(target, 'POST', '/api/v1/process', { body: fileForm(bytes ?? (await textPdf()), 'a.pdf', 'application/pdf') });
const read = (resultId: string) => call(target, 'GET', `/api/v1/results/${resultId}`);
const rawFetch = async (path: string, init: RequestInit = {}) => fetch(`${sandbox.baseUrl}${path}`, init);

describe('fault queue: exact control', () => {
	it('"the first 2 result reads get 500, then normal"', async () => {
		const { result_id } = (await uploadAuto()).body;
		sandbox.faults.enqueue('getResult', 'internalError', 2);
		const statuses = [];
		for (let index = 0; index < 3; index++) statuses.push(await read(result_id));
		expect(statuses.map((response) => response.status)).toStrictEqual([500, 500, 200]);
		expect(statuses[0].body).toMatchObject({ success: false, error_code: 'INTERNAL_ERROR', request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
		expect(statuses[0].headers.get('x-ratelimit-limit')).toBe('100000');
	});

	it("an endpoint's own queue comes before '*'; '*' applies to any endpoint", async () => {
		sandbox.faults.enqueue('*', 'busy');
		sandbox.faults.enqueue('listScanners', 'internalError');
		expect((await call(target, 'GET', '/api/v1/scanners')).status).toBe(500);
		expect((await call(target, 'GET', '/api/v1/scanners')).status).toBe(503);
		expect((await call(target, 'GET', '/api/v1/scanners')).status).toBe(200);
	});

	it('injected 429 carries Retry-After and the error members; injected 503 is BUSY retryable', async () => {
		sandbox.faults.enqueue('listScanners', { kind: 'rateLimited', retryAfterSeconds: 3 });
		sandbox.faults.enqueue('createScanner', 'busy');
		const limited = await call(target, 'GET', '/api/v1/scanners');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('3');
		expect(limited.body).toMatchObject({ error_code: 'RATE_LIMITED', retry_after_seconds: 3, limit_per_minute: 100000 });
		const busy = await call(target, 'POST', '/api/v1/scanners', { json: { name: 'x' } });
		expect(busy.body).toMatchObject({ error_code: 'BUSY', retryable: true });
	});

	it('latency delays the answer', async () => {
		sandbox.faults.enqueue('listScanners', { kind: 'latency', ms: 250 });
		const started = Date.now();
		expect((await call(target, 'GET', '/api/v1/scanners')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(240);
	});

	it('malformed JSON: the status stays, the body does not parse', async () => {
		sandbox.faults.enqueue('listScanners', 'malformedJson');
		const response = await call(target, 'GET', '/api/v1/scanners');
		expect(response.status).toBe(200);
		expect(response.body).toBeUndefined();
		expect(() => JSON.parse(response.text)).toThrow();
	});

	it('connection dropped before the body: nothing received, nothing charged', async () => {
		const before = sandbox.stats();
		sandbox.faults.enqueue('process', 'dropBeforeBody');
		await expect(uploadAuto()).rejects.toThrow();
		const after = sandbox.stats();
		expect(after.uploads.length).toBe(before.uploads.length);
		expect(after.pages.demo?.charged ?? 0).toBe(before.pages.demo?.charged ?? 0);
		expect(after.droppedConnections).toBe(before.droppedConnections + 1);
	});

	it('connection dropped after the body: the upload is ACCEPTED (counted, charged, result created)', async () => {
		const pdf = await textPdf([['Dropped but accepted']]);
		const before = sandbox.stats();
		sandbox.faults.enqueue('process', 'dropAfterBody');
		await expect(uploadAuto(pdf)).rejects.toThrow();
		const after = sandbox.stats();
		const accepted = after.uploads.at(-1)!;
		expect(after.uploads.length).toBe(before.uploads.length + 1);
		expect(accepted).toMatchObject({ status: 202, resultId: expect.any(String), accountId: 'demo', endpoint: 'process' });
		expect(after.pages.demo.charged).toBe((before.pages.demo?.charged ?? 0) + 1);
		expect((await read(accepted.resultId!)).status).toBe(200);
	});

	it('neverFinish: the result stays processing forever; unknownStatus: it reports e.g. "paused"', async () => {
		sandbox.faults.enqueue('process', 'neverFinish');
		const stuck = (await uploadAuto()).body.result_id;
		sandbox.faults.enqueue('process', { kind: 'unknownStatus', status: 'paused' });
		const paused = (await uploadAuto()).body.result_id;
		sandbox.clock.advance(3_600_000);
		expect((await read(stuck)).body.status).toBe('processing');
		expect((await read(paused)).body.status).toBe('paused');
		expect(sandbox.stats().results[stuck].terminalAt).toBeNull();
	});

	it('on result reads, neverFinish and unknownStatus change one read only', async () => {
		const { result_id } = (await uploadAuto()).body;
		sandbox.clock.advance(60_000);
		sandbox.faults.enqueue('getResult', 'unknownStatus');
		sandbox.faults.enqueue('getResult', 'neverFinish');
		expect((await read(result_id)).body.status).toBe('paused');
		const processing = (await read(result_id)).body;
		expect(processing.status).toBe('processing');
		expect(processing).not.toHaveProperty('extracted_data');
		expect((await read(result_id)).body.status).toBe('done');
	});

	it('extractionError: the result ends in error', async () => {
		sandbox.faults.enqueue('process', 'extractionError');
		const { result_id } = (await uploadAuto()).body;
		sandbox.clock.advance(60_000);
		expect((await read(result_id)).body).toMatchObject({ status: 'error', error_code: 'PROCESSING_FAILED' });
	});

	it('refuses faults that make no sense, unknown endpoints and unknown kinds', () => {
		expect(() => sandbox.faults.enqueue('listScanners', 'extractionError')).toThrow(/does not apply/);
		expect(() => sandbox.faults.enqueue('nope' as never, 'busy')).toThrow(/unknown endpoint/);
		expect(() => sandbox.faults.enqueue('process', 'explode' as never)).toThrow(/unknown fault/);
		expect(() => sandbox.faults.configure({ rates: { process: { busy: 2 } } })).toThrow(/between 0 and 1/);
	});
});

describe('fault rates: seeded', () => {
	const sequence = (seed: number) => {
		const injector = new FaultInjector({ seed, rates: { '*': { internalError: 0.3 }, getResult: { busy: 0.2 } } });
		return Array.from({ length: 200 }, () => injector.decide('getResult').fault?.kind ?? 'none');
	};

	it('the same seed gives the same faults; rates are roughly honoured', () => {
		const first = sequence(7);
		expect(sequence(7)).toStrictEqual(first);
		expect(sequence(8)).not.toStrictEqual(first);
		const share = (kind: string) => first.filter((fault) => fault === kind).length / first.length;
		expect(share('internalError')).toBeGreaterThan(0.15);
		expect(share('internalError')).toBeLessThan(0.45);
		expect(share('busy')).toBeGreaterThan(0.05);
		expect(share('none')).toBeGreaterThan(0.3);
	});

	it('works over HTTP too, and the stats list every injected fault', async () => {
		sandbox.faults.configure({ seed: 3, rates: { listScanners: { internalError: 0.5 } } });
		const before = sandbox.stats().faults.length;
		const statuses = [];
		for (let index = 0; index < 20; index++) statuses.push((await call(target, 'GET', '/api/v1/scanners')).status);
		expect(statuses).toContain(500);
		expect(statuses).toContain(200);
		const injected = sandbox.stats().faults.slice(before);
		expect(injected.length).toBe(statuses.filter((status) => status === 500).length);
		expect(injected.every((fault) => fault.endpoint === 'listScanners' && fault.kind === 'internalError')).toBe(true);
	});
});

describe('stats', () => {
	it('count requests per endpoint, uploads by hash, reads per result, pages charged and released', async () => {
		sandbox.resetStats();
		const pdf = await textPdf([['Counted twice']]);
		const first = (await uploadAuto(pdf)).body.result_id;
		await uploadAuto(pdf);
		const rejected = (await uploadAuto(await blankPdf(2))).body.result_id;
		await read(first);
		await read(first);
		await call(target, 'GET', '/nowhere');
		sandbox.clock.advance(60_000);
		await read(rejected);

		const stats = sandbox.stats();
		expect(stats.requests).toMatchObject({ process: 3, getResult: 3, listScanners: 0 });
		expect(stats.unknownPathRequests).toBe(1);
		expect(stats.responses).toMatchObject({ 202: 3, 200: 3, 403: 1 });
		const hash = stats.uploads[0].sha256;
		expect(hash).toMatch(/^[0-9a-f]{64}$/);
		expect(stats.uploadsByHash[hash]).toStrictEqual({ received: 2, accepted: 2 });
		expect(stats.results[first].reads).toHaveLength(2);
		expect(stats.results[first].reads[1]).toBeGreaterThanOrEqual(stats.results[first].reads[0]);
		expect(stats.results[first].terminalAt).toBeGreaterThan(stats.results[first].createdAt);
		expect(stats.pages.demo).toStrictEqual({ charged: 4, released: 2 });

		sandbox.resetStats();
		expect(sandbox.stats().requests.process).toBe(0);
		expect(sandbox.stats().uploads).toEqual([]);
	});

	it('stats are a copy: changing them changes nothing', () => {
		const stats = sandbox.stats();
		stats.requests.process = 999;
		expect(sandbox.stats().requests.process).not.toBe(999);
	});
});

describe('admin HTTP under /__sandbox/', () => {
	const admin = async (method: string, path: string, body?: unknown) => {
		const response = await rawFetch(`/__sandbox/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- admin answers are checked field by field below
		return { status: response.status, body: (await response.json()) as any };
	};

	it('health, stats, reset-stats', async () => {
		expect((await admin('GET', 'health')).body).toMatchObject({ ok: true, demoKey: sandbox.demoKey });
		await call(target, 'GET', '/api/v1/scanners');
		expect((await admin('GET', 'stats')).body.requests.listScanners).toBeGreaterThan(0);
		expect((await admin('POST', 'reset-stats')).status).toBe(200);
		expect((await admin('GET', 'stats')).body.requests.listScanners).toBe(0);
	});

	it('faults: replace the setup, add to the queue, read it back', async () => {
		await admin('POST', 'faults', { queue: [{ endpoint: 'listScanners', fault: 'internalError', count: 1 }] });
		await admin('POST', 'faults/queue', { endpoint: 'listScanners', fault: 'busy' });
		expect((await admin('GET', 'faults')).body.queue).toHaveLength(2);
		expect((await call(target, 'GET', '/api/v1/scanners')).status).toBe(500);
		expect((await call(target, 'GET', '/api/v1/scanners')).status).toBe(503);
		await admin('POST', 'faults', {});
		expect((await admin('GET', 'faults')).body.queue).toEqual([]);
		expect((await admin('POST', 'faults', { rates: { nope: { busy: 1 } } })).status).toBe(400);
	});

	it('accounts: create one, then exhaust its quota', async () => {
		const created = (await admin('POST', 'accounts', { id: 'e2e', plan: 'free', keys: ['dex_e2e_key'] })).body;
		expect(created).toMatchObject({ id: 'e2e', plan: 'free', monthlyPages: 20, pagesAvailable: 20, keys: ['dex_e2e_key'] });
		const updated = (await admin('POST', 'accounts', { id: 'e2e', pagesUsed: 20 })).body;
		expect(updated.pagesAvailable).toBe(0);
		const refused = await call(target, 'POST', '/api/v1/process', { key: 'dex_e2e_key', body: fileForm(await textPdf(), 'a.pdf', 'application/pdf') });
		expect(refused.status).toBe(402);
		expect((await admin('GET', 'accounts')).body.map((account: { id: string }) => account.id)).toContain('e2e');
		const regenerated = (await admin('POST', 'accounts/regenerate-key', { key: 'dex_e2e_key' })).body.key;
		expect((await call(target, 'GET', '/api/v1/scanners', { key: 'dex_e2e_key' })).status).toBe(401);
		expect((await call(target, 'GET', '/api/v1/scanners', { key: regenerated })).status).toBe(200);
	});

	it('clock: moves the sandbox time', async () => {
		const before = (await admin('GET', 'health')).body.now;
		const after = (await admin('POST', 'clock', { advanceMs: 5000 })).body.now;
		expect(after - before).toBeGreaterThanOrEqual(5000);
	});

	it('unknown admin routes give 404; admin calls are not API requests', async () => {
		sandbox.resetStats();
		expect((await admin('GET', 'nothing')).status).toBe(404);
		expect(sandbox.stats().unknownPathRequests).toBe(0);
	});
});

describe('timing model', () => {
	const realistic = resolveTiming('realistic');
	const total = (pages: number, id = 'r') => {
		const schedule = scheduleResult(realistic, id, 0, pages);
		return schedule.finishesAt;
	};

	it('realistic: a page or a few take 3-20 s; a 50-page statement about 2 minutes', () => {
		for (const id of ['a', 'b', 'c', 'd']) {
			expect(total(1, id)).toBeGreaterThanOrEqual(3000);
			expect(total(5, id)).toBeLessThanOrEqual(20_000);
			expect(total(50, id)).toBeGreaterThan(100_000);
			expect(total(50, id)).toBeLessThan(150_000);
		}
		expect(total(10)).toBeGreaterThan(total(2));
	});

	it('fast is 20 times quicker; jitter is stable per result id', () => {
		const fast = resolveTiming('fast');
		expect(scheduleResult(fast, 'x', 0, 3).finishesAt).toBeCloseTo(scheduleResult(realistic, 'x', 0, 3).finishesAt / 20, -1);
		expect(scheduleResult(realistic, 'same', 0, 2)).toStrictEqual(scheduleResult(realistic, 'same', 0, 2));
		expect(resolveTiming(0.5).perPageMs).toBe(realistic.perPageMs / 2);
		expect(resolveTiming({ queuedMs: 7 }).queuedMs).toBe(7);
	});
});

describe('lifecycle', () => {
	const handles = () =>
		process.getActiveResourcesInfo().filter((name) => name === 'TCPServerWrap' || name === 'Timeout').length;

	it('stop() closes the server, its sockets and pending waits, and leaves nothing running', async () => {
		const baseline = handles();
		const own = await startSandbox({ timing: 'fast', faults: { latencyMs: { listScanners: 60_000 } } });
		const pending = fetch(`${own.baseUrl}/api/v1/scanners`, { headers: { 'X-API-Key': own.demoKey } }).catch((error: Error) => error);
		await new Promise((resolve) => setImmediate(resolve));
		while (own.stats().requests.listScanners === 0) await new Promise((resolve) => setImmediate(resolve));
		const started = Date.now();
		await own.stop();
		expect(Date.now() - started).toBeLessThan(5000);
		expect(await pending).toBeInstanceOf(Error);
		await expect(fetch(`${own.baseUrl}/__sandbox/health`)).rejects.toThrow();
		await new Promise((resolve) => setImmediate(resolve));
		expect(handles()).toBeLessThanOrEqual(baseline);
	});

	it('accounts given at start work with their own keys, plans and templates', async () => {
		const own = await startSandbox({
			accounts: [
				{ id: 'team', plan: 'paid', keys: ['dex_team_one', 'dex_team_two'] },
				{ id: 'bare', readyMadeTemplates: false, keys: ['dex_bare'] },
			],
		});
		try {
			const list = (key: string) => call({ baseUrl: own.baseUrl, apiKey: key }, 'GET', '/api/v1/scanners');
			const team = await list('dex_team_two');
			expect(team.headers.get('x-ratelimit-limit')).toBe('120');
			expect(team.body.scanners).toHaveLength(8);
			expect((await list('dex_bare')).body.scanners).toEqual([]);
			expect(own.accounts.byKey('dex_team_one')).toMatchObject({ id: 'team', monthlyPages: 200, templatesLimit: 100 });
		} finally {
			await own.stop();
		}
	});

	it('the admin endpoints answer loopback callers only', () => {
		const from = (remoteAddress: string) => ({ socket: { remoteAddress } }) as IncomingMessage;
		expect(isLoopback(from('127.0.0.1'))).toBe(true);
		expect(isLoopback(from('::ffff:127.0.0.1'))).toBe(true);
		expect(isLoopback(from('::1'))).toBe(true);
		expect(isLoopback(from('192.168.1.20'))).toBe(false);
	});

	it('a state file keeps accounts, templates and results across restarts', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
		const stateFile = join(folder, 'state.json');
		try {
			const first = await startSandbox({ timing: 'fast', stateFile });
			const own = { baseUrl: first.baseUrl, apiKey: first.demoKey };
			const scannerId = (await call(own, 'POST', '/api/v1/scanners', { json: { name: 'Persisted' } })).body.scanner_id;
			const resultId = (await call(own, 'POST', '/api/v1/process', { body: fileForm(await textPdf(), 'a.pdf', 'application/pdf') })).body.result_id;
			const extra = first.accounts.create({ plan: 'paid' });
			await first.stop();

			const second = await startSandbox({ timing: 'fast', stateFile });
			try {
				const again = { baseUrl: second.baseUrl, apiKey: second.demoKey };
				expect((await call(again, 'GET', `/api/v1/scanners/${scannerId}`)).body.name).toBe('Persisted');
				second.clock.advance(60_000);
				expect((await call(again, 'GET', `/api/v1/results/${resultId}`)).body.status).toBe('done');
				expect(second.accounts.get('demo')!.pagesUsed).toBe(1);
				expect(second.accounts.get(extra.id)!.plan).toBe('paid');
			} finally {
				await second.stop();
			}
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});

describe('CLI options', () => {
	const cwd = join(tmpdir(), 'a-clone');

	it('defaults to port 4010, realistic timing, the plan the state has (free when new) and ./sandbox-data', () => {
		expect(parseCliArgs([], cwd)).toStrictEqual({
			help: false,
			options: expect.objectContaining({
				port: 4010,
				demoAccount: { plan: undefined, monthlyPages: undefined },
				timing: undefined,
				stateFile: join(cwd, 'sandbox-data', 'state.json'),
			}),
		});
	});

	it('reads plan, pages, timing, host and faults', () => {
		const command = parseCliArgs(['--plan', 'paid', '--pages', '500', '--timing', '0.25', '--host', '0.0.0.0', '--fault-rate-500', '0.1', '--fault-latency', '20']);
		expect(command).toMatchObject({
			help: false,
			options: {
				host: '0.0.0.0',
				demoAccount: { plan: 'paid', monthlyPages: 500 },
				timing: 0.25,
				faults: { rates: { '*': { internalError: 0.1 } }, latencyMs: { '*': 20 } },
			},
		});
		expect(parseCliArgs(['--help'])).toStrictEqual({ help: true });
	});

	it('--data <folder> keeps the state in <folder>/state.json; --state <file> still names the file; --no-state keeps none', () => {
		const stateFile = (args: string[]) => {
			const command = parseCliArgs(args, cwd);
			return command.help ? 'help' : command.options.stateFile;
		};
		expect(stateFile(['--data', 'kept'])).toBe(join(cwd, 'kept', 'state.json'));
		expect(stateFile(['--data', '/srv/sandbox'])).toBe(join('/srv/sandbox', 'state.json'));
		expect(stateFile(['--state', 's.json'])).toBe(join(cwd, 's.json'));
		expect(stateFile(['--no-state'])).toBeUndefined();
	});

	it('refuses nonsense', () => {
		expect(() => parseCliArgs(['--plan', 'gold'])).toThrow(/free or paid/);
		expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/--port/);
		expect(() => parseCliArgs(['--unknown'])).toThrow();
		expect(() => parseCliArgs(['--no-state', '--data', 'x'])).toThrow('--data and --no-state do not go together: choose one');
		expect(() => parseCliArgs(['--data', 'x', '--state', 'y.json'])).toThrow(/do not go together/);
	});
});
