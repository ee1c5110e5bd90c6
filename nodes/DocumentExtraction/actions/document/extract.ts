import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { UploadFile } from '../../../shared/http/multipart';
import { uploadOnce } from '../../../shared/http/uploadLedger';
import { itemError } from '../../../shared/itemError';
import { DEFAULT_WAIT_TIMEOUT_SECONDS } from '../../../shared/limits';
import { alphabetically, outputOptionsCollection, outputProperties, readOutputOptions } from '../../../shared/output/descriptions';
import { addWarning } from '../../../shared/output/executionHints';
import type { ItemSink } from '../../../shared/output/itemSink';
import type { OutputOptions } from '../../../shared/output/options';
import { pendingResultJson } from '../../../shared/output/unsuccessful';
import { includedBinary, includedBinaryOfFailedItem, readBoolean, readChoice, readNumber } from '../../../shared/parameters';
import { awaitResults, receiptTiming, type PendingDocument } from '../../../shared/waiting/awaitResults';
import { readUploadFile } from './file';

/** Parameters both extract operations show, below their own. */
export function extractProperties(operation: string): INodeProperties[] {
	const show = { show: { resource: ['document'], operation: [operation] } };
	const showWhenWaiting = { show: { ...show.show, waitForResult: [true] } };
	return [
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: show,
			hint: 'The name of the input binary field that holds the PDF, JPEG or PNG file',
			description: 'Email triggers name their attachments attachment_0, attachment_1 and so on',
		},
		{
			displayName: 'Wait for Result',
			name: 'waitForResult',
			type: 'boolean',
			default: true,
			displayOptions: show,
			description:
				'Whether to wait until the document is processed (usually 3-20 seconds) and output the extracted data. Turn off to output the upload receipt (result ID, pages reserved) at once and read the result later with "Get Result" or the Document Extraction Poller node.',
		},
		...outputProperties(showWhenWaiting),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: show,
			options: alphabetically([
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					description: 'Name sent with the file instead of the binary field\'s own file name',
				},
				{
					displayName: 'Include Input Binary',
					name: 'includeBinary',
					type: 'boolean',
					default: false,
					description: 'Whether to pass the input file through to the output items, e.g. to archive the original next to its data',
				},
				{
					displayName: 'On Timeout',
					name: 'onTimeout',
					type: 'options',
					default: 'fail',
					displayOptions: { show: { '/waitForResult': [true] } },
					options: [
						{ name: 'Fail the Item', value: 'fail', description: 'Stop with an error (or an error item when "On Error" continues)' },
						{
							name: 'Output the Pending Result',
							value: 'emitPending',
							description: 'Output the result ID and status, so "Get Result" or the Document Extraction Poller can pick it up later',
						},
					],
					description: 'What to do when the document is not processed within the wait timeout',
				},
				{
					displayName: 'Wait Timeout (Seconds)',
					name: 'waitTimeout',
					type: 'number',
					default: DEFAULT_WAIT_TIMEOUT_SECONDS,
					typeOptions: { minValue: 5 },
					displayOptions: { show: { '/waitForResult': [true] } },
					description: 'How long to wait for the documents of this run, which are waited for together. A long bank statement can take about 2 minutes.',
				},
				...outputOptionsCollection({ show: { '/waitForResult': [true] } }),
			]),
		},
	];
}

interface PlannedUpload {
	itemIndex: number;
	file: UploadFile;
	scannerId: string | undefined;
	/** The input's files, when "Include Input Binary" passes them through. */
	binary?: IBinaryKeyData;
	/** Undefined: output the upload receipt without waiting. */
	outputOptions?: OutputOptions;
	waitTimeoutMs: number;
	onTimeout: 'fail' | 'emitPending';
}

/**
 * Checks every item, then uploads them all, then waits for all their results together, so n
 * documents take about as long as the slowest one instead of the sum of all.
 *
 * Nothing paid for is lost, whatever "On Error" says:
 * - every check that needs no request runs for every item before the first upload, so a bad item
 *   stops the node (On Error = Stop) before anything was charged;
 * - once uploads began, a failure under Stop names the item and lists every uploaded document
 *   with its result ID; while waiting, the other documents finish first;
 * - a retry of the execution (Retry On Fail) reuses accepted uploads instead of sending them again
 *   (uploadLedger), and the transport itself only repeats an upload the service provably refused.
 */
