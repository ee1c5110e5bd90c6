import type { RateBudget } from '../http/rateBudget';
import { MIN_RESULT_READ_INTERVAL_MS, PENDING_STATUSES } from '../limits';
import type { Result } from '../schemas';
import { ExecutionCancelledError, throwIfCancelled, type Wait } from '../wait';
import { CompletionEstimator } from './completionEstimate';
import { WakeUp } from './wakeUp';

export interface PollTarget {
	/** The caller's index, e.g. the item index. */
	id: number;
	resultId: string;
	/** Pages of the document (the upload's `tokens_required`), if known. */
	pages?: number;
	/** Epoch ms of the upload's `queued_at`, if known. */
	queuedAt?: number;
}

/** `settled`: any state but queued/processing (an unknown one too: waiting on it would never end). */
export type PollOutcome = { kind: 'settled'; result: Result } | { kind: 'timeout'; result?: Result } | { kind: 'failed'; error: unknown };

export interface SchedulerDeps {
	/** GET /results/{id}; the transport already waits on the key's rate budget and retries 429/5xx. */
	readResult(resultId: string): Promise<Result>;
	budget: RateBudget;
	now(): number;
	wait: Wait;
	signal?: AbortSignal;
	/** What is learnt of completion times; by default one per budget, i.e. per key. */
	estimator?: CompletionEstimator;
}

export interface PollOptions {
	timeoutMs: number;
	/** Called as soon as a target's outcome is known, exactly once per target. */
	onOutcome(target: PollTarget, outcome: PollOutcome): void | Promise<void>;
}

/*
 * The read policy, three rules (figures: docs/benchmark.md; `npm run bench:policy` simulates it):
 * 1. The first read comes when the expected delay plus the price of the reads is least, by what
 *    has been learnt of completion times (CompletionEstimator.firstReadMs).
 * 2. A result found pending is read again 2 s after that answer (spec 4.4: every 2-3 s).
 * 3. No read starts after the deadline; the last comes just before it.
 * The transport keeps every read within the key's rate budget; at most MAX_CONCURRENT_READS of one
 * call wait on it, so other executions on the key keep their turn.
 */

/**
 * The price of a read in ms of delay: READ_PRICE_MS, plus up to SHORT_KEY_PRICE_MS as the key runs
 * short of requests (`shortness`). bench:policy, 200 seeds, one document at a time: no price 2.65
 * requests per document at 1.09 s median delay, 0.8 s 2.36 at 1.08 s, 1.8 s 2.25 at 1.11 s (the
 * price spares rereads, not delay). Without the second, 60 documents in batches cost 2.22 and 2.26
 * requests each on the free and the paid plan instead of 2.13 and 2.19, medians within 0.05 s.
 */
const READ_PRICE_MS = 1800;
const SHORT_KEY_PRICE_MS = 3000;
/**
 * More, up to SHARED_KEY_PRICE_MS, on a short key that other processes (queue-mode workers) use
 * too: there every request spent on a document still pending is one the others' uploads and
 * reads wait for, and this process cannot see how many wait. Cubed, so it tells only when the key
 * is nearly spent. `npm run test:scale` (2 workers, the key the bottleneck), reads that found a
 * document pending in the load's first four minutes: 7 in a run before, none after (96.7 % of the
 * bound); bench:policy's queue row: 0.052 per document before, 0.005 after. A process alone on its
 * key pays nothing more: the single and batch delays of `npm run bench` stay those of the price above.
 */
const SHARED_KEY_PRICE_MS = 60_000;
/** The key is short while what is left of its window covers fewer than this many reads per open document. */
const READS_PER_DOCUMENT = 4;
const MAX_CONCURRENT_READS = 4;

const pending = new Set<string>(PENDING_STATUSES);
const sharedEstimators = new WeakMap<RateBudget, CompletionEstimator>();

/** One watched result; targets carrying the same result id share its reads (2 s rule per result). */
interface Watch {
	resultId: string;
	targets: PollTarget[];
	pages: number;
	queuedAt: number;
	/** Only documents with known pages and queue time teach the estimator; guesses would mislead it. */
	teaches: boolean;
	/** Ms after queuing when a read last found it pending (0: never). */
	pendingAfterMs: number;
	/** Epoch ms of the last answer; the upload counts as the first. */
	answeredAt: number;
	lastResult?: Result;
	/** A read of it is in flight. */
	reading: boolean;
}

