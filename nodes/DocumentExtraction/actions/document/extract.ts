import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { uploadDocument } from '../../../shared/api';
import { awaitResults, type PendingDocument } from '../../../shared/awaitResults';
import { alphabetically, outputOptionsCollection, outputProperties, readOutputOptions } from '../../../shared/descriptions';
import type { ItemSink } from '../../../shared/itemSink';
import { readUploadFile } from './file';

/** Spec 4.4: typical 3-20 s, a long bank statement about 2 minutes, "give up after a few minutes". */
const DEFAULT_WAIT_TIMEOUT_SECONDS = 300;

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
					description: 'How long to wait for each document. A long bank statement can take about 2 minutes.',
				},
				...outputOptionsCollection({ show: { '/waitForResult': [true] } }),
			]),
		},
	];
}

/**
 * Uploads every item first, then waits for all their results together, so n documents take about
 * as long as the slowest one instead of the sum of all. Each upload is sent once: retries inside
 * the transport happen only on answers that prove the service did not take it.
 */
export async function extractDocuments(ctx: IExecuteFunctions, sink: ItemSink, scannerIdFor: (itemIndex: number) => string | undefined): Promise<void> {
	const items = ctx.getInputData();
	const pending: PendingDocument[] = [];
	let timeoutMs = 0;

	for (let i = 0; i < items.length; i++) {
		try {
			const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
			const binary = options.includeBinary ? items[i].binary : undefined;
			const wait = ctx.getNodeParameter('waitForResult', i, true) as boolean;
			// Checked before the upload: a setting that cannot be applied must not cost a page.
			const outputOptions = wait ? readOutputOptions(ctx, i) : undefined;
			const file = await readUploadFile(ctx, i, ctx.getNodeParameter('binaryPropertyName', i) as string, String(options.fileName ?? ''));
			const accepted = await uploadDocument(ctx, file, scannerIdFor(i), i);
			if (!outputOptions) {
				sink.emit(i, [accepted as IDataObject], 0, binary);
				continue;
			}
			// One wait for the batch: it lasts as long as the most patient item asks.
			timeoutMs = Math.max(timeoutMs, Number(options.waitTimeout ?? DEFAULT_WAIT_TIMEOUT_SECONDS) * 1000);
			const queuedAt = Date.parse(accepted.queued_at ?? '');
			pending.push({
				id: i,
				resultId: accepted.result_id,
				pages: accepted.tokens_required ?? undefined,
				queuedAt: Number.isNaN(queuedAt) ? undefined : queuedAt,
				binary,
				outputOptions,
			});
		} catch (error) {
			sink.fail(i, error);
		}
	}
	await awaitResults(ctx, sink, pending, {
		timeoutMs,
		routes: { done: 0, rejected: 'fail', error: 'fail' },
		failedOutput: 0,
		onTimeout: ({ id: i, resultId, binary }, lastResult) => {
			const status = lastResult?.status ?? 'queued';
			const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
			if (options.onTimeout === 'emitPending') {
				sink.emit(i, [{ result_id: resultId, status, pending: true }], 0, binary);
				return;
			}
			sink.fail(
				i,
				new NodeOperationError(ctx.getNode(), `Item ${i + 1}: the document was not processed within ${seconds(timeoutMs)} (status "${status}")`, {
					itemIndex: i,
					description: `Result ID ${resultId}. Raise "Wait Timeout", or set "On Timeout" to output the pending result and read it later with "Get Result" or the Document Extraction Poller. The pages are already reserved: do not upload the file again.`,
				}),
				0,
				{ result_id: resultId, status },
			);
		},
	});
}

function seconds(ms: number): string {
	const value = Math.round(ms / 1000);
	return `${value} second${value === 1 ? '' : 's'}`;
}
