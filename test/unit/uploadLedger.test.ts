/** The upload ledger's own bounds: it forgets old entries and never holds more than its limit. */
import { describe, expect, it } from 'vitest';

import { ledgerSize, lookUpUpload, recordUpload } from '../../nodes/shared/http/uploadLedger';

const receipt = (id: string) => ({ kind: 'accepted' as const, receipt: { result_id: id } });

describe('upload ledger', () => {
	it('returns what was recorded for the same upload, and nothing for another', () => {
		recordUpload({ key: 'exec-a/item-0' }, receipt('r1'), 1_000);
		expect(lookUpUpload({ key: 'exec-a/item-0' }, 2_000)).toEqual(receipt('r1'));
		expect(lookUpUpload({ key: 'exec-b/item-0' }, 2_000)).toBeUndefined();
		expect(lookUpUpload(undefined)).toBeUndefined();
	});

	it('forgets an entry after six hours', () => {
		recordUpload({ key: 'old' }, receipt('r2'), 0);
		expect(lookUpUpload({ key: 'old' }, 6 * 60 * 60 * 1000)).toEqual(receipt('r2'));
		expect(lookUpUpload({ key: 'old' }, 6 * 60 * 60 * 1000 + 1)).toBeUndefined();
	});

	it('holds at most 10,000 uploads, dropping the oldest first', () => {
		for (let i = 0; i < 10_050; i++) recordUpload({ key: `bulk-${i}` }, receipt(`r${i}`), 5_000);
		expect(ledgerSize()).toBe(10_000);
		expect(lookUpUpload({ key: 'bulk-0' }, 5_000)).toBeUndefined();
		expect(lookUpUpload({ key: 'bulk-10049' }, 5_000)).toEqual(receipt('r10049'));
	});
});
