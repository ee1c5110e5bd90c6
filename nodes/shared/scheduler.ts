import { CompletionEstimator } from './completionEstimate';
import { MAX_RESULT_READ_INTERVAL_MS, MIN_RESULT_READ_INTERVAL_MS, PENDING_STATUSES, TERMINAL_STATUSES } from './limits';
import { RATE_WINDOW_MS, type RateBudget, type RateLimitSnapshot } from './rateBudget';
import type { Result } from './schemas';
import { ExecutionCancelledError, throwIfCancelled } from './wait';

export interface PollTarget {
	/** The caller's index, e.g. the item index. */
	id: number;
	resultId: string;
	/** Pages of the document (the upload's `tokens_required`), if known. */
	pages?: number;
	/** Epoch ms of the upload's `queued_at`, if known. */
	queuedAt?: number;
}

export type PollOutcome =
	| { kind: 'settled'; result: Result }
	| { kind: 'unknown-status'; result: Result }
	| { kind: 'timeout'; result?: Result }
	| { kind: 'failed'; error: unknown };

export interface SchedulerDeps {
	/** GET /results/{id}; the transport already waits on the RateBudget and retries 429/5xx. */
	readResult(resultId: string): Promise<Result>;
	/** The key's budget, read to spread reads over the window rather than spend it in one burst. */
	budget: RateBudget;
	now(): number;
	wait(ms: number, signal?: AbortSignal): Promise<void>;
	signal?: AbortSignal;
	/** What has been learnt about completion times; defaults to one shared per budget (i.e. per key). */
	estimator?: CompletionEstimator;
}

export interface PollOptions {
	timeoutMs: number;
	/** Called as soon as a target's outcome is known, exactly once per target. */
	onOutcome(target: PollTarget, outcome: PollOutcome): void | Promise<void>;
}

/** Probability that the first read finds the document finished: about 1.2 reads per document. */
const FIRST_READ_PROBABILITY = 0.85;
/** The same, for the next read after one that found the document still pending. */
const REREAD_PROBABILITY = 0.8;
/** After a long wait, re-read at most this share of the time already waited later (about log-many reads). */
const REREAD_BACKOFF_SHARE = 0.2;
/** How long after the deadline the last look may still start. */
const LAST_LOOK_GRACE_MS = MIN_RESULT_READ_INTERVAL_MS;
/** Reads in flight at once for one call. */
const MAX_CONCURRENT_READS = 4;
/** Requests of a window that may be spent at once; the rest is spread evenly over the window. */
const BURST_SHARE = 0.25;
const MIN_BURST = 4;
/** Past the deadline only answers of reads in flight are awaited; this just bounds the sleep. */
const IDLE_RECHECK_MS = 60_000;
/** A due read gains one unit of priority (as much as "surely done") per this long overdue: no starvation. */
const STARVATION_MS = 30_000;

const terminal = new Set<string>(TERMINAL_STATUSES);
const pending = new Set<string>(PENDING_STATUSES);

/** One watched result; several targets carrying the same result id share its reads (2 s rule per result). */
interface Watch {
	resultId: string;
	targets: PollTarget[];
	pages: number;
	queuedAt: number;
	/** Only documents with known pages and queue time teach the estimator; guesses would mislead it. */
	teaches: boolean;
	nextReadAt: number;
	/** Elapsed ms since queuing at which a read last found it pending (0: never). */
	pendingAfterMs: number;
	lastResult?: Result;
	reading: boolean;
	/** A read started at or after the last look (just before the deadline). */
	lookedAtEnd: boolean;
}

const sharedEstimators = new WeakMap<RateBudget, CompletionEstimator>();

/** Completion times are a property of the service, so executions sharing a key learn together. */
function estimatorFor(budget: RateBudget): CompletionEstimator {
	let estimator = sharedEstimators.get(budget);
	if (!estimator) {
		estimator = new CompletionEstimator();
		sharedEstimators.set(budget, estimator);
	}
	return estimator;
}

/**
 * Reads each target's result until it is done, rejected, errored, unknown or out of time, calling
 * `onOutcome` for each as soon as that is known. Reads are timed by the estimated completion (few
 * requests per document), never closer than 2 s for one result (spec 4.4), spread over the key's
 * per-minute budget (spec 8), and stop at once on cancellation.
 */
