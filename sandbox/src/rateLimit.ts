import { RATE_WINDOW_MS } from './spec';

export interface RateDecision {
	allowed: boolean;
	limit: number;
	remaining: number;
	/** Whole seconds until the current window ends (spec 2.8 X-RateLimit-Reset). */
	resetSeconds: number;
}

/**
 * Spec 2.8 / 8: requests per minute counted per KEY, in fixed one-minute windows. A key's window
 * opens with its first request and runs a full minute.
 */
export class RateLimiter {
	private readonly windows = new Map<string, { start: number; count: number }>();

	constructor(private readonly now: () => number) {}

	consume(key: string, limit: number): RateDecision {
		const now = this.now();
		let window = this.windows.get(key);
		if (!window || now >= window.start + RATE_WINDOW_MS) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		const { start } = window;
		const allowed = window.count < limit;
		if (allowed) window.count += 1;
		return {
			allowed,
			limit,
			remaining: Math.max(0, limit - window.count),
			resetSeconds: Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000)),
		};
	}

	/** Headers of spec 2.8, sent on every documented response once the key is known. */
	static headers(decision: RateDecision): Record<string, string> {
		return {
			'X-RateLimit-Limit': String(decision.limit),
			'X-RateLimit-Remaining': String(decision.remaining),
			'X-RateLimit-Reset': String(decision.resetSeconds),
		};
	}
}
