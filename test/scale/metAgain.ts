import type { Sandbox } from '../../sandbox/src';
import type { Check } from './checks';
import type { Collector, CollectedItem } from './collector';
import { scaleBatch } from './documents';
import { postEachAtOnce } from './driver';

/** What the met-again phase saw: the executions it ran, and each invoice's accepted uploads. */
export interface MetAgainReport {
	executions: Set<string>;
	checks: Check[];
}

/**
 * Different invoices at the same moment, one execution each, spread over the workers by the
 * queue; then the same invoices again in new executions, at once. Every execution marks its
 * invoice in the one row n8n's deduplication helpers keep per workflow (PostgreSQL here), read and
 * written back whole with no lock, so marks written at once can be lost: none may be, or the
 * invoice is paid again when it comes back on another worker. Counted from the sandbox's records.
 */
export async function sendMetAgain(options: { mainUrl: string; sandbox: Sandbox; collector: Collector; runId: string; count: number; log: (message: string) => void }): Promise<MetAgainReport> {
	const { sandbox, collector, count, log } = options;
	// scaleBatch's last document has no text: a batch of count + 1 gives count readable invoices.
	const invoices = (await scaleBatch(`${options.runId}-again`, 950, count + 1)).filter((document) => document.expected === 'done');
	const before = collector.items().length;
	await postEachAtOnce(options.mainUrl, invoices, 1000, 'met again');
	await postEachAtOnce(options.mainUrl, invoices, 2000, 'met again');
	const items = collector.items().slice(before);
	const uploadsOf = (sha256: string) => sandbox.stats().uploads.filter((upload) => upload.sha256 === sha256 && upload.status === 202).length;
	const paidTwice = invoices.filter((invoice) => uploadsOf(invoice.sha256) > 1).length;
	const second = items.filter((item) => item.status === 'duplicate' || item.reused === true);
	log(`met again: ${count} invoices at once, then again: ${paidTwice} paid twice; second round ${second.filter((item) => item.status === 'duplicate').length} duplicate(s), ${second.filter((item) => item.reused).length} reused`);
	return {
		executions: new Set(items.map((item: CollectedItem) => item.execution)),
		checks: [
			{
				id: 'met-again-charged-once',
				name: `${count} different invoices at once, then the same ${count} in new executions across the workers: none paid twice`,
				ok: paidTwice === 0 && invoices.every((invoice) => uploadsOf(invoice.sha256) === 1),
				detail: `${paidTwice} of ${count} paid twice`,
			},
			{
				id: 'met-again-every-item-out',
				name: 'each execution of the two rounds put out its invoice once: extracted first, then a duplicate or reused',
				ok: items.length === 2 * count && second.length === count,
				detail: `${items.length} items, ${second.length} of them duplicates or reused`,
			},
		],
	};
}
