import { describe, expect, it } from 'vitest';

import { CompletionEstimator } from '../../nodes/shared/waiting/completionEstimate';
import { MIN_RESULT_READ_INTERVAL_MS } from '../../nodes/shared/limits';
import { RateBudget } from '../../nodes/shared/http/rateBudget';
import { pollResults, type PollOutcome, type PollTarget } from '../../nodes/shared/waiting/scheduler';
import { WakeUp } from '../../nodes/shared/waiting/wakeUp';
import type { Result } from '../../nodes/shared/schemas';
import { ExecutionCancelledError } from '../../nodes/shared/wait';
import { seededRandom } from '../../sandbox/src/random';
import { FakeClock, FakeRateServer, sendThroughBudget } from '../harness/fakeTime';

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

	/** Stands in for the transport: waits on the budget (cancellable, as the transport's), retries 429s, returns the state at arrival. */
	readonly readResult = async (resultId: string, signal?: AbortSignal): Promise<Result> => {
		const doc = this.docs.get(resultId)!;
		let status = 'queued';
		await sendThroughBudget(this.clock, this.budget, this.server, {
			signal,
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

interface SaturatedRun {
	service: FakeService;
	uploads: number;
	wallMs: number;
	/** From each document's completion to its outcome. */
	delays: number[];
}

const requestsOf = (service: FakeService) => [...service.server.perWindow.values()].reduce((sum, count) => sum + count, 0);

/**
 * As the bench runs it: 60 documents in batches of 10 uploaded, then polled, one batch after
 * another, on one free-plan key (60 requests a minute), from the start of the server's window;
 * durations hidden from the scheduler: 4 s + 2.5 s per page, +-15 % (the sandbox's model).
 */
async function saturatedRun(seed: number): Promise<SaturatedRun> {
	const clock = new FakeClock(1_700_000_040_000);
	const service = new FakeService(clock, 60);
	const random = seededRandom(seed);
	const estimator = new CompletionEstimator();
	const delays: number[] = [];
	let uploads = 0;
	const start = clock.now();
	const loop = async () => {
		for (let batch = 0; batch < 6; batch++) {
			const targets: PollTarget[] = [];
			for (let i = 0; i < 10; i++) {
				const pages = [1, 3, 1, 1, 2, 1][i % 6];
				let queuedAt = 0;
				await sendThroughBudget(clock, service.budget, service.server, {
					onArrival: () => {
						queuedAt = clock.now();
						uploads += 1;
					},
				});
				targets.push(service.add(`b${batch}-${i}`, { queuedAt, pages, finishAt: queuedAt + (4000 + 2500 * pages) * (0.85 + 0.3 * random()) }));
			}
			for (const { target, at } of await poll(service, targets, { estimator })) delays.push(at - service.docs.get(target.resultId)!.finishAt);
		}
	};
	await clock.run(loop());
	return { service, uploads, wallMs: clock.now() - start, delays };
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
		expect(outcome.outcome).toEqual({ kind: 'settled', result: { result_id: 'odd', status: 'archived' } });
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
					{ readResult: (id) => service.readResult(id, controller.signal), budget: service.budget, now: clock.now, wait: clock.wait, signal: controller.signal, estimator: new CompletionEstimator() },
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

	it('reads finished documents as fast as the budget allows, once each, and lets another execution upload in between', async () => {
		// Starts at the beginning of the server's window.
		const clock = new FakeClock(1_700_000_040_000);
		const service = new FakeService(clock, 60);
		const start = clock.now();
		// 150 documents finished long ago: all due at once, far more than one window allows.
		const targets = Array.from({ length: 150 }, (_, i) => service.add(`old-${i}`, { queuedAt: start - 300_000 + i * 100, pages: 1 + (i % 5), finishAt: start - 200_000 }));
		// Another execution on the same key uploads while the reads run: it waits its turn, not the window.
		const uploads: number[] = [];
		const uploader = (async () => {
			await clock.wait(5_000);
			for (let i = 0; i < 3; i++) await sendThroughBudget(clock, service.budget, service.server, { onArrival: () => uploads.push(clock.now()) });
		})();

		const [emitted] = await clock.run(Promise.all([poll(service, targets), uploader]));

		expect(service.server.http429).toBe(0);
		for (const count of service.server.perWindow.values()) expect(count).toBeLessThanOrEqual(60);
		expect(service.readCount()).toBe(150);
		expect(emitted).toHaveLength(150);
		// Each window is spent on reads of finished documents at once (59 = the limit minus the margin)...
		const reads = [...service.reads.values()].flat();
		expect(reads.filter((t) => t < start + 60_000).length).toBe(59 - uploads.filter((t) => t < start + 60_000).length);
		// ...yet the other execution's uploads wait only behind the reads already in line (4 at most).
		expect(uploads).toHaveLength(3);
		uploads.forEach((at, i) => {
			const since = i === 0 ? start + 5_000 : uploads[i - 1];
			expect(reads.filter((t) => t > since && t < at).length).toBeLessThanOrEqual(4);
		});
		// Every document out within the time the budget needs for all of them.
		const windowsNeeded = Math.ceil((150 + 3) / 59);
		for (const { at } of emitted) expect(at - start).toBeLessThanOrEqual((windowsNeeded - 1) * 60_000 + 5_000);
	});

	it('idle key: a document done when expected is seen within about 2 s, reads every 2-3 s after the first', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock, 60);
		const start = clock.now();
		// The prior expects a 1-page document after about 6.5 s (4 s + 2.5 s per page).
		const quick = service.add('quick', { queuedAt: start, pages: 1, finishAt: start + 6_500 });

		const [emitted] = await clock.run(poll(service, [quick]));

		expect(emitted.outcome.kind).toBe('settled');
		expect(emitted.at - (start + 6_500)).toBeLessThanOrEqual(2_500);
		const reads = service.reads.get('quick')!;
		expect(reads[0] - start).toBeLessThanOrEqual(8_000);
		expect(reads.length).toBeLessThanOrEqual(2);

		// A document slower than the estimate is read at the spec's cadence while the key has room.
		const slow = service.add('slow', { queuedAt: clock.now(), pages: 1, finishAt: clock.now() + 30_000 });
		const [late] = await clock.run(poll(service, [slow]));
		const slowReads = service.reads.get('slow')!;
		for (let i = 1; i < slowReads.length; i++) {
			// 2-3 s from one answer to the next request; arrivals also differ by the 100 ms round trip.
			expect(slowReads[i] - slowReads[i - 1]).toBeGreaterThanOrEqual(MIN_RESULT_READ_INTERVAL_MS);
			expect(slowReads[i] - slowReads[i - 1]).toBeLessThanOrEqual(3_100);
		}
		expect(late.at - slow.queuedAt! - 30_000).toBeLessThanOrEqual(3_100);
		service.expectSpacing();
	});

	it('idle key, one document after another: once a few are seen, about 1.2 reads each, seen about a second after done', async () => {
		// As one invoice after another through Wait for Result: durations hidden from the scheduler,
		// 4 s + 2.5 s per page, +-15 % (the sandbox's model); what it learns is shared, as per key.
		const clock = new FakeClock(1_700_000_040_000);
		const service = new FakeService(clock, 60);
		const random = seededRandom(11);
		const estimator = new CompletionEstimator();
		const delays: number[] = [];
		for (let i = 0; i < 40; i++) {
			const pages = [1, 1, 1, 1, 2, 3][i % 6];
			const queuedAt = clock.now();
			const target = service.add(`one-${i}`, { queuedAt, pages, finishAt: queuedAt + (4000 + 2500 * pages) * (0.85 + 0.3 * random()) });
			const [emitted] = await clock.run(poll(service, [target], { estimator }));
			delays.push(emitted.at - service.docs.get(target.resultId)!.finishAt);
			await clock.run(clock.wait(2_000));
		}
		const readsAfterTheFirstFive = [...service.reads.entries()].filter(([id]) => Number(id.split('-')[1]) >= 5).reduce((sum, [, times]) => sum + times.length, 0);
		expect(readsAfterTheFirstFive / 35).toBeLessThanOrEqual(1.3);
		// The targets for one document alone: p50 <= 1.5 s, p95 <= 3 s.
		expect(median(delays)).toBeLessThanOrEqual(1_500);
		expect([...delays].sort((a, b) => a - b)[Math.floor(0.95 * delays.length) - 1]).toBeLessThanOrEqual(3_000);
		expect(service.server.http429).toBe(0);
		service.expectSpacing();
	});

	it('one document seen done at its first read does not move the estimate much: it is an upper bound only', () => {
		const estimator = new CompletionEstimator();
		const before = estimator.quantileMs(1, 0.5);
		estimator.record(1, 0, 7_500);
		estimator.fit();
		expect(estimator.quantileMs(1, 0.5)).toBeGreaterThan(0.85 * before);
	});

	it('learns a service faster than typical from documents found done (upper bounds only), and a slower one from documents found pending', () => {
		const typical = new CompletionEstimator().quantileMs(1, 0.5);
		const faster = new CompletionEstimator();
		// Each read finds the document done: it was done by then, nothing more is known.
		for (let i = 0; i < 20; i++) faster.record(1, 0, 0.6 * typical);
		faster.fit();
		expect(faster.quantileMs(1, 0.5)).toBeLessThan(0.7 * typical);
		const slower = new CompletionEstimator();
		for (let i = 0; i < 20; i++) slower.record(1, 1.6 * typical, 1.9 * typical);
		slower.fit();
		expect(slower.quantileMs(1, 0.5)).toBeGreaterThan(1.5 * typical);
		expect(slower.quantileMs(1, 0.5)).toBeLessThan(1.9 * typical);
	});

	it('adds no listener per document to one signal: 30 documents print no MaxListenersExceededWarning in n8n\'s log', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const start = clock.now();
		const targets = Array.from({ length: 30 }, (_, i) => service.add(`w-${i}`, { queuedAt: start, pages: 1 + (i % 3), finishAt: start + 5_000 + i * 700 }));
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		process.on('warning', onWarning);
		try {
			const emitted = await clock.run(poll(service, targets, { signal: new AbortController().signal }));
			expect(emitted).toHaveLength(30);
			await new Promise((resolve) => setImmediate(resolve));
		} finally {
			process.off('warning', onWarning);
		}
		expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
	});

	it('stops every read when an outcome cannot be handed on, and rejects with that error', async () => {
		const clock = new FakeClock();
		const service = new FakeService(clock);
		const start = clock.now();
		const targets = Array.from({ length: 6 }, (_, i) => service.add(`h-${i}`, { queuedAt: start, pages: 1, finishAt: start + 4_000 + i * 3_000 }));
		const failure = new Error('the item sink broke');
		const handed: string[] = [];
		let failedAt = 0;
		const run = pollResults(
			targets,
			{
				timeoutMs: 600_000,
				onOutcome: (target) => {
					handed.push(target.resultId);
					failedAt = clock.now();
					throw failure;
				},
			},
			{ readResult: service.readResult, budget: service.budget, now: clock.now, wait: clock.wait, estimator: new CompletionEstimator() },
		);
		await expect(clock.run(run)).rejects.toBe(failure);
		expect(handed).toEqual(['h-0']);
		await clock.run(clock.wait(60_000));
		// A read already on its way still arrives (half the 100 ms round trip); none starts after.
		expect(Math.max(...[...service.reads.values()].flat())).toBeLessThanOrEqual(failedAt + 50);
		expect(service.readCount()).toBeLessThan(12);
	});

	it('busy key: the same documents cost about one read each, where the idle key may spend a second one for a quicker answer', async () => {
		const readsPerDocument = async (busy: boolean) => {
			const clock = new FakeClock(1_700_000_040_000);
			const service = new FakeService(clock, 60);
			const start = clock.now();
			// Another client has used most of this window: the headers of the first answer say so.
			if (busy) for (let i = 0; i < 45; i++) service.server.handle();
			const targets = Array.from({ length: 6 }, (_, i) => service.add(`d-${i}`, { queuedAt: start, pages: 1 + (i % 3), finishAt: start + 5_000 + 2_500 * (i % 3) + 300 * i }));
			await clock.run(poll(service, targets));
			service.expectSpacing();
			expect(service.server.http429).toBe(0);
			return service.readCount() / targets.length;
		};
		const idle = await readsPerDocument(false);
		const busy = await readsPerDocument(true);
		expect(idle).toBeLessThanOrEqual(2);
		expect(busy).toBeLessThanOrEqual(1.34);
		expect(busy).toBeLessThanOrEqual(idle);
	});

	it('key shared with another worker: its demand counts too, so first reads wait for the document instead of finding it pending', async () => {
		// Three one-page documents late in the sandbox's spread (1.18x the typical 6.5 s). Alone, the
		// key looks plentiful for three documents and the first read comes at about 1.15x: each is
		// found pending once. Beside another worker sending as much as this one (its requests seen in
		// the headers), the same window is shorter for this worker's reads: read at about 1.2x, once.
		const pendingReads = async (shared: boolean) => {
			const clock = new FakeClock(1_700_000_040_000);
			const service = new FakeService(clock, 60);
			for (let i = 0; i < 10; i++) {
				await clock.run(sendThroughBudget(clock, service.budget, service.server));
				if (shared) service.server.handle();
			}
			const start = clock.now();
			const targets = Array.from({ length: 3 }, (_, i) => service.add(`d-${i}`, { queuedAt: start, pages: 1, finishAt: start + 6_500 * 1.18 + 10 * i }));
			await clock.run(poll(service, targets));
			expect(service.server.http429).toBe(0);
			return targets.reduce((sum, target) => sum + (service.reads.get(target.resultId) ?? []).filter((at) => at < service.docs.get(target.resultId)!.finishAt).length, 0);
		};
		expect(await pendingReads(false)).toBe(3);
		expect(await pendingReads(true)).toBe(0);
	});

	it('key nearly spent and shared with another worker: first reads wait until the documents are surely done', async () => {
		// Queue mode with the key the bottleneck: 20 requests of the minute left, the other worker
		// sending as many as this one. A read that finds a document pending takes a request the
		// others' uploads wait for, so it is priced high: three one-page documents late (1.25x the
		// typical 6.5 s) are each read once, at about 1.5x. Before, each was read at about 1.2x and
		// found pending once.
		const clock = new FakeClock(1_700_000_040_000);
		const service = new FakeService(clock, 60);
		for (let i = 0; i < 10; i++) {
			await clock.run(sendThroughBudget(clock, service.budget, service.server));
			service.server.handle();
		}
		for (let i = 0; i < 20; i++) service.server.handle();
		await clock.run(sendThroughBudget(clock, service.budget, service.server));
		const start = clock.now();
		const targets = Array.from({ length: 3 }, (_, i) => service.add(`d-${i}`, { queuedAt: start, pages: 1, finishAt: start + 6_500 * 1.25 + 10 * i }));
		await clock.run(poll(service, targets));
		expect(service.server.http429).toBe(0);
		const pendingReads = targets.reduce((sum, target) => sum + (service.reads.get(target.resultId) ?? []).filter((at) => at < service.docs.get(target.resultId)!.finishAt).length, 0);
		expect(pendingReads).toBe(0);
		expect(targets.every((target) => service.reads.get(target.resultId)?.length === 1)).toBe(true);
	});

	it('hears a read that answers while an outcome is still being handed on (no wake-up lost)', async () => {
		// Two documents never done, 3 s to wait: both are first read at the last look (1 ms before the
		// deadline). One answer comes at once: that document times out, and handing that on takes 5 s
		// (onOutcome awaits). The other read answers meanwhile; the planner must still hear it and
		// time that document out too, not sleep for ever.
		const clock = new FakeClock();
		const start = clock.now();
		const latency: Record<string, number> = { quick: 100, slow: 5_000 };
		const emitted: Emitted[] = [];
		const run = pollResults(
			[
				{ id: 0, resultId: 'quick', pages: 1, queuedAt: start },
				{ id: 1, resultId: 'slow', pages: 1, queuedAt: start },
			],
			{
				timeoutMs: 3_000,
				onOutcome: async (target, outcome) => {
					emitted.push({ target, outcome, at: clock.now() });
					if (target.resultId === 'quick') await clock.wait(5_000);
				},
			},
			{
				readResult: async (resultId) => {
					await clock.wait(latency[resultId]);
					return { result_id: resultId, status: 'processing' };
				},
				budget: new RateBudget(clock),
				now: clock.now,
				wait: clock.wait,
				estimator: new CompletionEstimator(),
			},
		);

		await clock.run(run);

		expect(emitted.map(({ target, outcome, at }) => [target.resultId, outcome.kind, at - start])).toEqual([
			['quick', 'timeout', 3_099],
			['slow', 'timeout', 8_099],
		]);
	});

	it('saturated key: 60 documents through one upload-then-poll loop cost about 2 requests each, with no 429', async () => {
		// Seeds 1 to 20, fixed: simulated time and seeded durations make every figure below exact.
		// One seed is one draw (each of 300 seeds costs 124 to 131 requests for the same policy),
		// so the bounds are on the 20 runs pooled, plus what holds in every run.
		const runs: SaturatedRun[] = [];
		for (let seed = 1; seed <= 20; seed++) runs.push(await saturatedRun(seed));

		for (const { service, uploads } of runs) {
			expect(service.server.http429).toBe(0);
			// Every request is one of the 60 uploads or a read: nothing is sent twice or retried.
			expect(uploads).toBe(60);
			expect(requestsOf(service)).toBe(uploads + service.readCount());
			// Each document is read until seen done, and read again only after a read found it
			// pending (rule 2): its reads but the last came before it was done, the last after.
			for (const [resultId, doc] of service.docs) {
				const reads = service.reads.get(resultId) ?? [];
				expect(reads.length, resultId).toBeGreaterThanOrEqual(1);
				expect(reads.slice(0, -1).filter((at) => at >= doc.finishAt), `${resultId} read again after it was seen done`).toEqual([]);
				expect(reads.at(-1), resultId).toBeGreaterThanOrEqual(doc.finishAt);
			}
			service.expectSpacing();
		}

		// One upload and one read per document are the floor: 2 requests. The policy's extra reads
		// are first reads that came too early. Seeds 1-20 pooled: 2536 requests, 2.113 per document
		// (2.115 over seeds 1-300). The same seeds cost 2.183 with no read price (READ_PRICE_MS 0)
		// and 2.211 with no extra price on a short key (SHORT_KEY_PRICE_MS 0): 2.15 lies between.
		const perDocument = runs.reduce((sum, { service }) => sum + requestsOf(service), 0) / (60 * runs.length);
		expect(perDocument).toBeLessThanOrEqual(2.15);
		// The targets for this batch (docs/benchmark.md): at least 95 % of the documents per
		// minute the budget allows at 2 requests each (30), and a median delay of at most 1.5 s.
		// Seeds 1-20 pooled: 29.4 a minute, median 1.40 s (an estimator that never learns: 1.67 s).
		const minutes = runs.reduce((sum, { wallMs }) => sum + wallMs, 0) / 60_000;
		expect((60 * runs.length) / minutes).toBeGreaterThanOrEqual(0.95 * 30);
		expect(median(runs.flatMap(({ delays }) => delays))).toBeLessThanOrEqual(1_500);
	});
});

