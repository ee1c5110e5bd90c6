import { labelsFor, LABEL_CONFIDENCE } from './labels';
import { fieldTypeOf, normalizeValue, type DocumentStyle } from './normalize';
import { editDistance, labelPattern, overlap, type Cell, type TextLine } from './text-lines';
import type { FieldDefinition, TableRow } from './types';
import { TABLE_END_WORDS } from './vocabulary';

export interface TableResult {
	rows: TableRow[];
	confidence: number;
	/** Header lines of every segment found (a table may repeat its header on each page). */
	headers: TextLine[];
	/** Lines the table used, so that scalar fields do not read values from inside it. */
	usedLines: Set<number>;
	notes: string[];
	/** Where a table without a header was read (its first row). */
	source?: string;
}

interface Column {
	/** Undefined for a header cell no item field names (`Pos.`): cells under it are skipped. */
	field?: FieldDefinition;
	type: string;
	span: Cell;
}

const END_PATTERNS = TABLE_END_WORDS.map(labelPattern);

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

/** The column a header cell names: the whole cell must be one of the column's labels. */
function columnOfHeaderCell(cell: Cell, folded: string, itemFields: FieldDefinition[], taken: Set<FieldDefinition>): { field: FieldDefinition; score: number } | undefined {
	const text = folded.slice(cell.start, cell.end).replace(/[:\s]+$/u, '');
	let best: { field: FieldDefinition; score: number } | undefined;
	for (const field of itemFields) {
		if (taken.has(field)) continue;
		for (const spec of labelsFor(field)) {
			if (spec.source === 'percent') continue;
			const match = spec.pattern.exec(text);
			if (match && match[0].length === text.length && (!best || LABEL_CONFIDENCE[spec.source] > best.score)) {
				best = { field, score: LABEL_CONFIDENCE[spec.source] };
			}
		}
	}
	if (best) return best;
	// A header word OCR garbled or ran together (`eUANTITY`, `LISTPFICE`): the cell's letters
	// within one edit of a label's (two for labels of 9 letters or more), labels of 5+ letters only.
	const compact = text.replace(/[^\p{L}]+/gu, '');
	if (compact.length < 5 || compact.length !== text.replace(/[\s.\-/]+/gu, '').length) return undefined;
	for (const field of itemFields) {
		if (taken.has(field)) continue;
		for (const spec of labelsFor(field)) {
			if (spec.source === 'percent') continue;
			const label = spec.text.replace(/[^\p{L}]+/gu, '');
			if (label.length < 5) continue;
			const allowed = label.length >= 9 ? 2 : 1;
			if (Math.abs(label.length - compact.length) > allowed || editDistance(compact, label) > allowed) continue;
			const score = LABEL_CONFIDENCE[spec.source] * 0.9;
			if (!best || score > best.score) best = { field, score };
		}
	}
	return best;
}


/** The columns of a header line, or undefined when the line is not a header of this table. */
function readHeader(line: TextLine, itemFields: FieldDefinition[]): { columns: Column[]; score: number } | undefined {
	const taken = new Set<FieldDefinition>();
	const columns: Column[] = [];
	let score = 0;
	for (const cell of line.cells) {
		const column = columnOfHeaderCell(cell, line.folded, itemFields, taken);
		if (!column) {
			columns.push({ type: 'string', span: cell });
			continue;
		}
		taken.add(column.field);
		columns.push({ field: column.field, type: fieldTypeOf(column.field), span: cell });
		score += column.score;
	}
	const named = taken.size;
	// Most cells of a header are column names; a line of labelled values is not a header.
	if (named < Math.min(2, itemFields.length) || named * 2 < line.cells.length) return undefined;
	lastMoneyColumnIsAmount(line, columns, itemFields);
	return { columns, score: score / columns.length };
}

/** Whether the whole header cell is one of the field's labels. */
function names(field: FieldDefinition | undefined, cell: Cell, folded: string): boolean {
	if (!field) return false;
	const text = folded.slice(cell.start, cell.end).replace(/[:\s]+$/u, '');
	return labelsFor(field).some((spec) => spec.source !== 'percent' && spec.pattern.exec(text)?.[0].length === text.length);
}

/**
 * Several money columns (`Unit price   Amount   Tax   Total`): the line's amount is the last of
 * them, and the one headed as a unit price is the unit price.
 */
