import type { IDataObject } from 'n8n-workflow';

import { UNSAFE_KEYS, type ExtractedField, type Result } from '../schemas';
import { COLUMN_PREFIXES, TABLE_ROW_KEYS as ROW_KEYS } from './columnNames';
import { extractedFields, needsReview } from './fieldsMode';
import { OutputMappingError, type OutputOptions } from './options';
import { assignVerbatim, copyData, isPlainObject } from './safeCopy';

/** Table-rows mode: one flat object per row, shaped for a spreadsheet. */

/**
 * - The rows of the chosen table (default: the first table field), numbered from 1 in
 *   `line_number`.
 * - Every row has the same keys: the union of the rows' columns (missing cells are null), then
 *   the document's other scalar fields. A document field whose name is taken by a column or by a
 *   key the node adds to rows (`line_number`, `result_id`, `reused`, `first_extracted_at`, and
 *   the review and confidence keys when they are on: TABLE_ROW_KEYS) becomes `document_<name>`; a
 *   column named like one of those keys becomes `column_<name>`. Other tables are left out (a row
 *   holds no nested data).
 * - A cell that holds an object or a list becomes its JSON text: the only place where the
 *   output stringifies, because a spreadsheet cell cannot hold an object.
 * - No table, or an empty one: ONE item with the document fields and `line_number: null`, so
 *   every document still reaches the sheet and can be spotted.
 * - includeConfidence adds `field_confidence` (the table field's confidence); reviewThreshold
 *   adds `needs_review` as comma-separated text and `needs_review_count`. Source fragments
 *   describe whole fields, not rows, so they are not added. markCharge (mapping.ts) adds `reused`
 *   and `first_extracted_at`.
 */
export function tableRowItems(result: Result, options: OutputOptions): IDataObject[] {
	const fields = extractedFields(result);
	const table = chooseTable(fields, options.tableField);
	const rows = table && Array.isArray(table.value) ? (table.value as unknown[]) : [];

	const used = new Set<string>([ROW_KEYS.lineNumber, ROW_KEYS.resultId, ROW_KEYS.reused, ROW_KEYS.firstExtractedAt]);
	if (options.includeConfidence) used.add(ROW_KEYS.fieldConfidence);
	if (options.reviewThreshold !== undefined) {
		used.add(ROW_KEYS.needsReview);
		used.add(ROW_KEYS.needsReviewCount);
	}
	const columns = [...columnNames(rows)].map((name) => ({ name, key: claimKey(used, name, COLUMN_PREFIXES.column) }));
	const documentCells = fields
		.filter((field) => !isTableField(field))
		.map((field) => ({ key: claimKey(used, field.name, COLUMN_PREFIXES.document), value: cell(field.value) }));

	const trailer: IDataObject = { [ROW_KEYS.resultId]: result.result_id };
	if (options.includeConfidence) trailer[ROW_KEYS.fieldConfidence] = table?.confidence ?? null;
	if (options.reviewThreshold !== undefined) {
		const threshold = options.reviewThreshold;
		const flagged = fields.filter((field) => needsReview(field, threshold, options.requiredFields)).map((field) => field.name);
		trailer[ROW_KEYS.needsReview] = flagged.join(', ');
		trailer[ROW_KEYS.needsReviewCount] = flagged.length;
	}

	const row = (lineNumber: number | null, values: Record<string, unknown>): IDataObject => {
		const item: IDataObject = { [ROW_KEYS.lineNumber]: lineNumber };
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

/** Spec 2.6 says rows are objects; anything else is kept under `line_value` rather than lost. */
function rowObject(values: unknown): Record<string, unknown> {
	return isPlainObject(values) ? values : { [ROW_KEYS.lineValue]: values };
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
