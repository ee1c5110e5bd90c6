import { createHash } from 'crypto';

import { DEFAULT_REQUESTS_PER_MINUTE } from '../limits';
import { throwIfCancelled, waitFor, type Wait } from '../wait';

/** Spec 2.8: the limit is counted per key over a one-minute window. */
export const RATE_WINDOW_MS = 60_000;
/** Spec 8.5: wait `Retry-After`, but a broken or hostile value must not park an execution for hours. */
export const MAX_RATE_LIMIT_BLOCK_MS = 60_000;
/** Requests left unused in every window, against rounding and requests this process cannot see. */
const RATE_SAFETY_MARGIN = 1;
/** Once the headers show another user of the key (worker, client): room for their requests in flight, for a while. */
export const SHARED_KEY_SAFETY_MARGIN = 4;
const SHARED_KEY_MEMORY_MS = 5 * RATE_WINDOW_MS;
/** `X-RateLimit-Reset` is in whole seconds, rounded either way. */
const RESET_ROUNDING_ALLOWANCE_MS = 1000;
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
	private remaining = DEFAULT_REQUESTS_PER_MINUTE;
	/** 0 until the first request opens a window: before any header, a fresh window is assumed. */
	private resetAt = 0;
	/** `resetAt` is our guess (the server's window starts a little later): its first answer replaces it, else requests released at the guessed end would collect 429s. */
	private windowAssumed = false;
	private blockedUntil = 0;
	/** Until when the key counts as shared with requests this process does not make. */
	private sharedUntil = 0;
	/** Requests reserved in this window: at least what the server counted of ours. */
	private sentInWindow = 0;
	/** Reservation times of requests whose response has not been observed yet. */
	private inFlight: number[] = [];
	constructor(private readonly clock: Clock = systemClock) {}

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
			if (now >= this.resetAt) {
				// Nothing heard about a newer window: assume a fresh one; the next response corrects it.
				this.remaining = this.limit;
				this.resetAt = now + RATE_WINDOW_MS;
				this.windowAssumed = true;
				this.sentInWindow = 0;
			}
			if (this.remaining > this.margin()) {
				this.remaining -= 1;
				this.sentInWindow += 1;
				this.expireInFlight(now);
				this.inFlight.push(now);
				return;
			}
			await wait(this.resetAt - now, signal);
		}
	}

	/** Update from a response's X-RateLimit-* headers (lower-cased names); garbage is ignored. */
	observe(headers: Record<string, unknown>): void {
		const now = this.clock.now();
		this.expireInFlight(now);
		// One response settles one reservation; which one does not matter, only how many remain.
		this.inFlight.shift();

		const limit = readCount(headers['x-ratelimit-limit']);
		const remaining = readCount(headers['x-ratelimit-remaining']);
		const resetSeconds = readCount(headers['x-ratelimit-reset']);
		const limitChanged = limit !== undefined && limit > 0 && limit !== this.limit;
		if (limitChanged) this.limit = limit;
		if (remaining === undefined) return;

		const serverView = Math.max(0, Math.min(remaining, this.limit) - this.inFlight.length);
		const serverResetAt =
			resetSeconds === undefined ? undefined : now + resetSeconds * 1000 + RESET_ROUNDING_ALLOWANCE_MS;
		const localWindowOver = now >= this.resetAt;
		// A later window ends about a minute after ours; rounding and latency move an end by seconds.
		const serverIsInLaterWindow = serverResetAt !== undefined && serverResetAt > this.resetAt + RATE_WINDOW_MS / 2;

		if (localWindowOver || serverIsInLaterWindow || limitChanged) {
			if (localWindowOver || serverIsInLaterWindow) this.sentInWindow = this.inFlight.length + 1;
			this.remaining = serverView;
			this.resetAt = serverResetAt ?? now + RATE_WINDOW_MS;
		} else {
			this.remaining = Math.min(this.remaining, serverView);
			if (serverResetAt !== undefined) {
				// Several answers about one window: the earliest announced end is the tightest true bound.
				this.resetAt = this.windowAssumed ? serverResetAt : Math.min(this.resetAt, serverResetAt);
			}
		}
		if (serverResetAt !== undefined) this.windowAssumed = false;
		// The server counted more requests in this window than this process sent: someone else uses the key.
		if (this.limit - remaining > this.sentInWindow) this.sharedUntil = now + SHARED_KEY_MEMORY_MS;
	}

	/** After a 429: nothing is sent before Retry-After elapses (bounded), and the window counts as spent. */
	blockFor(ms: number): void {
		if (!Number.isFinite(ms) || ms <= 0) return;
		const until = this.clock.now() + Math.min(ms, MAX_RATE_LIMIT_BLOCK_MS);
		this.blockedUntil = Math.max(this.blockedUntil, until);
		this.remaining = 0;
		// Retry-After tells when the server accepts again, i.e. when its window ends.
		this.resetAt = this.blockedUntil;
		this.windowAssumed = false;
	}

	snapshot(): RateLimitSnapshot {
		const now = this.clock.now();
		const windowOver = now >= this.resetAt;
		const remaining = windowOver ? this.limit : this.remaining;
		return {
			limit: this.limit,
			remaining: Math.max(0, remaining - this.margin()),
			resetAt: windowOver ? now + RATE_WINDOW_MS : this.resetAt,
		};
	}

	private margin(): number {
		const margin = this.clock.now() < this.sharedUntil ? SHARED_KEY_SAFETY_MARGIN : RATE_SAFETY_MARGIN;
		// A tiny limit still has to allow a request per window.
		return Math.max(0, Math.min(margin, this.limit - 1));
	}

	private expireInFlight(now: number): void {
		while (this.inFlight.length > 0 && now - this.inFlight[0] > IN_FLIGHT_EXPIRY_MS) this.inFlight.shift();
	}
}

/** A non-negative integer header value (at most 15 digits, so exact), or undefined for a missing or garbage one. */
function readCount(value: unknown): number | undefined {
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
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
