import type { IExecuteFunctions } from 'n8n-workflow';

import { InvoiceCheck, unsettledInvoiceWarning } from '../../../shared/duplicates/invoiceMarks';
import { newUploadRun, settleUploadRun, type UploadRun } from '../../../shared/http/uploadLedger';
import { itemError } from '../../../shared/items/itemError';
import { includedBinaryOfFailedItem } from '../../../shared/items/parameters';
import { addWarning } from '../../../shared/output/executionHints';
import type { ItemSink } from '../../../shared/output/itemSink';
import { pendingResultJson } from '../../../shared/output/unsuccessful';
import { awaitResults, type PendingDocument } from '../../../shared/waiting/awaitResults';
import { planItem, type ItemSettings, type PlannedUpload, type ScannerIdFor } from './plan';
import { chargeWarnings, uploadDocument, type ChargeCounts } from './upload';

/**
 * The run of both extract operations, in three phases: every document of every item checked,
 * then each uploaded, then all waited for together, so n documents take about as long as the
 * slowest one instead of the sum of all.
 *
 * Running the node again on the same file (Retry On Fail, n8n's Retry of a failed execution, a
 * second "Execute step") reads the accepted upload's result instead of sending it again
 * (uploadLedger), and the transport itself only repeats an upload the service provably refused.
 */
export async function extractDocuments(ctx: IExecuteFunctions, sink: ItemSink, scannerIdFor: ScannerIdFor): Promise<void> {
	enterPhase(sink, 'checking');
	const { uploads, settingsOf } = await checkEveryItem(ctx, sink, scannerIdFor);
	enterPhase(sink, 'uploading');
	const run = newUploadRun(ctx);
	// Done invoices are looked up among the workflow's earlier ones as they settle (Flag Duplicate Invoices).
	const invoices = new InvoiceCheck(ctx);
	let settling: Promise<number> | undefined;
	try {
		const waiting = await uploadEach(ctx, sink, run, uploads);
		// The run's marks in n8n's database settle while the results are waited for.
		settling = settleMarks(run);
		enterPhase(sink, 'waiting');
		await waitTogether(ctx, sink, waiting.map((document) => ({ ...document, invoiceCheck: invoices })), settingsOf);
	} finally {
		const unsettled = await (settling ?? settleMarks(run));
		if (unsettled > 0) addWarning(ctx, unsettledWarning(unsettled));
		const unsettledInvoices = await invoices.settle();
		if (unsettledInvoices > 0) addWarning(ctx, unsettledInvoiceWarning(unsettledInvoices));
	}
}

/** Never fails the run: a cancel ends it, and what did not settle is warned about. */
async function settleMarks(run: UploadRun): Promise<number> {
	return await settleUploadRun(run).catch(() => 0);
}

function unsettledWarning(count: number): string {
	const documents = count === 1 ? '1 document' : `${count} documents`;
	return `n8n's database did not keep the mark of ${documents} extracted in this run (it was busy with other executions): another n8n process (a queue-mode worker, n8n after a restart) may upload ${count === 1 ? 'it' : 'them'} again if ${count === 1 ? 'it arrives' : 'they arrive'} again.`;
}

type Phase = 'checking' | 'uploading' | 'waiting';

/**
 * What On Error = "Stop" means for the extract operations: the one place that says it. Its rule:
 * nothing paid for is lost. Under Stop n8n keeps no item of a failed node, so what the run owes
 * the user is in the error itself (ItemSink's stop error).
 *
 * - checking: no request was sent yet. The first document that fails a check (or an item whose
 *   settings cannot be used) stops the node at once: nothing was uploaded, nothing is charged.
 * - uploading: a failed upload stops the node at once. The documents after it are not uploaded,
 *   so nothing more is charged; each one uploaded before it (ItemSink.track) is listed in the
 *   error with its result ID, its pages already reserved.
 * - waiting: every document is paid for now, so a failure waits: the other documents are read
 *   until they are done, rejected or out of time, and only then does the node stop (ItemSink's
 *   result), with the first failure, the others named, and every document of the run listed with
 *   its result ID and outcome.
 *
 * Under "Continue" (either kind) nothing stops: each failure is its item's or document's error
 * item, in every phase.
 */
const ON_STOP: Record<Phase, 'stop at once' | 'finish the others first'> = {
	checking: 'stop at once',
	uploading: 'stop at once',
	waiting: 'finish the others first',
};

/** Starts a phase: from here on a failure under Stop does what ON_STOP says (a sink, once holding, holds to the end). */
function enterPhase(sink: ItemSink, phase: Phase): void {
	if (ON_STOP[phase] === 'finish the others first') sink.holdFailures();
}

