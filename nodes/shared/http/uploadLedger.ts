import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../items/itemError';
import type { UploadAccepted } from '../schemas';
import { uploadDocument } from './api';
import { findMark, markExtracted, unmark } from './chargeMarks';
import { UPLOAD_NOT_SENT_AGAIN } from './errors';
import { MarkSession } from './markRow';
import type { UploadFile } from './multipart';
import { stillValid, type Reused, type TemplateChangedAt } from './reuseCheck';
import { mayHaveBeenApplied } from './transport';
import { documentKeyOf, uploadIdentity, type UploadIdentity } from './uploadKey';
import { failedHere, forgetFailedResult, lookUpUpload, recordUpload } from './uploadReceipts';

/**
 * Uploads, charged once. An upload is known by its key (uploadKey.ts); three layers answer it, two
 * in this process and one in n8n's database:
 * - the upload in flight: an execution meeting the same file while another one sends it waits for
 *   that upload and reads its result (a double-clicked Execute step, one mail fetched twice);
 * - the accepted receipt (uploadReceipts.ts, 7 days): Retry On Fail, n8n's Retry of a failed
 *   execution and a second "Execute step" read its result instead of paying again. "Reuse Earlier
 *   Uploads" off limits that to the same execution (Retry On Fail);
 * - a mark in n8n's database (chargeMarks.ts): another process extracted it on a given day, but
 *   its result ID is not here. A new execution (another email, a re-sent webhook) then does not
 *   upload it and says it is a duplicate; a Retry or an "Execute step", where the user wants the
 *   data, uploads it again and says it was charged again.
 * A receipt is read once before it is reused (reuseCheck.ts): one the account does not know, one
 * that ended in `error`, or one made with a template changed since, is forgotten and the file
 * uploaded again in the same run.
 */

const inFlight = new Map<string, Promise<unknown>>();

/** How n8n started the execution, where the user wants the data even when it was extracted elsewhere. */
const UPLOADS_AGAIN_WHEN_MARKED = new Set(['manual', 'retry']);

/**
 * Forgets the upload whose result ended in `error`, here and in n8n's database (by the receipt's
 * `document_key` when another process uploaded it): the next run on the file sends it again. In a
 * run of uploads its marks settle with the run's; elsewhere (the Poller, Get Result) here.
 */
export async function forgetResult(ctx: IExecuteFunctions, resultId: string, documentKey?: string, run?: UploadRun): Promise<void> {
	const keys = forgetFailedResult(resultId);
	const session = run?.marks ?? new MarkSession(ctx);
	for (const forgotten of new Set([...keys.map(documentKeyOf), ...(documentKey ? [documentKey] : [])])) await unmark(session, forgotten);
	if (!run) await session.settle();
}

/**
 * An upload's receipt: `reused` when it is an earlier upload's (nothing was charged this time),
 * `chargedAgain` when another process had extracted it and this one could not read that result.
 * Or, in a new execution, no upload at all: the document is a `duplicate` of one extracted before.
 */
export type Upload = { receipt: UploadAccepted; documentKey: string; reused?: Reused; chargedAgain?: { firstDay: string } } | { duplicate: { firstDay: string } };

/** What one run of the node (one try, under Retry On Fail) learns once and every upload of the run shares. */
export interface UploadRun {
	templateChangedAt: TemplateChangedAt;
	/** Uploads this run made (keys): a second item with the same file reuses the first one's. */
	uploaded: Set<string>;
	/** What the run wrote in n8n's database, made to hold when the run settles (settleUploadRun). */
	marks: MarkSession;
}

export function newUploadRun(ctx: IExecuteFunctions): UploadRun {
	return { templateChangedAt: new Map(), uploaded: new Set(), marks: new MarkSession(ctx) };
}

/**
 * Makes the run's marks hold in n8n's database (markRow.ts); says how many could not be made to
 * (another process may then upload those documents again).
 */
export async function settleUploadRun(run: UploadRun): Promise<number> {
	return await run.marks.settle();
}

function uploadedInRun(run: UploadRun, identity: UploadIdentity, receipt: UploadAccepted): Upload {
	run.uploaded.add(identity.key);
	return { receipt, documentKey: documentKeyOf(identity.key) };
}