/** What the planner does now about a watch with no read in flight; `at`: when its next read is due. */
type Step = { watch: Watch; at: number } & ({ action: 'read' } | { action: 'wait'; until: number } | { action: 'time out' });

/**
 * Reads each target's result until it is settled or out of time, calling `onOutcome` for each as
 * soon as that is known. One planner loop: it starts the reads that are due, then sleeps until
 * the next is due or a read answers (every answer moves the estimate and the key's budget).
 * Stops at once on cancel, or when `onOutcome` throws; reads then in flight are left unheard.
 */
export async function pollResults(targets: PollTarget[], options: PollOptions, deps: SchedulerDeps): Promise<void> {
	throwIfCancelled(deps.signal);
	const deadline = deps.now() + options.timeoutMs;
	const estimator = deps.estimator ?? sharedEstimator(deps.budget);
	const open = new Set(watchTargets(targets, deps.now()));
	/** What stops the whole call, met by a read: a cancel, or `onOutcome` throwing (the first only). */
	let failure: { error: unknown } | undefined;
	let stopped = false;
	// The planner sleeps on this; the end of a read, its timer and a cancel wake it. One listener for
	// the whole call (one per document would pass Node's limit of 10 per signal and print a warning
	// in n8n's log).
	const wakeUp = new WakeUp(deps.wait);
	const readsInFlight = new Set<Promise<void>>();
	deps.signal?.addEventListener('abort', wakeUp.wake, { once: true });

	const settle = async (watch: Watch, outcome: PollOutcome) => {
		open.delete(watch);
		for (const target of watch.targets) await options.onOutcome(target, outcome);
	};

	/** Reads once; settles the watch if the answer is final. Throws only what stops the whole call. */
	const read = async (watch: Watch) => {
		const sentAt = deps.now();
		const answer = await deps.readResult(watch.resultId).then(
			(result) => ({ result }),
			(error: unknown) => ({ error }),
		);
		// The 2 s rule counts from the answer: it also covers the transport's retries inside the read.
		watch.answeredAt = deps.now();
		if (stopped || failure) return;
		if ('error' in answer) {
			// A cancel stops the whole call; any other failure belongs to this target only.
			if (answer.error instanceof ExecutionCancelledError) throw answer.error;
			return await settle(watch, { kind: 'failed', error: answer.error });
		}
		const { result } = answer;
		watch.lastResult = result;
		if (pending.has(result.status)) {
			watch.pendingAfterMs = Math.max(watch.pendingAfterMs, sentAt - watch.queuedAt, 1);
			return;
		}
		// Only `done` is processing time; `rejected` happens before processing (spec 3.4).
		if (result.status === 'done' && watch.teaches) estimator.record(watch.pages, watch.pendingAfterMs, watch.answeredAt - watch.queuedAt);
		await settle(watch, { kind: 'settled', result });
	};

	/** Runs one read beside the planner, and wakes the planner however the read ends. */
	const readBeside = async (watch: Watch) => {
		watch.reading = true;
		try {
			await read(watch);
		} catch (error) {
			// The one place a read's failure is kept. A failure of the read itself (a 404) is already
			// its target's `failed` outcome; what reaches here stops the whole call, and the planner,
			// woken below, throws it.
			failure ??= { error };
		} finally {
			watch.reading = false;
			wakeUp.wake();
		}
	};

	/** What to do now about a watch with no read in flight: the three rules of the comment above, in turn. */
	const nextStep = (watch: Watch, now: number, price: number): Step => {
		// Rule 2: no read sooner than 2 s after the last answer (the upload counts as the first); a
		// result found pending is read again right then.
		const rereadAt = watch.answeredAt + MIN_RESULT_READ_INTERVAL_MS;
		// Rule 1: the first read when the expected delay plus the price of the reads is least.
		const wantedAt =
			watch.pendingAfterMs > 0
				? rereadAt
				: watch.queuedAt + estimator.firstReadMs(watch.pages, Math.max(now, rereadAt) - watch.queuedAt, MIN_RESULT_READ_INTERVAL_MS, price);
		// Rule 3, the deadline, all of it here. A first read wanted at or after the deadline comes
		// just before it instead: the last look. It is due from then on, so a planner that gets to it
		// late (a late timer, no free slot) still takes it. A read that rule 2 puts at or after the
		// deadline never comes: the watch times out once the deadline has passed.
		const at = Math.max(Math.min(wantedAt, deadline - 1), rereadAt);
		if (at >= deadline) return now >= deadline ? { watch, at, action: 'time out' } : { watch, at, action: 'wait', until: deadline };
		return at > now ? { watch, at, action: 'wait', until: at } : { watch, at, action: 'read' };
	};

	try {
		while (open.size > 0 && !failure) {
			throwIfCancelled(deps.signal);
			const now = deps.now();
			// Each pass plans with all that is known: what the documents still pending teach, how short the key is.
			estimator.fit([...open].filter((w) => w.teaches && w.pendingAfterMs > 0).map((w) => ({ pages: w.pages, afterMs: w.pendingAfterMs })));
			const short = shortness(deps.budget, open.size);
			const price = READ_PRICE_MS + SHORT_KEY_PRICE_MS * short + SHARED_KEY_PRICE_MS * short ** 3 * Math.min(1, deps.budget.othersPerOwnRequest());
			const idle = [...open].filter((watch) => !watch.reading);
			let free = MAX_CONCURRENT_READS - (open.size - idle.length);
			let wakeAt = Infinity;
			// The earliest due first: they take the free slots.
			const plan = idle.map((watch) => nextStep(watch, now, price)).sort((a, b) => a.at - b.at);
			for (const step of plan) {
				if (step.action === 'time out') await settle(step.watch, { kind: 'timeout', result: step.watch.lastResult });
				else if (step.action === 'wait') wakeAt = Math.min(wakeAt, step.until);
				else if (free > 0) {
					free -= 1;
					const reading = readBeside(step.watch).finally(() => readsInFlight.delete(reading));
					readsInFlight.add(reading);
				} // else due, but no slot is free: the next answer frees one and wakes the planner.
			}
			if (open.size === 0) break;
			// Until the next read is due, a read ends, or the execution is cancelled.
			await wakeUp.sleep(wakeAt - now);
		}
		// A watch leaves `open` when its outcome is known, before its target has settled (settling
		// may still write, e.g. take a charge mark away): every target settles before the call ends.
		while (readsInFlight.size > 0 && !failure) await Promise.all(readsInFlight);
	} finally {
		stopped = true;
		deps.signal?.removeEventListener('abort', wakeUp.wake);
	}
	throwIfCancelled(deps.signal);
	if (failure) throw failure.error;
}

