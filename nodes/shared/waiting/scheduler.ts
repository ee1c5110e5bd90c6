import { RATE_WINDOW_MS, type RateBudget, type RateLimitSnapshot } from '../http/rateBudget';
import { MAX_RESULT_READ_INTERVAL_MS, MIN_RESULT_READ_INTERVAL_MS, PENDING_STATUSES, TERMINAL_STATUSES } from '../limits';
import type { Result } from '../schemas';
import { ExecutionCancelledError, throwIfCancelled, type Wait } from '../wait';
import { CompletionEstimator } from './completionEstimate';

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
	/** The key's budget: how much of it is free decides how eagerly results are read. */
	budget: RateBudget;
	now(): number;
	wait: Wait;
	signal?: AbortSignal;
	/** What has been learnt about completion times; defaults to one shared per budget (i.e. per key). */
	estimator?: CompletionEstimator;
}

export interface PollOptions {
	timeoutMs: number;
	/** Called as soon as a target's outcome is known, exactly once per target. */
	onOutcome(target: PollTarget, outcome: PollOutcome): void | Promise<void>;
}

/**
 * The read policy: a result is read when it is DONE_CHANCE likely done since it was last seen
 * pending (so about 1 in 10 needs a second read), but no later than EAGER_LAG_MS after it is as
 * likely done as not: a wide estimate, as before any document was seen, then costs a second at
 * most. While the key has room, a document seen pending is read again every 2-3 s (spec 4.4):
 * about 1.2 reads per document, each seen about a second after it is done. When the key is busy
 * (see `keyIsBusy`) re-reads of a long-pending document stretch with the time it has waited, so
 * a wrong estimate costs little. docs/benchmark.md has the figures; `npm run bench:policy`
 * simulates the policy in seconds.
 */
const DONE_CHANCE = 0.9;
const EAGER_LAG_MS = 1000;
/** Of a full-rate pace for the rest of the window, the share left to uploads and other executions. */
const KEPT_FOR_OTHERS = 0.75;
/** After a long wait, re-read at most this share of the time already waited later (a wrong estimate costs little). */
const REREAD_BACKOFF_SHARE = 0.2;
/** How long after the deadline the last look may still start. */
const LAST_LOOK_GRACE_MS = MIN_RESULT_READ_INTERVAL_MS;
/** Reads in flight at once for one call: what waits for the budget stays small, so other executions keep their turn. */
const MAX_CONCURRENT_READS = 4;
/** Past the deadline only answers of reads in flight are awaited; this just bounds the sleep. */
const IDLE_RECHECK_MS = 60_000;

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
	/** Elapsed ms since queuing at which a read last found it pending (0: never). */
	pendingAfterMs: number;
	/** Epoch ms of the last answer; the upload counts as the first. */
	answeredAt: number;
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
 * `onOutcome` for each as soon as that is known: when each is likely done, re-reads as the key's
 * free budget allows (see DONE_CHANCE and keyIsBusy); never closer than 2 s for one result (spec
 * 4.4), within the per-minute budget (spec 8, through the transport), one last look before the
 * timeout, stopping at once on cancel.
 */
