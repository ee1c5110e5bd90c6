import type { QueueWorker } from '../../scripts/n8n/queueMode';
import type { N8nRestApi, SavedExecution } from '../../scripts/n8n/restApi';
import type { Sandbox } from '../../sandbox/src';
import type { Check } from './checks';
import type { Collector } from './collector';
import { postBatch, type Batch } from './driver';
import { FINISH_STORED, NODES } from './workflows';

export interface CrashReport {
	executionId: string;
	worker: string;
	/** Documents of the batch the service had accepted when the worker was killed. */
	accepted: number;
	/** Of those, the ones whose receipt the workflow had stored (outside n8n) before the kill. */
	receiptsStored: number;
	/** The statuses n8n gave the execution once it noticed the dead worker, in order (n8n 2.41: crashed, then error). */
	endedAs: string[];
	/** From the kill to n8n ending the execution. */
	endedAfterSeconds: number;
	/** Upload receipts left in the execution's saved data once n8n had ended it. */
	receiptsKept: number;
	/** The editor's Retry of the ended execution: what it ran, and the batch's uploads it sent (must be none). */
	retry: { id: string; status: string; nodesRun: string[]; uploads: number } | { refused: string };
	/** What finished the batch's documents. */
	finishedBy: 'Retry' | 'the stored result IDs' | 'nothing';
	/** From the kill to the batch's last document out. */
	recoverySeconds: number;
	checks: Check[];
}

/**
 * How soon n8n notices a dead worker, shortened for the suite (n8n's defaults in brackets): the
 * queue gives up a job whose lock the worker stopped renewing (lock 60 s, renewed every 10 s,
 * checked every 30 s); then the main process fails the execution, and its queue-recovery check
 * may mark it crashed first (every 180 minutes, and at start). Until then it shows as running.
 */
export const CRASH_DETECTION_ENV: NodeJS.ProcessEnv = {
	QUEUE_WORKER_LOCK_DURATION: '20000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
	// Minutes: 6 s.
	N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.1',
};

const POLL_MS = 250;
const STEP_TIMEOUT_MS = 90_000;
/**
 * n8n 2.41's main process, told that a job stalled, rechecks the execution for up to 30 s before it
 * fails it: a "crashed" status can still turn into "error" that long after.
 */
const SETTLE_MS = 35_000;
const IN_PROGRESS = new Set(['new', 'running']);

/**
 * A worker killed in the middle of a batch, and what a user then does. One batch goes through the
 * "upload, then the Poller" workflow, which stores each upload receipt outside n8n before the
 * Poller starts; once the receipts are stored, the worker running it gets SIGKILL, as an OOM killer
 * or a lost machine would do, while the Poller waits. Then, as a user would:
 * - wait until n8n ends the execution (its queue gives up the job; n8n 2.41 marks it crashed, and
 *   about a second later its main process fails it and replaces its saved data);
 * - choose Retry in the editor: it must not upload anything again (pages would be charged twice);
 * - when the Retry had nothing left to resume (n8n discarded the saved receipts), finish the
 *   documents from the stored result IDs with the Poller in another workflow.
 * The suite's own checks then see every document of the batch out exactly once, none uploaded twice.
 */
