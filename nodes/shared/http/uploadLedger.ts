import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../items/itemError';
import type { Result, UploadAccepted } from '../schemas';
import { getResult, getScanner, uploadDocument } from './api';
import { findMark, markExtracted, unmark } from './chargeMarks';
import { errorCodeOf, UPLOAD_NOT_SENT_AGAIN } from './errors';
import type { UploadFile } from './multipart';
import { SentLedger, type SentEntry } from './sentLedger';
import { accountOf, mayHaveBeenApplied } from './transport';

/**
 * Uploads, charged once. An upload is known by one key: the account (a one-way fingerprint of Base
 * URL and API key, never the key), workflow, node, template, file name and content (SHA-256).
 * Three layers answer it, two in this process and one in n8n's database:
 * - the upload in flight: an execution meeting the same file while another one sends it waits for
 *   that upload and reads its result (a double-clicked Execute step, one mail fetched twice);
 * - the accepted receipt (7 days): Retry On Fail, n8n's Retry of a failed execution and a second
 *   "Execute step" read its result instead of paying again. "Reuse Earlier Uploads" off limits
 *   that to the same execution (Retry On Fail);
 * - a mark in n8n's database (chargeMarks.ts): another process extracted it on a given day, but
 *   its result ID is not here. A new execution (another email, a re-sent webhook) then does not
 *   upload it and says it is a duplicate; a Retry or an "Execute step", where the user wants the
 *   data, uploads it again and says it was charged again.
 * A receipt is read once before it is reused: a result the account does not know (the credential
 * now names another account, or the result was deleted), one that ended in `error`, or one made
 * with a template changed since, is forgotten and the file uploaded again in the same run. An
 * upload that got no clear answer is known only within its execution.
 */

export type LedgerEntry = SentEntry<UploadAccepted>;

const ledger = new SentLedger<UploadAccepted>();
const inFlight = new Map<string, Promise<unknown>>();
/** Keys whose result ended in `error` here: their marks in n8n's database no longer mean "extracted". */
const failed = new SentLedger<true>();

/** How n8n started the execution, where the user wants the data even when it was extracted elsewhere. */
const UPLOADS_AGAIN_WHEN_MARKED = new Set(['manual', 'retry']);

export interface UploadIdentity {
	/** The same account, file, node and template in the same workflow. */
	key: string;
	executionId: string;
}

/** The ledger's key of an upload: a JSON list, so forgetTemplate can read the template back. */
export function uploadKey(account: string, workflowId: string, nodeId: string, scannerId: string | undefined, fileName: string, contentHash: string): string {
	return JSON.stringify([account, workflowId, nodeId, scannerId ?? 'auto', fileName, contentHash]);
}
const TEMPLATE_IN_KEY = 3;

