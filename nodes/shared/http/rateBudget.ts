import { createHash } from 'crypto';

import { DEFAULT_REQUESTS_PER_MINUTE } from '../limits';
import { throwIfCancelled, waitFor, type Wait } from '../wait';
import { RATE_WINDOW_MS, readRateHeaders } from './rateHeaders';

export { RATE_WINDOW_MS } from './rateHeaders';

/** Spec 8.5: wait `Retry-After`, but a broken or hostile value must not park an execution for hours. */
export const MAX_RATE_LIMIT_BLOCK_MS = 60_000;
/** Requests left unused in every window, against rounding and requests this process cannot see. */
const RATE_SAFETY_MARGIN = 1;
/**
 * Once the headers show other users of the key (workers, clients), room for their requests this
 * process cannot see yet: per request of ours in a window, they sent `othersPerOwn`, and that many
 * more may be in flight at its end. `npm run bench:sharedKey` weighs it: 2 workers leave 3
 * requests a window (96.6 % of the limit used, no 429), 3 workers 4. With the cap on requests in
 * flight (`withinShareInFlight`) a margin of 2 was enough there (98.3 %), but not in `npm run
 * bench:policy`'s queue-mode row, where it met 6 429s in 200 runs (0 with this one).
 */
export function sharedKeyMargin(othersPerOwn: number): number {
	return RATE_SAFETY_MARGIN + Math.min(8, Math.max(2, Math.ceil(1.5 * othersPerOwn)));
}
const SHARED_KEY_MEMORY_MS = 5 * RATE_WINDOW_MS;
const MIN_OWN_TO_WEIGH_OTHERS = 5;
/** A request whose answer never came (network failure) stops counting as in flight after this long. */
const IN_FLIGHT_EXPIRY_MS = RATE_WINDOW_MS;

export interface RateLimitSnapshot {
	/** Requests per minute (the last `X-RateLimit-Limit`, else the free plan's 60). */
	limit: number;
	/** Requests this process may still send in the current window, margin deducted. */
	remaining: number;
	/** Epoch ms when the current window is taken to end. */
	resetAt: number;
}

export interface Clock {
	now(): number;
}

const systemClock: Clock = { now: () => Date.now() };

/** What this process holds of the key's current one-minute window. */
interface RateWindow {
	/** Requests this process may still send in it (the margin not yet deducted). */
	remaining: number;
	/** Epoch ms when it is taken to end; 0 until the first request opens one. */
	resetAt: number;
	/** `resetAt` is our guess (the server's window starts a little later): its first answer replaces it, else requests released at the guessed end would collect 429s. */
	assumed: boolean;
	/** Requests reserved in it: at least what the server counted of ours. */
	sent: number;
}

/**
 * The request budget of one API key (spec 2.8 and 8): every request waits here first, so nodes
 * wait before they would exceed the limit instead of collecting 429s. The server's view is its
 * `X-RateLimit-Remaining` minus this process's requests still in flight; within a window the
 * budget keeps the smaller of that (it counts other workers) and its own count (it counts what the
 * server has not seen yet, and survives a late older answer). A later window or another limit (a
 * paid plan) in the headers replaces the count.
 */
export class RateBudget {
	private limit = DEFAULT_REQUESTS_PER_MINUTE;
	/** Before any header, a fresh window is assumed. */
	private window: RateWindow = { remaining: DEFAULT_REQUESTS_PER_MINUTE, resetAt: 0, assumed: false, sent: 0 };
	private blockedUntil = 0;
	/** Until when the key counts as shared with requests this process does not make. */
	private sharedUntil = 0;
	/** Requests of the others per request of ours, in the last window that had enough of ours to tell. */
	private othersPerOwn = 1;
	/** Reservation times of requests whose response has not been observed yet. */
	private inFlight: number[] = [];
	/** Callers waiting for an answer to free a share of the requests in flight. */
	private readonly answerWaiters = new Set<AbortController>();
	constructor(
		private readonly clock: Clock = systemClock,
		/** Only `npm run bench:sharedKey` sets it: a fixed shared-key margin, to weigh against `sharedKeyMargin`. */
		private readonly fixedSharedMargin?: number,
	) {}

