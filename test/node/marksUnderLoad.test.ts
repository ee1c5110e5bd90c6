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
import { REUSE_DAYS } from '../../nodes/shared/limits';
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
			// Every mark the first executions left is in the row: an extracted mark and a day mark each.
			expect(store.rowSize(workflowId)).toBeGreaterThanOrEqual(2 * count);

			// Twice more in other processes: whatever look-up by-products a lost removal left in the row,
			// none passes for an extraction on another day, and nothing is paid again.
			for (const meeting of ['second', 'third']) {
				forgetAllUploads();
				const again = await extractEach(cred, workflowId, items);
				for (const result of again) expect(result.error).toBeUndefined();
				expect(accepted() - count, `documents paid again at the ${meeting} meeting`).toBe(0);
				for (const result of again) expect(result.outputs[0][0].json).toMatchObject({ status: 'duplicate', first_extracted_at: expect.any(String) });
				// What does not hold (docs/reliability.md): when both removals of a look-up's by-products
				// are lost, a later look-up may report an earlier first day, within the days looked at.
				// On 2026-11-28 at 1-60 ms: 1 or 2 of 32 documents at the third meeting in 3 of 8 runs.
				const window = new Date(Date.now() - REUSE_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
				for (const result of again) expect(String(result.outputs[0][0].json.first_extracted_at) >= window).toBe(true);
				// A look-up that got the day wrong as a rule (not by a lost removal) shows here.
				const earlier = again.filter((result) => result.outputs[0][0].json.first_extracted_at !== today());
				expect(earlier.length, `duplicates reporting an earlier day at the ${meeting} meeting`).toBeLessThanOrEqual(count / 4);
			}
		} finally {
			store.roundTripMs = [1, 10];
		}
	}, 300_000);
});
