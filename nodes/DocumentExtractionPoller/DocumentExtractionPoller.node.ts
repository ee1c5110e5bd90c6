import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { InvoiceCheck, unsettledInvoiceWarning } from '../shared/duplicates/invoiceMarks';
import { errorCodeOf } from '../shared/http/errors';
import { itemError } from '../shared/items/itemError';
import { pendingResultJson } from '../shared/output/unsuccessful';
import { DEFAULT_WAIT_TIMEOUT_SECONDS } from '../shared/limits';
import { alphabetically, duplicateInvoiceOptions, outputOptionsCollection, outputProperties, readOutputOptions } from '../shared/output/descriptions';
import { COLUMN_PREFIXES } from '../shared/output/columnNames';
import { addWarning } from '../shared/output/executionHints';
import { INPUT_FIELD_PREFIX, inputFieldsOption, readInputFields } from '../shared/output/inputFields';
import { ItemSink } from '../shared/output/itemSink';
import type { Charge } from '../shared/output/mapping';
import { includedBinary, includedBinaryOfFailedItem, readNumber } from '../shared/items/parameters';
import { checkResultId } from '../shared/preflight/ids';
import { getTableFields } from '../shared/templates/tableFieldOptions';
import { awaitResults, receiptTiming, type PendingDocument } from '../shared/waiting/awaitResults';

/** Output indexes, in the order of `outputNames`. */
const OUTPUT = { done: 0, rejected: 1, error: 2, stillProcessing: 3 } as const;

