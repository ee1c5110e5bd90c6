import { describe, expect, it } from 'vitest';

import { MAX_RATE_LIMIT_BLOCK_MS, RateBudget, rateBudgetFor, sharedKeyMargin } from '../../nodes/shared/http/rateBudget';
import { ExecutionCancelledError } from '../../nodes/shared/wait';
import { FakeClock, FakeRateServer, headersAsN8nGivesThem, sendThroughBudget } from '../harness/fakeTime';
import { RateLimiter } from '../../sandbox/src/rateLimit';

const headers = (limit: number, remaining: number, resetSeconds: number) => ({
	'x-ratelimit-limit': String(limit),
	'x-ratelimit-remaining': String(remaining),
	'x-ratelimit-reset': String(resetSeconds),
});

/** Acquires `count` requests one after another and returns the simulated time of each. */
async function acquireTimes(clock: FakeClock, budget: RateBudget, count: number): Promise<number[]> {
	const times: number[] = [];
	await clock.run(
		(async () => {
			for (let i = 0; i < count; i++) {
				await budget.acquire(undefined, clock.wait);
				times.push(clock.now());
			}
		})(),
	);
	return times;
}

describe('RateBudget', () => {
	it('assumes the free plan and a fresh window before any header, leaving one request as margin', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		expect(budget.snapshot()).toMatchObject({ limit: 60, remaining: 59 });

		const start = clock.now();
		const times = await acquireTimes(clock, budget, 61);
		expect(times.slice(0, 59).every((t) => t === start)).toBe(true);
		// The 60th waits for the next window: the margin is kept, the window is not exceeded.
		expect(times[59]).toBe(start + 60_000);
		expect(times[60]).toBe(start + 60_000);
	});

	it('takes the server numbers as the truth, minus its own requests still in flight', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		await acquireTimes(clock, budget, 3);
		// The answer to the first request; the server has also counted the second one already.
		budget.observe(headers(60, 58, 50));
		// min(local 57, server 58 - 2 still in flight) = 56, minus the margin of 1.
		expect(budget.snapshot()).toMatchObject({ limit: 60, remaining: 55, resetAt: clock.now() + 51_000 });
	});

	it('leaves a wider margin once the headers show another worker using the key', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		await acquireTimes(clock, budget, 3);
		// 41 counted by the server, only 3 sent from here: someone else shares the key.
		budget.observe(headers(60, 19, 50));
		expect(budget.snapshot().remaining).toBe(19 - 2 - sharedKeyMargin(1));

		// An older answer arriving late (more remaining) cannot raise the count in the same window.
		budget.observe(headers(60, 25, 50));
		expect(budget.snapshot().remaining).toBe(19 - 2 - sharedKeyMargin(1));
	});

	it('waits for the end of the window the server announced when its remaining runs out', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		await acquireTimes(clock, budget, 58);
		for (let answered = 1; answered <= 58; answered++) budget.observe(headers(60, 60 - answered, 10));
		const start = clock.now();
		const times = await acquireTimes(clock, budget, 3);
		// Remaining 2 minus the margin of 1 leaves one request; then the window (10 s, +1 s for rounding).
		expect(times).toEqual([start, start + 11_000, start + 11_000]);
	});

	it('replaces its guessed end of the window with the server\'s first Reset, even a later one; after that keeps the earliest', async () => {
		const start = 1_700_000_000_000;
		let now = start;
		const budget = new RateBudget({ now: () => now });
		await budget.acquire();
		await budget.acquire();
		// The first request opened a guessed window ending a minute from now; the server's began later.
		now = start + 5_000;
		budget.observe(headers(60, 59, 58));
		expect(budget.snapshot().resetAt).toBe(start + 5_000 + 59_000);
		// A second answer about the same window announcing a later end does not move it.
		now = start + 6_000;
		budget.observe(headers(60, 58, 58));
		expect(budget.snapshot().resetAt).toBe(start + 5_000 + 59_000);
	});

	it('adopts a paid plan limit at once', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		await acquireTimes(clock, budget, 1);
		budget.observe(headers(120, 119, 30));
		expect(budget.snapshot()).toMatchObject({ limit: 120, remaining: 118 });
	});

	it('ignores missing and garbage headers', () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		const before = budget.snapshot();
		budget.observe({});
		budget.observe({ 'x-ratelimit-limit': 'abc', 'x-ratelimit-remaining': '-3', 'x-ratelimit-reset': '1e9' });
		budget.observe({ 'x-ratelimit-remaining': { value: 1 }, 'x-ratelimit-limit': '0' });
		expect(budget.snapshot()).toEqual(before);
	});

	it('sends nothing before Retry-After has elapsed, bounded to a minute', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		const start = clock.now();
		budget.blockFor(7_000);
		// The window counts as spent until then: the scheduler sees no request to spare.
		expect(budget.snapshot().remaining).toBe(0);
		const [first] = await acquireTimes(clock, budget, 1);
		expect(first).toBe(start + 7_000);

		const blockedAt = clock.now();
		budget.blockFor(3_600_000);
		const [next] = await acquireTimes(clock, budget, 1);
		expect(next).toBe(blockedAt + MAX_RATE_LIMIT_BLOCK_MS);
	});

	it('serialises concurrent acquires so they never over-reserve', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		const start = clock.now();
		const times: number[] = [];
		await clock.run(
			Promise.all(
				Array.from({ length: 130 }, async () => {
					await budget.acquire(undefined, clock.wait);
					times.push(clock.now());
				}),
			),
		);
		expect(times.filter((t) => t < start + 60_000)).toHaveLength(59);
		expect(times.filter((t) => t >= start + 60_000 && t < start + 120_000)).toHaveLength(59);
		expect(times).toHaveLength(130);
	});

	it('stops waiting at once when the execution is cancelled, and later callers are not blocked by it', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		budget.observe(headers(60, 1, 40));
		const controller = new AbortController();
		const waiting = budget.acquire(controller.signal, clock.wait);
		const queued = budget.acquire(controller.signal, clock.wait);
		const cancelledAt = clock.now() + 5_000;
		const run = clock.run(
			(async () => {
				await clock.wait(5_000);
				controller.abort();
				const outcomes = await Promise.allSettled([waiting, queued]);
				return { outcomes, at: clock.now() };
			})(),
		);
		const { outcomes, at } = await run;
		expect(at).toBe(cancelledAt);
		for (const outcome of outcomes) {
			expect(outcome.status).toBe('rejected');
			expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ExecutionCancelledError);
		}
		// Nothing was reserved by the cancelled callers: the next one gets the new window's first slot.
		const [next] = await acquireTimes(clock, budget, 1);
		expect(next).toBe(cancelledAt - 5_000 + 41_000);
	});

	it('provokes no 429 from a server that enforces the window (one worker, 4 requests in flight)', async () => {
		const clock = new FakeClock();
		const server = new FakeRateServer(clock, 60);
		const budget = new RateBudget(clock);
		const start = clock.now();
		const lanes = Array.from({ length: 4 }, async () => {
			for (let i = 0; i < 75; i++) await sendThroughBudget(clock, budget, server, { latencyMs: 150 });
		});
		await clock.run(Promise.all(lanes));
		expect(server.http429).toBe(0);
		// 300 requests at 60/min: only the margin and the rounding of the reset separate us from the bound.
		expect(clock.now() - start).toBeLessThan(5 * 60_000 + 10_000);
	});

	it('stays within the limit when two workers share one key and see each other only through the headers', async () => {
		const clock = new FakeClock();
		const server = new FakeRateServer(clock, 60);
		const workers = [new RateBudget(clock), new RateBudget(clock)];
		const lanes = workers.flatMap((budget) =>
			Array.from({ length: 2 }, async () => {
				for (let i = 0; i < 60; i++) await sendThroughBudget(clock, budget, server, { latencyMs: 200 });
			}),
		);
		await clock.run(Promise.all(lanes));
		// Honest bound: a worker cannot see the other's requests in flight, so a collision on the
		// last requests of a window stays possible; once the headers show the key is shared, the
		// wider margin makes it rare. In this run (2 workers x 2 lanes, 240 requests, 4 windows) the
		// first window's burst is the risky part: it measures 0 with the shared-key margin and 3
		// without it.
		expect(server.http429).toBeLessThanOrEqual(1);
		for (const count of server.perWindow.values()) expect(count).toBeLessThanOrEqual(60);
	});
});

