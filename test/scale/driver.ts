import type { ScaleDocument } from './documents';
import { WEBHOOK_PATHS, type ScaleMode } from './workflows';

export interface Batch {
	index: number;
	mode: ScaleMode;
	documents: ScaleDocument[];
}

export interface BatchRun {
	batch: Batch;
	startedAt: number;
	endedAt: number;
	/** HTTP status of the webhook's answer (sent when the execution has finished); 0: no answer. */
	status: number;
	/** The answer's text when it was not a success, or the request's error. */
	problem?: string;
}

/**
 * Sends batches to the workflows' webhooks as `lanes` callers at once: each caller posts a batch,
 * waits for the answer (the webhook answers when the execution has finished on a worker), then
 * takes the next batch. So `lanes` executions run at any time, spread over the workers by the queue.
 */
export async function runBatches(mainUrl: string, batches: Batch[], lanes: number): Promise<BatchRun[]> {
	const queue = [...batches];
	const runs: BatchRun[] = [];
	const lane = async () => {
		for (let batch = queue.shift(); batch; batch = queue.shift()) runs.push(await postBatch(mainUrl, batch));
	};
	await Promise.all(Array.from({ length: Math.min(lanes, batches.length) }, lane));
	return runs.sort((a, b) => a.batch.index - b.batch.index);
}

/** One multipart request with every file of the batch, as an email or form integration would send it. */
export async function postBatch(mainUrl: string, batch: Batch, signal?: AbortSignal): Promise<BatchRun> {
	const form = new FormData();
	batch.documents.forEach((document, i) => form.append(`file${i}`, new Blob([document.bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), document.fileName));
	const startedAt = Date.now();
	try {
		const response = await fetch(`${mainUrl}/webhook/${WEBHOOK_PATHS[batch.mode]}`, { method: 'POST', body: form, signal });
		const text = await response.text();
		return { batch, startedAt, endedAt: Date.now(), status: response.status, ...(response.ok ? {} : { problem: text.slice(0, 500) }) };
	} catch (error) {
		return { batch, startedAt, endedAt: Date.now(), status: 0, problem: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * Each document in an execution of its own, all at once (the queue spreads them over the workers):
 * throws unless every execution finished.
 */
export async function postEachAtOnce(mainUrl: string, documents: ScaleDocument[], firstIndex: number, what: string): Promise<void> {
	const runs = await Promise.all(documents.map((document, i) => postBatch(mainUrl, { index: firstIndex + i, mode: 'wait', documents: [document] })));
	const failed = runs.filter((run) => run.status !== 200);
	if (failed.length > 0) throw new Error(`${what}: ${failed.length} executions failed (${failed[0].status} ${failed[0].problem ?? ''})`);
}