function lastMoneyColumnIsAmount(line: TextLine, columns: Column[], itemFields: FieldDefinition[]): void {
	const amount = itemFields.find((field) => field.name === 'amount');
	const unitPrice = itemFields.find((field) => field.name === 'unit_price');
	if (!amount) return;
	const naming = columns.filter((column) => names(amount, column.span, line.folded));
	const last = naming[naming.length - 1];
	const current = columns.find((column) => column.field === amount);
	if (!last || !current || last === current || last.field) return;
	current.field = undefined;
	current.type = 'string';
	last.field = amount;
	last.type = fieldTypeOf(amount);
	if (unitPrice && !columns.some((column) => column.field === unitPrice) && names(unitPrice, current.span, line.folded)) {
		current.field = unitPrice;
		current.type = fieldTypeOf(unitPrice);
	}
}

/** `2 x 25.00 = 50.00`, to the cent or within half a percent (rounded unit prices). */
function multiplies(quantity: number, unitPrice: number, amount: number): boolean {
	const product = quantity * unitPrice;
	return Math.abs(product - amount) <= Math.max(0.011, Math.abs(amount) * 0.005);
}

/**
 * A row with a quantity, a unit price and an amount that do not multiply: another pair of the
 * row's money values that does (the unit price under `Price`, the amount the last) is preferred.
 */
function checkRowArithmetic(read: RowRead, itemFields: FieldDefinition[], style: DocumentStyle): void {
	const [quantity, unitPrice, amount] = ['quantity', 'unit_price', 'amount'].map((name) => itemFields.find((field) => field.name === name));
	if (!quantity || !unitPrice || !amount) return;
	const { row } = read;
	const [q, u, a] = [row[quantity.name], row[unitPrice.name], row[amount.name]];
	if (typeof q !== 'number' || typeof u !== 'number' || typeof a !== 'number' || q <= 0 || multiplies(q, u, a)) return;
	const money: number[] = [];
	for (const [column, text] of [...read.textsByColumn].sort((x, y) => x[0].span.start - y[0].span.start)) {
		if (column.field && column.field !== unitPrice && column.field !== amount) continue;
		if (!/[.,]\d{2}(?!\d)|[$€£]/u.test(text)) continue;
		const value = normalizeValue(fieldTypeOf(amount), text, style);
		if (value && typeof value.value === 'number') money.push(value.value);
	}
	for (let j = money.length - 1; j > 0; j--) {
		for (let i = j - 1; i >= 0; i--) {
			if (!multiplies(q, money[i], money[j])) continue;
			row[unitPrice.name] = money[i];
			row[amount.name] = money[j];
			read.notes.push(`quantity x unit price = amount (${q} x ${money[i]} = ${money[j]}) chosen among the row's amounts`);
			return;
		}
	}
}

function isEndLine(line: TextLine): boolean {
	const first = line.cells[0];
	return first !== undefined && END_PATTERNS.some((pattern) => pattern.test(line.folded.slice(first.start, first.end)));
}

/** The column a cell falls under: the one it overlaps most, else the nearest one. */
function columnOfCell(cell: Cell, columns: Column[]): Column {
	const scored = columns.map((column) => {
		const shared = overlap(cell, column.span);
		const distance = shared > 0 ? 0 : Math.min(Math.abs(cell.start - column.span.end), Math.abs(column.span.start - cell.end));
		return { column, shared, distance };
	});
	scored.sort((a, b) => b.shared - a.shared || a.distance - b.distance);
	return scored[0].column;
}

interface RowRead {
	row: TableRow;
	typedValues: number;
	cells: number;
	parsedCells: number;
	notes: string[];
	textsByColumn: Map<Column, string>;
}

