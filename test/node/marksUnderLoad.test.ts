/**
 * Charged once under load: many executions at once, each extracting a different document, over a
 * deduplication store that behaves like n8n's database (one row per workflow, read and written
 * back whole with no lock: test/harness/deduplication.ts). Then another n8n process (a restart, a
 * queue-mode worker: `forgetAllUploads` leaves only the database) meets the same documents in new
 * executions, and a third time later. What is counted is what the sandbox received. The busy
 * scenario widens the store's race ten times (a loaded machine: CI runs the suites side by side).
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MARK_TIMING } from '../../nodes/shared/http/markRow';
import { N8N_SETTLE_MS } from '../harness/markTiming.setup';

import { forgetAllUploads } from '../../nodes/shared/http/uploadReceipts';
import { loadFixture } from '../fixtures';
import { deduplicationStore } from '../harness/deduplication';
import { binaryItem, runNode, type RunResult, type TestCredential } from '../harness/engine';
import { startSandbox, type Sandbox } from '../../sandbox/src';

let sandbox: Sandbox;
const testSettleMs = MARK_TIMING.settleMs;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
	// n8n's own settle time: the shortened one is too short for 32 writers at once on a busy machine.
	MARK_TIMING.settleMs = N8N_SETTLE_MS;
});
afterAll(async () => {
	MARK_TIMING.settleMs = testSettleMs;
	await sandbox?.stop();
});

/** Different documents: the same invoice under other names is another document to the ledger. */
async function invoices(count: number, prefix: string): Promise<INodeExecutionData[]> {
	const fixture = await loadFixture('invoiceEn');
	return Array.from({ length: count }, (_, i) => binaryItem(fixture.bytes, `${prefix}-${i + 1}.pdf`, fixture.mimeType));
}

const today = () => new Date().toISOString().slice(0, 10);

function extractEach(cred: TestCredential, workflowId: string, items: INodeExecutionData[]): Promise<RunResult[]> {
	return Promise.all(
		items.map((item) => runNode({ nodeType: 'action', parameters: { resource: 'document', operation: 'extract' }, credential: cred, input: [item], workflowId, mode: 'webhook' })),
	);
}

describe('charge marks under load, over a store with n8n\'s unlocked row', () => {
	it.each([
		{ count: 8, roundTripMs: [1, 10] },
		{ count: 32, roundTripMs: [1, 10] },
		{ count: 32, roundTripMs: [1, 60] },
	] as const)('$count executions at once ($roundTripMs.0-$roundTripMs.1 ms round trips), each a different invoice: met again in other processes, none is paid twice', async ({ count, roundTripMs }) => {
		const store = deduplicationStore();
		store.roundTripMs = [...roundTripMs];
		const account = sandbox.accounts.create({ plan: 'paid' });
		const cred = { apiKey: account.keys[0], baseUrl: sandbox.baseUrl };
		const workflowId = `wf-marks-under-load-${count}-${roundTripMs[1]}`;
		const items = await invoices(count, `load-${count}-${roundTripMs[1]}`);
		const accepted = () => sandbox.stats().uploads.filter((upload) => upload.accountId === account.id && upload.status === 202).length;

		try {
			const first = await extractEach(cred, workflowId, items);
			for (const result of first) expect(result.error).toBeUndefined();
			expect(accepted()).toBe(count);
			// The marks the first executions left: an extracted mark, a day mark and its proof each.
			expect(store.rowSize(workflowId)).toBeGreaterThanOrEqual(3 * count);
			// A mark the database still lost after every check is said on the node (docs/reliability.md):
			// only such a document may be paid again in another process. On a machine at load 7
			// (2026-11-28), 1 of 32 at 1-60 ms in 1 run of 3 with five checks.
			const warned = new Set(first.flatMap((result, index) => (result.hints.some((hint) => hint.startsWith("n8n's database did not keep the mark")) ? [index] : [])));

			// Twice more in other processes: whatever look-up by-products a lost removal left in the row,
			// none passes for an extraction on another day, and nothing is paid again.
			for (const meeting of ['second', 'third']) {
				forgetAllUploads();
				const again = await extractEach(cred, workflowId, items);
				for (const result of again) expect(result.error).toBeUndefined();
				expect(accepted() - count, `documents paid again at the ${meeting} meeting, beyond the ${warned.size} the node warned of`).toBeLessThanOrEqual(warned.size);
				const others = again.filter((_, index) => !warned.has(index));
				for (const result of others) expect(result.outputs[0][0].json).toMatchObject({ status: 'duplicate', first_extracted_at: expect.any(String) });
				// A look-up's by-products put back by a lost removal (both removals lost, often at 1-60 ms)
				// are days without proof: the day reported is the day of the extraction, today.
				for (const result of others) expect(result.outputs[0][0].json.first_extracted_at, `the first day at the ${meeting} meeting`).toBe(today());
			}
		} finally {
			store.roundTripMs = [1, 10];
		}
	}, 300_000);
});
