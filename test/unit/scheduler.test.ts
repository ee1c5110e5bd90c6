import { describe, expect, it } from 'vitest';

import { CompletionEstimator } from '../../nodes/shared/completionEstimate';
import { MIN_RESULT_READ_INTERVAL_MS } from '../../nodes/shared/limits';
import { RateBudget } from '../../nodes/shared/rateBudget';
import { pollResults, type PollOutcome, type PollTarget } from '../../nodes/shared/scheduler';
import type { Result } from '../../nodes/shared/schemas';
import { ExecutionCancelledError } from '../../nodes/shared/wait';
import { seededRandom } from '../sandbox/random';
import { FakeClock, FakeRateServer, sendThroughBudget } from './fakeTime';

interface Doc {
	queuedAt: number;
	finishAt: number;
	pages: number;
	/** Status once finished; default `done`. */
	final?: string;
	/** The read fails with this (after the transport's own retries), e.g. a 404. */
	failure?: Error;
}

/** The service in memory: documents finish at chosen times; every read is counted with its time. */
class FakeService {
	readonly docs = new Map<string, Doc>();
	readonly reads = new Map<string, number[]>();
	readonly server: FakeRateServer;
	readonly budget: RateBudget;

	constructor(
		readonly clock: FakeClock,
		limit = 60,
	) {
		this.server = new FakeRateServer(clock, limit);
		this.budget = new RateBudget(clock);
	}

	add(resultId: string, doc: Doc): PollTarget {
		this.docs.set(resultId, doc);
		return { id: this.docs.size - 1, resultId, pages: doc.pages, queuedAt: doc.queuedAt };
	}

	/** Stands in for the transport: waits on the budget, retries 429s, returns the state at arrival. */
	readonly readResult = async (resultId: string): Promise<Result> => {
		const doc = this.docs.get(resultId)!;
		let status = 'queued';
		await sendThroughBudget(this.clock, this.budget, this.server, {
			onArrival: () => {
				const now = this.clock.now();
				this.reads.set(resultId, [...(this.reads.get(resultId) ?? []), now]);
				status = now >= doc.finishAt ? (doc.final ?? 'done') : now >= doc.queuedAt + 1000 ? 'processing' : 'queued';
			},
		});
		if (doc.failure) throw doc.failure;
		return { result_id: resultId, status };
	};

	readCount(): number {
		return [...this.reads.values()].reduce((sum, times) => sum + times.length, 0);
	}

	/** Every result read at most once per 2 s (spec 4.4). */
	expectSpacing(): void {
		for (const times of this.reads.values()) {
			for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(MIN_RESULT_READ_INTERVAL_MS);
		}
	}
}

interface Emitted {
	target: PollTarget;
	outcome: PollOutcome;
	at: number;
}