export async function crashAndRecover(options: {
	mainUrl: string;
	api: N8nRestApi;
	workers: QueueWorker[];
	sandbox: Sandbox;
	collector: Collector;
	batch: Batch;
	log: (message: string) => void;
}): Promise<CrashReport> {
	const { api, workers, sandbox, collector, batch, log } = options;
	const logOffsets = new Map(workers.map((worker) => [worker, worker.service.output().length]));
	const webhookCall = new AbortController();
	// The webhook's answer never comes (its execution dies with the worker): the call is abandoned.
	const call = postBatch(options.mainUrl, batch, webhookCall.signal);

	const { worker, executionId } = await waitFor('a worker to start the batch', () => {
		for (const candidate of workers) {
			const started = /Worker started execution (\S+) /.exec(candidate.service.output().slice(logOffsets.get(candidate)));
			if (started) return { worker: candidate, executionId: started[1] };
		}
		return undefined;
	});
	const hashes = new Set(batch.documents.map((document) => document.sha256));
	// Uploads of the batch's files the service received (sent) and took (accepted, with a result ID).
	const sent = () => sandbox.stats().uploads.filter((upload) => hashes.has(upload.sha256));
	const accepted = () => sent().filter((upload) => upload.resultId);
	const stored = () => new Set(collector.receipts().filter((receipt) => receipt.execution === executionId).map((receipt) => receipt.result_id));
	const batchItems = () => {
		const resultIds = new Set(accepted().map((upload) => upload.resultId));
		return collector.items().filter((item) => item.result_id !== null && resultIds.has(item.result_id));
	};
	// The upload node has finished and its "Store Receipts" branch has run: the Poller, next, waits
	// for documents that take seconds to process.
	await waitFor('the upload receipts to be stored', () => {
		const [uploads, ids] = [accepted(), stored()];
		return uploads.length === batch.documents.length && uploads.every((upload) => ids.has(upload.resultId!)) ? true : undefined;
	});
	await worker.service.kill();
	const killedAt = Date.now();
	const since = () => ((Date.now() - killedAt) / 1000).toFixed(0);
	webhookCall.abort();
	await call;
	const [uploads, storedIds] = [accepted(), stored()];
	const receiptsStored = uploads.filter((upload) => storedIds.has(upload.resultId!)).length;
	const outEarly = batchItems().length;
	log(`Killed ${worker.name} (SIGKILL) while execution ${executionId} was in the Poller: the service had accepted ${uploads.length} of its ${batch.documents.length} documents, ${receiptsStored} receipts stored, ${outEarly} documents out`);
	if (outEarly > 0) throw new Error(`The worker was killed too late: ${outEarly} documents of execution ${executionId} had already come out`);

	// n8n ends the execution once its queue gives up the dead worker's job; a "crashed" status can
	// still be replaced, so the suite waits until it settles.
	const endedAs: string[] = [];
	let ended = await waitFor('n8n to end the execution', async () => {
		const execution = await api.getExecution(executionId);
		return IN_PROGRESS.has(execution.status) ? undefined : execution;
	});
	const endedAfterSeconds = (Date.now() - killedAt) / 1000;
	endedAs.push(ended.status);
	const settleBy = Date.now() + SETTLE_MS;
	while (ended.status === 'crashed' && Date.now() < settleBy) {
		await pause(POLL_MS);
		ended = await api.getExecution(executionId);
		if (ended.status !== endedAs.at(-1)) endedAs.push(ended.status);
	}
	const receiptsKept = receiptsOf(ended).size;
	log(`n8n ended execution ${executionId} ${endedAfterSeconds.toFixed(0)} s after the kill as ${endedAs.join(', then ')}; its saved data keeps ${receiptsKept} upload receipts`);

	// The editor offers Retry for a crashed or failed execution.
	const uploadsBeforeRetry = sent().length;
	let retry: CrashReport['retry'];
	try {
		const retried = await api.retryExecution(executionId);
		const nodesRun = Object.keys((await api.getExecution(retried.id)).data.resultData.runData);
		retry = { ...retried, nodesRun, uploads: sent().length - uploadsBeforeRetry };
		log(`Retry: execution ${retried.id} ended "${retried.status}", ran ${nodesRun.join(', ') || 'no node'}, uploaded ${retry.uploads} documents`);
	} catch (error) {
		retry = { refused: error instanceof Error ? error.message : String(error) };
		log(`Retry refused: ${retry.refused}`);
	}

	let finishedBy: CrashReport['finishedBy'] = batchItems().length > 0 ? 'Retry' : 'nothing';
	if (finishedBy === 'nothing') {
		const results = [...storedIds].map((result_id) => ({ result_id }));
		const answer = await fetch(`${options.mainUrl}/webhook/${FINISH_STORED.path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ results }),
		});
		log(`Posted the ${results.length} stored result IDs to the "finish stored result IDs" workflow: ${answer.status} after ${since()} s`);
		if (answer.ok) finishedBy = 'the stored result IDs';
	}
	const recoverySeconds = (Date.now() - killedAt) / 1000;
	const out = new Set(batchItems().map((item) => item.result_id));

	return {
		executionId,
		worker: worker.name,
		accepted: uploads.length,
		receiptsStored,
		endedAs,
		endedAfterSeconds,
		receiptsKept,
		retry,
		finishedBy,
		recoverySeconds,
		checks: [
			{
				id: 'crash-receipts-stored',
				name: 'a killed worker loses no result ID: every accepted upload was stored before the Poller waited',
				ok: uploads.length === batch.documents.length && receiptsStored === uploads.length,
				detail: `${receiptsStored}/${uploads.length} receipts of execution ${executionId} stored (killed ${worker.name}); n8n then ended it as ${endedAs.join(' → ')} with ${receiptsKept} receipts left in its saved data`,
			},
			{
				id: 'crash-retry-uploads-nothing',
				name: "n8n's Retry of the dead worker's execution uploads nothing again",
				ok: 'refused' in retry || retry.uploads === 0,
				detail: 'refused' in retry ? `Retry refused: ${retry.refused}` : `execution ${retry.id}: ${retry.status}, ran ${retry.nodesRun.join(', ') || 'no node'}, ${retry.uploads} uploads`,
			},
			{
				id: 'crash-finished',
				name: "the killed worker's documents are finished after the crash",
				ok: uploads.every((upload) => out.has(upload.resultId!)),
				detail: `${out.size}/${uploads.length} out, by ${finishedBy}, ${recoverySeconds.toFixed(0)} s after the kill`,
			},
		],
	};
}

/** The result IDs in the output the upload node saved. */
function receiptsOf(execution: SavedExecution): Set<string> {
	const runs = execution.data.resultData.runData[NODES.upload] ?? [];
	const ids = runs.flatMap((run) => (run.data?.main?.[0] ?? []).map((item) => item.json.result_id));
	return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

function pause(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + STEP_TIMEOUT_MS;
	while (Date.now() < deadline) {
		const value = await probe();
		if (value !== undefined) return value;
		await pause(POLL_MS);
	}
	throw new Error(`Timed out waiting for ${what}`);
}