function readRow(line: TextLine, columns: Column[], itemFields: FieldDefinition[], style: DocumentStyle): RowRead {
	const textsByColumn = new Map<Column, string>();
	// Cells under a header cell first; a cell between columns then goes to the nearest free one
	// (`3   Labor3hrs` under `Qty   Description`: the description, not the quantity's column).
	const placed = line.cells.map((cell) => ({ cell, column: columnOfCell(cell, columns), under: columns.some((column) => overlap(cell, column.span) > 0) }));
	const taken = new Set(placed.filter((entry) => entry.under).map((entry) => entry.column));
	for (const entry of placed) {
		if (entry.under || !taken.has(entry.column)) continue;
		// A word without digits is not moved into a number column (`Less  Comp  Cigs`: all description).
		const words = !/\d/u.test(entry.cell.text);
		const free = columns
			.filter((column) => !taken.has(column) && !(words && column.type !== 'string'))
			.map((column) => ({ column, distance: Math.min(Math.abs(entry.cell.start - column.span.end), Math.abs(column.span.start - entry.cell.end)) }))
			.sort((a, b) => a.distance - b.distance)[0];
		const own = Math.min(Math.abs(entry.cell.start - entry.column.span.end), Math.abs(entry.column.span.start - entry.cell.end));
		// Only a free column not much farther than the taken one.
		if (free && free.distance <= 2.5 * own + 2) {
			entry.column = free.column;
			taken.add(free.column);
		}
	}
	for (const { cell, column } of placed) {
		const previous = textsByColumn.get(column);
		textsByColumn.set(column, previous === undefined ? cell.text : `${previous} ${cell.text}`);
	}
	const row: TableRow = Object.fromEntries(itemFields.map((field) => [field.name, null]));
	const named = [...textsByColumn.keys()].filter((column) => column.field).length;
	const read: RowRead = { row, typedValues: 0, cells: named, parsedCells: 0, notes: [], textsByColumn };
	for (const [column, text] of textsByColumn) {
		if (!column.field) continue;
		// A space OCR put before the decimals (`3,172 .80`, `1,269 .12-`).
		const cleaned = column.type === 'string' ? text : text.replace(/(\d)\s+([.,]\d{2}-?)$/u, '$1$2');
		const normalized = normalizeValue(column.type, cleaned, style);
		if (!normalized) {
			read.notes.push(`'${text}' is not a ${column.type} (${column.field.name})`);
			continue;
		}
		row[column.field.name] = normalized.value;
		read.parsedCells++;
		if (column.type !== 'string') read.typedValues++;
		if (normalized.notes.some((note) => note.includes('ambiguous'))) read.notes.push(`${column.field.name}: ${normalized.notes.join(', ')}`);
	}
	describeFromUnnamedCells(read, columns, itemFields);
	checkRowArithmetic(read, itemFields, style);
	return read;
}

/**
 * A header that names no description column (`ITEM  BRAND  LIST PRICE  AMOUNT`, garbled by OCR):
 * the row's text under unnamed header cells with the most letters is its description.
 */
function describeFromUnnamedCells(read: RowRead, columns: Column[], itemFields: FieldDefinition[]): void {
	const description = itemFields.find((field) => field.name === 'description');
	if (!description || columns.some((column) => column.field === description)) return;
	// Words may stand two spaces apart (each its own cell): the unnamed cells with letters, in order.
	const texts = [...read.textsByColumn]
		.filter(([column, text]) => !column.field && /\p{L}/u.test(text))
		.sort((a, b) => a[0].span.start - b[0].span.start)
		.map(([, text]) => text);
	if (texts.length > 0 && texts.some((text) => /\p{L}{3,}/u.test(text))) read.row[description.name] = texts.join(' ');
}

/** A wrapped description: a line with text in string columns only, under a row. */
function appendContinuation(previous: TableRow, read: RowRead): boolean {
	if (read.typedValues > 0) return false;
	for (const [column, text] of read.textsByColumn) {
		if (!column.field) continue;
		if (column.type !== 'string') return false;
		const before = previous[column.field.name];
		previous[column.field.name] = typeof before === 'string' ? `${before} ${text}` : text;
	}
	return true;
}

function hasDescription(row: TableRow, itemFields: FieldDefinition[]): boolean {
	return itemFields.some((field) => fieldTypeOf(field) === 'string' && typeof row[field.name] === 'string' && /\p{L}{3,}/u.test(row[field.name] as string));
}

/** Lines of a receipt's summary (tax, totals, payment), not items. */
const SUMMARY_WORDS = /\b(?:vat|tax|total|subtotal|sub-total|net|mwst|ust|tva|iva|btw|summe|gesamt|totaal|totale|change|cash|card|tip|discount|rabatt|remise|balance|payment|paid|due)\b/iu;

/** A money amount with decimals at the end of a line (`BIBIM.OCTOPU  T1   $13.99`). */
const TRAILING_AMOUNT = /(?:^|\s)(-?[$€£]?\s?-?\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}-?)\s*(?:[A-Z]{1,3})?$/u;

/**
 * Items of a table printed without a header (till receipts): the run of lines right above the
 * first subtotal or total line that each hold a description and end with an amount. Read only
 * when no header was found; at least two such lines are needed.
 */
