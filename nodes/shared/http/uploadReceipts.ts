import type { UploadAccepted } from '../schemas';
import { SentLedger, type SentEntry } from './sentLedger';
import { templateOfKey, type UploadIdentity } from './uploadKey';

/**
 * The receipts of the uploads this n8n process made (7 days), by upload key: Retry On Fail, n8n's
 * Retry of a failed execution and a second "Execute step" read their result instead of paying
 * again. An upload that got no clear answer is known only within its execution.
 */
export type LedgerEntry = SentEntry<UploadAccepted>;

const ledger = new SentLedger<UploadAccepted>();
/** Keys whose result ended in `error` here: their marks in n8n's database no longer mean "extracted". */
const failed = new SentLedger<true>();

/**
 * The earlier upload this one may reuse: an accepted one from any execution when `reuseEarlier`,
 * else only from this one; an uncertain one only from this execution.
 */
export function lookUpUpload(identity: UploadIdentity, reuseEarlier: boolean, now = Date.now()): LedgerEntry | undefined {
	const found = ledger.get(identity.key, now);
	const sameExecution = identity.executionId !== '' && found?.executionId === identity.executionId;
	return sameExecution || (found?.kind === 'accepted' && reuseEarlier) ? found : undefined;
}

export function recordUpload(identity: UploadIdentity, entry: LedgerEntry, now = Date.now()): void {
	ledger.set(identity.key, entry, now);
	if (entry.kind === 'accepted') failed.delete(identity.key);
}

/** Forgets the uploads whose result ended in `error` and says their keys: their marks must go too. */
export function forgetFailedResult(resultId: string): string[] {
	const keys = ledger.forgetWhere((entry) => entry.kind === 'accepted' && entry.answer.result_id === resultId);
	for (const key of keys) failed.set(key, { kind: 'accepted', answer: true, executionId: '' });
	return keys;
}

/** Whether this key's last result here ended in `error`: a mark in n8n's database then means nothing. */
export function failedHere(identity: UploadIdentity): boolean {
	return failed.get(identity.key) !== undefined;
}

/** Forgets the uploads made with a template this node just changed or deleted: their results would be out of date. */
export function forgetTemplate(scannerId: string): void {
	ledger.forgetWhere((_entry, key) => templateOfKey(key) === scannerId);
}

/** Forgets everything this process knew, as a restart of n8n does (for tests of what n8n's database still knows). */
export function forgetAllUploads(): void {
	ledger.forgetWhere(() => true);
	failed.forgetWhere(() => true);
}

/** How many uploads the ledger holds (for tests of its bound). */
export function ledgerSize(): number {
	return ledger.size;
}
