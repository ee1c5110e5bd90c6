import type { Sandbox } from '../../sandbox/src';
import type { QueueWorker } from '../../scripts/n8n/queueMode';
import type { Check } from './checks';
import type { Collector, CollectedItem } from './collector';
import { scaleBatch } from './documents';
import { postBatch } from './driver';

/** What the duplicates phase saw: each copy's execution, the worker that ran it and what came out. */
export interface DuplicatesReport {
	copies: Array<{ execution: string | undefined; worker: string | undefined; items: CollectedItem[] }>;
	uploads: number;
	checks: Check[];
}

/**
 * The same invoice in several emails (cc'd to two people, "sending it again in case it got lost"):
 * one execution per copy, one after another, each picked up by whichever worker the queue gives
 * it. Charged once: the worker that extracted it reuses its own receipt; any other worker finds the
 * mark the first one left in n8n's database (PostgreSQL here) and outputs a duplicate. Counted
 * from the sandbox's own records.
 */
export async function sendDuplicates(options: {
	mainUrl: string;
	sandbox: Sandbox;
	collector: Collector;
	workers: QueueWorker[];
	runId: string;
	copies: number;
	log: (message: string) => void;
}): Promise<DuplicatesReport> {
	const { sandbox, collector, workers, copies, log } = options;
	const [invoice] = await scaleBatch(`${options.runId}-duplicate`, 900, 1);
	const copiesSeen: DuplicatesReport['copies'] = [];
	for (let copy = 0; copy < copies; copy++) {
		const offsets = new Map(workers.map((worker) => [worker, worker.service.output().length]));
		const before = collector.items().length;
		const run = await postBatch(options.mainUrl, { index: 900 + copy, mode: 'wait', documents: [invoice] });
		if (run.status !== 200) throw new Error(`copy ${copy + 1} of the duplicate invoice: the webhook answered ${run.status} ${run.problem ?? ''}`);
		const items = collector.items().slice(before);
		const execution = items[0]?.execution;
		const worker = workers.find((candidate) => execution !== undefined && candidate.service.output().slice(offsets.get(candidate)).includes(`Worker started execution ${execution} `));
		copiesSeen.push({ execution, worker: worker?.name, items });
		log(`copy ${copy + 1}: execution ${execution ?? '?'} on ${worker?.name ?? '?'}: ${items.map(describe).join(', ')}`);
	}
	const uploads = sandbox.stats().uploads.filter((upload) => upload.sha256 === invoice.sha256 && upload.status === 202).length;
	const [first, ...others] = copiesSeen;
	const workersUsed = new Set(copiesSeen.map((copy) => copy.worker).filter(Boolean));
	const crossWorker = others.filter((copy) => copy.worker !== undefined && copy.worker !== first.worker);
	return {
		copies: copiesSeen,
		uploads,
		checks: [
			{ id: 'duplicates-charged-once', name: `the same invoice in ${copies} executions is uploaded once`, ok: uploads === 1, detail: `${uploads} upload(s) accepted` },
			{
				id: 'duplicates-every-copy-out',
				name: 'every copy leaves once: the first extracted, the others reused or marked duplicate',
				ok:
					first.items.length === 1 &&
					first.items[0].status === 'done' &&
					first.items[0].reused === false &&
					others.every((copy) => copy.items.length === 1 && (copy.items[0].status === 'duplicate' || copy.items[0].reused === true)),
				detail: copiesSeen.map((copy, index) => `${index + 1}: ${copy.items.map(describe).join(', ') || 'nothing'}`).join('; '),
			},
			{
				id: 'duplicates-across-workers',
				name: 'copies ran on another worker than the first, which found the mark in the database',
				ok: workersUsed.size >= 2 && crossWorker.every((copy) => copy.items[0]?.status === 'duplicate'),
				detail: `${crossWorker.length} of ${others.length} later copies on another worker than the first (${[...workersUsed].join(', ')})`,
			},
		],
	};
}

function describe(item: CollectedItem): string {
	return `${item.output}/${item.status ?? '?'}${item.reused ? ' (reused)' : ''}`;
}
