import * as workflow from 'n8n-workflow';

import { throwIfCancelled } from './cancel';

export { ExecutionCancelledError, throwIfCancelled } from './cancel';

/** A cancellable wait: `waitFor`, or a fake clock's in tests. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * A wait that ends early when the execution is cancelled. n8n-workflow 2.x has
 * `sleep(ms, signal)`; 1.x (inside n8n 1.x) has `sleep(ms)` and `sleepWithAbort(ms, signal)`.
 * Looking the helper up at run time makes one build work on both hosts.
 */
export async function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
	throwIfCancelled(signal);
	if (ms <= 0) return;
	const sleepWithAbort = (workflow as { sleepWithAbort?: Wait }).sleepWithAbort;
	const sleep: Wait = sleepWithAbort ?? workflow.sleep;
	// Both helpers reject with their own abort error; callers only need to know it was a cancel.
	const failure = await sleep(ms, signal).then(
		() => undefined,
		(error: unknown) => error ?? new Error('wait failed'),
	);
	throwIfCancelled(signal);
	if (failure !== undefined) throw failure;
}
