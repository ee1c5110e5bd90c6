/** The upload ledger's own rules: what another execution may reuse, its lifetime and its bound. */
import { describe, expect, it } from 'vitest';

import { markExtracted } from '../../nodes/shared/http/chargeMarks';
import { MarkSession } from '../../nodes/shared/http/markRow';
import { SentLedger } from '../../nodes/shared/http/sentLedger';
import { documentKeyOf, uploadKey } from '../../nodes/shared/http/uploadKey';
import { forgetResult } from '../../nodes/shared/http/uploadLedger';
import { forgetTemplate, ledgerSize, lookUpUpload, recordUpload, type LedgerEntry } from '../../nodes/shared/http/uploadReceipts';
import { deduplicationStore, nodeWithDeduplication } from '../harness/deduplication';

const DAY = 24 * 60 * 60 * 1000;
const accepted = (id: string, executionId = 'exec-a'): LedgerEntry => ({ kind: 'accepted', answer: { result_id: id } as never, executionId });
const uncertain = (executionId = 'exec-a'): LedgerEntry => ({ kind: 'uncertain', message: 'no answer', executionId });

describe('upload ledger', () => {
	it('an accepted upload is reused by any execution when reuse is on, only by its own when off', () => {
		recordUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'same-file', 'hash'), executionId: 'exec-a' }, accepted('r1'), 1_000);
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'same-file', 'hash'), executionId: 'exec-b' }, true, 2_000)).toEqual(accepted('r1'));
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'same-file', 'hash'), executionId: 'exec-b' }, false, 2_000)).toBeUndefined();
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'same-file', 'hash'), executionId: 'exec-a' }, false, 2_000)).toEqual(accepted('r1'));
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'another-file', 'hash'), executionId: 'exec-a' }, true, 2_000)).toBeUndefined();
	});

	it('an upload without a clear answer blocks only its own execution', () => {
		recordUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'unclear', 'hash'), executionId: 'exec-a' }, uncertain(), 1_000);
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'unclear', 'hash'), executionId: 'exec-a' }, true, 2_000)).toEqual(uncertain());
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'unclear', 'hash'), executionId: 'exec-b' }, true, 2_000)).toBeUndefined();
		// No execution id: nothing ties two runs together.
		recordUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'no-id', 'hash'), executionId: '' }, uncertain(''), 1_000);
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'no-id', 'hash'), executionId: '' }, true, 2_000)).toBeUndefined();
	});

	it('forgets an entry after seven days, and a result that ended in error at once', async () => {
		recordUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'old', 'hash'), executionId: 'exec-a' }, accepted('r2'), 0);
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'old', 'hash'), executionId: 'exec-b' }, true, 7 * DAY)).toEqual(accepted('r2'));
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'old', 'hash'), executionId: 'exec-b' }, true, 7 * DAY + 1)).toBeUndefined();
		const failedKey = uploadKey('acct', 'wf-ledger', 'node', undefined, 'failed', 'hash');
		recordUpload({ key: failedKey, executionId: 'exec-a' }, accepted('r3'), 0);
		const ctx = nodeWithDeduplication('wf-ledger');
		const run = new MarkSession(ctx);
		await markExtracted(run, documentKeyOf(failedKey));
		await run.settle();
		const today = new Date().toISOString().slice(0, 10);
		expect(deduplicationStore().holds('wf-ledger', `${documentKeyOf(failedKey)}@${today}`)).toBe(true);

		await forgetResult(ctx, 'r3');
		expect(lookUpUpload({ key: failedKey, executionId: 'exec-a' }, true, 1)).toBeUndefined();
		expect(deduplicationStore().holds('wf-ledger', `${documentKeyOf(failedKey)}@${today}`), 'its mark in n8n\'s database is gone too').toBe(false);
	});

	it('forgets the uploads made with a template once the node changed or deleted it', () => {
		const key = (template: string) => uploadKey('acct', 'wf', 'node', template, 'a.pdf', 'hash');
		recordUpload({ key: key('scn_1'), executionId: 'exec-a' }, accepted('r4'), 0);
		recordUpload({ key: key('scn_2'), executionId: 'exec-a' }, accepted('r5'), 0);
		forgetTemplate('scn_1');
		expect(lookUpUpload({ key: key('scn_1'), executionId: 'exec-a' }, true, 1)).toBeUndefined();
		expect(lookUpUpload({ key: key('scn_2'), executionId: 'exec-a' }, true, 1)).toEqual(accepted('r5'));
	});

	it('holds at most 10,000 uploads, dropping the oldest first', () => {
		for (let i = 0; i < 10_050; i++) recordUpload({ key: uploadKey('acct', 'wf', 'node', undefined, `bulk-${i}`, 'hash'), executionId: 'exec-a' }, accepted(`r${i}`), 5_000);
		expect(ledgerSize()).toBe(10_000);
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'bulk-0', 'hash'), executionId: 'exec-a' }, true, 5_000)).toBeUndefined();
		expect(lookUpUpload({ key: uploadKey('acct', 'wf', 'node', undefined, 'bulk-10049', 'hash'), executionId: 'exec-a' }, true, 5_000)).toEqual(accepted('r10049'));
	});
});

describe('sent ledger', () => {
	it('with a byte bound, keeps the newest answers within it', () => {
		const ledger = new SentLedger<string>({ maxBytes: 2_000 });
		const big = 'x'.repeat(600);
		for (let i = 0; i < 5; i++) ledger.set(`k${i}`, { kind: 'accepted', answer: big, executionId: 'e' }, 0);
		expect(ledger.size).toBe(3);
		expect(ledger.get('k0', 0)).toBeUndefined();
		expect(ledger.get('k4', 0)).toEqual({ kind: 'accepted', answer: big, executionId: 'e' });
		ledger.delete('k4');
		ledger.set('k5', { kind: 'accepted', answer: big, executionId: 'e' }, 0);
		expect(ledger.size).toBe(3);
		expect(ledger.get('k2', 0)).toBeDefined();
	});
});
