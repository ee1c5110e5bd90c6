/**
 * Charged once under load, measured: N executions at once, each extracting a different invoice,
 * through n8n's engine against the sandbox, over a deduplication store with the flaws of n8n's
 * own (one row per workflow read and written back whole, no lock, a database round trip between
 * read and write: test/harness/deduplication.ts). Then another n8n process (the ledger in memory
 * forgotten, as a restart or another queue-mode worker) meets the same invoices in new
 * executions. Prints, per scenario: documents paid twice, false duplicates (a document called a
 * duplicate the first time it was seen), duplicates reported with a day other than today, marks
 * n8n's database did not keep, the row's values per document, and database round trips per document. `npm run bench:marks`.
 */
import './n8nUserFolder';

import type { INodeExecutionData } from 'n8n-workflow';

import { forgetAllUploads } from '../../nodes/shared/http/uploadReceipts';
import { loadFixture } from '../fixtures';
import { deduplicationStore } from '../harness/deduplication';
import { binaryItem, runNode, type RunResult } from '../harness/engine';
import { startSandbox } from '../../sandbox/src';

interface Scenario {
	executions: number;
	/** The store's round trip, milliseconds: an idle database, and a busy one. */
	roundTripMs: [number, number];
}

const SCENARIOS: Scenario[] = [
	{ executions: 8, roundTripMs: [0, 2] },
	{ executions: 8, roundTripMs: [1, 10] },
	{ executions: 32, roundTripMs: [0, 2] },
	{ executions: 32, roundTripMs: [1, 10] },
	// A database, or an n8n process, under load: the race's window ten times wider.
	{ executions: 32, roundTripMs: [1, 60] },
];

async function main(): Promise<void> {
	const sandbox = await startSandbox({ timing: 'fast' });
	const fixture = await loadFixture('invoiceEn');
	const store = deduplicationStore();
	console.log('executions | round trip | paid twice | false duplicates | wrong first day | marks not kept | row values per document | round trips per document | time');
	let failed = false;
	try {
		for (const [index, { executions, roundTripMs }] of SCENARIOS.entries()) {
			store.roundTripMs = roundTripMs;
			const account = sandbox.accounts.create({ plan: 'paid' });
			const cred = { apiKey: account.keys[0], baseUrl: sandbox.baseUrl };
			const workflowId = `wf-bench-marks-${index}`;
			const items = Array.from({ length: executions }, (_, i) => binaryItem(fixture.bytes, `bench-${index}-${i + 1}.pdf`, fixture.mimeType));
			const accepted = () => sandbox.stats().uploads.filter((upload) => upload.accountId === account.id && upload.status === 202).length;
			const started = Date.now();
			const before = { ...store.counts };

			const first = await extractEach(cred, workflowId, items);
			forgetAllUploads();
			const again = await extractEach(cred, workflowId, items);

			const paidTwice = accepted() - executions;
			const falseDuplicates = first.filter((result) => result.outputs[0]?.[0]?.json.status === 'duplicate').length;
			const today = new Date().toISOString().slice(0, 10);
			const wrongDay = again.filter((result) => result.outputs[0]?.[0]?.json.first_extracted_at !== today).length;
			const notKept = first.filter((result) => result.hints.some((hint) => hint.includes('did not keep the mark'))).length;
			const roundTrips = store.counts.reads + store.counts.writes - before.reads - before.writes;
			const errors = [...first, ...again].filter((result) => result.error).length;
			// Each document's 3 charge marks (extracted, its day, the day's proof), the invoice check's
			// records (its checked mark and verdict, and the invoice's: one invoice here, met by every
			// document), and what lost removals left (claims, look-up by-products).
			const rowPerDocument = (store.rowSize(workflowId) / executions).toFixed(1);
			if (paidTwice !== 0 || falseDuplicates !== 0 || wrongDay !== 0 || errors !== 0) failed = true;
			console.log(
				`${executions} | ${roundTripMs.join('-')} ms | ${paidTwice} | ${falseDuplicates} | ${wrongDay} | ${notKept} | ${rowPerDocument} | ${(roundTrips / (2 * executions)).toFixed(1)} | ${((Date.now() - started) / 1000).toFixed(1)} s${errors ? ` | ${errors} executions failed` : ''}`,
			);
		}
	} finally {
		await sandbox.stop();
	}
	console.log(failed ? 'bench:marks: FAILED (a document paid twice, a false duplicate, a wrong first day or a failed execution)' : 'bench:marks: every document paid once, no false duplicate');
	if (failed) process.exitCode = 1;
}

function extractEach(cred: { apiKey: string; baseUrl: string }, workflowId: string, items: INodeExecutionData[]): Promise<RunResult[]> {
	return Promise.all(
		items.map((item) => runNode({ nodeType: 'action', parameters: { resource: 'document', operation: 'extract' }, credential: cred, input: [item], workflowId, mode: 'webhook' })),
	);
}

void main().then(() => process.exit());
