/** The upload ledger's own rules: what another execution may reuse, its lifetime and its bound. */
import { describe, expect, it } from 'vitest';

import { forgetResult, ledgerSize, lookUpUpload, recordUpload, type LedgerEntry } from '../../nodes/shared/http/uploadLedger';

const DAY = 24 * 60 * 60 * 1000;
const accepted = (id: string, executionId = 'exec-a'): LedgerEntry => ({ kind: 'accepted', receipt: { result_id: id } as never, executionId });
const uncertain = (executionId = 'exec-a'): LedgerEntry => ({ kind: 'uncertain', message: 'no answer', executionId });

describe('upload ledger', () => {
	it('an accepted upload is reused by any execution when reuse is on, only by its own when off', () => {
		recordUpload({ key: 'same-file', executionId: 'exec-a' }, accepted('r1'), 1_000);
		expect(lookUpUpload({ key: 'same-file', executionId: 'exec-b' }, true, 2_000)).toEqual(accepted('r1'));
		expect(lookUpUpload({ key: 'same-file', executionId: 'exec-b' }, false, 2_000)).toBeUndefined();
		expect(lookUpUpload({ key: 'same-file', executionId: 'exec-a' }, false, 2_000)).toEqual(accepted('r1'));
		expect(lookUpUpload({ key: 'another-file', executionId: 'exec-a' }, true, 2_000)).toBeUndefined();
	});

	it('an upload without a clear answer blocks only its own execution', () => {
		recordUpload({ key: 'unclear', executionId: 'exec-a' }, uncertain(), 1_000);
		expect(lookUpUpload({ key: 'unclear', executionId: 'exec-a' }, true, 2_000)).toEqual(uncertain());
		expect(lookUpUpload({ key: 'unclear', executionId: 'exec-b' }, true, 2_000)).toBeUndefined();
		// No execution id: nothing ties two runs together.
		recordUpload({ key: 'no-id', executionId: '' }, uncertain(''), 1_000);
		expect(lookUpUpload({ key: 'no-id', executionId: '' }, true, 2_000)).toBeUndefined();
	});

	it('forgets an entry after seven days, and a result that ended in error at once', () => {
		recordUpload({ key: 'old', executionId: 'exec-a' }, accepted('r2'), 0);
		expect(lookUpUpload({ key: 'old', executionId: 'exec-b' }, true, 7 * DAY)).toEqual(accepted('r2'));
		expect(lookUpUpload({ key: 'old', executionId: 'exec-b' }, true, 7 * DAY + 1)).toBeUndefined();
		recordUpload({ key: 'failed', executionId: 'exec-a' }, accepted('r3'), 0);
		forgetResult('r3');
		expect(lookUpUpload({ key: 'failed', executionId: 'exec-a' }, true, 1)).toBeUndefined();
	});

	it('holds at most 10,000 uploads, dropping the oldest first', () => {
		for (let i = 0; i < 10_050; i++) recordUpload({ key: `bulk-${i}`, executionId: 'exec-a' }, accepted(`r${i}`), 5_000);
		expect(ledgerSize()).toBe(10_000);
		expect(lookUpUpload({ key: 'bulk-0', executionId: 'exec-a' }, true, 5_000)).toBeUndefined();
		expect(lookUpUpload({ key: 'bulk-10049', executionId: 'exec-a' }, true, 5_000)).toEqual(accepted('r10049'));
	});
});