async function poll(
	service: FakeService,
	targets: PollTarget[],
	options: { timeoutMs?: number; signal?: AbortSignal; estimator?: CompletionEstimator } = {},
): Promise<Emitted[]> {
	const emitted: Emitted[] = [];
	await pollResults(
		targets,
		{ timeoutMs: options.timeoutMs ?? 600_000, onOutcome: (target, outcome) => void emitted.push({ target, outcome, at: service.clock.now() }) },
		{
			readResult: service.readResult,
			budget: service.budget,
			now: service.clock.now,
			wait: service.clock.wait,
			signal: options.signal,
			estimator: options.estimator ?? new CompletionEstimator(),
		},
	);
	return emitted;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

describe('pollResults', () => {
	it('settles 120 targets exactly once each, never reading a result faster than every 2 s', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const random = seededRandom(1);
		const start = clock.now();
		const finals = ['done', 'done', 'done', 'rejected', 'error'];
		const targets = Array.from({ length: 120 }, (_, i) => {
			const pages = 1 + Math.floor(random() * 8);
			const queuedAt = start - Math.floor(random() * 5000);
			return service.add(`r-${i}`, { queuedAt, pages, finishAt: queuedAt + 2000 + random() * 40_000, final: finals[i % finals.length] });
		});
		// Two items carrying one result id: one set of reads, one outcome each.
		targets.push({ ...targets[0], id: 120 });

		const emitted = await clock.run(poll(service, targets));

		expect(emitted.map((e) => e.target.id).sort((a, b) => a - b)).toEqual(targets.map((t) => t.id));
		for (const { target, outcome, at } of emitted) {
			const doc = service.docs.get(target.resultId)!;
			expect(outcome).toEqual({ kind: 'settled', result: { result_id: target.resultId, status: doc.final } });
			expect(at).toBeGreaterThanOrEqual(doc.finishAt);
		}
		service.expectSpacing();
		expect(service.server.http429).toBe(0);
	});

	it('reports an unknown status at once instead of waiting for ever', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const start = clock.now();
		const odd = service.add('odd', { queuedAt: start, pages: 1, finishAt: start + 3000, final: 'archived' });
		const fine = service.add('fine', { queuedAt: start, pages: 1, finishAt: start + 3000 });

		const emitted = await clock.run(poll(service, [odd, fine], { timeoutMs: 300_000 }));

		const outcome = emitted.find((e) => e.target.resultId === 'odd')!;
		expect(outcome.outcome).toEqual({ kind: 'unknown-status', result: { result_id: 'odd', status: 'archived' } });
		expect(service.reads.get('odd')?.at(-1)).toBe(outcome.at - 50);
		expect(outcome.at - start).toBeLessThan(30_000);
	});

	it('times out with the last result seen, and still settles the others', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const start = clock.now();
		const stuck = service.add('stuck', { queuedAt: start, pages: 2, finishAt: Infinity });
		const quick = service.add('quick', { queuedAt: start, pages: 1, finishAt: start + 4000 });

		const emitted = await clock.run(poll(service, [stuck, quick], { timeoutMs: 30_000 }));

		const timedOut = emitted.find((e) => e.target.resultId === 'stuck')!;
		expect(timedOut.outcome).toEqual({ kind: 'timeout', result: { result_id: 'stuck', status: 'processing' } });
		expect(timedOut.at).toBeGreaterThanOrEqual(start + 30_000);
		expect(timedOut.at).toBeLessThan(start + 31_000);
		// The last look happened just before the deadline.
		expect(service.reads.get('stuck')!.at(-1)).toBeGreaterThan(start + 27_000);
		expect(emitted.find((e) => e.target.resultId === 'quick')?.outcome.kind).toBe('settled');
		service.expectSpacing();
	});

	it('isolates a failed read to its own target', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const start = clock.now();
		const notFound = new Error('RESULT_NOT_FOUND');
		const targets = [
			service.add('missing', { queuedAt: start, pages: 1, finishAt: start, failure: notFound }),
			...Array.from({ length: 5 }, (_, i) => service.add(`ok-${i}`, { queuedAt: start, pages: 2, finishAt: start + 5000 + i * 1000 })),
		];

		const emitted = await clock.run(poll(service, targets));

		expect(emitted).toHaveLength(6);
		expect(emitted.filter((e) => e.target.resultId === 'missing').map((e) => e.outcome)).toEqual([{ kind: 'failed', error: notFound }]);
		expect(service.reads.get('missing')).toHaveLength(1);
		expect(emitted.filter((e) => e.outcome.kind === 'settled')).toHaveLength(5);
	});

	it('stops at once when the execution is cancelled: rejects, no read after the cancel', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const start = clock.now();
		const targets = Array.from({ length: 30 }, (_, i) => service.add(`long-${i}`, { queuedAt: start, pages: 3, finishAt: start + 120_000 }));
		const controller = new AbortController();
		const emitted: Emitted[] = [];
		let cancelledAt = 0;

		const outcome = await clock.run(
			Promise.allSettled([
				pollResults(
					targets,
					{ timeoutMs: 600_000, onOutcome: (target, o) => void emitted.push({ target, outcome: o, at: clock.now() }) },
					{ readResult: service.readResult, budget: service.budget, now: clock.now, wait: clock.wait, signal: controller.signal, estimator: new CompletionEstimator() },
				).finally(() => (cancelledAt = clock.now() - cancelledAt)),
				(async () => {
					await clock.wait(25_000);
					cancelledAt = clock.now();
					controller.abort();
				})(),
			]),
		);

		expect(outcome[0].status).toBe('rejected');
		expect((outcome[0] as PromiseRejectedResult).reason).toBeInstanceOf(ExecutionCancelledError);
		// Rejected without any simulated time passing after the abort.
		expect(cancelledAt).toBe(0);
		expect(service.readCount()).toBeGreaterThan(0);
		const lastRead = Math.max(...[...service.reads.values()].flat());
		expect(lastRead).toBeLessThanOrEqual(start + 25_000);
		// Let simulated time run on: nothing more is read.
		const readsAtCancel = service.readCount();
		await clock.run(clock.wait(120_000));
		expect(service.readCount()).toBe(readsAtCancel);
		expect(emitted).toHaveLength(0);
	});

	it('spreads reads inside the per-minute budget and lets no target starve', async () => {
		// Starts at the beginning of the server's window, so "the first 10 s" are 10 s of the window.
		const clock = new FakeClock(1_700_000_040_000);
		const service = new FakeService(clock, 60);
		const start = clock.now();
		// 150 documents finished long ago: all due at once, far more than one window allows.
		const targets = Array.from({ length: 150 }, (_, i) => service.add(`old-${i}`, { queuedAt: start - 300_000 + i * 100, pages: 1 + (i % 5), finishAt: start - 200_000 }));

		const emitted = await clock.run(poll(service, targets));

		expect(service.server.http429).toBe(0);
		for (const count of service.server.perWindow.values()) expect(count).toBeLessThanOrEqual(60);
		// Not the whole window in one burst: a quarter at once, the rest spread.
		const reads = [...service.reads.values()].flat();
		expect(reads.filter((t) => t < start + 10_000).length).toBeLessThanOrEqual(15 + 10 + 4);
		// One read each, and every document out within the time the budget needs for all of them.
		expect(service.readCount()).toBe(150);
		expect(emitted).toHaveLength(150);
		const windowsNeeded = Math.ceil(150 / 59);
		for (const { at } of emitted) expect(at - start).toBeLessThanOrEqual(windowsNeeded * 60_000 + 5_000);
	});

	it('learns completion times: about one read per document and a short emission delay', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock, 60);
		const random = seededRandom(7);
		// Hidden from the scheduler: 2 s + 1.2 s per page, +-10 %, unlike its prior (4 s + 2.5 s).
		const secondsPerPage = 1.2;
		const documents = 60;
		const estimator = new CompletionEstimator();
		const outcomes: Array<{ resultId: string; emittedAt: number }> = [];

		// As the bench runs it: one document every 2.2 s (the 60/min budget allows an upload and a
		// read per 2 s), each uploaded then polled, all executions sharing one key.
		const executions = Array.from({ length: documents }, async (_, i) => {
			await clock.wait(i * 2200);
			const pages = 1 + Math.floor(random() * 6);
			await sendThroughBudget(clock, service.budget, service.server);
			const queuedAt = clock.now();
			const duration = (2000 + secondsPerPage * 1000 * pages) * (0.9 + 0.2 * random());
			const target = service.add(`doc-${i}`, { queuedAt, pages, finishAt: queuedAt + duration });
			const emitted = await poll(service, [target], { estimator });
			outcomes.push({ resultId: target.resultId, emittedAt: emitted[0].at });
		});
		await clock.run(Promise.all(executions));

		const learnt = outcomes.filter(({ resultId }) => Number(resultId.slice(4)) >= 10);
		const readsPerDoc = learnt.reduce((sum, { resultId }) => sum + service.reads.get(resultId)!.length, 0) / learnt.length;
		const delays = learnt.map(({ resultId, emittedAt }) => emittedAt - service.docs.get(resultId)!.finishAt);
		expect(readsPerDoc).toBeLessThanOrEqual(1.3);
		expect(median(delays)).toBeLessThanOrEqual(2500);
		expect(service.readCount() / documents).toBeLessThanOrEqual(1.4);
		expect(service.server.http429).toBe(0);
		service.expectSpacing();
	});
});
