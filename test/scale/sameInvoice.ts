import type { Sandbox } from '../../sandbox/src';
import type { Check } from './checks';
import type { Collector } from './collector';
import { scaleBatch } from './documents';
import { postEachAtOnce } from './driver';

/** What the same-invoice phase saw: the executions it ran, and its checks. */
export interface SameInvoiceReport {
	executions: Set<string>;
	checks: Check[];
}

/**
 * The same invoices as other files (Flag Duplicate Invoices, on by default): different invoices
 * at once, one execution each, spread over the workers; then each invoice again as the supplier's
 * reminder, a file with other bytes, at once in new executions. Each reminder is extracted and
 * charged (its number is only known once read) and must say `duplicate_invoice: likely`, whichever
 * worker read the first file: the invoice marks are written at once into the one deduplication
 * row per workflow, read and written back with no lock, so a lost mark shows as a missed flag.
 */
export async function sendSameInvoice(options: { mainUrl: string; sandbox: Sandbox; collector: Collector; runId: string; count: number; log: (message: string) => void }): Promise<SameInvoiceReport> {
	const { sandbox, collector, count, log } = options;
	// scaleBatch's last document has no text: a batch of count + 1 gives count readable invoices.
	const readable = async (copy?: 'reminder') => (await scaleBatch(`${options.runId}-same`, 970, count + 1, copy)).filter((document) => document.expected === 'done');
	const [originals, reminders] = [await readable(), await readable('reminder')];
	const before = collector.items().length;
	await postEachAtOnce(options.mainUrl, originals, 3000, 'same invoice');
	const afterOriginals = collector.items().length;
	await postEachAtOnce(options.mainUrl, reminders, 4000, 'same invoice');
	const items = collector.items();
	const [first, second] = [items.slice(before, afterOriginals), items.slice(afterOriginals)];
	const flagged = second.filter((item) => item.duplicate_invoice === 'likely');
	const uploaded = [...originals, ...reminders].filter((document) => sandbox.stats().uploads.filter((upload) => upload.sha256 === document.sha256 && upload.status === 202).length === 1);
	log(`same invoice: ${count} invoices at once, then each as a reminder file: ${flagged.length} of ${second.length} reminders flagged likely; ${first.filter((item) => item.duplicate_invoice !== null).length} first files flagged`);
	return {
		executions: new Set([...first, ...second].map((item) => item.execution)),
		checks: [
			{
				id: 'same-invoice-flagged',
				name: `${count} invoices at once, then each again as another file across the workers: every reminder is flagged a likely duplicate, no first file is`,
				ok: first.length === count && second.length === count && flagged.length === count && first.every((item) => item.output === 'done' && item.duplicate_invoice === null),
				detail: `${flagged.length} of ${second.length} reminders flagged likely; first files: ${first.length} out, ${first.filter((item) => item.duplicate_invoice !== null).length} flagged`,
			},
			{
				id: 'same-invoice-each-file-once',
				name: 'each file of the two rounds is uploaded once (a reminder has other bytes: it is read to know its number)',
				ok: uploaded.length === 2 * count,
				detail: `${uploaded.length} of ${2 * count} files uploaded exactly once`,
			},
		],
	};
}
