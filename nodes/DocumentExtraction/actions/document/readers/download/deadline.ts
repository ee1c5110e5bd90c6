import { waitFor } from '../../../../../shared/wait';

/**
 * One deadline for a whole download, every redirect and the body included: a server that sends a
 * byte now and then never trips an idle timeout, and would hold the item for ever. Mutable for
 * tests (as transport.ts's RETRY).
 */
export const DOWNLOAD = { deadlineMs: 60_000 };

export interface Deadline {
	/** Aborted when the deadline passes or the execution is cancelled: given to every request. */
	signal: AbortSignal;
	/** The deadline passed (not a cancel). */
	expired(): boolean;
	/** Ends the wait; call once the download is over, however it ended. */
	end(): void;
}

/** Starts the download's clock; `cancel` is the execution's cancel signal. */
export function startDeadline(cancel: AbortSignal | undefined): Deadline {
	const abort = new AbortController();
	const done = new AbortController();
	let expired = false;
	const onCancel = () => abort.abort(cancel?.reason);
	if (cancel?.aborted) onCancel();
	else cancel?.addEventListener('abort', onCancel, { once: true });
	waitFor(DOWNLOAD.deadlineMs, done.signal).then(
		() => {
			expired = true;
			abort.abort(new Error(`The download took longer than ${DOWNLOAD.deadlineMs} ms`));
		},
		// Ended before the deadline: nothing to do.
		() => undefined,
	);
	return {
		signal: abort.signal,
		expired: () => expired,
		end: () => {
			done.abort();
			cancel?.removeEventListener('abort', onCancel);
		},
	};
}
