import { setImmediate as nextMacrotask } from 'node:timers/promises';

import { RateBudget } from '../../nodes/shared/http/rateBudget';
import { ExecutionCancelledError } from '../../nodes/shared/wait';

/**
 * A clock and a `wait` that never really sleep: `run` advances time to the next pending wait
 * whenever everything else has settled. Lets the budget and the scheduler run minutes of
 * simulated time in milliseconds.
 */
export class FakeClock {
	private nowMs: number;
	private timers: Array<{ at: number; seq: number; fire: () => void }> = [];
	private seq = 0;

	constructor(start = 1_700_000_000_000) {
		this.nowMs = start;
	}

	readonly now = (): number => this.nowMs;

	readonly wait = (ms: number, signal?: AbortSignal): Promise<void> =>
		new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(new ExecutionCancelledError());
			const timer = { at: this.nowMs + Math.max(0, ms), seq: this.seq++, fire: () => undefined as void };
			const onAbort = () => {
				this.timers = this.timers.filter((t) => t !== timer);
				reject(new ExecutionCancelledError());
			};
			timer.fire = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.timers.push(timer);
		});

	/** Runs simulated time until `promise` settles; throws if it waits for nothing. */
	async run<T>(promise: Promise<T>): Promise<T> {
		let settled = false;
		promise.then(
			() => (settled = true),
			() => (settled = true),
		);
		for (let steps = 0; steps < 1_000_000; steps++) {
			await nextMacrotask();
			if (settled) return await promise;
			if (this.timers.length === 0) throw new Error('deadlock: the code under test waits for nothing');
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift()!;
			this.nowMs = Math.max(this.nowMs, next.at);
			next.fire();
		}
		throw new Error('simulation did not finish');
	}
}

/** Spec 2.8 / 8 as a server enforces it: fixed one-minute windows per key, 429 beyond the limit. */
export class FakeRateServer {
	readonly limit: number;
	http429 = 0;
	/** Accepted requests per window start. */
	readonly perWindow = new Map<number, number>();

	constructor(
		private readonly clock: FakeClock,
		limit = 60,
	) {
		this.limit = limit;
	}

	/** Counts one request arriving now; returns the status and the X-RateLimit-* headers. */
	handle(): { status: number; headers: Record<string, string> } {
		const now = this.clock.now();
		const windowStart = now - (now % 60_000);
		const used = this.perWindow.get(windowStart) ?? 0;
		const resetSeconds = Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000));
		const allowed = used < this.limit;
		if (allowed) this.perWindow.set(windowStart, used + 1);
		else this.http429 += 1;
		const headers = {
			'x-ratelimit-limit': String(this.limit),
			'x-ratelimit-remaining': String(Math.max(0, this.limit - (allowed ? used + 1 : used))),
			'x-ratelimit-reset': String(resetSeconds),
			...(allowed ? {} : { 'retry-after': String(resetSeconds) }),
		};
		return { status: allowed ? 200 : 429, headers };
	}
}

/**
 * What the lead's transport does around each request, reduced to the budget's part: reserve, send
 * (latency up), the server counts it, answer (latency down), observe the headers, and on 429 block
 * for Retry-After and try again.
 */
export async function sendThroughBudget(
	clock: FakeClock,
	budget: RateBudget,
	server: FakeRateServer,
	options: { latencyMs?: number; signal?: AbortSignal; onArrival?: () => void } = {},
): Promise<void> {
	const latency = options.latencyMs ?? 100;
	for (;;) {
		await budget.acquire(options.signal, clock.wait);
		await clock.wait(latency / 2, options.signal);
		const { status, headers } = server.handle();
		if (status === 200) options.onArrival?.();
		await clock.wait(latency / 2, options.signal);
		budget.observe(headers);
		if (status !== 429) return;
		budget.blockFor(Number(headers['retry-after']) * 1000);
	}
}


/** A rate-limit decision's X-RateLimit-* headers as n8n hands them to a node: names lower-cased. */
export function headersAsN8nGivesThem(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