describe('requests in flight on a shared key', () => {
	/** Workers with `lanes` requests each in flight at a time (concurrent executions), against the sandbox's limiter. */
	async function shareOneKey(workerCount: number, lanes: number) {
		const clock = new FakeClock();
		const limiter = new RateLimiter(clock.now);
		let seed = 7;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const latency = () => 25 + random() * 200;
		const workers = Array.from({ length: workerCount }, () => new RateBudget(clock));
		const start = clock.now();
		let http429 = 0;
		const lane = async (budget: RateBudget) => {
			// Executions start as their triggers fire, within the first seconds.
			await clock.wait(random() * 3_000);
			for (let sent = 0; sent < 600 / workerCount / lanes; ) {
				await budget.acquire(undefined, clock.wait);
				await clock.wait(latency());
				const decision = limiter.consume('key', 60);
				await clock.wait(latency());
				budget.observe(headersAsN8nGivesThem(RateLimiter.headers(decision)));
				if (decision.allowed) sent += 1;
				else {
					http429 += 1;
					budget.blockFor(decision.resetSeconds * 1000);
				}
			}
		};
		await clock.run(Promise.all(workers.flatMap((budget) => Array.from({ length: lanes }, () => lane(budget)))));
		return { http429, minutes: (clock.now() - start) / 60_000 };
	}

	it('are capped at half a share of what the window has left, so workers with many waiting never spend the same last requests', async () => {
		// Before the cap, in this order: 19, 85, 65 and 285 429s (10 lanes: n8n's default concurrency).
		for (const [workerCount, lanes] of [[2, 10], [3, 10], [2, 30], [3, 30]]) {
			const { http429, minutes } = await shareOneKey(workerCount, lanes);
			expect({ workerCount, lanes, http429 }).toEqual({ workerCount, lanes, http429: 0 });
			// 600 requests at 60 a minute: the cap costs little of the bound.
			expect(minutes).toBeLessThan(11.2);
		}
	});

	it('frees the place of a request that got no answer (a network failure) at once, not a minute later', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		// 52 counted by the server, 1 of them ours: shared; 8 left, of which 1 may be in flight.
		await acquireTimes(clock, budget, 1);
		budget.observe(headers(60, 8, 40));
		const [sentAt] = await acquireTimes(clock, budget, 1);
		// That request's connection was reset: no answer will come.
		budget.settleWithoutAnswer();
		expect(await acquireTimes(clock, budget, 1)).toEqual([sentAt]);
	});

	it('a caller waiting for an answer stops at once when its execution is cancelled', async () => {
		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		// 40 counted by the server, 1 of them ours: shared; 20 left, of which 4 may be in flight.
		await acquireTimes(clock, budget, 1);
		budget.observe(headers(60, 20, 40));
		const sentAt = clock.now();
		expect(await acquireTimes(clock, budget, 4)).toEqual([sentAt, sentAt, sentAt, sentAt]);
		const controller = new AbortController();
		const waiting = budget.acquire(controller.signal, clock.wait);
		const outcome = waiting.then(
			() => 'sent',
			(error: unknown) => (error instanceof ExecutionCancelledError ? 'cancelled' : 'failed'),
		);
		await clock.run(clock.wait(1_000));
		controller.abort();
		expect(await clock.run(outcome)).toBe('cancelled');
		// An answer frees a place at once.
		budget.observe(headers(60, 15, 39));
		expect(await acquireTimes(clock, budget, 1)).toEqual([clock.now()]);
	});
});