/**
 * Checking: each item planned (plan.ts) and each of its documents checked before the first
 * request. Each file is let go once judged and read again for its upload, proven the same bytes
 * (check.ts), so the run's memory does not grow with its files; a file that changed meanwhile
 * fails its item, unsent. The item settings are kept by input item index, the one key the later
 * phases look them up by.
 */
async function checkEveryItem(
	ctx: IExecuteFunctions,
	sink: ItemSink,
	scannerIdFor: ScannerIdFor,
): Promise<{ uploads: PlannedUpload[]; settingsOf: Map<number, ItemSettings> }> {
	const uploads: PlannedUpload[] = [];
	const settingsOf = new Map<number, ItemSettings>();
	const itemCount = ctx.getInputData().length;
	for (let i = 0; i < itemCount; i++) {
		try {
			const planned = await planItem(ctx, sink, i, scannerIdFor);
			settingsOf.set(i, planned.settings);
			uploads.push(...planned.uploads);
		} catch (error) {
			// The item failed as a whole (a setting it cannot use). Under Stop this throws, and so did
			// a document's failure inside planItem: the run ends before any upload.
			sink.fail(i, error, 0, {}, includedBinaryOfFailedItem(ctx, i));
		}
	}
	return { uploads, settingsOf };
}

/**
 * Uploading: one document at a time, in input order (upload.ts). What is waited for is returned;
 * the rest (receipts, duplicates, failures) has left through the sink.
 */
async function uploadEach(ctx: IExecuteFunctions, sink: ItemSink, run: UploadRun, planned: PlannedUpload[]): Promise<PendingDocument[]> {
	const counts: ChargeCounts = { reused: 0, duplicate: 0, chargedAgain: 0 };
	const waiting: PendingDocument[] = [];
	for (const plan of consumedInTurn(planned)) {
		try {
			const pending = await uploadDocument(ctx, sink, run, plan, counts);
			if (pending) waiting.push(pending);
		} catch (error) {
			sink.fail(plan.slot ?? plan.itemIndex, error, 0, { ...plan.file.preparation }, plan.binary);
		}
	}
	for (const warning of chargeWarnings(counts)) addWarning(ctx, warning);
	return waiting;
}

/**
 * The plan taken off its list one upload at a time, not looped over, for memory: a file read again
 * for its upload (a download from n8n's binary data, where it waited: readers/download/stored.ts)
 * is held only while it is sent. Consumed, a document is held by nothing once uploaded, so one
 * file at a time is in memory, not every file of the run.
 */
function* consumedInTurn(planned: PlannedUpload[]): Generator<PlannedUpload> {
	for (let next = planned.shift(); next; next = planned.shift()) yield next;
}

/** Waiting: one wait for the batch, through the one scheduler; each document settles as its result is known. */
async function waitTogether(ctx: IExecuteFunctions, sink: ItemSink, waiting: PendingDocument[], settingsOf: Map<number, ItemSettings>): Promise<void> {
	// Every waiting document was planned with its item's settings.
	const settingsFor = (document: PendingDocument) => settingsOf.get(document.id) as ItemSettings;
	// It lasts as long as the most patient item asks.
	const timeoutMs = Math.max(0, ...waiting.map((document) => settingsFor(document).waitTimeoutMs));
	await awaitResults(ctx, sink, waiting, {
		timeoutMs,
		routes: { done: 0, rejected: 'fail', error: 'fail' },
		failedOutput: 0,
		onTimeout: (document, lastResult) => {
			const { id: i, slot, resultId, binary, preparation } = document;
			const target = slot ?? i;
			const status = lastResult?.status ?? 'queued';
			if (settingsFor(document).onTimeout === 'emitPending') {
				sink.emit(target, [{ ...pendingResultJson(resultId, status), ...preparation }], 0, binary);
				return;
			}
			sink.fail(
				target,
				itemError(
					ctx.getNode(),
					i,
					`the document was not processed within ${seconds(timeoutMs)} (status "${status}")`,
					`Result ID ${resultId}. Raise "Wait Timeout", or set "On Timeout" to output the pending result and read it later with "Get Result" or the Document Extraction Poller. The pages are already reserved: do not upload the file again.`,
				),
				0,
				{ result_id: resultId, status, ...preparation },
				binary,
			);
		},
	});
}

function seconds(ms: number): string {
	const value = Math.round(ms / 1000);
	return `${value} second${value === 1 ? '' : 's'}`;
}
