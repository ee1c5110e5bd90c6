import { ExecutionCancelledError, throwIfCancelled } from './wait';

/**
 * Waits for `promise`, but rejects with ExecutionCancelledError as soon as `signal` aborts, so a
 * cancelled execution never sits in a queue behind other callers.
 */
export async function untilCancelled<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	throwIfCancelled(signal);
	if (!signal) return await promise;
	let onAbort: (() => void) | undefined;
	const cancelled = new Promise<never>((_, reject) => {
		onAbort = () => reject(new ExecutionCancelledError());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, cancelled]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}
