import type { IBinaryKeyData, IExecuteFunctions } from 'n8n-workflow';

import { forgetResult } from '../http/uploadLedger';
import { itemError } from '../items/itemError';
import type { Result } from '../schemas';
import type { ItemSink, SinkTarget } from './itemSink';
import { doneResultToJson, markCharge, type Charge } from './mapping';
import { OutputMappingError, type OutputOptions } from './options';
import { withRequiredFields } from './requiredFields';
import { describeUnsuccessfulResult, unsuccessfulResultToJson } from './unsuccessful';

/**
 * Where each kind of finished result goes. The action node has one output and fails rejected and
 * errored documents; the poller has an output for each.
 */
export interface ResultRoutes {
	done: number;
	/** An output index, or 'fail' to fail the item (an error item under continueOnFail). */
	rejected: number | 'fail';
	error: number | 'fail';
}

/** What a result's items carry besides its data. */
export interface SettleExtras {
	/** The input file, passed through ("Include Input Binary"). */
	binary?: IBinaryKeyData;
	/** The document was extracted before (see markCharge). */
	charge?: Charge;
	/** The upload receipt's `document_key`, when the item carries it. */
	documentKey?: string;
}

/**
 * Emits one result that reached a terminal state, mapped as the user chose (with the template's
 * required fields when the review needs them), marked when its document was extracted before. Shared by
 * both nodes and every operation that reads results.
 */
export async function settleResult(
	ctx: IExecuteFunctions,
	sink: ItemSink,
	target: SinkTarget,
	result: Result,
	outputOptions: OutputOptions,
	routes: ResultRoutes,
	{ binary, charge, documentKey }: SettleExtras = {},
): Promise<void> {
	const itemIndex = typeof target === 'number' ? target : target.item;
	// Processing failed: the next run (or a Retry) sends the document again rather than reading the same error.
	if (result.status === 'error') await forgetResult(ctx, result.result_id, documentKey);
	if (result.status === 'done') {
		const options = await withRequiredFields(ctx, result, outputOptions, itemIndex);
		let jsons;
		try {
			jsons = markCharge(doneResultToJson(result, options), options.mode, charge);
		} catch (error) {
			// e.g. "Table Field" names a field this document's template does not have.
			const { message, description } = error instanceof OutputMappingError ? error : { message: String(error), description: undefined };
			const output = typeof routes.error === 'number' ? routes.error : routes.done;
			sink.fail(target, itemError(ctx.getNode(), itemIndex, message, description), output, { result_id: result.result_id }, binary);
			return;
		}
		sink.emit(target, jsons, routes.done, binary);
		return;
	}
	// `error`, `rejected`, or a status the spec does not know (an error, never an endless wait).
	const route = result.status === 'rejected' ? routes.rejected : routes.error;
	if (route !== 'fail') {
		sink.emit(target, [unsuccessfulResultToJson(result)], route, binary);
		return;
	}
	const { message, description } = describeUnsuccessfulResult(result);
	// The input file stays with the failed item: whoever reviews the rejected document needs it.
	sink.fail(target, itemError(ctx.getNode(), itemIndex, message, description), 0, unsuccessfulResultToJson(result), binary);
}