function headerlessRows(lines: TextLine[], itemFields: FieldDefinition[], style: DocumentStyle): { rows: TableRow[]; used: number[] } | undefined {
	const description = itemFields.find((field) => field.name === 'description') ?? itemFields.find((field) => fieldTypeOf(field) === 'string');
	const amount = itemFields.find((field) => field.name === 'amount') ?? itemFields.find((field) => fieldTypeOf(field) === 'currency');
	if (!description || !amount) return undefined;
	const end = lines.findIndex((line) => isEndLine(line));
	if (end <= 0) return undefined;
	const found: Array<{ line: TextLine; row: TableRow }> = [];
	let gaps = 0;
	for (let index = end - 1; index >= 0 && lines[index].page === lines[end].page; index--) {
		const line = lines[index];
		const match = TRAILING_AMOUNT.exec(line.text.trim());
		const text = match ? line.text.trim().slice(0, line.text.trim().length - match[0].length).trim() : '';
		if (!match || !/\p{L}{3,}/u.test(text) || /:/.test(text) || SUMMARY_WORDS.test(text)) {
			// A count line (`4.00xITEMS`) or blank line between the items and the subtotal.
			if (found.length === 0 && gaps < 1) {
				gaps++;
				continue;
			}
			break;
		}
		const value = normalizeValue(fieldTypeOf(amount), match[1], style);
		if (!value || typeof value.value !== 'number') break;
		const row: TableRow = Object.fromEntries(itemFields.map((field) => [field.name, null]));
		const quantity = itemFields.find((field) => field.name === 'quantity');
		const leading = /^(\d{1,3})\s+(?=\p{L})/u.exec(text);
		row[description.name] = (leading && quantity ? text.slice(leading[0].length) : text).replace(/\s{2,}/gu, ' ');
		if (leading && quantity) row[quantity.name] = Number(leading[1]);
		row[amount.name] = value.value;
		found.unshift({ line, row });
	}
	if (found.length < 2) return undefined;
	return { rows: found.map((entry) => entry.row), used: found.map((entry) => entry.line.index) };
}

/**
 * Reads a table field: finds the header line whose cells name the columns, then reads the rows
 * under it, cell by column position, until a blank, total or subtotal line, the page's end or
 * a line that is not a row. Tables that repeat their header on each page are read whole.
 */
export function readTable(field: FieldDefinition, lines: TextLine[], style: DocumentStyle): TableResult {
	const itemFields = field.item_fields ?? [];
	const hasTypedColumns = itemFields.some((item) => fieldTypeOf(item) !== 'string');
	const result: TableResult = { rows: [], confidence: 0, headers: [], usedLines: new Set(), notes: [] };
	let headerScore = 0;
	let cellsSeen = 0;
	let cellsParsed = 0;
	let index = 0;
	while (index < lines.length) {
		const header = itemFields.length > 0 ? readHeader(lines[index], itemFields) : undefined;
		if (!header) {
			index++;
			continue;
		}
		const headerLine = lines[index];
		result.headers.push(headerLine);
		result.usedLines.add(headerLine.index);
		headerScore += header.score;
		const segmentStart = result.rows.length;
		let headerContinued = 0;
		for (index++; index < lines.length; index++) {
			const line = lines[index];
			if (line.page !== headerLine.page) break;
			if (line.cells.length === 0) {
				if (result.rows.length === segmentStart && (lines[index - 1] === headerLine || headerContinued > 0)) continue;
				// One blank line between rows (a wrapped description, then air): go on when a full row follows.
				const next = lines[index + 1];
				if (hasTypedColumns && result.rows.length > segmentStart && next && next.page === line.page && next.cells.length > 0 && !isEndLine(next) && !readHeader(next, itemFields)) {
					const ahead = readRow(next, header.columns, itemFields, style);
					if (ahead.typedValues >= 2 && hasDescription(ahead.row, itemFields)) continue;
				}
				break;
			}
			if (isEndLine(line) || readHeader(line, itemFields)) break;
			const read = readRow(line, header.columns, itemFields, style);
			const previous = result.rows[result.rows.length - 1];
			if (hasTypedColumns && result.rows.length > segmentStart && previous && appendContinuation(previous, read)) {
				result.usedLines.add(line.index);
				continue;
			}
			// A header printed on two or three lines (`NUMBER ITEM ... AMOUNT` over `OF CASES  UPC`).
			if (hasTypedColumns && read.typedValues === 0 && result.rows.length === segmentStart && headerContinued < 2 && index - headerLine.index <= 2) {
				headerContinued++;
				continue;
			}
			if (hasTypedColumns && read.typedValues === 0) break;
			result.rows.push(read.row);
			result.usedLines.add(line.index);
			result.notes.push(...read.notes);
			cellsSeen += read.cells;
			cellsParsed += read.parsedCells;
		}
	}
	if (result.headers.length === 0 && hasTypedColumns) {
		const headerless = headerlessRows(lines, itemFields, style);
		if (headerless) {
			result.rows = headerless.rows;
			headerless.used.forEach((line) => result.usedLines.add(line));
			result.notes.push('no header: the lines above the subtotal/total that end with an amount');
			result.confidence = 0.6;
			result.source = lines.find((line) => line.index === headerless.used[0])?.text.trim();
			return result;
		}
	}
	if (result.rows.length > 0) {
		const parsedShare = cellsSeen === 0 ? 0 : cellsParsed / cellsSeen;
		result.confidence = round((headerScore / result.headers.length) * (0.5 + 0.5 * parsedShare));
	}
	return result;
}