	/**
	 * Waits (cancellable) until one request may be sent within the per-minute budget, then
	 * reserves it. Checking and taking happen in one synchronous step, so concurrent callers cannot
	 * over-reserve; waiters try again when the window ends or the block lifts.
	 */
	async acquire(signal?: AbortSignal, wait: Wait = waitFor): Promise<void> {
		for (;;) {
			throwIfCancelled(signal);
			const now = this.clock.now();
			if (now < this.blockedUntil) {
				await wait(this.blockedUntil - now, signal);
				continue;
			}
			if (now >= this.window.resetAt) {
				// Nothing heard about a newer window: assume a fresh one; the next response corrects it.
				this.window = { remaining: this.limit, resetAt: now + RATE_WINDOW_MS, assumed: true, sent: 0 };
			}
			this.expireInFlight(now);
			if (this.window.remaining > this.margin()) {
				if (this.withinShareInFlight()) {
					this.window.remaining -= 1;
					this.window.sent += 1;
					this.inFlight.push(now);
					return;
				}
				// Our share is in flight: the next answer tells how much the others took meanwhile.
				await this.waitForAnswer(this.window.resetAt - now, signal, wait);
				continue;
			}
			await wait(this.window.resetAt - now, signal);
		}
	}

	/** Update from a response's X-RateLimit-* headers (lower-cased names); garbage is ignored. */
	observe(headers: Record<string, unknown>): void {
		const now = this.clock.now();
		this.settleOneInFlight(now);
		for (const waiter of this.answerWaiters) waiter.abort();
		const answer = readRateHeaders(headers, now);
		const limitChanged = this.adoptLimit(answer.limit);
		// Without Remaining the headers tell nothing of the window.
		if (answer.remaining === undefined) return;
		// What the server has left, less our requests it may not have counted yet.
		const serverView = Math.max(0, Math.min(answer.remaining, this.limit) - this.inFlight.length);
		if (this.isAboutLaterWindow(now, answer.resetAt)) {
			// A new window: of ours, the server has counted this answer's request and at most those still in flight.
			this.startServerWindow(now, serverView, answer.resetAt, this.inFlight.length + 1);
		} else if (limitChanged) {
			// The same window under another limit (a paid plan): what we sent in it still counts.
			this.startServerWindow(now, serverView, answer.resetAt, this.window.sent);
		} else {
			this.tightenWindow(serverView, answer.resetAt);
		}
		this.noticeOtherUsers(now, answer.remaining);
	}

	/**
	 * A request that got no answer (a network failure, a cancel): no longer in flight. The server
	 * counted it or not; either way the next answer's count says so.
	 */
	settleWithoutAnswer(): void {
		this.settleOneInFlight(this.clock.now());
		for (const waiter of this.answerWaiters) waiter.abort();
	}

	/** After a 429: nothing is sent before Retry-After elapses (bounded), and the window counts as spent. */
	blockFor(ms: number): void {
		if (!Number.isFinite(ms) || ms <= 0) return;
		const until = this.clock.now() + Math.min(ms, MAX_RATE_LIMIT_BLOCK_MS);
		this.blockedUntil = Math.max(this.blockedUntil, until);
		// Retry-After tells when the server accepts again, i.e. when its window ends.
		this.window = { ...this.window, remaining: 0, resetAt: this.blockedUntil, assumed: false };
	}

	snapshot(): RateLimitSnapshot {
		const now = this.clock.now();
		const windowOver = now >= this.window.resetAt;
		const remaining = windowOver ? this.limit : this.window.remaining;
		return {
			limit: this.limit,
			remaining: Math.max(0, remaining - this.margin()),
			resetAt: windowOver ? now + RATE_WINDOW_MS : this.window.resetAt,
		};
	}

	/**
	 * On a shared key, requests in flight are capped at half this process's share of what the
	 * window has left (at least one other user counted, as the first answers undercount them). The
	 * others' requests in flight are invisible until an answer counts them; each process keeping to
	 * half its share keeps all of them, sent on views however stale, within what is left. Without
	 * the cap, two workers with many requests waiting spent the same last requests of a window
	 * (10 in flight each: 19 429s in 600 requests; the unit test). Alone, the count is exact and
	 * nothing is capped.
	 */
	private withinShareInFlight(): boolean {
		const others = this.othersPerOwnRequest();
		if (others === 0) return true;
		const left = this.window.remaining + this.inFlight.length - this.margin();
		const share = left / 2 / (1 + Math.max(1, others));
		return this.inFlight.length < Math.max(1, Math.floor(share));
	}

