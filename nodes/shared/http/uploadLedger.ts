import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../itemError';
import type { UploadAccepted } from '../schemas';
import { uploadDocument } from './api';
import { UPLOAD_NOT_SENT_AGAIN } from './errors';
import type { UploadFile } from './multipart';
import { uploadMayHaveBeenAccepted } from './transport';

/**
 * n8n's "Retry On Fail" runs the node again, with the same input, after it threw; and with "On
 * Error: Continue" n8n also re-runs it when its first output item is an error item. Both happen
 * in the same process and the same execution. This ledger remembers, for a short while, which
 * uploads of an execution the service accepted (and which may have reached it without an
 * answer), so that a re-run reuses the result instead of paying for the document again.
 *
 * An upload is known by execution, node, run of the node, item, the item's document (its binary
 * field, when an item holds several), the file's content hash and the template: a different file,
 * attachment, template or execution is a new upload.
 */

export type LedgerEntry =
	| { kind: 'accepted'; receipt: UploadAccepted }
	/** Sent, but the answer does not say whether the service took it: never sent again. */
	| { kind: 'uncertain'; message: string };

/**
 * Entries older than this are forgotten. A retry comes seconds after the failure (n8n waits at
 * most 5 s between tries), but the try that failed may have waited hours for its results first.
 */
const ENTRY_LIFETIME_MS = 6 * 60 * 60 * 1000;
/** Bounds the memory: the oldest entries go first. */
const MAX_ENTRIES = 10_000;

const entries = new Map<string, { entry: LedgerEntry; at: number }>();

export interface UploadIdentity {
	key: string;
}

/**
 * The identity of one item's upload in this execution, or undefined when n8n gives the run no
 * execution id (nothing to tie a retry to; the upload is then simply sent).
 */
function uploadIdentity(ctx: IExecuteFunctions, itemIndex: number, document: string, bytes: Uint8Array, scannerId: string | undefined): UploadIdentity | undefined {
	const executionId = ctx.getExecutionId?.();
	if (!executionId) return undefined;
	const runIndex = runIndexOf(ctx);
	const contentHash = createHash('sha256').update(bytes).digest('hex');
	return { key: JSON.stringify([executionId, ctx.getNode().id, runIndex, itemIndex, document, contentHash, scannerId ?? 'auto']) };
}

export function lookUpUpload(identity: UploadIdentity | undefined, now = Date.now()): LedgerEntry | undefined {
	if (!identity) return undefined;
	const found = entries.get(identity.key);
	if (!found) return undefined;
	if (now - found.at > ENTRY_LIFETIME_MS) {
		entries.delete(identity.key);
		return undefined;
	}
	return found.entry;
}

export function recordUpload(identity: UploadIdentity | undefined, entry: LedgerEntry, now = Date.now()): void {
	if (!identity) return;
	entries.delete(identity.key);
	entries.set(identity.key, { entry, at: now });
	// A Map iterates in insertion order: the first keys are the oldest.
	for (const key of entries.keys()) {
		if (entries.size <= MAX_ENTRIES) break;
		entries.delete(key);
	}
}

/**
 * Uploads the item's file, unless this execution already did: then the service's earlier receipt
 * is used (no second charge), or, when the earlier try got no clear answer, nothing is sent and
 * the item fails saying so.
 */
export async function uploadOnce(ctx: IExecuteFunctions, itemIndex: number, file: UploadFile, scannerId: string | undefined, document = ''): Promise<UploadAccepted> {
	const identity = uploadIdentity(ctx, itemIndex, document, file.bytes, scannerId);
	const earlier = lookUpUpload(identity);
	if (earlier?.kind === 'accepted') return earlier.receipt;
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
		recordUpload(identity, { kind: 'accepted', receipt: outcome.receipt });
		return outcome.receipt;
	}
	if (uploadMayHaveBeenAccepted(outcome.error)) recordUpload(identity, { kind: 'uncertain', message: (outcome.error as Error).message });
	throw outcome.error;
}

/** How many uploads the ledger holds (for tests of its bound). */
export function ledgerSize(): number {
	return entries.size;
}

/** Which run of the node this is in the execution (a loop runs it several times; a retry keeps it). */
function runIndexOf(ctx: IExecuteFunctions): number {
	try {
		const runIndex = ctx.getWorkflowDataProxy(0).$runIndex;
		return typeof runIndex === 'number' ? runIndex : 0;
	} catch {
		return 0;
	}
}
