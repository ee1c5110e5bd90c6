import type { QueueWorker } from '../../scripts/n8n/queueMode';
import type { N8nRestApi, SavedExecution } from '../../scripts/n8n/restApi';
import type { Sandbox } from '../sandbox';
import type { Check } from './checks';
import { postBatch, type Batch } from './driver';
import { NODES } from './workflows';

export interface CrashReport {
	executionId: string;
	worker: string;
	/** Documents of the batch the service had accepted when the worker was killed. */
	accepted: number;
	/** Of those, the ones the Poller had read at least once before the kill. */
	readBeforeKill: number;
	/** Upload receipts (result IDs) found in the crashed execution's saved data. */
	receiptsSaved: number;
	/** The saved state resumes at the Poller (the node that had not finished). */
	resumesAt: string[];
	retry?: { id: string; status: string; worker?: string };
	/** From the kill to n8n marking the execution crashed (when the editor offers Retry). */
	crashedAfterSeconds: number;
	/** From the kill to the end of the retried execution. */
	recoverySeconds: number;
	checks: Check[];
}

/**
 * How soon n8n notices a dead worker, shortened for the suite (n8n's defaults in brackets): the
 * queue gives up a job whose lock the worker stopped renewing (lock 60 s, renewed every 10 s,
 * checked every 30 s), and the main process's next queue-recovery check marks its execution
 * crashed (every 180 minutes, and at start). Until then the execution shows as running.
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
 * A worker killed in the middle of a batch, and what a user then does. One batch goes through the
 * "upload, then the Poller" workflow (which saves its progress after each node); once its upload
 * node has finished and the Poller has read some of the results, the worker running it gets
 * SIGKILL, as an OOM killer or a lost machine would do. The crashed execution's saved data is read from n8n's REST API (what
 * the editor's execution view shows): it must hold the upload receipt of every document the service
 * accepted. Once n8n has marked it crashed, it is retried as the editor's "Retry with original
 * workflow" does (the editor offers Retry for crashed and failed executions): n8n starts a new
 * execution from the saved state on a worker that is alive, the Poller finishes the documents from
 * their result IDs, and nothing is uploaded again (the suite's duplicate-upload check covers it).
 */
export async function crashAndRecover(options: {
	mainUrl: string;
	api: N8nRestApi;
	workers: QueueWorker[];
	sandbox: Sandbox;
	batch: Batch;
	log: (message: string) => void;
}): Promise<CrashReport> {
	const { api, workers, sandbox, batch, log } = options;
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
	// "Save execution progress" writes the run data after each node: the receipts are in the
	// database once the upload node has finished. The Poller then reads the results as they are
	// due (the realistic 6-12 s per document): the worker dies once it has read some of them.
	await waitFor('the upload node to finish and its output to be saved', async () => {
		const runs = (await api.getExecution(executionId)).data.resultData.runData[NODES.upload];
		const failed = runs?.find((run) => run.error);
		if (failed) throw new Error(`Execution ${executionId} failed in "${NODES.upload}" before the Poller: ${failed.error!.message}`);
		return runs ? true : undefined;
	});
	const hashes = new Set(batch.documents.map((document) => document.sha256));
	const accepted = () => sandbox.stats().uploads.filter((upload) => upload.resultId && hashes.has(upload.sha256));
	const readSoFar = () => accepted().filter((upload) => (sandbox.stats().results[upload.resultId!]?.reads.length ?? 0) > 0).length;
	await waitFor("the Poller's first reads", () => (readSoFar() > 0 ? true : undefined));
	await worker.service.kill();
	const killedAt = Date.now();
	const read = readSoFar();
	webhookCall.abort();
	await call;
	const uploads = accepted();
	log(`Killed ${worker.name} (SIGKILL) while execution ${executionId} was in the Poller: the service had accepted ${uploads.length} of its ${batch.documents.length} documents, the Poller had read ${read} of them`);

	// The editor offers Retry for a crashed (or failed) execution: n8n marks it crashed once the
	// queue has given up the dead worker's job and its next queue-recovery check runs.
	const saved = await waitFor('n8n to mark the execution crashed', async () => {
		const execution = await api.getExecution(executionId);
		return execution.status === 'crashed' ? execution : undefined;
	});
	const crashedAfter = (Date.now() - killedAt) / 1000;
	const receipts = receiptsOf(saved);
	const resumesAt = (saved.data.executionData?.nodeExecutionStack ?? []).map((entry) => entry.node.name);
	log(`n8n marked execution ${executionId} crashed after ${crashedAfter.toFixed(0)} s; its saved data: ${receipts.size} upload receipts, resumes at ${resumesAt.join(', ') || 'nothing'}`);

	const survivors = workers.filter((candidate) => candidate !== worker);
	const survivorOffsets = new Map(survivors.map((survivor) => [survivor, survivor.service.output().length]));
	let retry: CrashReport['retry'];
	let retryProblem = '';
	try {
		const retried = await api.retryExecution(executionId);
		const ranOn = survivors.find((survivor) => survivor.service.output().slice(survivorOffsets.get(survivor)).includes(`Worker started execution ${retried.id} `));
		retry = { ...retried, worker: ranOn?.name };
		log(`Retried it: execution ${retried.id} ("${retried.status}") on ${ranOn?.name ?? 'an unknown worker'}`);
	} catch (error) {
		retryProblem = error instanceof Error ? error.message : String(error);
	}
	const recoverySeconds = (Date.now() - killedAt) / 1000;

	const missing = uploads.filter((upload) => !receipts.has(upload.resultId!));
	return {
		executionId,
		worker: worker.name,
		accepted: uploads.length,
		readBeforeKill: read,
		receiptsSaved: receipts.size,
		resumesAt,
		retry,
		crashedAfterSeconds: crashedAfter,
		recoverySeconds,
		checks: [
			{
				id: 'crash-receipts-saved',
				name: 'a killed worker loses no result ID: the crashed execution saved every accepted upload',
				ok: uploads.length > 0 && missing.length === 0,
				detail: `${uploads.length - missing.length}/${uploads.length} receipts in execution ${executionId}'s saved data (killed ${worker.name})${missing.length ? `; missing ${missing.map((upload) => upload.filename).join(', ')}` : ''}`,
			},
			{
				id: 'crash-retry',
				name: "n8n's Retry of the crashed execution finishes its documents on another worker",
				ok: retry?.status === 'success' && retry.worker !== undefined && resumesAt.includes(NODES.poller),
				detail: retry
					? `execution ${retry.id}: ${retry.status} on ${retry.worker ?? '?'}, resumed at ${resumesAt.join(', ')}; crashed ${crashedAfter.toFixed(0)} s and finished ${recoverySeconds.toFixed(0)} s after the kill`
					: `retry failed: ${retryProblem}`,
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

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + STEP_TIMEOUT_MS;
	while (Date.now() < deadline) {
		const value = await probe();
		if (value !== undefined) return value;
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
	throw new Error(`Timed out waiting for ${what}`);
}
