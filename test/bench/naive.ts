import { setTimeout as sleep } from 'node:timers/promises';

import type { BenchDocument } from './documents';

/** The interval of the usual "HTTP Request, Wait 2.5 s, IF not done loop back" workflow. */
export const NAIVE_INTERVAL_MS = 2500;

export interface NaiveConfig {
	baseUrl: string;
	apiKey: string;
	batch: number;
	lanes: number;
}

export interface NaiveRun {
	startedAt: number;
	endedAt: number;
	/** Epoch ms at which the client first held each result's terminal answer. */
	seenTerminalAt: Map<string, number>;
}

/**
 * The baseline: the same batches and lanes as the node's workflow, but plain fetch calls that
 * respect nothing: each upload is retried every 2.5 s until accepted, and each result is read
 * 2.5 s after its upload and then 2.5 s after each answer (a Wait node between HTTP Requests)
 * until it is terminal, whatever the answer (429 included).
 */
export async function runNaive(documents: BenchDocument[], config: NaiveConfig): Promise<NaiveRun> {
	const batches: BenchDocument[][] = [];
	for (let i = 0; i < documents.length; i += config.batch) batches.push(documents.slice(i, i + config.batch));
	const run: NaiveRun = { startedAt: Date.now(), endedAt: 0, seenTerminalAt: new Map() };
	let uploadTurn: Promise<unknown> = Promise.resolve();

	const lane = async () => {
		for (let batch = batches.shift(); batch; batch = batches.shift()) {
			// Uploads take turns across lanes for the same reason as in workflow.ts (the sandbox's pdfjs).
			const uploads = uploadTurn.then(async () => {
				const ids: Array<{ resultId: string }> = [];
				for (const document of batch!) ids.push(await uploadUntilAccepted(document, config));
				return ids;
			});
			uploadTurn = uploads.catch(() => undefined);
			await Promise.all((await uploads).map((upload) => readUntilTerminal(upload, config, run)));
		}
	};
	await Promise.all(Array.from({ length: config.lanes }, lane));
	run.endedAt = Date.now();
	return run;
}

async function uploadUntilAccepted(document: BenchDocument, config: NaiveConfig): Promise<{ resultId: string }> {
	for (;;) {
		const form = new FormData();
		form.append('file', new Blob([document.bytes as Uint8Array<ArrayBuffer>], { type: document.mimeType }), document.fileName);
		const response = await fetch(`${config.baseUrl}/api/v1/process`, { method: 'POST', headers: { 'X-API-Key': config.apiKey }, body: form });
		const body = (await response.json()) as { result_id?: string };
		if (response.status === 202 && body.result_id) return { resultId: body.result_id };
		await sleep(NAIVE_INTERVAL_MS);
	}
}

async function readUntilTerminal(upload: { resultId: string }, config: NaiveConfig, run: NaiveRun): Promise<void> {
	for (;;) {
		await sleep(NAIVE_INTERVAL_MS);
		const response = await fetch(`${config.baseUrl}/api/v1/results/${upload.resultId}`, { headers: { 'X-API-Key': config.apiKey } });
		const body = (await response.json()) as { status?: string };
		if (response.status === 200 && body.status !== 'queued' && body.status !== 'processing') {
			run.seenTerminalAt.set(upload.resultId, Date.now());
			return;
		}
	}
}
