import { throwIfCancelled } from '../cancel';
import type { Wait } from '../wait';

/**
 * Long image work (decoding, resizing and encoding a 48-megapixel photo: about 2 s of CPU) is
 * written as generators that `yield` at checkpoints: after a row, an MCU row, a piece of inflated
 * data, each well under a millisecond once the code is warm. n8n runs every execution on one event
 * loop, so a shrink run straight through held it (webhooks, other workflows, timers) for 2 to 3 s.
 * `runGivingWay` lets it run whenever SLICE_MS of work have passed, and stops at the next pause
 * once the execution is cancelled; `runSteps` runs the same steps straight through (the
 * synchronous API: decodeJpeg, encodeJpeg, resizeToFit, ...). Steps are pure computation: the
 * bytes made are the same either way. A hot loop stays in a plain function the generator calls:
 * V8 does not optimise a loop inside a generator while it runs (no on-stack replacement there).
 */
export type Steps<T> = Generator<void, T, void>;

/** Work between two pauses: short enough for a webhook not to notice, long enough for the pauses (a 1 ms timer each) to cost little. */
export const SLICE_MS = 20;

/**
 * How to give way: `wait` is n8n's sleep (wait.ts `waitFor`, which the node passes: images/ does
 * not load n8n-workflow itself), `signal` the execution's cancel signal.
 */
export interface GiveWay {
	wait: Wait;
	signal?: AbortSignal;
}

export function runSteps<T>(steps: Steps<T>): T {
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
	}
}

/** Runs the steps, waiting 1 ms every `sliceMs` of work; throws ExecutionCancelledError once `signal` is aborted. */
export async function runGivingWay<T>(steps: Steps<T>, { wait, signal }: GiveWay, sliceMs = SLICE_MS): Promise<T> {
	throwIfCancelled(signal);
	let since = Date.now();
	for (;;) {
		const step = steps.next();
		if (step.done) return step.value;
		// Date.now() at every checkpoint costs tens of nanoseconds; a checkpoint's work, microseconds or more.
		if (Date.now() - since >= sliceMs) {
			// A timer: everything waiting on the event loop runs before it ends.
			await wait(1, signal);
			throwIfCancelled(signal);
			since = Date.now();
		}
	}
}
