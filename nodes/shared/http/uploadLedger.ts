import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../itemError';
import { REUSE_DAYS } from '../limits';
import type { UploadAccepted } from '../schemas';
import { uploadDocument } from './api';
import { UPLOAD_NOT_SENT_AGAIN } from './errors';
import type { UploadFile } from './multipart';
import { uploadMayHaveBeenAccepted } from './transport';

/**
 * What the service already accepted, so that n8n running the node again on the same file does not
 * pay for it twice. n8n does that in four ways: Retry On Fail and On Error's re-run (same
 * execution), n8n's Retry of a failed execution (a new execution that starts again at the failed
 * node with the same input) and a second "Execute step" in the editor.
 *
 * An accepted upload is known by workflow, node, template, file name and content (SHA-256), so
 * none of these sends it again: its result is read instead. "Reuse Earlier Uploads" off limits
 * that to the same execution (Retry On Fail). A result that ended in `error` is forgotten, so a
 * retry sends the document again. An upload that got no clear answer is known only within its
 * execution: a later run was told it may send it again.
 *
 * The ledger lives in this n8n process: another queue-mode worker or a restarted n8n does not see
 * it (README, "Charged once"). n8n offers no store for this: workflow static data is not saved
 * for manual runs and is written back whole at the end of an execution (a lost update between
 * two runs), and the deduplication helpers keep hashes, not the result ID to read.
 */

const ENTRY_LIFETIME_MS = REUSE_DAYS * 24 * 60 * 60 * 1000;
/** Bounds the memory (an entry is a few hundred bytes): the oldest entries go first. */
const MAX_ENTRIES = 10_000;

export type LedgerEntry =
	| { kind: 'accepted'; receipt: UploadAccepted; executionId: string }
	/** Sent, but the answer does not say whether the service took it: never sent again by this execution. */
	| { kind: 'uncertain'; message: string; executionId: string };

const entries = new Map<string, { entry: LedgerEntry; at: number }>();

export interface UploadIdentity {
	/** The same file, node and template in the same workflow. */
	key: string;
	executionId: string;
}

function uploadIdentity(ctx: IExecuteFunctions, file: UploadFile, scannerId: string | undefined): UploadIdentity {
	const contentHash = createHash('sha256').update(file.bytes).digest('hex');
	const workflowId = ctx.getWorkflow().id ?? '';
	return { key: JSON.stringify([workflowId, ctx.getNode().id, scannerId ?? 'auto', file.fileName, contentHash]), executionId: ctx.getExecutionId?.() ?? '' };
}

/**
 * The earlier upload this one may reuse: an accepted one from any execution when `reuseEarlier`,
 * else only from this one; an uncertain one only from this execution.
 */
export function lookUpUpload(identity: UploadIdentity, reuseEarlier: boolean, now = Date.now()): LedgerEntry | undefined {
	const found = entries.get(identity.key);
	if (!found) return undefined;
	if (now - found.at > ENTRY_LIFETIME_MS) {
		entries.delete(identity.key);
		return undefined;
	}
	const sameExecution = identity.executionId !== '' && found.entry.executionId === identity.executionId;
	if (sameExecution || (found.entry.kind === 'accepted' && reuseEarlier)) return found.entry;
	return undefined;
}

export function recordUpload(identity: UploadIdentity, entry: LedgerEntry, now = Date.now()): void {
	entries.delete(identity.key);
	entries.set(identity.key, { entry, at: now });
	// A Map iterates in insertion order: the first keys are the oldest.
	for (const key of entries.keys()) {
		if (entries.size <= MAX_ENTRIES) break;
		entries.delete(key);
	}
}

/** Forgets the upload whose result ended in `error`: the next run on the file sends it again. */
export function forgetResult(resultId: string): void {
	for (const [key, { entry }] of entries) {
		if (entry.kind === 'accepted' && entry.receipt.result_id === resultId) entries.delete(key);
	}
}

/**
 * Uploads the file, unless the ledger knows it: then the earlier receipt is used (no second
 * charge), or, when this execution's earlier try got no clear answer, nothing is sent and the item
 * fails saying so. `reused` tells the caller the service was not asked.
 */
export async function uploadOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: UploadFile,
	scannerId: string | undefined,
	reuseEarlier: boolean,
): Promise<{ receipt: UploadAccepted; reused: boolean }> {
	const identity = uploadIdentity(ctx, file, scannerId);
	const earlier = lookUpUpload(identity, reuseEarlier);
	if (earlier?.kind === 'accepted') return { receipt: earlier.receipt, reused: true };
	if (earlier?.kind === 'uncertain') {
		throw itemError(
			ctx.getNode(),
			itemIndex,
			'an earlier try of this execution sent this document and got no clear answer',
			`The earlier try ended with: ${earlier.message.replace(/\.?$/, '.')} ${UPLOAD_NOT_SENT_AGAIN} If no result appears for it in your account, run the workflow again.`,
		);
	}
	const outcome = await uploadDocument(ctx, file, scannerId, itemIndex).then(
		(receipt) => ({ receipt }),
		(error: unknown) => ({ error }),
	);
	if ('receipt' in outcome) {
		recordUpload(identity, { kind: 'accepted', receipt: outcome.receipt, executionId: identity.executionId });
		return { receipt: outcome.receipt, reused: false };
	}
	if (uploadMayHaveBeenAccepted(outcome.error)) {
		recordUpload(identity, { kind: 'uncertain', message: (outcome.error as Error).message, executionId: identity.executionId });
	}
	throw outcome.error;
}

/** How many uploads the ledger holds (for tests of its bound). */
export function ledgerSize(): number {
	return entries.size;
}