/**
 * Uploads the file, unless it is in flight or known: then the earlier upload's receipt is used
 * (no second charge), or, when this execution's earlier try got no clear answer, nothing is sent
 * and the item fails saying so.
 */
export async function uploadOnce(
	ctx: IExecuteFunctions,
	run: UploadRun,
	itemIndex: number,
	file: UploadFile,
	scannerId: string | undefined,
	reuseEarlier: boolean,
): Promise<Upload> {
	const identity = await uploadIdentity(ctx, file, scannerId);
	// Another execution sending the same file: wait for its answer (the ledger has it then).
	for (let flying = inFlight.get(identity.key); flying && reuseEarlier; flying = inFlight.get(identity.key)) {
		await flying.catch(() => undefined);
	}
	// Looking up, checking and sending are one step per key: no second execution starts between them.
	const step = decideAndUpload(ctx, run, { itemIndex, file, scannerId, reuseEarlier, identity });
	inFlight.set(identity.key, step);
	try {
		return await step;
	} finally {
		if (inFlight.get(identity.key) === step) inFlight.delete(identity.key);
	}
}

interface UploadRequest {
	itemIndex: number;
	file: UploadFile;
	scannerId: string | undefined;
	reuseEarlier: boolean;
	identity: UploadIdentity;
}

async function decideAndUpload(ctx: IExecuteFunctions, run: UploadRun, { itemIndex, file, scannerId, reuseEarlier, identity }: UploadRequest): Promise<Upload> {
	const earlier = lookUpUpload(identity, reuseEarlier);
	if (earlier?.kind === 'accepted') {
		// Made by this execution, nothing can have changed. In this very run (the same file twice) the
		// second item's data is reused; in an earlier try (Retry On Fail) that try output nothing, so
		// this is simply the execution's upload.
		if (identity.executionId !== '' && earlier.executionId === identity.executionId) {
			if (!run.uploaded.has(identity.key)) return uploadedInRun(run, identity, earlier.answer);
			return { receipt: earlier.answer, documentKey: documentKeyOf(identity.key), reused: { firstUploadedAt: earlier.answer.queued_at ?? '' } };
		}
		const reused = await stillValid(ctx, run.templateChangedAt, itemIndex, earlier.answer, scannerId);
		if (reused) return { receipt: earlier.answer, documentKey: documentKeyOf(identity.key), reused };
		await forgetResult(ctx, earlier.answer.result_id, undefined, run);
	}
	if (earlier?.kind === 'uncertain') {
		throw itemError(
			ctx.getNode(),
			itemIndex,
			'an earlier try of this execution sent this document and got no clear answer',
			`The earlier try ended with: ${earlier.message.replace(/\.?$/, '.')} ${UPLOAD_NOT_SENT_AGAIN} If no result appears for it in your account, run the workflow again.`,
		);
	}
	// Not known here: n8n's database may know it was extracted by another process.
	const documentKey = documentKeyOf(identity.key);
	const lookUp = reuseEarlier && !failedHere(identity);
	const mark = lookUp ? await findMark(run.marks, documentKey, ctx.getExecutionCancelSignal?.()) : { claimed: false };
	if (mark.firstDay && !UPLOADS_AGAIN_WHEN_MARKED.has(ctx.getMode())) return { duplicate: { firstDay: mark.firstDay } };

	const outcome = await uploadDocument(ctx, file, scannerId, itemIndex).then(
		(receipt) => ({ receipt }),
		(error: unknown) => ({ error }),
	);
	if ('receipt' in outcome) {
		recordUpload(identity, { kind: 'accepted', answer: outcome.receipt, executionId: identity.executionId });
		await markExtracted(run.marks, documentKey);
		return { ...uploadedInRun(run, identity, outcome.receipt), ...(mark.firstDay ? { chargedAgain: { firstDay: mark.firstDay } } : {}) };
	}
	if (mayHaveBeenApplied(outcome.error)) {
		recordUpload(identity, { kind: 'uncertain', message: (outcome.error as Error).message, executionId: identity.executionId });
	}
	// Not accepted, or not known to be: another execution must not take it for extracted (its data
	// would be nowhere). The error says that a later run may send it again.
	if ('claimed' in mark && mark.claimed) await unmark(run.marks, documentKey);
	throw outcome.error;
}
