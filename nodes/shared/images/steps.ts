import { throwIfCancelled, waitFor } from '../wait';

/**
 * Long image work (decoding, resizing and encoding a 48-megapixel photo: about 2 s of CPU) is
 * written as generators that `yield` at checkpoints: after a row, an MCU row, a piece of inflated
 * data, each well under a millisecond. n8n runs every execution on one event loop, so a shrink run
 * straight through held it (webhooks, other workflows, timers) for 2 to 3 s. `runGivingWay`
 * lets it run whenever SLICE_MS of work have passed, and stops at the next checkpoint once the
 * execution is cancelled; `runSteps` runs the same steps straight through (the synchronous API:
 * decodeJpeg, encodeJpeg, resizeToFit, ...). Steps are pure computation: the bytes made are the
 * same either way.
 */
export type Steps<T> = Generator<void, T, void>;

/** Work between two pauses: short enough for a webhook not to notice, long enough for the pauses (a 1 ms timer each) to cost little. */
export const SLICE_MS = 20;

export function runSteps<T>(steps: Steps<T>): T {
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
	}
}

/** Runs the steps, giving way to the event loop every `sliceMs`; throws ExecutionCancelledError once `signal` is aborted. */
export async function runGivingWay<T>(steps: Steps<T>, signal?: AbortSignal, sliceMs = SLICE_MS): Promise<T> {
	throwIfCancelled(signal);
	let since = Date.now();
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
		// Date.now() at every checkpoint costs tens of nanoseconds; a checkpoint's work, microseconds or more.
		if (Date.now() - since >= sliceMs) {
			// n8n's sleep (a timer): everything waiting on the event loop runs before it ends.
			await waitFor(1, signal);
			since = Date.now();
		}
	}
}
