import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES_PER_DOCUMENT } from '../limits';
import { UNSAFE_KEYS, type ExtractedField, type Result } from '../schemas';

/**
 * A Result (spec 2.4) -> the JSON of workflow items. The one place where results take their
 * output shape, used by the action node and the poller node alike.
 *
 * Everything here is data from the service: keys are never trusted. `__proto__`, `constructor`
 * and `prototype` and the node's own keys get an underscore appended (`constructor_`), so no
 * object's prototype can be changed and nothing the node adds is overwritten. Every step is
 * linear in the size of the result.
 */

export type OutputMode = 'fields' | 'tableRows' | 'raw';
export const OUTPUT_MODES: readonly OutputMode[] = ['fields', 'tableRows', 'raw'];

export interface OutputOptions {
	mode: OutputMode;
	/** tableRows: the table field to spread; empty or absent = the first table field of the result. */
	tableField?: string;
	includeConfidence?: boolean;
	includeSourceFragments?: boolean;
	/** 0..1; undefined = off. Fields below it (and required fields left empty) are listed for review. */
	reviewThreshold?: number;
	/** Names of the template's required fields (spec 2.2), read from the template; see requiredFields.ts. */
	requiredFields?: ReadonlySet<string>;
}

/** A mapping the user's settings make impossible (a Table Field the result does not have). */
export class OutputMappingError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'OutputMappingError';
	}
}

/** Keys the fields mode adds next to the extracted fields. */
export const FIELDS_MODE_KEYS = {
	metadata: '_extraction',
	confidence: '_confidence',
	source: '_source',
	needsReview: '_needs_review',
	needsReviewCount: '_needs_review_count',
} as const;

/** Keys the table-rows mode adds to every row. */
export const ROW_KEYS = {
	rowNumber: 'row_number',
	resultId: 'result_id',
	confidence: FIELDS_MODE_KEYS.confidence,
	needsReview: FIELDS_MODE_KEYS.needsReview,
	needsReviewCount: FIELDS_MODE_KEYS.needsReviewCount,
} as const;

/**
 * The items for a `done` result: fields and raw give one item, tableRows one per table row.
 * Throws OutputMappingError when the chosen Table Field is not a table of this result.
 */
export function doneResultToJson(result: Result, options: OutputOptions): IDataObject[] {
	switch (options.mode) {
		case 'raw':
			// Keys as the service sent them (no renaming), but depth-checked like every other mode.
			return [copyData(result, 0, assignVerbatim) as IDataObject];
		case 'tableRows':
			return tableRowItems(result, options);
		default:
			return [fieldsItem(result, options)];
	}
}

// ---------------------------------------------------------------------------------------------
// Fields mode: one object per document.

function fieldsItem(result: Result, options: OutputOptions): IDataObject {
	const item: IDataObject = {};
	const reserved = new Set<string>(Object.values(FIELDS_MODE_KEYS));
	const keyed = extractedFields(result).map((field) => ({
		field,
		key: assignSafely(item, field.name, copyData(field.value ?? null), reserved),
	}));

	item[FIELDS_MODE_KEYS.metadata] = extractionMetadata(result);
	if (options.includeConfidence) item[FIELDS_MODE_KEYS.confidence] = perField(keyed, (field) => field.confidence ?? null);
	if (options.includeSourceFragments) item[FIELDS_MODE_KEYS.source] = perField(keyed, (field) => field.source_fragment ?? null);
	if (options.reviewThreshold !== undefined) {
		const flagged = keyed.filter(({ field }) => needsReview(field, options.reviewThreshold as number, options.requiredFields)).map(({ key }) => key);
		item[FIELDS_MODE_KEYS.needsReview] = flagged;
		item[FIELDS_MODE_KEYS.needsReviewCount] = flagged.length;
	}
	return item;
}

function extractedFields(result: Result): ExtractedField[] {
	const fields = result.extracted_data?.fields;
	return Array.isArray(fields) ? fields : [];
}

function perField(keyed: Array<{ field: ExtractedField; key: string }>, pick: (field: ExtractedField) => unknown): IDataObject {
	const map: IDataObject = {};
	for (const { field, key } of keyed) map[key] = copyData(pick(field)) as IDataObject[string];
	return map;
}

