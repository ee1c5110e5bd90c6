/**
 * A cancelled execution, apart from wait.ts: code that must not load n8n-workflow for it (the
 * photo codecs of images/, run in benchmarks' bare processes) can check the signal too.
 */
export class ExecutionCancelledError extends Error {
	constructor() {
		super('The execution was cancelled');
		this.name = 'ExecutionCancelledError';
	}
}

export function throwIfCancelled(signal?: AbortSignal): void {
	if (signal?.aborted) throw new ExecutionCancelledError();
}