async function uploadIdentity(ctx: IExecuteFunctions, file: UploadFile, scannerId: string | undefined): Promise<UploadIdentity> {
	const contentHash = createHash('sha256').update(file.bytes).digest('hex');
	const key = uploadKey(await accountOf(ctx), ctx.getWorkflow().id ?? '', ctx.getNode().id, scannerId, file.fileName, contentHash);
	return { key, executionId: ctx.getExecutionId?.() ?? '' };
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

/** The document's name in n8n's database and on receipts: one-way, like everything the marks hold. */
function documentKeyOf(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

/**
 * Forgets the upload whose result ended in `error`, here and in n8n's database (by the receipt's
 * `document_key` when another process uploaded it): the next run on the file sends it again.
 */
export async function forgetResult(ctx: IExecuteFunctions, resultId: string, documentKey?: string): Promise<void> {
	const keys = ledger.forgetWhere((entry) => entry.kind === 'accepted' && entry.answer.result_id === resultId);
	for (const key of keys) failed.set(key, { kind: 'accepted', answer: true, executionId: '' });
	for (const forgotten of new Set([...keys.map(documentKeyOf), ...(documentKey ? [documentKey] : [])])) await unmark(ctx, forgotten);
}

/** Forgets the uploads made with a template this node just changed or deleted: their results would be out of date. */
export function forgetTemplate(scannerId: string): void {
	ledger.forgetWhere((_entry, key) => (JSON.parse(key) as string[])[TEMPLATE_IN_KEY] === scannerId);
}

/**
 * An upload's receipt: `reused` when it is an earlier upload's (nothing was charged this time),
 * `chargedAgain` when another process had extracted it and this one could not read that result.
 * Or, in a new execution, no upload at all: the document is a `duplicate` of one extracted before.
 */
export type Upload = { receipt: UploadAccepted; documentKey: string; reused?: Reused; chargedAgain?: { firstDay: string } } | { duplicate: { firstDay: string } };

export interface Reused {
	/** When the service accepted the earlier upload. */
	firstUploadedAt: string;
	/** The result as read when the receipt was checked, when it was already final. */
	result?: Result;
}

/** What one run of the node (one try, under Retry On Fail) learns once and every upload of the run shares. */
export interface UploadRun {
	/** Per template: when it was last changed (spec 4.7 `updated_at`), read once per run and only to check a reuse. */
	templateChangedAt: Map<string, Promise<number | undefined>>;
	/** Uploads this run made (keys): a second item with the same file reuses the first one's. */
	uploaded: Set<string>;
}

export function newUploadRun(): UploadRun {
	return { templateChangedAt: new Map(), uploaded: new Set() };
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
		const reused = await stillValid(ctx, run, itemIndex, earlier.answer, scannerId);
		if (reused) return { receipt: earlier.answer, documentKey: documentKeyOf(identity.key), reused };
		await forgetResult(ctx, earlier.answer.result_id);
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
	const lookUp = reuseEarlier && !failed.get(identity.key);
	const mark = lookUp ? await findMark(ctx, documentKey) : { claimed: false };
	if (mark.firstDay && !UPLOADS_AGAIN_WHEN_MARKED.has(ctx.getMode())) return { duplicate: { firstDay: mark.firstDay } };

	const outcome = await uploadDocument(ctx, file, scannerId, itemIndex).then(
		(receipt) => ({ receipt }),
		(error: unknown) => ({ error }),
	);
	if ('receipt' in outcome) {
		recordUpload(identity, { kind: 'accepted', answer: outcome.receipt, executionId: identity.executionId });
		failed.delete(identity.key);
		if (!mark.claimed) await markExtracted(ctx, documentKey);
		return { ...uploadedInRun(run, identity, outcome.receipt), ...(mark.firstDay ? { chargedAgain: { firstDay: mark.firstDay } } : {}) };
	}
	if (mayHaveBeenApplied(outcome.error)) {
		recordUpload(identity, { kind: 'uncertain', message: (outcome.error as Error).message, executionId: identity.executionId });
	}
	// Not accepted, or not known to be: another execution must not take it for extracted (its data
	// would be nowhere). The error says that a later run may send it again.
	if (mark.claimed) await unmark(ctx, documentKey);
	throw outcome.error;
}

/**
 * Whether an earlier upload's result may stand for this one, read once: not when the account does
 * not know it (RESULT_NOT_FOUND), not when it ended in `error`, not when its template changed
 * after the upload. A read that fails otherwise (network, rate limit) leaves the receipt in use:
 * the wait reads it again.
 */
async function stillValid(ctx: IExecuteFunctions, run: UploadRun, itemIndex: number, receipt: UploadAccepted, scannerId: string | undefined): Promise<Reused | undefined> {
	const firstUploadedAt = receipt.queued_at ?? '';
	let result: Result | undefined;
	try {
		result = await getResult(ctx, receipt.result_id, itemIndex);
	} catch (error) {
		if (errorCodeOf(error) === 'RESULT_NOT_FOUND') return undefined;
	}
	if (result?.status === 'error') return undefined;
	if (scannerId !== undefined) {
		let changedAt = run.templateChangedAt.get(scannerId);
		if (!changedAt) {
			changedAt = getScanner(ctx, scannerId, itemIndex).then(
				(scanner) => Date.parse(scanner.updated_at ?? ''),
				// Deleted: the upload itself then says so. Any other failure fails the item, uncharged.
				(error: unknown) => (errorCodeOf(error) === 'SCANNER_NOT_FOUND' ? undefined : Promise.reject(error)),
			);
			run.templateChangedAt.set(scannerId, changedAt);
		}
		const changed = await changedAt;
		const uploaded = Date.parse(firstUploadedAt);
		// Unknown either way: the template may have changed, so the result is not trusted.
		if (changed === undefined || Number.isNaN(changed) || Number.isNaN(uploaded) || changed > uploaded) return undefined;
	}
	return { firstUploadedAt, ...(result && result.status !== 'queued' && result.status !== 'processing' ? { result } : {}) };
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
