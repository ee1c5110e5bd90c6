import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getResult } from '../http/api';
import { rateBudgetOf } from '../http/transport';
import type { DocumentSlot, ItemSink } from '../output/itemSink';
import type { OutputOptions } from '../output/options';
import { settleResult, type ResultRoutes, type SettleExtras } from '../output/settleResult';
import type { Charge } from '../output/mapping';
import type { Result } from '../schemas';
import { waitFor } from '../wait';
import { pollResults, type PollTarget } from './scheduler';

/** An uploaded document an item waits for (`id`: the item index), with what its output needs. */
export interface PendingDocument extends PollTarget {
	outputOptions: OutputOptions;
	binary?: IBinaryKeyData;
	/** Which of the item's documents, when it holds several. */
	slot?: DocumentSlot;
	/** The document was extracted before: its items say so (see markCharge). */
	charge?: Charge;
	/** Its upload's `document_key` (see uploadLedger), so a result that ended in `error` is forgotten everywhere. */
	documentKey?: string;
	/** The run's duplicate-invoice check, when the operation runs one. */
	invoiceCheck?: SettleExtras['invoiceCheck'];
	/** What was done to the document before its upload (see markPreparation). */
	preparation?: SettleExtras['preparation'];
	/** The result when it is already final (a reused upload's, read when it was checked): no read is needed. */
	known?: Result;
}

/**
 * What an upload receipt (the 202 answer, or an item carrying its fields) tells the scheduler to
 * time the first read: the pages charged and when the document was queued.
 */
export function receiptTiming(receipt: { tokens_required?: unknown; queued_at?: unknown }): Pick<PollTarget, 'pages' | 'queuedAt'> {
	const queuedAt = typeof receipt.queued_at === 'string' ? Date.parse(receipt.queued_at) : NaN;
	return {
		pages: typeof receipt.tokens_required === 'number' ? receipt.tokens_required : undefined,
		queuedAt: Number.isNaN(queuedAt) ? undefined : queuedAt,
	};
}

export interface AwaitOptions {
	timeoutMs: number;
	routes: ResultRoutes;
	/** Output of the error item when a read fails for good (under continueOnFail). */
	failedOutput: number;
	/** The fields of that error item besides the error's own (default: the result ID). */
	failedFields?(resultId: string, error: unknown): IDataObject;
	/** What the node does with a document still pending at the deadline. */
	onTimeout(document: PendingDocument, lastResult: Result | undefined): void;
}

/**
 * Waits for the results of several items through the one scheduler and emits each item as its
 * outcome is known. The action node's "Wait for Result" and the Poller differ only in `options`.
 */
export async function awaitResults(ctx: IExecuteFunctions, sink: ItemSink, documents: PendingDocument[], options: AwaitOptions): Promise<void> {
	const settle = async (document: PendingDocument, result: Result) =>
		await settleResult(ctx, sink, document.slot ?? document.id, result, document.outputOptions, options.routes, document);
	for (const document of documents) if (document.known) await settle(document, document.known);
	const unknown = documents.filter((document) => !document.known);
	if (unknown.length === 0) return;
	const itemOfResult = new Map(unknown.map((document) => [document.resultId, document.id]));
	await pollResults(
		unknown,
		{
			timeoutMs: options.timeoutMs,
			onOutcome: async (target, outcome) => {
				const document = target as PendingDocument;
				switch (outcome.kind) {
					case 'settled':
						await settle(document, outcome.result);
						return;
					case 'failed':
						sink.fail(
							document.slot ?? document.id,
							outcome.error,
							options.failedOutput,
							options.failedFields?.(document.resultId, outcome.error) ?? { result_id: document.resultId },
							document.binary,
						);
						return;
					case 'timeout':
						options.onTimeout(document, outcome.result);
				}
			},
		},
		{
			readResult: async (resultId) => await getResult(ctx, resultId, itemOfResult.get(resultId)),
			budget: await rateBudgetOf(ctx),
			now: () => Date.now(),
			wait: waitFor,
			signal: ctx.getExecutionCancelSignal(),
		},
	);
}
