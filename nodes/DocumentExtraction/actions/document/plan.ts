import type { IBinaryKeyData, IExecuteFunctions } from 'n8n-workflow';

import { includedBinary, readBoolean, readChoice, readNumber } from '../../../shared/items/parameters';
import { DEFAULT_WAIT_TIMEOUT_SECONDS } from '../../../shared/limits';
import { readOutputOptions } from '../../../shared/output/descriptions';
import { addWarning } from '../../../shared/output/executionHints';
import { COLUMN_PREFIXES } from '../../../shared/output/columnNames';
import { INPUT_FIELD_PREFIX, readInputFields } from '../../../shared/output/inputFields';
import type { DocumentSlot, ItemSink } from '../../../shared/output/itemSink';
import type { OutputOptions } from '../../../shared/output/options';
import { checkCandidate, type CheckedDocument, type CheckedFile } from './check';
import { readPreparation, type Preparation } from './preparation';
import { itemReader } from './readers';
import type { FileOrigin, LinkOrigin, SkippedFile } from './readers/reader';

/** What every document of one item shares: the item's settings. */
export interface ItemSettings {
	scannerId: string | undefined;
	/** The input's files, when "Include Input Binary" passes them through. */
	binary?: IBinaryKeyData;
	/** Undefined: output the upload receipt without waiting. */
	outputOptions?: OutputOptions;
	waitTimeoutMs: number;
	onTimeout: 'fail' | 'emitPending';
	reuseUploads: boolean;
	/** Split PDFs, Shrink Large Photos. */
	preparation: Preparation;
}

/**
 * The template of an item's documents: none (automatic mode) or its ID, which By Name looks up
 * with a request (template/locator.ts): every item's is known before the first upload.
 */
export type ScannerIdFor = (itemIndex: number) => string | undefined | Promise<string | undefined>;

/** A document that passed the check, waiting for its upload. */
export interface PlannedUpload {
	itemIndex: number;
	/** Which of the item's documents, when it holds several; without it, the item's only one. */
	slot?: DocumentSlot;
	settings: ItemSettings;
	/** What "Include Input Binary" passes through on its items. */
	binary?: IBinaryKeyData;
	/** Its verdict, not its bytes: those are read again for the upload (a download's from n8n's binary data). */
	file: CheckedFile;
}

export interface PlannedItem {
	settings: ItemSettings;
	uploads: PlannedUpload[];
}

/**
 * Everything about one item that can be known without a request: its settings, its documents
 * found by its source's reader and each checked (one that fails the check fails alone, through the
 * sink), its template. An item without a document leaves at once, saying so. A setting that cannot
 * be used throws: the item fails.
 */
export async function planItem(ctx: IExecuteFunctions, sink: ItemSink, i: number, scannerIdFor: ScannerIdFor): Promise<PlannedItem> {
	const settings = await readItemSettings(ctx, i, scannerIdFor);
	const inputFields = readInputFields(ctx, i);
	if (inputFields) sink.annotate(i, inputFields, INPUT_FIELD_PREFIX);
	const reader = itemReader(ctx, i);
	// Each document is checked as soon as its reader has read it, and let go before the next file
	// is read: an email's attachments are not held together until their uploads.
	const found = await reader.read(async (candidate) => await checkCandidate(ctx, i, candidate, reader.fileName, settings.binary, settings.preparation));
	const documents: CheckedDocument[] = [];
	const skipped: SkippedFile[] = [];
	for (const each of found) {
		if ('skipped' in each) skipped.push(each.skipped);
		else documents.push(each.document);
	}
	if (documents.length === 0) {
		// Only Every Attachment finds no document; the item still leaves, once, saying why.
		sink.emit(i, [reader.noDocument?.(skipped) ?? {}], 0, settings.binary);
		return { settings, uploads: [] };
	}

	// A split PDF is several documents, one per part, each with a slot of its own.
	const filesOf = ({ checked }: CheckedDocument): Array<CheckedFile | undefined> => ('files' in checked ? checked.files : [undefined]);
	const slotCount = documents.reduce((count, document) => count + filesOf(document).length, 0);
	if (slotCount > 1) sink.expectDocuments(i, slotCount);
	// A spreadsheet cell holds no list: in table rows the skipped files are JSON text, like other nested cells.
	const skippedFiles = settings.outputOptions?.mode === 'tableRows' ? JSON.stringify(skipped) : skipped;
	const uploads: PlannedUpload[] = [];
	let part = 0;
	for (const document of documents) {
		const { origin, binary, checked } = document;
		for (const file of filesOf(document)) {
			const slot = slotCount > 1 ? { item: i, part: part++, label: slotLabel(origin, file?.label) } : undefined;
			const target = slot ?? i;
			if (origin) sink.annotate(target, reader.source === 'binaryFields' ? { ...origin, skipped_files: skippedFiles } : origin, COLUMN_PREFIXES.source);
			if (!file) {
				// This document fails alone (the item, when it is the item's only one).
				sink.fail(target, 'error' in checked ? checked.error : undefined, 0, {}, binary);
				continue;
			}
			if (file.refusal !== undefined) {
				// A part of a split PDF refused alone (too large): the file's other parts go on.
				sink.fail(target, file.refusal, 0, { ...file.preparation }, binary);
				continue;
			}
			if (file.warning) addWarning(ctx, file.warning);
			uploads.push({ itemIndex: i, ...(slot ? { slot } : {}), settings, binary, file });
		}
	}
	return { settings, uploads };
}

/** How errors name a document: its field and file, the attached email it was in, and its pages when it is a part. */
function slotLabel(origin: FileOrigin | LinkOrigin | undefined, partLabel: string | undefined): string {
	let label = '';
	if (origin && 'binary_field' in origin) {
		label = [origin.binary_field, origin.file_name].filter(Boolean).join(', ');
		if (typeof origin.attached_email === 'string') label = `${label}, in the attached email "${origin.attached_email}"`;
	}
	return [label, partLabel].filter(Boolean).join(', ');
}

async function readItemSettings(ctx: IExecuteFunctions, i: number, scannerIdFor: ScannerIdFor): Promise<ItemSettings> {
	const binary = includedBinary(ctx, i);
	const wait = readBoolean(ctx, 'waitForResult', i, true, 'Wait for Result');
	const outputOptions = wait ? readOutputOptions(ctx, i) : undefined;
	const waitTimeoutMs = wait ? 1000 * readNumber(ctx, 'options.waitTimeout', i, DEFAULT_WAIT_TIMEOUT_SECONDS, WAIT_TIMEOUT_RULE) : 0;
	const onTimeout = wait ? readChoice(ctx, 'options.onTimeout', i, 'fail', ON_TIMEOUT_CHOICES, 'On Timeout') : 'fail';
	const reuseUploads = readBoolean(ctx, 'options.reuseUploads', i, true, 'Reuse Earlier Uploads');
	const preparation = readPreparation(ctx, i);
	// Last: the item's other settings are checked without a request before a name is looked up.
	return { scannerId: await scannerIdFor(i), binary, outputOptions, waitTimeoutMs, onTimeout, reuseUploads, preparation };
}

const ON_TIMEOUT_CHOICES = ['fail', 'emitPending'] as const;
const WAIT_TIMEOUT_RULE = { label: 'Wait Timeout (Seconds)', min: 0, minExclusive: true, example: String(DEFAULT_WAIT_TIMEOUT_SECONDS) };