export async function pollResults(targets: PollTarget[], options: PollOptions, deps: SchedulerDeps): Promise<void> {
	throwIfCancelled(deps.signal);
	const startedAt = deps.now();
	const deadline = startedAt + options.timeoutMs;
	const estimator = deps.estimator ?? estimatorFor(deps.budget);
	const open = new Set(watchTargets(targets, startedAt));
	// A read due at the deadline still happens before the timeout is declared (see lastLook).
	const lastLook = deadline - 1;
	for (const watch of open) {
		watch.nextReadAt = Math.min(watch.queuedAt + estimator.quantileMs(watch.pages, FIRST_READ_PROBABILITY), lastLook);
	}

	const tasks = new Set<Promise<void>>();
	let fatal: { error: unknown } | undefined;
	let stopped = false;
	let wake: () => void = () => undefined;
	let estimatorStale = true;

	const finish = async (watch: Watch, outcome: PollOutcome) => {
		open.delete(watch);
		for (const target of watch.targets) await options.onOutcome(target, outcome);
	};

	const read = async (watch: Watch) => {
		watch.reading = true;
		const sentAt = deps.now();
		if (sentAt >= lastLook) watch.lookedAtEnd = true;
		const answer = await deps.readResult(watch.resultId).then(
			(result) => ({ result }),
			(error: unknown) => ({ error }),
		);
		const answeredAt = deps.now();
		watch.reading = false;
		if (stopped) return;
		if ('error' in answer) {
			// A cancelled execution stops the whole call; any other failure belongs to this target only.
			throwIfCancelled(deps.signal);
			if (answer.error instanceof ExecutionCancelledError) throw answer.error;
			return await finish(watch, { kind: 'failed', error: answer.error });
		}
		const { result } = answer;
		watch.lastResult = result;
		estimatorStale = true;
		if (terminal.has(result.status)) {
			// Only `done` is processing time; `rejected` happens before processing (spec 3.4).
			if (result.status === 'done' && watch.teaches) {
				estimator.record(watch.pages, watch.pendingAfterMs, answeredAt - watch.queuedAt);
			}
			return await finish(watch, { kind: 'settled', result });
		}
		if (!pending.has(result.status)) return await finish(watch, { kind: 'unknown-status', result });
		watch.pendingAfterMs = Math.max(watch.pendingAfterMs, sentAt - watch.queuedAt);
		watch.nextReadAt = nextReadAfterPending(watch, answeredAt, estimator, lastLook);
	};

	const start = (watch: Watch) => {
		const task = read(watch)
			.catch((error: unknown) => {
				fatal ??= { error };
			})
			.finally(() => {
				tasks.delete(task);
				wake();
			});
		tasks.add(task);
	};

	try {
		while (open.size > 0) {
			// Created first, so a read answering at any point of this round cuts the coming sleep short.
			const woken = new Promise<void>((resolve) => (wake = resolve));
			throwIfCancelled(deps.signal);
			if (fatal) throw fatal.error;
			const now = deps.now();
			for (const watch of [...open]) {
				// The last look is taken before a timeout is declared, even when the timer woke late;
				// a grace period bounds it when the budget or the 2 s rule cannot allow it.
				const lastLookPending = !watch.lookedAtEnd && watch.nextReadAt <= now && now < deadline + LAST_LOOK_GRACE_MS;
				if (!watch.reading && now >= deadline && !lastLookPending) await finish(watch, { kind: 'timeout', result: watch.lastResult });
			}
			if (open.size === 0) break;

			if (estimatorStale) {
				estimator.fit([...open].filter((w) => w.teaches && w.pendingAfterMs > 0).map((w) => ({ pages: w.pages, afterMs: w.pendingAfterMs })));
				estimatorStale = false;
			}
			const reading = [...open].filter((w) => w.reading).length;
			const due = [...open]
				.filter((w) => !w.reading && w.nextReadAt <= now)
				.map((w) => ({ watch: w, priority: priority(w, now, estimator) }))
				.sort((a, b) => b.priority - a.priority);
			const pace = readsAllowed(deps.budget.snapshot(), now, reading);
			const startable = Math.min(due.length, MAX_CONCURRENT_READS - reading, pace.allowed);
			for (const { watch } of due.slice(0, startable)) start(watch);

			// Sleep until the next thing that can change by itself; a read answering wakes it earlier.
			let wakeAt = deadline > now ? deadline : now + IDLE_RECHECK_MS;
			for (const watch of open) if (!watch.reading && watch.nextReadAt > now) wakeAt = Math.min(wakeAt, watch.nextReadAt);
			// Due reads held back by the budget (not by the concurrency cap): look again when it allows more.
			if (due.length > startable && reading + startable < MAX_CONCURRENT_READS) wakeAt = Math.min(wakeAt, Math.max(pace.retryAt, now + 1));
			await sleepUnlessWoken(wakeAt - now, woken, deps);
		}
		await Promise.all(tasks);
		if (fatal) throw fatal.error;
	} finally {
		stopped = true;
	}
}