/** Below the threshold, or required (by the template, or by the field itself should the service say so) and empty. */
function needsReview(field: ExtractedField, threshold: number, requiredFields: ReadonlySet<string> | undefined): boolean {
	if (typeof field.confidence === 'number' && field.confidence < threshold) return true;
	const required = requiredFields?.has(field.name) === true || (field as { required?: unknown }).required === true;
	return required && isEmpty(field.value);
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * ExtractedData keys that are shown elsewhere or left out; every other key is an extra block
 * (compliance...). `doc_metadata` only repeats file type, page count and language under the
 * service's Spanish names (`tipo_archivo`, `num_paginas`...): the Raw output keeps it.
 */
const EXTRACTED_DATA_KNOWN_KEYS = new Set(['status', 'scanner_name', 'language', 'extracted_at', 'summary', 'doc_metadata', 'fields']);

/** The one `_extraction` object: about the document and the run, never about a field. */
function extractionMetadata(result: Result): IDataObject {
	const data = result.extracted_data ?? undefined;
	const metadata: IDataObject = {
		result_id: result.result_id,
		status: result.status,
		template: { id: result.scanner_id ?? null, name: result.scanner_name ?? data?.scanner_name ?? null },
		file_name: result.filename ?? null,
		file_type: result.file_type ?? null,
		confidence: result.confidence ?? null,
		pages_used: pagesUsed(result.tokens_used),
		language: data?.language ?? null,
		extracted_at: data?.extracted_at ?? null,
		created_at: result.created_at ?? null,
		summary: copyData(data?.summary ?? null) as IDataObject | null,
	};
	// Spec 2.5: `compliance`, `balance_check`, `auto` and any further block the service adds.
	for (const [key, value] of Object.entries(data ?? {})) {
		if (!EXTRACTED_DATA_KNOWN_KEYS.has(key)) assignSafely(metadata, key, copyData(value));
	}
	return metadata;
}

/** Spec 2.4: `tokens_used` is an integer, a string or null; a number whenever it is one. */
function pagesUsed(tokensUsed: Result['tokens_used']): number | string | null {
	if (tokensUsed === null || tokensUsed === undefined) return null;
	if (typeof tokensUsed === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(tokensUsed)) return Number(tokensUsed);
	return tokensUsed;
}

// ---------------------------------------------------------------------------------------------
// Table-rows mode: one flat object per row, shaped for a spreadsheet.

/**
 * - The rows of the chosen table (default: the first table field), numbered from 1.
 * - Every row has the same keys: the union of the rows' columns (missing cells are null), then
 *   the document's other scalar fields. A document field whose name is taken by a column or by
 *   `row_number`/`result_id` becomes `document_<name>`; a column named like those becomes
 *   `column_<name>`. Other tables are left out (a row holds no nested data).
 * - A cell that holds an object or a list becomes its JSON text: the only place where the
 *   output stringifies, because a spreadsheet cell cannot hold an object.
 * - No table, or an empty one: ONE item with the document fields and `row_number: null`, so
 *   every document still reaches the sheet and can be spotted.
 * - includeConfidence adds `_confidence` (the table field's confidence); reviewThreshold adds
 *   `_needs_review` as comma-separated text and `_needs_review_count`. Source fragments describe
 *   whole fields, not rows, so they are not added.
 */
function tableRowItems(result: Result, options: OutputOptions): IDataObject[] {
	const fields = extractedFields(result);
	const table = chooseTable(fields, options.tableField);
	const rows = table && Array.isArray(table.value) ? (table.value as unknown[]) : [];

	const used = new Set<string>([ROW_KEYS.rowNumber, ROW_KEYS.resultId]);
	if (options.includeConfidence) used.add(ROW_KEYS.confidence);
	if (options.reviewThreshold !== undefined) {
		used.add(ROW_KEYS.needsReview);
		used.add(ROW_KEYS.needsReviewCount);
	}
	const columns = [...columnNames(rows)].map((name) => ({ name, key: claimKey(used, name, 'column_') }));
	const documentCells = fields
		.filter((field) => !isTableField(field))
		.map((field) => ({ key: claimKey(used, field.name, 'document_'), value: cell(field.value) }));

	const trailer: IDataObject = { [ROW_KEYS.resultId]: result.result_id };
	if (options.includeConfidence) trailer[ROW_KEYS.confidence] = table?.confidence ?? null;
	if (options.reviewThreshold !== undefined) {
		const threshold = options.reviewThreshold;
		const flagged = fields.filter((field) => needsReview(field, threshold, options.requiredFields)).map((field) => field.name);
		trailer[ROW_KEYS.needsReview] = flagged.join(', ');
		trailer[ROW_KEYS.needsReviewCount] = flagged.length;
	}

	const row = (rowNumber: number | null, values: Record<string, unknown>): IDataObject => {
		const item: IDataObject = { [ROW_KEYS.rowNumber]: rowNumber };
		for (const column of columns) item[column.key] = Object.hasOwn(values, column.name) ? cell(values[column.name]) : null;
		for (const documentCell of documentCells) item[documentCell.key] = documentCell.value;
		return Object.assign(item, trailer);
	};
	if (rows.length === 0) return [row(null, {})];
	return rows.map((values, index) => row(index + 1, rowObject(values)));
}

function isTableField(field: ExtractedField): boolean {
	return field.value_type === 'table' || Array.isArray(field.value);
}

function chooseTable(fields: ExtractedField[], tableField: string | undefined): ExtractedField | undefined {
	const wanted = tableField?.trim();
	if (!wanted) return fields.find(isTableField);
	const tables = fields.filter(isTableField).map((field) => `"${field.name}"`);
	const available = tables.length > 0 ? `This result's table fields: ${tables.join(', ')}` : 'This result has no table fields';
	const field = fields.find((candidate) => candidate.name === wanted);
	if (!field) {
		throw new OutputMappingError(
			`The result has no field named "${wanted}" (set in Table Field)`,
			`${available}. Use one of them, or leave Table Field empty to use the first table`,
		);
	}
	if (!isTableField(field)) {
		throw new OutputMappingError(`The field "${wanted}" (set in Table Field) is not a table`, `${available}. Use one of them, or choose the One Item per Document output`);
	}
	return field;
}

/** Columns in the order they first appear; a row may lack some of them. */
function columnNames(rows: unknown[]): Set<string> {
	const names = new Set<string>();
	for (const values of rows) for (const name of Object.keys(rowObject(values))) names.add(name);
	return names;
}

/** Spec 2.6 says rows are objects; anything else is kept under `value` rather than lost. */
function rowObject(values: unknown): Record<string, unknown> {
	return isPlainObject(values) ? values : { value: values };
}

function cell(value: unknown): string | number | boolean | null {
	if (value === null || value === undefined) return null;
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
	// Through copyData first: its depth guard, not JSON.stringify's stack, decides what is too deep.
	return JSON.stringify(copyData(value, 0, assignVerbatim));
}

/** `name` made safe; when taken, `<prefix><name>`; underscores appended while still taken. */
function claimKey(used: Set<string>, name: string, prefix: string): string {
	let key = UNSAFE_KEYS.has(name) ? `${name}_` : name;
	if (used.has(key)) key = `${prefix}${name}`;
	while (used.has(key)) key += '_';
	used.add(key);
	return key;
}

// ---------------------------------------------------------------------------------------------
// Results that did not finish with data.

/** A rejected, failed or unknown-state result as an item (continueOnFail, the poller's error output). */
export function unsuccessfulResultToJson(result: Result): IDataObject {
	return {
		result_id: result.result_id,
		status: result.status,
		// Flat and named as in the spec's Result (2.4), so an IF node or a sheet column reads them directly.
		error_code: result.error_code ?? null,
		error_message: result.error_message ?? describeUnsuccessfulResult(result).message,
		file_name: result.filename ?? null,
		file_type: result.file_type ?? null,
		template: { id: result.scanner_id ?? null, name: result.scanner_name ?? null },
		pages_used: pagesUsed(result.tokens_used),
		created_at: result.created_at ?? null,
	};
}

/** What an error code means and what to do about it (spec 2.4, 7.2). */
const ERROR_CODE_HELP: Record<string, { meaning: string; fix: string }> = {
	NO_TEXT: {
		meaning: 'no readable text was found in it',
		fix: 'Scan or photograph the document at a higher quality (sharp, well lit, about 300 dpi), or send a PDF that has a text layer',
	},
	UNSUPPORTED_FILE_TYPE: {
		meaning: 'it is not a PDF or an image the service can read',
		fix: 'Send the document as a PDF, JPEG or PNG file',
	},
	DOCUMENT_TOO_LONG: {
		meaning: `it has more than ${MAX_PAGES_PER_DOCUMENT} pages`,
		fix: `Split the PDF into parts of at most ${MAX_PAGES_PER_DOCUMENT} pages and send each part`,
	},
	UPLOAD_PARSE_ERROR: {
		meaning: 'the service could not read the uploaded file',
		fix: 'Check that the file opens normally on your computer, then send it again',
	},
	INTERNAL_ERROR: {
		meaning: 'the service failed while processing it',
		fix: 'Try again later. If it keeps failing, contact the service\'s support and quote the result ID',
	},
};

/** Headline and advice for a result that ended without data: rejected, errored, or in a state the spec does not know (pending results never get here). */
export function describeUnsuccessfulResult(result: Result): { message: string; description: string } {
	const document = result.filename ? `The document "${result.filename}"` : 'The document';
	const reference = `Result ID: ${result.result_id}`;
	if (result.status !== 'error' && result.status !== 'rejected') {
		return {
			message: `${document} has a status this node does not know: "${result.status}"`,
			description: `Check for a newer version of this node; the Raw output shows the whole result. ${reference}`,
		};
	}

	const code = result.error_code ?? undefined;
	const help = code ? ERROR_CODE_HELP[code] : undefined;
	const verb = result.status === 'rejected' ? 'was rejected' : 'could not be processed';
	const codeText = code ? ` (${code})` : '';
	const message = help ? `${document} ${verb}: ${help.meaning}${codeText}` : `${document} ${verb}${codeText}`;

	const said = result.error_message ? `The service said: "${result.error_message}". ` : '';
	// Spec 4.2: WebP and HEIC are sent with a warning; when they fail, converting them is the fix.
	const convert = /webp|heic|heif/i.test(result.file_type ?? '') ? 'WebP and HEIC images are not guaranteed readable: convert the file to JPEG or PNG and send it again. ' : '';
	// Spec 3 / 7.4: a rejected document consumes no pages.
	const quota = result.status === 'rejected' ? 'No pages of your quota were used. ' : '';
	const fix = help ? `${help.fix}. ` : '';
	return { message, description: `${convert}${fix}${said}${quota}${reference}` };
}

// ---------------------------------------------------------------------------------------------
// Safe copying of data whose keys come from the service.

/**
 * Sets `key` on `target` under a key that cannot touch the prototype, is not reserved and is not
 * taken yet; returns the key used.
 */
function assignSafely(target: IDataObject, key: string, value: unknown, reserved?: ReadonlySet<string>): string {
	let safe = key;
	while (UNSAFE_KEYS.has(safe) || reserved?.has(safe) || Object.hasOwn(target, safe)) safe += '_';
	target[safe] = value as IDataObject[string];
	return safe;
}

/** Deeper than any document's data; a guard against hostile answers, not a format rule. */
const MAX_DATA_DEPTH = 64;

type Assign = (target: IDataObject, key: string, value: unknown) => void;

/** Raw output keeps the service's keys; defineProperty keeps `__proto__` a plain key. */
const assignVerbatim: Assign = (target, key, value) =>
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * A deep copy of JSON data, so the output never shares objects with the response. Keys go through
 * `assign` (safe renaming by default); depth is bounded so a hostile answer gives a clear error.
 */
function copyData(value: unknown, depth = 0, assign: Assign = assignSafely): unknown {
	if (depth > MAX_DATA_DEPTH) {
		throw new OutputMappingError(
			`The extracted data is nested more than ${MAX_DATA_DEPTH} levels deep`,
			"The service sent data deeper than any document needs, so it was not copied into the workflow. Check the template's fields, or contact support with the result ID.",
		);
	}
	if (Array.isArray(value)) return value.map((entry) => copyData(entry, depth + 1, assign));
	if (!isPlainObject(value)) return value;
	const copy: IDataObject = {};
	for (const [key, entry] of Object.entries(value)) assign(copy, key, copyData(entry, depth + 1, assign));
	return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