	/** Waits (cancellable) for the next answer, or `ms` at most (an answer may never come). */
	private async waitForAnswer(ms: number, signal: AbortSignal | undefined, wait: Wait): Promise<void> {
		const answered = new AbortController();
		const cancel = () => answered.abort();
		signal?.addEventListener('abort', cancel, { once: true });
		this.answerWaiters.add(answered);
		const oldest = this.inFlight[0];
		const expiry = oldest === undefined ? ms : oldest + IN_FLIGHT_EXPIRY_MS - this.clock.now();
		// The wait rejects only when `answered` aborts: an answer came, or a cancel, which the caller's next check throws.
		await wait(Math.max(1, Math.min(ms, expiry)), answered.signal).then(
			() => undefined,
			() => undefined,
		);
		this.answerWaiters.delete(answered);
		signal?.removeEventListener('abort', cancel);
	}

	/** Requests the other users of the key send per request of this process (0 while it seems alone). */
	othersPerOwnRequest(): number {
		return this.clock.now() < this.sharedUntil ? this.othersPerOwn : 0;
	}

	/** One response settles one reservation; which one does not matter, only how many remain. */
	private settleOneInFlight(now: number): void {
		this.expireInFlight(now);
		this.inFlight.shift();
	}

	/** Takes another limit (a paid plan) at once; true if it changed, which restarts the window's count. */
	private adoptLimit(limit: number | undefined): boolean {
		if (limit === undefined || limit <= 0 || limit === this.limit) return false;
		this.limit = limit;
		return true;
	}

	/** Our window is over, or the server's ends about a minute after ours (rounding and latency move an end by seconds only). */
	private isAboutLaterWindow(now: number, serverResetAt: number | undefined): boolean {
		return now >= this.window.resetAt || (serverResetAt !== undefined && serverResetAt > this.window.resetAt + RATE_WINDOW_MS / 2);
	}

	/** The server's numbers replace ours (its end, else a minute from now); `sent`: our requests counted in it. */
	private startServerWindow(now: number, serverView: number, serverResetAt: number | undefined, sent: number): void {
		this.window = {
			remaining: serverView,
			resetAt: serverResetAt ?? now + RATE_WINDOW_MS,
			// Only a Reset header replaces a guessed end.
			assumed: this.window.assumed && serverResetAt === undefined,
			sent,
		};
	}

	/** Another answer about the same window can only tighten it: a late older answer must not raise the count. */
	private tightenWindow(serverView: number, serverResetAt: number | undefined): void {
		this.window.remaining = Math.min(this.window.remaining, serverView);
		if (serverResetAt === undefined) return;
		// The server's end replaces our guess; after that, the earliest announced end is the tightest true bound.
		this.window.resetAt = this.window.assumed ? serverResetAt : Math.min(this.window.resetAt, serverResetAt);
		this.window.assumed = false;
	}

	/** The server counted more requests in this window than this process sent: someone else uses the key, so a wider margin for a while. */
	private noticeOtherUsers(now: number, serverRemaining: number): void {
		const theirs = this.limit - serverRemaining - this.window.sent;
		if (theirs <= 0) return;
		this.sharedUntil = now + SHARED_KEY_MEMORY_MS;
		// A few of ours first, or one early request of theirs would look like many.
		if (this.window.sent >= MIN_OWN_TO_WEIGH_OTHERS) this.othersPerOwn = theirs / this.window.sent;
	}

	private margin(): number {
		const shared = this.fixedSharedMargin ?? sharedKeyMargin(this.othersPerOwn);
		const margin = this.clock.now() < this.sharedUntil ? shared : RATE_SAFETY_MARGIN;
		// A tiny limit still has to allow a request per window.
		return Math.max(0, Math.min(margin, this.limit - 1));
	}

	/** A request whose answer never came (a network failure) stops counting as in flight. */
	private expireInFlight(now: number): void {
		while (this.inFlight.length > 0 && now - this.inFlight[0] > IN_FLIGHT_EXPIRY_MS) this.inFlight.shift();
	}
}

const budgets = new Map<string, RateBudget>();

/**
 * One budget per API key and base URL, shared by all items of an execution and by concurrent
 * executions in this process (spec 5.6: the limit is counted per key). The map is keyed by a
 * sha256 fingerprint so the raw key is never held as a map key.
 */
export function rateBudgetFor(apiKey: string, baseUrl: string): RateBudget {
	const fingerprint = createHash('sha256').update(baseUrl).update('\n').update(apiKey).digest('hex');
	const budget = budgets.get(fingerprint) ?? new RateBudget();
	budgets.set(fingerprint, budget);
	return budget;
}
