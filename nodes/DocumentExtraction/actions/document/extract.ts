import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { UploadAccepted } from '../../../shared/schemas';
import type { Charge } from '../../../shared/output/mapping';
import { newUploadRun, uploadOnce } from '../../../shared/http/uploadLedger';
import { itemError } from '../../../shared/items/itemError';
import { DEFAULT_WAIT_TIMEOUT_SECONDS, REUSE_DAYS } from '../../../shared/limits';
import { alphabetically, outputOptionsCollection, outputProperties, readOutputOptions } from '../../../shared/output/descriptions';
import { addWarning } from '../../../shared/output/executionHints';
import type { ItemSink, SinkTarget } from '../../../shared/output/itemSink';
import type { OutputOptions } from '../../../shared/output/options';
import { pendingResultJson } from '../../../shared/output/unsuccessful';
import { includedBinary, includedBinaryOfFailedItem, readBoolean, readChoice, readNumber } from '../../../shared/items/parameters';
import { awaitResults, receiptTiming, type PendingDocument } from '../../../shared/waiting/awaitResults';
import { INPUT_FIELD_PREFIX, inputFieldsOption, readInputFields } from '../../../shared/output/inputFields';
import type { CheckedFile } from './file';
import { itemDocuments, sourceProperties } from './source';

