import type { IDataObject } from 'n8n-workflow';

import { UNSAFE_KEYS, type ExtractedField, type Result } from '../schemas';
import { extractedFields, FIELDS_MODE_KEYS, needsReview } from './fieldsMode';
import { OutputMappingError, type OutputOptions } from './options';
import { assignVerbatim, copyData, isPlainObject } from './safeCopy';

/** Table-rows mode: one flat object per row, shaped for a spreadsheet. */

/** Keys the table-rows mode adds to every row. */
const ROW_KEYS = {
	rowNumber: 'row_number',
	resultId: 'result_id',
	confidence: FIELDS_MODE_KEYS.confidence,
	needsReview: FIELDS_MODE_KEYS.needsReview,
	needsReviewCount: FIELDS_MODE_KEYS.needsReviewCount,
} as const;

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
export function tableRowItems(result: Result, options: OutputOptions): IDataObject[] {
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