describe('the margin on a shared key', () => {
	it('grows with what the others send per request of ours: 3 beside one worker like this one, 4 beside two, 1 alone', async () => {
		expect([sharedKeyMargin(0.1), sharedKeyMargin(1), sharedKeyMargin(2), sharedKeyMargin(100)]).toEqual([3, 3, 4, 9]);

		const clock = new FakeClock();
		const budget = new RateBudget(clock);
		expect(budget.snapshot().remaining).toBe(59);
		await acquireTimes(clock, budget, 10);
		// 30 counted by the server, 10 of them ours: two others like us.
		for (let i = 0; i < 10; i++) budget.observe(headers(60, 30, 40));
		// The first answer came with 9 of ours in flight, and a window only tightens.
		expect(budget.snapshot().remaining).toBe(30 - 9 - sharedKeyMargin(2));
		expect(sharedKeyMargin(2)).toBe(4);
	});
});

describe('the end of a window', () => {
	it('is taken to come at most a minute after an answer counted in it: the next window starts within a round trip of its end, not a second later', async () => {
		const clock = new FakeClock();
		// The sandbox's limiter: a key's window opens with its first request and runs a minute; Reset rounds up.
		const limiter = new RateLimiter(clock.now);
		const budget = new RateBudget(clock);
		const arrivals: number[] = [];
		const lane = async () => {
			for (let i = 0; i < 40; i++) {
				await budget.acquire(undefined, clock.wait);
				await clock.wait(50);
				const decision = limiter.consume('key', 60);
				arrivals.push(clock.now());
				await clock.wait(50);
				budget.observe(headersAsN8nGivesThem(RateLimiter.headers(decision)));
			}
		};
		await clock.run(Promise.all([lane(), lane(), lane()]));

		// 120 requests, 59 a window (the margin of 1): the third window opens with the 119th.
		const secondOpens = arrivals[59];
		const thirdOpens = arrivals[118];
		expect(secondOpens - arrivals[0]).toBeGreaterThanOrEqual(60_000);
		expect(secondOpens - arrivals[0]).toBeLessThanOrEqual(60_000 + 100);
		expect(thirdOpens - secondOpens).toBeLessThanOrEqual(60_000 + 100);
	});
});

describe('rateBudgetFor', () => {
	it('shares one budget per key and base URL, and separates different keys or services', () => {
		const a = rateBudgetFor('dex_key-one', 'https://a.example');
		expect(rateBudgetFor('dex_key-one', 'https://a.example')).toBe(a);
		expect(rateBudgetFor('dex_key-two', 'https://a.example')).not.toBe(a);
		expect(rateBudgetFor('dex_key-one', 'https://b.example')).not.toBe(a);
	});
});