/** Parameters both extract operations show, below their own. */
export function extractProperties(operation: string): INodeProperties[] {
	const show = { show: { resource: ['document'], operation: [operation] } };
	const showWhenWaiting = { show: { ...show.show, waitForResult: [true] } };
	return [
		...sourceProperties(operation),
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
					displayName: 'Allow Private Network Addresses',
					name: 'allowPrivateNetworkAddresses',
					type: 'boolean',
					default: false,
					displayOptions: { show: { '/documentSource': ['url'] } },
					description:
						'Whether File URL may lead to this machine or your own network (localhost, 10.x, 192.168.x and other private addresses). Off, such links are refused, so that a link, e.g. one an AI agent was given, cannot reach n8n\'s network. Cloud metadata addresses are refused either way.',
				},
				{
					displayName: 'Allowed Hosts',
					name: 'allowedHosts',
					type: 'string',
					default: '',
					placeholder: 'files.example.com, *.example.org',
					displayOptions: { show: { '/documentSource': ['url'] } },
					description:
						'Comma-separated host names File URL may lead to, also after a redirect; *.example.org allows its subdomains. Recommended when an AI agent gives the link. Leave empty to allow any public host (on n8n 1.x, where a node cannot check where a host name leads, links by name need this list).',
				},
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					displayOptions: { hide: { '/documentSource': ['binaryFields'] } },
					description: 'Name sent with the file instead of the binary field\'s own file name (or the name the URL gives)',
				},
				inputFieldsOption,
				{
					displayName: 'Include Input Binary',
					name: 'includeBinary',
					type: 'boolean',
					default: false,
					description:
						'Whether to pass the input file through to the output items, e.g. to archive the original next to its data (with Every Attachment: each document\'s own file)',
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
					displayName: 'Reuse Earlier Uploads',
					name: 'reuseUploads',
					type: 'boolean',
					default: true,
					description: `Whether to read the result of an earlier upload of the same file by this node (same template, within ${REUSE_DAYS} days, same n8n process) instead of uploading and paying for it again, e.g. when you click Retry on a failed execution or run the step again. Turn off for a fresh extraction. Retry On Fail never uploads twice either way.`,
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

/** What every document of one item shares: the item's settings. */
interface ItemSettings {
	itemIndex: number;
	scannerId: string | undefined;
	/** The input's files, when "Include Input Binary" passes them through. */
	binary?: IBinaryKeyData;
	/** Undefined: output the upload receipt without waiting. */
	outputOptions?: OutputOptions;
	waitTimeoutMs: number;
	onTimeout: 'fail' | 'emitPending';
	reuseUploads: boolean;
}

interface PlannedUpload extends ItemSettings {
	/** The item, or one of its documents when it holds several. */
	target: SinkTarget;
	/** Its verdict, not its bytes: those are read again for the upload (a download's are kept). */
	file: CheckedFile;
}

/**
 * Checks every item and every document, then uploads them all, then waits for all their results
 * together, so n documents take about as long as the slowest one instead of the sum of all.
 *
 * Nothing paid for is lost, whatever "On Error" says:
 * - every check that needs no request runs for every document before the first upload, so a bad
 *   one stops the node (On Error = Stop) before anything was charged. Each file is let go once
 *   judged and read again for its upload, proven the same bytes (file.ts), so the run's memory
 *   does not grow with its files; a file that changed meanwhile fails its item, unsent;
 * - once uploads began, a failure under Stop names the item and lists every uploaded document
 *   with its result ID; while waiting, the other documents finish first;
 * - running the node again on the same file (Retry On Fail, n8n's Retry of a failed execution, a
 *   second "Execute step") reads the accepted upload's result instead of sending it again
 *   (uploadLedger), and the transport itself only repeats an upload the service provably refused.
 */
export async function extractDocuments(ctx: IExecuteFunctions, sink: ItemSink, scannerIdFor: (itemIndex: number) => string | undefined): Promise<void> {
	const items = ctx.getInputData();
	const planned: PlannedUpload[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			planned.push(...(await planItem(ctx, sink, i, scannerIdFor)));
		} catch (error) {
			sink.fail(i, error, 0, {}, includedBinaryOfFailedItem(ctx, i));
		}
	}

	const pending: PendingDocument[] = [];
	const plans = new Map<SinkTarget, Pick<PlannedUpload, 'waitTimeoutMs' | 'onTimeout'>>();
	const run = newUploadRun();
	const counts = { reused: 0, duplicate: 0, chargedAgain: 0 };
	// Taken off the list one by one: a file's bytes are read when its turn comes and held by nothing
	// once it is uploaded (nor is a kept download), so one file at a time is in memory.
	for (let plan = planned.shift(); plan; plan = planned.shift()) {
		const { itemIndex: i, target } = plan;
		try {
			const upload = await uploadOnce(ctx, run, i, await plan.file.forUpload(), plan.scannerId, plan.reuseUploads);
			if ('duplicate' in upload) {
				counts.duplicate++;
				sink.emit(target, [duplicateJson(plan.file.fileName, upload.duplicate.firstDay)], 0, plan.binary);
				continue;
			}
			const { receipt, documentKey, reused, chargedAgain } = upload;
			if (reused) counts.reused++;
			if (chargedAgain) counts.chargedAgain++;
			const charge: Charge | undefined = reused
				? { reused: true, firstExtractedAt: reused.firstUploadedAt || null }
				: chargedAgain && { reused: false, firstExtractedAt: chargedAgain.firstDay };
			sink.track(target, receipt.result_id, reused ? 'reused' : 'uploaded');
			if (!plan.outputOptions) {
				sink.emit(target, [receiptJson(receipt, documentKey, charge)], 0, plan.binary);
				continue;
			}
			plans.set(target, { waitTimeoutMs: plan.waitTimeoutMs, onTimeout: plan.onTimeout });
			pending.push({
				id: i,
				...(typeof target === 'number' ? {} : { slot: target }),
				resultId: receipt.result_id,
				...receiptTiming(receipt),
				binary: plan.binary,
				outputOptions: plan.outputOptions,
				charge,
				documentKey,
				known: reused?.result,
			});
		} catch (error) {
			sink.fail(target, error, 0, {}, plan.binary);
		}
	}
	for (const warning of chargeWarnings(counts)) addWarning(ctx, warning);

	// From here on every document is paid for: under Stop, a failed one waits for the others.
	sink.holdFailures();
	// One wait for the batch: it lasts as long as the most patient item asks.
	const timeoutMs = Math.max(0, ...[...plans.values()].map((plan) => plan.waitTimeoutMs));
	await awaitResults(ctx, sink, pending, {
		timeoutMs,
		routes: { done: 0, rejected: 'fail', error: 'fail' },
		failedOutput: 0,
		onTimeout: ({ id: i, slot, resultId, binary }, lastResult) => {
			const target = slot ?? i;
			const status = lastResult?.status ?? 'queued';
			if (plans.get(target)?.onTimeout === 'emitPending') {
				sink.emit(target, [pendingResultJson(resultId, status)], 0, binary);
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
				{ result_id: resultId, status },
				binary,
			);
		},
	});
}

/**
 * Everything about one item that can be known without a request: its settings, its documents
 * (each read and checked; one that fails the check fails alone), its template. An item without a
 * document leaves at once, saying so.
 */