export async function extractDocuments(ctx: IExecuteFunctions, sink: ItemSink, scannerIdFor: (itemIndex: number) => string | undefined): Promise<void> {
	const items = ctx.getInputData();
	const planned: PlannedUpload[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			planned.push(await planUpload(ctx, i, scannerIdFor));
		} catch (error) {
			sink.fail(i, error, 0, {}, includedBinaryOfFailedItem(ctx, i));
		}
	}

	const pending: PendingDocument[] = [];
	const plans = new Map<number, PlannedUpload>();
	for (const plan of planned) {
		const { itemIndex: i } = plan;
		try {
			const accepted = await uploadOnce(ctx, i, plan.file, plan.scannerId);
			sink.track(i, accepted.result_id, { uploaded: true });
			if (!plan.outputOptions) {
				sink.emit(i, [accepted as IDataObject], 0, plan.binary);
				continue;
			}
			plans.set(i, plan);
			pending.push({
				id: i,
				resultId: accepted.result_id,
				...receiptTiming(accepted),
				binary: plan.binary,
				outputOptions: plan.outputOptions,
			});
		} catch (error) {
			sink.fail(i, error, 0, {}, plan.binary);
		}
	}

	// From here on every document is paid for: under Stop, a failed one waits for the others.
	sink.holdFailures();
	// One wait for the batch: it lasts as long as the most patient item asks.
	const timeoutMs = Math.max(0, ...[...plans.values()].map((plan) => plan.waitTimeoutMs));
	await awaitResults(ctx, sink, pending, {
		timeoutMs,
		routes: { done: 0, rejected: 'fail', error: 'fail' },
		failedOutput: 0,
		onTimeout: ({ id: i, resultId, binary }, lastResult) => {
			const status = lastResult?.status ?? 'queued';
			if (plans.get(i)?.onTimeout === 'emitPending') {
				sink.emit(i, [pendingResultJson(resultId, status)], 0, binary);
				return;
			}
			sink.fail(
				i,
				itemError(
					ctx.getNode(),
					i,
					`the document was not processed within ${seconds(timeoutMs)} (status "${status}")`,
					`Result ID ${resultId}. Raise "Wait Timeout", or set "On Timeout" to output the pending result and read it later with "Get Result" or the Document Extraction Poller. The pages are already reserved: do not upload the file again.`,
				),
				0,
				{ result_id: resultId, status },
				binary,
			);
		},
	});
}

/** Everything about one item that can be known without a request: its settings, its file, its template. */
async function planUpload(ctx: IExecuteFunctions, i: number, scannerIdFor: (itemIndex: number) => string | undefined): Promise<PlannedUpload> {
	const binary = includedBinary(ctx, i);
	const wait = readBoolean(ctx, 'waitForResult', i, true, 'Wait for Result');
	const outputOptions = wait ? readOutputOptions(ctx, i) : undefined;
	const waitTimeoutMs = wait ? 1000 * readNumber(ctx, 'options.waitTimeout', i, DEFAULT_WAIT_TIMEOUT_SECONDS, WAIT_TIMEOUT_RULE) : 0;
	const onTimeout = wait ? readChoice(ctx, 'options.onTimeout', i, 'fail', ON_TIMEOUT_CHOICES, 'On Timeout') : 'fail';
	const scannerId = scannerIdFor(i);
	const { warning, ...file } = await readUploadFile(ctx, i, textParameter(ctx, 'binaryPropertyName', i, 'data'), textParameter(ctx, 'options.fileName', i, ''));
	if (warning) addWarning(ctx, warning);
	return { itemIndex: i, file, scannerId, binary, outputOptions, waitTimeoutMs, onTimeout };
}

const ON_TIMEOUT_CHOICES = ['fail', 'emitPending'] as const;
const WAIT_TIMEOUT_RULE = { label: 'Wait Timeout (Seconds)', min: 0, minExclusive: true, example: String(DEFAULT_WAIT_TIMEOUT_SECONDS) };

/** A text parameter; an expression giving a number is taken as its text, anything else as empty. */
function textParameter(ctx: IExecuteFunctions, name: string, i: number, fallback: string): string {
	const value = ctx.getNodeParameter(name, i, fallback) as unknown;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}

function seconds(ms: number): string {
	const value = Math.round(ms / 1000);
	return `${value} second${value === 1 ? '' : 's'}`;
}
