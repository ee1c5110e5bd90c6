import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../items/itemError';
import type { UploadAccepted } from '../schemas';
import { uploadDocument } from './api';
import { UPLOAD_NOT_SENT_AGAIN } from './errors';
import type { UploadFile } from './multipart';
import { SentLedger, type SentEntry } from './sentLedger';
import { mayHaveBeenApplied } from './transport';

/**
 * Uploads, charged once. An accepted upload is known by workflow, node, template, file name and
 * content (SHA-256), so n8n running the node again on the same file (Retry On Fail, n8n's Retry of
 * a failed execution, a second "Execute step") reads its result instead of paying again. "Reuse
 * Earlier Uploads" off limits that to the same execution (Retry On Fail). A result that ended in
 * `error` is forgotten, so a retry sends the document again. An upload that got no clear answer
 * is known only within its execution: a later run was told it may send it again.
 */

export type LedgerEntry = SentEntry<UploadAccepted>;

const ledger = new SentLedger<UploadAccepted>();

export interface UploadIdentity {
	/** The same file, node and template in the same workflow. */
	key: string;
	executionId: string;
}

/** The ledger's key of an upload: a JSON list, so forgetTemplate can read the template back. */
export function uploadKey(workflowId: string, nodeId: string, scannerId: string | undefined, fileName: string, contentHash: string): string {
	return JSON.stringify([workflowId, nodeId, scannerId ?? 'auto', fileName, contentHash]);
}

function uploadIdentity(ctx: IExecuteFunctions, file: UploadFile, scannerId: string | undefined): UploadIdentity {
	const contentHash = createHash('sha256').update(file.bytes).digest('hex');
	return { key: uploadKey(ctx.getWorkflow().id ?? '', ctx.getNode().id, scannerId, file.fileName, contentHash), executionId: ctx.getExecutionId?.() ?? '' };
}

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
}

/** Forgets the upload whose result ended in `error`: the next run on the file sends it again. */
export function forgetResult(resultId: string): void {
	ledger.forgetWhere((entry) => entry.kind === 'accepted' && entry.answer.result_id === resultId);
}

/** Forgets the uploads made with a template this node just changed or deleted: their results would be out of date. */
export function forgetTemplate(scannerId: string): void {
	ledger.forgetWhere((_entry, key) => (JSON.parse(key) as string[])[2] === scannerId);
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
	if (earlier?.kind === 'accepted') return { receipt: earlier.answer, reused: true };
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
		recordUpload(identity, { kind: 'accepted', answer: outcome.receipt, executionId: identity.executionId });
		return { receipt: outcome.receipt, reused: false };
	}
	if (mayHaveBeenApplied(outcome.error)) {
		recordUpload(identity, { kind: 'uncertain', message: (outcome.error as Error).message, executionId: identity.executionId });
	}
	throw outcome.error;
}

/** How many uploads the ledger holds (for tests of its bound). */
export function ledgerSize(): number {
	return ledger.size;
}
