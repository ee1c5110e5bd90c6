/** The X-RateLimit-* headers of an answer (spec 2.8), as the rate budget reads them. */

/** Spec 2.8: the limit is counted per key over a one-minute window. */
export const RATE_WINDOW_MS = 60_000;
/** `X-RateLimit-Reset` is in whole seconds, rounded either way. */
const RESET_ROUNDING_ALLOWANCE_MS = 1000;

/** What one response's X-RateLimit-* headers say; a missing or garbage header is undefined. */
export interface RateHeaders {
	limit?: number;
	remaining?: number;
	/** Epoch ms when the server's window ends, rounding allowed for. */
	resetAt?: number;
}

/**
 * The X-RateLimit-* headers of one response, the reset turned into epoch ms. The window that
 * counted this request is one minute long and held it before its answer came: it ends within a
 * minute from now, whatever way the server rounds Reset. The request that opens a window thus
 * learns its end to within its own round trip, instead of the rounding allowance's second (which
 * the key would otherwise idle at every window's end).
 */
export function readRateHeaders(headers: Record<string, unknown>, now: number): RateHeaders {
	const resetSeconds = readCount(headers['x-ratelimit-reset']);
	return {
		limit: readCount(headers['x-ratelimit-limit']),
		remaining: readCount(headers['x-ratelimit-remaining']),
		resetAt: resetSeconds === undefined ? undefined : Math.min(now + resetSeconds * 1000 + RESET_ROUNDING_ALLOWANCE_MS, now + RATE_WINDOW_MS),
	};
}

/** A non-negative integer header value (at most 15 digits, so exact), or undefined for a missing or garbage one. */
function readCount(value: unknown): number | undefined {
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}
