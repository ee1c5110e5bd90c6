import { MIN_RESULT_READ_INTERVAL_MS } from '../limits';
import { waitFor } from '../wait';
import type { RateBudget } from './rateBudget';

/**
 * Spec 4.4: 2-3 s between reads of one result. The scheduler keeps that within one run of a
 * node; this keeps it across runs in one n8n process: n8n's "Retry On Fail" (or a re-run) reads
 * the same results again a second or less after the last try. Kept per key, like the budget.
 */
const lastReadEnded = new WeakMap<RateBudget, Map<string, number>>();

/** Waits until the result may be read again (at once, unless it was read less than 2 s ago). */
export async function waitForReadTurn(budget: RateBudget, resultId: string, signal?: AbortSignal, now = Date.now()): Promise<void> {
	const last = lastReadEnded.get(budget)?.get(resultId);
	if (last !== undefined && now - last < MIN_RESULT_READ_INTERVAL_MS) await waitFor(last + MIN_RESULT_READ_INTERVAL_MS - now, signal);
}

export function readEnded(budget: RateBudget, resultId: string, now = Date.now()): void {
	const reads = lastReadEnded.get(budget) ?? new Map<string, number>();
	lastReadEnded.set(budget, reads);
	reads.delete(resultId);
	reads.set(resultId, now);
	// Insertion order is age order: entries older than the interval no longer hold anything back.
	for (const [id, at] of reads) {
		if (now - at < MIN_RESULT_READ_INTERVAL_MS) break;
		reads.delete(id);
	}
}