export async function pollResults(targets: PollTarget[], options: PollOptions, deps: SchedulerDeps): Promise<void> {
	throwIfCancelled(deps.signal);
	const startedAt = deps.now();
	const deadline = startedAt + options.timeoutMs;
	// A read due at the deadline still happens before the timeout is declared.
	const lastLook = deadline - 1;
	const estimator = deps.estimator ?? estimatorFor(deps.budget);
	const open = new Set(watchTargets(targets, startedAt));

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
		// The 2 s rule counts from the answer: it also covers the transport's retries inside the read.
		watch.answeredAt = deps.now();
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
			if (result.status === 'done' && watch.teaches) estimator.record(watch.pages, watch.pendingAfterMs, watch.answeredAt - watch.queuedAt);
			return await finish(watch, { kind: 'settled', result });
		}
		if (!pending.has(result.status)) return await finish(watch, { kind: 'unknown-status', result });
		watch.pendingAfterMs = Math.max(watch.pendingAfterMs, sentAt - watch.queuedAt);
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
			if (estimatorStale) {
				estimator.fit([...open].filter((w) => w.teaches && w.pendingAfterMs > 0).map((w) => ({ pages: w.pages, afterMs: w.pendingAfterMs })));
				estimatorStale = false;
			}
			const now = deps.now();
			const budget = deps.budget.snapshot();
			const busy = keyIsBusy(budget, open.size, now);
			const readAt = new Map([...open].map((w) => [w, nextReadAt(w, busy, estimator, lastLook)]));
			for (const watch of [...open]) {
				// The last look is taken before a timeout is declared, even when the timer woke late;
				// a grace period bounds it when the budget or the 2 s rule cannot allow it.
				const lastLookPending = !watch.lookedAtEnd && readAt.get(watch)! <= now && now < deadline + LAST_LOOK_GRACE_MS;
				if (!watch.reading && now >= deadline && !lastLookPending) await finish(watch, { kind: 'timeout', result: watch.lastResult });
			}

			// The longest overdue first: when more are due than may be read at once, none waits for ever.
			const waiting = [...open].filter((w) => !w.reading);
			const due = waiting.filter((w) => readAt.get(w)! <= now).sort((a, b) => readAt.get(a)! - readAt.get(b)!);
			const reading = open.size - waiting.length;
			for (const watch of due.slice(0, Math.max(0, MAX_CONCURRENT_READS - reading))) start(watch);

			// Sleep until the next read is due, or the window turns (a fresh budget may end `busy`); a
			// read answering wakes it earlier.
			let wakeAt = deadline > now ? deadline : now + IDLE_RECHECK_MS;
			for (const watch of waiting) if (readAt.get(watch)! > now) wakeAt = Math.min(wakeAt, readAt.get(watch)!);
			if (budget.resetAt > now) wakeAt = Math.min(wakeAt, budget.resetAt);
			if (open.size > 0) await sleepUnlessWoken(wakeAt - now, woken, deps);
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
			pendingAfterMs: 0,
			answeredAt: queuedKnown ? Math.min(target.queuedAt as number, startedAt) : startedAt,
			reading: false,
			lookedAtEnd: false,
		});
	}
	return [...byResult.values()];
}

/**
 * When the result is DONE_CHANCE likely done since it was last seen pending, or EAGER_LAG_MS after
 * it is likely done if that is sooner; once seen pending, while the key is not busy, 3 s after
 * the last answer at the latest (the spec's cadence), when busy up to a share of the time waited;
 * the last look just before the deadline; and never sooner than 2 s after the previous answer
 * (spec 4.4).
 */
function nextReadAt(watch: Watch, busy: boolean, estimator: CompletionEstimator, lastLook: number): number {
	let at = Math.min(quantileAt(watch, DONE_CHANCE, estimator), quantileAt(watch, 0.5, estimator) + EAGER_LAG_MS);
	if (watch.pendingAfterMs > 0) {
		const backoff = busy ? REREAD_BACKOFF_SHARE * (watch.answeredAt - watch.queuedAt) : 0;
		at = Math.min(at, watch.answeredAt + Math.max(MAX_RESULT_READ_INTERVAL_MS, backoff));
	}
	return Math.max(Math.min(at, lastLook), watch.answeredAt + MIN_RESULT_READ_INTERVAL_MS);
}

/** When the document is done with `probability`, given when it was last seen pending. */
function quantileAt(watch: Watch, probability: number, estimator: CompletionEstimator): number {
	return watch.queuedAt + estimator.quantileMs(watch.pages, probability, watch.pendingAfterMs);
}

/**
 * Whether the key's budget is too tight for re-reads at the spec's cadence: it ran dry within the last window (every
 * extra read would delay another request), or what is left of this window, minus a share of a
 * full-rate pace kept for uploads and other executions, does not cover one read per open document.
 */
function keyIsBusy(budget: RateLimitSnapshot, openDocuments: number, now: number): boolean {
	if (budget.blockedUntil > now || now - budget.ranDryAt < RATE_WINDOW_MS) return true;
	const windowEnd = Math.max(now, budget.resetAt);
	const spare = budget.remaining - (KEPT_FOR_OTHERS * budget.limit * (windowEnd - now)) / RATE_WINDOW_MS;
	return spare < openDocuments;
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