function watchTargets(targets: PollTarget[], startedAt: number): Watch[] {
	const byResult = new Map<string, Watch>();
	for (const target of targets) {
		const existing = byResult.get(target.resultId);
		if (existing) {
			existing.targets.push(target);
			continue;
		}
		const pagesKnown = typeof target.pages === 'number' && target.pages > 0;
		const queuedKnown = typeof target.queuedAt === 'number' && Number.isFinite(target.queuedAt);
		byResult.set(target.resultId, {
			resultId: target.resultId,
			targets: [target],
			pages: pagesKnown ? (target.pages as number) : 1,
			// A queue time "after" the start can only be clock skew between the service and n8n.
			queuedAt: queuedKnown ? Math.min(target.queuedAt as number, startedAt) : startedAt,
			teaches: pagesKnown && queuedKnown,
			nextReadAt: startedAt,
			pendingAfterMs: 0,
			reading: false,
			lookedAtEnd: false,
		});
	}
	return [...byResult.values()];
}

/**
 * After a read found the result pending: the estimated completion given that, but never sooner than
 * 2 s after that read answered (spec 4.4, which also covers the transport's retries inside the read),
 * and for long documents no later than a share of the time already waited.
 */
function nextReadAfterPending(watch: Watch, answeredAt: number, estimator: CompletionEstimator, lastLook: number): number {
	const estimated = watch.queuedAt + estimator.quantileMs(watch.pages, REREAD_PROBABILITY, watch.pendingAfterMs);
	const longestGap = Math.max(MAX_RESULT_READ_INTERVAL_MS, REREAD_BACKOFF_SHARE * (answeredAt - watch.queuedAt));
	const gap = Math.min(Math.max(estimated - answeredAt, MIN_RESULT_READ_INTERVAL_MS), longestGap);
	// One last look just before the deadline, unless that would break the 2 s rule.
	return Math.max(Math.min(answeredAt + gap, lastLook), answeredAt + MIN_RESULT_READ_INTERVAL_MS);
}

/** Most likely finished first, and the longer a read is overdue the higher it climbs. */
function priority(watch: Watch, now: number, estimator: CompletionEstimator): number {
	const likelyDone = estimator.probabilityDoneBy(watch.pages, now - watch.queuedAt, watch.pendingAfterMs);
	return likelyDone + (now - watch.nextReadAt) / STARVATION_MS;
}

/**
 * How many reads may start now: a burst of a quarter of the window, the rest of the remaining
 * requests spread evenly until the window ends, so uploads and other executions sharing the key
 * keep room. Reads of this call still in flight may not have reserved their request yet, so they
 * are counted as spent.
 */
function readsAllowed(budget: RateLimitSnapshot, now: number, reading: number): { allowed: number; retryAt: number } {
	if (budget.blockedUntil > now) return { allowed: 0, retryAt: budget.blockedUntil };
	const windowLeft = Math.max(0, budget.resetAt - now);
	const burst = Math.max(MIN_BURST, Math.ceil(budget.limit * BURST_SHARE));
	const keepForLater = Math.max(0, Math.ceil((budget.limit * windowLeft) / RATE_WINDOW_MS) - burst);
	const allowed = budget.remaining - reading - keepForLater;
	if (allowed > 0) return { allowed, retryAt: now };
	if (budget.remaining - reading <= 0) return { allowed: 0, retryAt: Math.max(budget.resetAt, now + 1) };
	// keepForLater drops by one every window/limit ms.
	const perRequestMs = RATE_WINDOW_MS / budget.limit;
	return { allowed: 0, retryAt: Math.min(now + (1 - allowed) * perRequestMs, budget.resetAt) };
}

/** Sleeps until `ms` pass or `woken` resolves (a read answered), whichever is first; cancellable. */
async function sleepUnlessWoken(ms: number, woken: Promise<void>, deps: SchedulerDeps): Promise<void> {
	throwIfCancelled(deps.signal);
	const timer = new AbortController();
	const forwardCancel = () => timer.abort();
	deps.signal?.addEventListener('abort', forwardCancel, { once: true });
	// Stopping the timer early makes the wait reject; that is the point, not an error.
	const slept = deps.wait(ms, timer.signal).catch(() => undefined);
	try {
		await Promise.race([slept, woken]);
	} finally {
		timer.abort();
		deps.signal?.removeEventListener('abort', forwardCancel);
	}
	throwIfCancelled(deps.signal);
}
