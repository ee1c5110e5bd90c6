import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { forgetResult } from '../http/uploadLedger';
import { itemError } from '../items/itemError';
import type { Result } from '../schemas';
import type { ItemSink, SinkTarget } from './itemSink';
import { invoiceFacts } from '../duplicates/invoiceKey';
import type { InvoiceCheck, InvoiceVerdict } from '../duplicates/invoiceMarks';
import { extractedFields } from './fieldsMode';
import { doneResultToJson, markCharge, markDuplicateInvoice, markPreparation, type Charge } from './mapping';
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
	/** The run's duplicate-invoice check (Flag Duplicate Invoices), where the operation runs one. */
	invoiceCheck?: InvoiceCheck;
	/** What was done to the document before its upload (a PDF's part, a shrunk photo): see markPreparation. */
	preparation?: IDataObject;
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
	{ binary, charge, documentKey, invoiceCheck, preparation }: SettleExtras = {},
): Promise<void> {
	const itemIndex = typeof target === 'number' ? target : target.item;
	// Processing failed: the next run (or a Retry) sends the document again rather than reading the same error.
	if (result.status === 'error') await forgetResult(ctx, result.result_id, documentKey);
	if (result.status === 'done') {
		const options = await withRequiredFields(ctx, result, outputOptions, itemIndex);
		let jsons;
		try {
			jsons = markCharge(doneResultToJson(result, options), options.mode, charge);
			const verdict = await duplicateInvoiceVerdict(result, options, invoiceCheck, documentKey);
			if (verdict) jsons = markDuplicateInvoice(jsons, options.mode, verdict);
			jsons = markPreparation(jsons, options.mode, preparation);
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
		sink.emit(target, [{ ...unsuccessfulResultToJson(result), ...preparation }], route, binary);
		return;
	}
	const { message, description } = describeUnsuccessfulResult(result);
	// The input file stays with the failed item: whoever reviews the rejected document needs it.
	sink.fail(target, itemError(ctx.getNode(), itemIndex, message, description), 0, { ...unsuccessfulResultToJson(result), ...preparation }, binary);
}

/**
 * The duplicate-invoice check of a done result: none when it is off, when the operation runs none
 * (Get Result), or when the result is not an invoice (no `invoice_number` field).
 */
async function duplicateInvoiceVerdict(result: Result, options: OutputOptions, check: InvoiceCheck | undefined, documentKey: string | undefined): Promise<InvoiceVerdict | undefined> {
	if (!check || !options.duplicateInvoices) return undefined;
	const fields: Record<string, unknown> = {};
	for (const field of extractedFields(result)) if (!Object.hasOwn(fields, field.name)) fields[field.name] = field.value;
	const facts = invoiceFacts(fields);
	if (!facts) return undefined;
	// The same file (its upload's key) is the same document whatever its result ID: never its own duplicate.
	const document = { identity: documentKey ?? `result:${result.result_id}`, resultId: result.result_id, fileName: result.filename ?? null };
	return await check.check(document, facts, options.duplicateInvoices);
}