/** Completion times are a property of the service, so executions sharing a key learn together. */
function sharedEstimator(budget: RateBudget): CompletionEstimator {
	const estimator = sharedEstimators.get(budget) ?? new CompletionEstimator();
	sharedEstimators.set(budget, estimator);
	return estimator;
}

/**
 * How short the key is of requests, 0 to 1: 1 when what is left of this window (nothing after a
 * 429) is gone. Other users of the key (queue-mode workers) draw on the same window: their
 * demand is counted as theirs per request of ours, so a window that looks plentiful to one worker
 * is not spent on reads that find documents pending (`npm run test:scale`: about one such read
 * every window, each a request the key's bottleneck could not spare).
 */
function shortness(budget: RateBudget, openDocuments: number): number {
	const demand = READS_PER_DOCUMENT * openDocuments * (1 + budget.othersPerOwnRequest());
	return Math.min(1, demand / budget.snapshot().remaining);
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
		// A queue time "after" the start can only be clock skew between the service and n8n.
		const queuedAt = queuedKnown ? Math.min(target.queuedAt as number, startedAt) : startedAt;
		const pages = pagesKnown ? (target.pages as number) : 1;
		byResult.set(target.resultId, {
			resultId: target.resultId,
			targets: [target],
			pages,
			queuedAt,
			teaches: pagesKnown && queuedKnown,
			pendingAfterMs: 0,
			answeredAt: queuedAt,
			reading: false,
		});
	}
	return [...byResult.values()];
}