async function planItem(ctx: IExecuteFunctions, sink: ItemSink, i: number, scannerIdFor: (itemIndex: number) => string | undefined): Promise<PlannedUpload[]> {
	const settings = readItemSettings(ctx, i, scannerIdFor);
	const inputFields = readInputFields(ctx, i);
	if (inputFields) sink.annotate(i, inputFields, INPUT_FIELD_PREFIX);
	const { source, documents, skipped, noDocument } = await itemDocuments(ctx, i);
	// A spreadsheet cell holds no list: in table rows the skipped files are JSON text, like other nested cells.
	const skippedFiles = settings.outputOptions?.mode === 'tableRows' ? JSON.stringify(skipped) : skipped;
	if (noDocument) {
		sink.emit(i, [noDocument], 0, settings.binary);
		return [];
	}
	if (documents.length > 1) sink.expectDocuments(i, documents.length);
	const planned: PlannedUpload[] = [];
	for (const document of documents) {
		const target = document.slot ?? i;
		if (document.origin) sink.annotate(target, source === 'binaryFields' ? { ...document.origin, skipped_files: skippedFiles } : document.origin, 'source_');
		const binary = settings.binary && document.binaryField ? { [document.binaryField]: settings.binary[document.binaryField] } : settings.binary;
		try {
			const file = await document.load();
			if (file.warning) addWarning(ctx, file.warning);
			planned.push({ ...settings, binary, target, file });
		} catch (error) {
			// This document fails alone (the item, when it is the item's only one).
			sink.fail(target, error, 0, {}, binary);
		}
	}
	return planned;
}

function readItemSettings(ctx: IExecuteFunctions, i: number, scannerIdFor: (itemIndex: number) => string | undefined): ItemSettings {
	const binary = includedBinary(ctx, i);
	const wait = readBoolean(ctx, 'waitForResult', i, true, 'Wait for Result');
	const outputOptions = wait ? readOutputOptions(ctx, i) : undefined;
	const waitTimeoutMs = wait ? 1000 * readNumber(ctx, 'options.waitTimeout', i, DEFAULT_WAIT_TIMEOUT_SECONDS, WAIT_TIMEOUT_RULE) : 0;
	const onTimeout = wait ? readChoice(ctx, 'options.onTimeout', i, 'fail', ON_TIMEOUT_CHOICES, 'On Timeout') : 'fail';
	const reuseUploads = readBoolean(ctx, 'options.reuseUploads', i, true, 'Reuse Earlier Uploads');
	return { itemIndex: i, scannerId: scannerIdFor(i), binary, outputOptions, waitTimeoutMs, onTimeout, reuseUploads };
}

const ON_TIMEOUT_CHOICES = ['fail', 'emitPending'] as const;
const WAIT_TIMEOUT_RULE = { label: 'Wait Timeout (Seconds)', min: 0, minExclusive: true, example: String(DEFAULT_WAIT_TIMEOUT_SECONDS) };

/**
 * The upload receipt (Wait for Result off), with the document's key for the Poller (a result that
 * ends in `error` is then forgotten in n8n's database too). A reused one reserved nothing this
 * time; one extracted before says so, and the Poller's items then say it too.
 */
function receiptJson(receipt: UploadAccepted, documentKey: string, charge: Charge | undefined): IDataObject {
	const said = charge && { ...(charge.reused ? { tokens_required: 0, reused: true } : { charged_again: true }), first_extracted_at: charge.firstExtractedAt };
	return { ...receipt, ...said, document_key: documentKey };
}

/** The item of a document not uploaded because another execution extracted it already (n8n's database says when). */
function duplicateJson(fileName: string, firstDay: string): IDataObject {
	return {
		status: 'duplicate',
		message: `Not extracted again: this node extracted the same file on ${firstDay}, in another execution. Its data is in that execution's output and in your account.`,
		file_name: fileName,
		first_extracted_at: firstDay,
		pages_used: 0,
	};
}

/** What the node says of the run's documents that were extracted before. */
function chargeWarnings({ reused, duplicate, chargedAgain }: { reused: number; duplicate: number; chargedAgain: number }): string[] {
	const documents = (count: number) => (count === 1 ? '1 document was' : `${count} documents were`);
	const warnings: string[] = [];
	if (reused > 0) {
		warnings.push(
			`${documents(reused)} uploaded earlier by this node: the earlier upload's result was read, nothing was charged again. Turn off "Reuse Earlier Uploads" for a fresh extraction.`,
		);
	}
	if (duplicate > 0) {
		warnings.push(
			`${documents(duplicate)} not uploaded: this node extracted the same file in an earlier execution (status "duplicate" on the item). Turn off "Reuse Earlier Uploads" to extract it again.`,
		);
	}
	if (chargedAgain > 0) {
		warnings.push(
			`${documents(chargedAgain)} extracted before by this node in another n8n process (before a restart, or on another queue-mode worker), whose result this process could not read: uploaded and charged again ("charged_again" on the item). In queue mode, extract without waiting and read the results with the Document Extraction Poller: a Retry then reads them instead.`,
		);
	}
	return warnings;
}

function seconds(ms: number): string {
	const value = Math.round(ms / 1000);
	return `${value} second${value === 1 ? '' : 's'}`;
}