describe('WakeUp', () => {
	/** A wait that only records its calls; each can be ended by hand. */
	const recordingWait = () => {
		const calls: Array<{ ms: number; signal?: AbortSignal; end: () => void }> = [];
		const wait = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => calls.push({ ms, signal, end: resolve }));
		return { calls, wait };
	};

	it('sleeps until the timer ends, through the injected wait', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const wakeUp = new WakeUp(clock.wait);
		await clock.run(wakeUp.sleep(1_500));
		expect(clock.now()).toBe(start + 1_500);
	});

	it('ends a sleep at once when woken, and stops its timer', async () => {
		const { calls, wait } = recordingWait();
		const wakeUp = new WakeUp(wait);
		const sleeping = wakeUp.sleep(60_000);
		expect(calls).toHaveLength(1);
		expect(calls[0].ms).toBe(60_000);
		wakeUp.wake();
		await sleeping;
		expect(calls[0].signal?.aborted).toBe(true);
	});

	it('keeps a wake that comes while nobody sleeps: the next sleep returns at once, the one after sleeps again', async () => {
		const { calls, wait } = recordingWait();
		const wakeUp = new WakeUp(wait);
		wakeUp.wake();
		wakeUp.wake();
		await wakeUp.sleep(60_000);
		expect(calls).toHaveLength(0);
		// Two wakes before one sleep are one: the next sleep waits for its timer.
		let ended = false;
		const sleeping = wakeUp.sleep(1_000).then(() => (ended = true));
		await Promise.resolve();
		expect(ended).toBe(false);
		calls[0].end();
		await sleeping;
		expect(ended).toBe(true);
	});

	it('sleeps without a timer when no time is given (Infinity), until woken', async () => {
		const { calls, wait } = recordingWait();
		const wakeUp = new WakeUp(wait);
		const sleeping = wakeUp.sleep(Infinity);
		expect(calls).toHaveLength(0);
		wakeUp.wake();
		await sleeping;
	});

	it('a stopped timer ends nothing more: the next sleep is not cut short by it', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const wakeUp = new WakeUp(clock.wait);
		const first = wakeUp.sleep(10_000);
		wakeUp.wake();
		await first;
		await clock.run(wakeUp.sleep(2_000));
		expect(clock.now()).toBe(start + 2_000);
	});
});