export class DocumentExtractionPoller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Poller',
		name: 'documentExtractionPoller',
		icon: { light: 'file:../../icons/documentExtractionPoller.svg', dark: 'file:../../icons/documentExtractionPoller.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: 'Wait for extraction results',
		description:
			'Waits for documents uploaded without waiting and outputs each one when it is done, rejected or failed, reading the service no faster than it allows',
		defaults: { name: 'Document Extraction Poller' },
		// Not a tool: n8n hands an agent only a tool's first output, so rejected, failed and
		// unfinished documents (outputs 2-4) would reach it as nothing at all. An agent reads
		// results with the Document Extraction node's Get Result instead. Declared (the lint rule
		// asks every node to say), as undefined: n8n's type has no `false`, and n8n makes a tool
		// only of a node whose value is truthy.
		usableAsTool: undefined,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main, NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Done', 'Rejected', 'Error', 'Still Processing'],
		credentials: [{ name: 'documentExtractionApi', required: true }],
		properties: [
			{
				displayName:
					'Put this node after a Document Extraction node whose "Wait for Result" is off. Items still processing when the timeout ends leave on "Still Processing": loop them back through a Wait node.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Result ID',
				name: 'resultId',
				type: 'string',
				default: '={{ $json.result_id }}',
				required: true,
				description: 'The result_id of each uploaded document (a UUID)',
			},
			...outputProperties(),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: alphabetically([
					{
						displayName: 'Include Input Binary',
						name: 'includeBinary',
						type: 'boolean',
						default: false,
						description: 'Whether to pass the input item\'s files through to its output item',
					},
					inputFieldsOption,
					{
						// Named as on the action node ("Wait Timeout"); the parameter keeps its name for saved workflows.
						displayName: 'Wait Timeout (Seconds)',
						name: 'timeout',
						type: 'number',
						default: DEFAULT_WAIT_TIMEOUT_SECONDS,
						typeOptions: { minValue: 5 },
						description: 'How long to wait in this run; documents not finished by then leave on "Still Processing"',
					},
					...outputOptionsCollection(),
					...duplicateInvoiceOptions(),
				]),
			},
		],
	};

	methods = { loadOptions: { getTableFields } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const sink = new ItemSink(this, 4);
		const targets: PendingDocument[] = [];
		let timeoutMs = 0;

		// Every item is checked before the first read: under On Error = Stop a bad one stops the
		// node before anything else happened.
		for (let i = 0; i < items.length; i++) {
			try {
				const checked = checkResultId(this.getNodeParameter('resultId', i, ''));
				if (!checked.ok) {
					throw itemError(this.getNode(), i, checked.message, `${checked.description}. Set "Result ID" to the field that holds it.`);
				}
				const binary = includedBinary(this, i);
				const inputFields = readInputFields(this, i);
				if (inputFields) sink.annotate(i, inputFields, INPUT_FIELD_PREFIX);
				// A receipt of one document among several (Document Source "Every Attachment", or a URL)
				// says where it came from; its outputs keep saying it.
				const origin = sourceFieldsOf(items[i].json);
				if (origin) sink.annotate(i, origin, COLUMN_PREFIXES.source);
				// One timeout for the run (the reads of all items are scheduled together): the longest asked for.
				timeoutMs = Math.max(timeoutMs, 1000 * readNumber(this, 'options.timeout', i, DEFAULT_WAIT_TIMEOUT_SECONDS, TIMEOUT_RULE));
				const { json } = items[i];
				targets.push({
					id: i,
					resultId: checked.id,
					// The upload receipt's numbers, when the item carries them: they time the first read.
					...receiptTiming(json),
					// Checked before polling: a setting that cannot be applied fails its item without a read.
					outputOptions: readOutputOptions(this, i),
					binary,
					// A receipt of a document extracted before (Extract reused it or paid again): its items say so, as Extract's would.
					charge: chargeOfReceipt(json),
					documentKey: typeof json.document_key === 'string' ? json.document_key : undefined,
				});
			} catch (error) {
				sink.fail(i, error, OUTPUT.error, unreadableFields(null, error), includedBinaryOfFailedItem(this, i));
			}
		}
		for (const target of targets) sink.track(target.id, target.resultId, 'read');
		// A result that cannot be read (e.g. an unknown ID) under On Error = Stop stops the node only
		// once the others are known, and the error lists them all with their result IDs.
		sink.holdFailures();
		// Done invoices are looked up among the workflow's earlier ones (Flag Duplicate Invoices).
		const invoices = new InvoiceCheck(this);
		for (const target of targets) target.invoiceCheck = invoices;
		// Items naming the same result (e.g. merged branches) share its reads: the scheduler groups them.
		try {
			await awaitResults(this, sink, targets, {
				timeoutMs,
				routes: OUTPUT,
				failedOutput: OUTPUT.error,
				failedFields: unreadableFields,
				onTimeout: ({ id: i, resultId, binary }, lastResult) =>
					sink.emit(i, [{ ...items[i].json, ...pendingResultJson(resultId, lastResult?.status ?? 'queued') }], OUTPUT.stillProcessing, binary),
			});
		} finally {
			const unsettled = await invoices.settle();
			if (unsettled > 0) addWarning(this, unsettledInvoiceWarning(unsettled));
		}
		return sink.result(items.length);
	}
}

/**
 * A result that could not be read, on the Error output next to results that ended in `error`:
 * the same first columns (result_id, status, error_code, error_message), status "unreadable".
 */
function unreadableFields(resultId: string | null, error: unknown): IDataObject {
	return {
		result_id: resultId,
		status: 'unreadable',
		error_code: errorCodeOf(error) ?? null,
		error_message: (error instanceof Error ? error.message : String(error)).replace(/^Item \d+(?: \([^)]*\))?: /, ''),
	};
}

function chargeOfReceipt(json: IDataObject): Charge | undefined {
	if (json.reused !== true && json.charged_again !== true) return undefined;
	return { reused: json.reused === true, firstExtractedAt: typeof json.first_extracted_at === 'string' ? json.first_extracted_at : null };
}

const TIMEOUT_RULE = { label: 'Wait Timeout (Seconds)', min: 0, minExclusive: true, example: String(DEFAULT_WAIT_TIMEOUT_SECONDS) };

/** The receipt's `binary_field`, `file_name`, `file_url` and `skipped_files`, if it has any. */
function sourceFieldsOf(json: IDataObject): IDataObject | undefined {
	const fields: IDataObject = {};
	for (const name of ['binary_field', 'file_name', 'file_url', 'skipped_files']) {
		if (json[name] !== undefined) fields[name] = json[name];
	}
	return Object.keys(fields).length > 0 ? fields : undefined;
}
