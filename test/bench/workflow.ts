import type { INodeExecutionData } from 'n8n-workflow';

import { binaryItem, runNode, type TestCredential } from '../harness/engine';
import type { BenchDocument } from './documents';

export interface FlowConfig {
	credential: TestCredential;
	/** Loop Over Items batch size. */
	batch: number;
	/** Executions at once on the key. */
	lanes: number;
	/** The Poller's timeout, seconds. */
	pollerTimeoutSeconds: number;
}

export interface FlowRun {
	startedAt: number;
	endedAt: number;
	/** Items per Poller output over all batches: done, rejected, error, still processing. */
	outputs: [number, number, number, number];
	/** Node errors (a failed upload or poller run), which would stop a real workflow. */
	failures: string[];
}

/**
 * The workflow a user builds for throughput, run by n8n's engine: Loop Over Items hands out
 * batches; per batch, Document Extraction (Extract, "Wait for Result" off) uploads the files, then
 * the Document Extraction Poller waits for their results. `lanes` executions run it at once on
 * one credential, taking the next batch when they finish one, as n8n's concurrent production
 * executions or queue-mode workers do.
 */
export async function runExtractionWorkflow(documents: BenchDocument[], config: FlowConfig): Promise<FlowRun> {
	const batches: BenchDocument[][] = [];
	for (let i = 0; i < documents.length; i += config.batch) batches.push(documents.slice(i, i + config.batch));
	const run: FlowRun = { startedAt: Date.now(), endedAt: 0, outputs: [0, 0, 0, 0], failures: [] };
	const uploads = new UploadTurns(config.lanes > 1);

	const lane = async () => {
		for (let batch = batches.shift(); batch; batch = batches.shift()) {
			const receipts = await uploads.take(() => uploadBatch(batch!, config.credential));
			if ('failure' in receipts) {
				run.failures.push(receipts.failure);
				continue;
			}
			const polled = await runNode({
				nodeType: 'poller',
				parameters: { options: { timeout: config.pollerTimeoutSeconds } },
				credential: config.credential,
				input: receipts.items,
			});
			if (polled.error) run.failures.push(`poller: ${polled.error.message}`);
			polled.outputs.forEach((items, output) => (run.outputs[output] += items.length));
		}
	};
	await Promise.all(Array.from({ length: config.lanes }, lane));
	run.endedAt = Date.now();
	return run;
}

/**
 * What a user does with one invoice: Document Extraction (Extract, "Wait for Result" on), one
 * document per execution, one execution after another (the editor's "Test step", or a trigger
 * that fires now and then). The same read policy as the Poller waits inside the node.
 */
export async function runOneAtATime(documents: BenchDocument[], credential: TestCredential): Promise<FlowRun> {
	const run: FlowRun = { startedAt: Date.now(), endedAt: 0, outputs: [0, 0, 0, 0], failures: [] };
	for (const document of documents) {
		const extracted = await runNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', waitForResult: true },
			credential,
			input: [binaryItem(document.bytes, document.fileName, document.mimeType)],
		});
		if (extracted.error) run.failures.push(`extract: ${extracted.error.message}`);
		run.outputs[0] += extracted.outputs[0]?.length ?? 0;
	}
	run.endedAt = Date.now();
	return run;
}

async function uploadBatch(batch: BenchDocument[], credential: TestCredential): Promise<{ items: INodeExecutionData[] } | { failure: string }> {
	const uploaded = await runNode({
		nodeType: 'action',
		parameters: { resource: 'document', operation: 'extract', waitForResult: false },
		credential,
		input: batch.map((document) => binaryItem(document.bytes, document.fileName, document.mimeType)),
	});
	return uploaded.error ? { failure: `upload: ${uploaded.error.message}` } : { items: uploaded.outputs[0] };
}

/**
 * With several lanes, their upload steps take turns. Not a rule of n8n or of the service: the
 * in-process sandbox reads PDFs with pdfjs 5.4, whose page count is a process-wide singleton, so
 * two uploads read at once can turn a multi-page document into a "damaged" one. An upload step
 * takes well under a second of a batch's 10-20 s, so the turns barely change the figures.
 */
class UploadTurns {
	private last: Promise<unknown> = Promise.resolve();

	constructor(private readonly needed: boolean) {}

	async take<T>(step: () => Promise<T>): Promise<T> {
		if (!this.needed) return await step();
		const turn = this.last.then(step);
		this.last = turn.catch(() => undefined);
		return await turn;
	}
}
