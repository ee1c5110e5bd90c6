/**
 * The sandbox's notion of "now". Result states and rate-limit windows are derived from it, so
 * a test can move time forward instead of waiting (e.g. past a rate-limit window).
 */
export interface SandboxClock {
	/** Milliseconds since the epoch, as the sandbox sees it. */
	now(): number;
	/** Moves the sandbox's time forward (never backward). */
	advance(ms: number): void;
}

export function createClock(source: () => number = Date.now): SandboxClock {
	let offset = 0;
	return {
		now: () => source() + offset,
		advance(ms: number) {
			if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock.advance() needs a non-negative number of ms');
			offset += ms;
		},
	};
}

export function toIso(ms: number): string {
	return new Date(ms).toISOString();
}

/** Spec 7.1 `renews_at`: when the free plan's pages come back; the sandbox says the first day of the next month (UTC). */
export function firstDayOfNextMonthUtc(ms: number): string {
	const date = new Date(ms);
	return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString();
}

export function monthKeyUtc(ms: number): string {
	const date = new Date(ms);
	return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}
