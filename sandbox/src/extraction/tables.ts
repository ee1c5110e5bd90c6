import { CENT_TOLERANCE } from './checks';
import { labelsFor, LABEL_CONFIDENCE, type LabelSpec } from './labels';
import { fieldTypeOf, normalizeValue, roundMoney, type DocumentStyle, type NormalizedValue } from './normalize';
import { CURRENCY_CODES } from './normalize/currencies';
import { editDistance, labelPattern, overlap, splitCells, type Cell, type TextLine } from './text-lines';
import type { FieldDefinition, TableRow } from './types';
import { OTHER_COLUMN_HEADINGS, TABLE_END_WORDS } from './vocabulary';

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

type HeadingMatch = { field: FieldDefinition; score: number };

/** The free field with the surest label `names` accepts, its label's confidence times `factor`. */
function bestHeading(itemFields: FieldDefinition[], taken: Set<FieldDefinition>, factor: number, names: (spec: LabelSpec, field: FieldDefinition) => boolean): HeadingMatch | undefined {
	let best: HeadingMatch | undefined;
	for (const field of itemFields) {
		if (taken.has(field)) continue;
		for (const spec of labelsFor(field)) {
			if (spec.source === 'percent' || !names(spec, field)) continue;
			const score = LABEL_CONFIDENCE[spec.source] * factor;
			if (!best || score > best.score) best = { field, score };
		}
	}
	return best;
}

/** Whether `text` is all of one of the label's forms. */
function isWholly(spec: LabelSpec, text: string): boolean {
	return spec.pattern.exec(text)?.[0].length === text.length;
}

/** The column a header cell names: the whole cell one of the column's labels, else a near form of one. */
function columnOfHeaderCell(cell: Cell, folded: string, itemFields: FieldDefinition[], taken: Set<FieldDefinition>): HeadingMatch | undefined {
	const text = folded.slice(cell.start, cell.end).replace(/[:\s]+$/u, '');
	// A text column headed by more words before its label of 6 letters or more (`Line item description`,
	// `Item product`; not `Number item`, an item number).
	const words = text.split(/\s+/u);
	const endings = words.slice(1).map((_, start) => words.slice(start + 1).join(' '));
	// Two headings in one cell, the second of a column the template does not ask for (`Menge Einheit`).
	const beforeOtherHeading = (spec: LabelSpec): boolean => {
		const length = spec.pattern.exec(text)?.[0].length;
		return length !== undefined && OTHER_COLUMN_HEADINGS.has(text.slice(length).trim());
	};
	// A header word OCR garbled or ran together (`eUANTITY`, `LISTPFICE`): the cell's letters
	// within one edit of a label's (two for labels of 9 letters or more), labels of 5+ letters only.
	const compact = text.replace(/[^\p{L}]+/gu, '');
	const lettersOnly = compact.length >= 5 && compact.length === text.replace(/[\s.\-/]+/gu, '').length;
	const garbled = (spec: LabelSpec): boolean => {
		const label = spec.text.replace(/[^\p{L}]+/gu, '');
		const allowed = label.length >= 9 ? 2 : 1;
		return lettersOnly && label.length >= 5 && Math.abs(label.length - compact.length) <= allowed && editDistance(compact, label) <= allowed;
	};
	return (
		bestHeading(itemFields, taken, 1, (spec) => isWholly(spec, text)) ??
		bestHeading(itemFields, taken, 0.9, (spec, field) => fieldTypeOf(field) === 'string' && spec.text.length >= 6 && endings.some((ending) => isWholly(spec, ending))) ??
		bestHeading(itemFields, taken, 0.9, beforeOtherHeading) ??
		bestHeading(itemFields, taken, 0.9, garbled)
	);
}

/** The columns of a header line, or undefined when the line is not a header of this table. */
function readHeader(line: TextLine, itemFields: FieldDefinition[]): { columns: Column[]; score: number } | undefined {
	const taken = new Set<FieldDefinition>();
	const columns: Column[] = [];
	let score = 0;
	let otherHeadings = 0;
	for (const cell of line.cells) {
		const column = columnOfHeaderCell(cell, line.folded, itemFields, taken);
		if (!column) {
			columns.push({ type: 'string', span: cell });
			if (OTHER_COLUMN_HEADINGS.has(line.folded.slice(cell.start, cell.end).replace(/[:\s]+$/u, ''))) otherHeadings++;
			continue;
		}
		taken.add(column.field);
		columns.push({ field: column.field, type: fieldTypeOf(column.field), span: cell });
		score += column.score;
	}
	const named = taken.size;
	// Most cells of a header are column names (ours or other tables' headings); a line of labelled values is not a header.
	if (named < Math.min(2, itemFields.length) || named * 2 < line.cells.length - otherHeadings) return undefined;
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

const CODE_PATTERN = new RegExp(`\\b(?:${CURRENCY_CODES.join('|')})`, 'gu');

/**
 * A number cell OCR garbled: a letter glued right before three digits (`i000`, `24'y000`),
 * once currency codes are set aside. Units after a number (`3hrs`) and short codes (`T1`) are
 * no garbling.
 */
function isGarbledNumber(text: string): boolean {
	return /\p{L}['`]?\d{3}/u.test(text.replace(CODE_PATTERN, ' '));
}

/**
 * A table cell read as its column's type. OCR slips repaired first: a space before the decimals
 * (`3,172 .80`), an `s`/`S` read for the `$` in front of an amount (`s2,100.00`); a cell still
 * garbled is no value.
 */
export function readCell(type: string, text: string, style: DocumentStyle): NormalizedValue | undefined {
	if (type === 'string') return normalizeValue(type, text, style);
	const cleaned = repairOcrSlips(type, text);
	if (isGarbledNumber(cleaned)) return undefined;
	return normalizeValue(type, cleaned, style);
}

function repairOcrSlips(type: string, text: string): string {
	const joined = text.trim().replace(/(\d)\s+([.,]\d{2}-?)$/u, '$1$2');
	return type === 'currency' ? joined.replace(/^([-(]?)[sS](?=\d)/u, '$1$') : joined;
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
	const { quantity, unitPrice, amount } = arithmeticFields(itemFields);
	if (!quantity || !unitPrice || !amount) return;
	const { row } = read;
	const [q, u, a] = [row[quantity.name], row[unitPrice.name], row[amount.name]];
	if (typeof q !== 'number' || typeof u !== 'number' || typeof a !== 'number' || q <= 0 || multiplies(q, u, a)) return;
	const money: number[] = [];
	for (const [column, text] of [...read.textsByColumn].sort((x, y) => x[0].span.start - y[0].span.start)) {
		if (column.field && column.field !== unitPrice && column.field !== amount) continue;
		const value = moneyOf(text, style);
		if (value !== undefined) money.push(value);
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

/** A cell's amount when it is written as money (`12.50`, `$12`), else undefined. */
function moneyOf(text: string | undefined, style: DocumentStyle): number | undefined {
	if (text === undefined || !/[.,]\d{2}(?!\d)|[$€£]/u.test(repairOcrSlips('currency', text))) return undefined;
	const value = readCell('currency', text, style);
	return value && typeof value.value === 'number' ? value.value : undefined;
}

function itemField(itemFields: FieldDefinition[], name: string): FieldDefinition | undefined {
	return itemFields.find((field) => field.name === name);
}

/** The item fields quantity x unit price = amount ties together, by their names. */
function arithmeticFields(itemFields: FieldDefinition[]): { quantity?: FieldDefinition; unitPrice?: FieldDefinition; amount?: FieldDefinition } {
	return { quantity: itemField(itemFields, 'quantity'), unitPrice: itemField(itemFields, 'unit_price'), amount: itemField(itemFields, 'amount') };
}

/** An amount written with cents (`65.00`, `1.269,12-`). */
const CENTS = /\d[.,]\d{2}(?!\d)/u;

/**
 * A row whose amount is a bare number (`5`, `140674`) under rows whose amounts all had cents:
 * a card number or code below the items, not a row. Ends the table.
 */
function losesMoneyShape(read: RowRead, before: RowRead[], itemFields: FieldDefinition[]): boolean {
	const amount = itemField(itemFields, 'amount');
	const raw = amount && textUnder(read, amount);
	const text = raw === undefined ? undefined : repairOcrSlips('currency', raw);
	if (!amount || text === undefined || CENTS.test(text) || /[$€£]/u.test(text) || before.length === 0) return false;
	return before.every((previous) => CENTS.test(textUnder(previous, amount) ?? ''));
}

/** The row's text under the column of `field`. */
function textUnder(read: RowRead, field: FieldDefinition | undefined): string | undefined {
	return field && [...read.textsByColumn].find(([column]) => column.field === field)?.[1];
}

/**
 * An amount after a currency sign whose decimal point OCR lost (`$210000` in a column of `$65.00`):
 * when other cells of the column carry cents, its last two digits may be the cents. Believed
 * only when the row or the printed totals confirm it (another amount of the row is the same,
 * quantity x unit price holds, or the column then sums to a total); otherwise left empty.
 */
function restoreLostDecimals(reads: RowRead[], itemFields: FieldDefinition[], totals: number[], style: DocumentStyle): void {
	const columns = new Set(reads.flatMap((read) => [...read.textsByColumn.keys()].filter((column) => column.field && column.type === 'currency')));
	for (const column of columns) {
		const field = column.field as FieldDefinition;
		const texts = reads.map((read) => read.textsByColumn.get(column));
		if (!texts.some((text) => text !== undefined && CENTS.test(text))) continue;
		reads.forEach((read, index) => {
			const text = texts[index] === undefined ? undefined : repairOcrSlips('currency', texts[index] as string);
			if (text === undefined || !/^-?[$€£]\s?\d{3,}-?$/u.test(text)) return;
			const value = readCell('currency', text, style)?.value;
			if (typeof value !== 'number') return;
			read.row[field.name] = roundMoney(value / 100);
			if (confirmsRestoredAmount(read, reads, field, itemFields, totals, style)) {
				read.notes.push(`'${text}' read with its cents (the decimal point lost)`);
				return;
			}
			read.row[field.name] = null;
			read.notes.push(`'${text}' lost its decimal point: left empty`);
		});
	}
}

function confirmsRestoredAmount(read: RowRead, reads: RowRead[], field: FieldDefinition, itemFields: FieldDefinition[], totals: number[], style: DocumentStyle): boolean {
	const value = read.row[field.name] as number;
	const others = [...read.textsByColumn].filter(([column]) => column.field !== field).map(([, text]) => moneyOf(text, style));
	if (others.some((other) => other !== undefined && Math.abs(other - value) <= CENT_TOLERANCE)) return true;
	const { quantity, unitPrice, amount } = arithmeticFields(itemFields);
	const [q, u, a] = [quantity && read.row[quantity.name], unitPrice && read.row[unitPrice.name], amount && read.row[amount.name]];
	if (typeof q === 'number' && typeof u === 'number' && typeof a === 'number' && multiplies(q, u, a)) return true;
	const column = reads.map((each) => each.row[field.name]);
	return field === amount && column.every((each) => typeof each === 'number') && sumsToTotal(column as number[], totals);
}

/**
 * No column headed as the quantity (`QTY` read as `ary`): an unnamed column of plain numbers
 * that, times the unit price, give each row's amount is the quantity.
 */
function inferQuantityColumn(reads: RowRead[], itemFields: FieldDefinition[], style: DocumentStyle): void {
	const { quantity, unitPrice, amount } = arithmeticFields(itemFields);
	if (!quantity || !unitPrice || !amount || reads.some((read) => typeof read.row[quantity.name] === 'number')) return;
	const columns = new Set(reads.flatMap((read) => [...read.textsByColumn.keys()].filter((column) => !column.field)));
	for (const column of columns) {
		const values = reads.map((read) => {
			const text = read.textsByColumn.get(column)?.trim();
			return text !== undefined && /^\d{1,6}(?:[.,]\d{1,3})?$/u.test(text) ? readCell('number', text, style)?.value : undefined;
		});
		let agree = 0;
		let disagree = 0;
		let beyondOne = false;
		reads.forEach((read, index) => {
			const [q, u, a] = [values[index], read.row[unitPrice.name], read.row[amount.name]];
			if (typeof q !== 'number' || typeof u !== 'number' || typeof a !== 'number') return;
			if (!multiplies(q, u, a)) disagree++;
			else {
				agree++;
				beyondOne ||= q !== 1;
			}
		});
		if (disagree > 0 || agree === 0 || !beyondOne) continue;
		reads.forEach((read, index) => {
			if (typeof values[index] === 'number') read.row[quantity.name] = values[index] as number;
		});
		reads[0].notes.push('quantity: the unnamed column whose numbers times the unit price give the amount');
		return;
	}
}

/** Whether the amounts add up to one of the totals printed under the table. */
function sumsToTotal(amounts: number[], totals: number[]): boolean {
	if (amounts.length === 0) return false;
	const sum = roundMoney(amounts.reduce((a, b) => a + b, 0));
	return totals.some((total) => Math.abs(sum - total) <= CENT_TOLERANCE + 1e-9);
}

/**
 * Several money columns (`Unit price  Net  VAT  Gross`): the line amount is the column whose
 * values are quantity x unit price in the most rows, else the one that sums to a printed
 * subtotal or total; the column headed as the amount stays when none does better.
 */
function chooseAmountColumn(reads: RowRead[], itemFields: FieldDefinition[], totals: number[], style: DocumentStyle): void {
	const { quantity, unitPrice, amount } = arithmeticFields(itemFields);
	if (!amount || reads.length === 0) return;
	const columns = [...new Set(reads.flatMap((read) => [...read.textsByColumn.keys()].filter((column) => !column.field || column.field === amount)))];
	const scored = columns.map((column) => {
		const values = reads.map((read) => moneyOf(read.textsByColumn.get(column), style));
		const products = reads.filter((read, index) => {
			const [q, u, a] = [quantity && read.row[quantity.name], unitPrice && read.row[unitPrice.name], values[index]];
			return typeof q === 'number' && typeof u === 'number' && typeof a === 'number' && multiplies(q, u, a);
		}).length;
		const complete = values.every((value) => value !== undefined);
		return { column, values, products, sums: complete && sumsToTotal(values as number[], totals) };
	});
	const current = scored.find((entry) => entry.column.field === amount);
	// A column of amounts in most rows (OCR may have garbled one).
	const better = scored
		.filter((entry) => entry !== current && entry.values.filter((value) => value !== undefined).length * 2 >= reads.length + 1)
		.sort((a, b) => b.products - a.products || Number(b.sums) - Number(a.sums) || b.column.span.start - a.column.span.start)[0];
	if (!better) return;
	const wins = current ? better.products > current.products || (better.products === current.products && better.sums && !current.sums) : better.products > 0 || better.sums;
	if (!wins) return;
	reads.forEach((read, index) => {
		read.row[amount.name] = better.values[index] ?? null;
	});
	reads[0].notes.push(better.products > 0 ? 'amount: the column that is quantity x unit price' : 'amount: the column that sums to the printed total');
}

/** The table's rows settled as a whole once read: cents restored, quantity found, amounts chosen. */
function settleSegment(reads: RowRead[], itemFields: FieldDefinition[], totals: number[], style: DocumentStyle): void {
	restoreLostDecimals(reads, itemFields, totals, style);
	inferQuantityColumn(reads, itemFields, style);
	chooseAmountColumn(reads, itemFields, totals, style);
	for (const read of reads) checkRowArithmetic(read, itemFields, style);
}

/** How far below a table its subtotal and total lines are looked for. */
const TOTALS_REACH = 15;

/** Whether a word of the line starts a total or subtotal label (`20% VAT Total  10.20`). */
function namesATotal(line: TextLine): boolean {
	for (const word of line.folded.matchAll(/(?<![\p{L}\p{N}])\p{L}/gu)) {
		const rest = line.folded.slice(word.index);
		if (END_PATTERNS.some((pattern) => pattern.test(rest))) return true;
	}
	return false;
}

/** Amounts of the subtotal and total lines printed from `from` on (same page, a few lines down). */
function printedTotals(lines: TextLine[], from: number, style: DocumentStyle): number[] {
	const totals: number[] = [];
	const page = lines[from]?.page;
	for (let index = from; index < Math.min(lines.length, from + TOTALS_REACH) && lines[index].page === page; index++) {
		const last = lines[index].cells[lines[index].cells.length - 1];
		if (!last || !namesATotal(lines[index]) || !/\d/u.test(last.text) || /%/u.test(last.text)) continue;
		const value = readCell('currency', last.text, style);
		if (value && typeof value.value === 'number') totals.push(value.value);
	}
	return totals;
}

/**
 * Statement rows: each balance printed is the one before plus the credits and minus the debits
 * between them (debits written with or without their minus).
 */
function balancesChain(rows: TableRow[], itemFields: FieldDefinition[]): boolean {
	const [debit, credit, balance] = ['debit', 'credit', 'balance'].map((name) => itemField(itemFields, name));
	if (!balance || (!debit && !credit)) return false;
	const valueOf = (row: TableRow, field: FieldDefinition | undefined): number => (field && typeof row[field.name] === 'number' ? (row[field.name] as number) : 0);
	let running: number | undefined;
	let movement = 0;
	let checked = 0;
	for (const row of rows) {
		movement += valueOf(row, credit) - Math.abs(valueOf(row, debit));
		const printed = row[balance.name];
		if (typeof printed !== 'number') continue;
		if (running !== undefined) {
			if (Math.abs(roundMoney(running + movement) - printed) > CENT_TOLERANCE + 1e-9) return false;
			checked++;
		}
		running = printed;
		movement = 0;
	}
	return checked > 0;
}

/**
 * Whether the rows add up: their amounts sum to a printed subtotal or total, every row has
 * quantity x unit price = amount, or (statements) the balances follow from the movements.
 */
export function rowsAddUp(rows: TableRow[], itemFields: FieldDefinition[], totals: number[]): boolean {
	const { quantity, unitPrice, amount } = arithmeticFields(itemFields);
	if (rows.length === 0) return false;
	if (balancesChain(rows, itemFields)) return true;
	if (!amount) return false;
	const products = rows.map((row) => {
		const [q, u, a] = quantity && unitPrice ? [row[quantity.name], row[unitPrice.name], row[amount.name]] : [];
		return typeof q === 'number' && typeof u === 'number' && typeof a === 'number' ? multiplies(q, u, a) : undefined;
	});
	// A row whose quantity x unit price is not its amount: something in it is misread.
	if (products.includes(false)) return false;
	const amounts = rows.map((row) => row[amount.name]).filter((value): value is number => typeof value === 'number');
	return (amounts.length === rows.length && sumsToTotal(amounts, totals)) || products.every((product) => product === true);
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
		const normalized = readCell(column.type, text, style);
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

/** A line of words only: no typed value, no digit under a number column. */
function isWordsLine(read: RowRead): boolean {
	return read.typedValues === 0 && ![...read.textsByColumn].some(([column, text]) => column.type !== 'string' && /\d/u.test(text));
}

/** A line that opens with a label (`Line note:   shipped in bulk`): an item's attribute, not its description's wrap. */
function opensWithLabel(line: TextLine): boolean {
	return line.cells[0]?.text.trimEnd().endsWith(':') ?? false;
}

/**
 * A wrapped description: a line of words under a row. Text under named string columns goes on
 * in those columns; words that spill under other columns go on in the description.
 */
function appendContinuation(previous: TableRow, read: RowRead, itemFields: FieldDefinition[]): void {
	const entries = [...read.textsByColumn].sort((a, b) => a[0].span.start - b[0].span.start);
	const append = (field: FieldDefinition, text: string): void => {
		const before = previous[field.name];
		previous[field.name] = typeof before === 'string' ? `${before} ${text}` : text;
	};
	const description = descriptionField(itemFields);
	if (entries.every(([column]) => column.field && column.type === 'string')) {
		for (const [column, text] of entries) append(column.field as FieldDefinition, text);
	} else if (description) {
		append(description, entries.map(([, text]) => text).join(' '));
	}
}

/** Whether the row's text under the column of `field` has a digit. */
function digitsUnder(read: RowRead, field: FieldDefinition | undefined): boolean {
	const text = textUnder(read, field);
	return text !== undefined && /\d/u.test(text);
}

/**
 * A line with neither a count nor an amount under items that each have an amount: a detail of
 * the item above (e-invoice renderings print its discount, net price, identifiers and notes under
 * it: `- 1,00 €`, `= 19,00 €`, `Produktbeschreibung:   ...`), not an item.
 */
function detailsItemAbove(read: RowRead, segment: RowRead[], itemFields: FieldDefinition[]): boolean {
	const { quantity, amount } = arithmeticFields(itemFields);
	if (!amount || segment.length === 0 || digitsUnder(read, quantity) || digitsUnder(read, amount)) return false;
	return segment.every((item) => typeof item.row[amount.name] === 'number');
}

/** A detail line's text under the description column goes on in the item's description; false when it has none. */
function wrapsDescription(item: TableRow, read: RowRead, line: TextLine, itemFields: FieldDefinition[]): boolean {
	const description = descriptionField(itemFields);
	const text = textUnder(read, description);
	if (!description || text === undefined || opensWithLabel(line) || !/\p{L}/u.test(text)) return false;
	item[description.name] = typeof item[description.name] === 'string' ? `${String(item[description.name])} ${text}` : text;
	return true;
}

/**
 * A summary line printed in the item columns (`Line Total Amount   €135.00`, `Gesamtbetrag Netto
 * 14,90 €`): a summary word and an amount alone, under items that have a quantity or unit price.
 */
function isSummaryRow(read: RowRead, segment: RowRead[], itemFields: FieldDefinition[]): boolean {
	const { quantity, unitPrice, amount } = arithmeticFields(itemFields);
	const description = descriptionField(itemFields);
	const has = (row: TableRow, field: FieldDefinition | undefined): boolean => field !== undefined && row[field.name] !== null;
	if (!description || !has(read.row, amount) || has(read.row, quantity) || has(read.row, unitPrice)) return false;
	const text = read.row[description.name];
	return typeof text === 'string' && SUMMARY_WORDS.test(text) && segment.some((item) => has(item.row, quantity) || has(item.row, unitPrice));
}

/**
 * A line of headings right under the header that splits a heading (`Tax` over `Rate   Amount`):
 * its cells that stand under no header cell become columns of their own, so that their values
 * do not fall into a neighbour's column. Undefined when the line splits none.
 */
function withSubHeadings(line: TextLine, columns: Column[]): Column[] | undefined {
	if (line.cells.length === 0 || line.cells.some((cell) => /\d/u.test(cell.text))) return undefined;
	const between = line.cells.filter((cell) => !columns.some((column) => overlap(cell, column.span) > 0));
	if (between.length === 0) return undefined;
	return [...columns, ...between.map((span): Column => ({ type: 'string', span }))].sort((a, b) => a.span.start - b.span.start);
}

function hasMoney(read: RowRead, style: DocumentStyle): boolean {
	return [...read.textsByColumn].some(([column, text]) => column.type === 'currency' && moneyOf(text, style) !== undefined);
}

function isBareZero(row: TableRow): boolean {
	const values = Object.values(row).filter((value) => value !== null);
	return values.length === 1 && values[0] === 0;
}

function hasMoneyColumn(columns: Column[]): boolean {
	return columns.some((column) => column.type === 'currency');
}

/**
 * An item printed on several lines around its money line (its text above, again below with its
 * EAN): a line repeating the item above adds nothing; one above a money line without text is held
 * for it. Returns the text held, or 'an item' when the line is an item of its own (`Hosting  12`).
 */
function describeAround(read: RowRead, previous: TableRow | undefined, held: string | undefined, next: RowRead, itemFields: FieldDefinition[], style: DocumentStyle): string | undefined | 'an item' {
	const description = descriptionField(itemFields);
	const text = description ? read.row[description.name] : null;
	if (!description || typeof text !== 'string' || !/\p{L}{3,}/u.test(text)) return 'an item';
	if (previous && previous[description.name] === text) return held;
	if (hasMoney(next, style) && next.row[description.name] === null) return held === undefined ? text : `${held} ${text}`;
	return 'an item';
}

/** A row with a description and two values, or at least one amount of money (the rest OCR garbled). */
function isFullRow(read: RowRead, itemFields: FieldDefinition[], style: DocumentStyle): boolean {
	return (read.typedValues >= 2 || hasMoney(read, style)) && hasDescription(read.row, itemFields);
}

function hasDescription(row: TableRow, itemFields: FieldDefinition[]): boolean {
	return itemFields.some((field) => fieldTypeOf(field) === 'string' && typeof row[field.name] === 'string' && /\p{L}{3,}/u.test(row[field.name] as string));
}

/**
 * Lines of a summary (tax, totals, payment), not items; German compounds too (`Gesamtsumme`,
 * `Zwischensumme`, `Rechnungsbetrag`, `Gezahlter Betrag`).
 */
const SUMMARY_WORDS = /\b(?:vat|tax|total|subtotal|sub-total|net|mwst|ust|tva|iva|btw|\p{L}*summe|gesamt\p{L}*|\p{L}*betrag|gezahlt\p{L}*|bezahlt|totaal|totale|change|cash|card|tip|discount|rabatt|remise|balance|payment|paid|due)\b/iu;

/** A money amount with decimals at the end of a line (`BIBIM.OCTOPU  T1   $13.99`). */
const TRAILING_AMOUNT = /(?:^|\s)(-?[$€£]?\s?-?\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}-?)\s*(?:[A-Z]{1,3})?$/u;

/** A heading that opens a receipt's summary (`Product Group Summary`): the items end above it. */
const SUMMARY_HEADING = /\b(?:summary|zusammenfassung|recapitulatif|resumen|riepilogo|samenvatting|resumo)\b/u;

/** Where the items of a table without a header may end: a total line or a summary heading. */
function endsItems(line: TextLine): boolean {
	return isEndLine(line) || (SUMMARY_HEADING.test(line.folded) && !TRAILING_AMOUNT.test(line.text.trim()));
}

/** Letters OCR reads for a one-digit count standing alone at a line's start (`Z   Meantime Pale`). */
const COUNT_LOOKALIKES: Record<string, number> = { Z: 2, z: 2, I: 1, l: 1, '|': 1 };

/** The count at the start of an item line (`2 Coffee`, `Z   Coffee`) and the text after it. */
export function leadingCount(text: string): { count: number; rest: string } | undefined {
	const digits = /^(\d{1,3})\s+(?=\p{L})/u.exec(text);
	if (digits) return { count: Number(digits[1]), rest: text.slice(digits[0].length) };
	const lookalike = /^(\S)\s{2,}(?=\p{L})/u.exec(text);
	const count = lookalike ? COUNT_LOOKALIKES[lookalike[1]] : undefined;
	return lookalike && count !== undefined ? { count, rest: text.slice(lookalike[0].length) } : undefined;
}

const NUMBER_CELL = /^[$€£]?\d{1,6}(?:[.,]\d{1,3})?$/u;

/**
 * Numbers standing in their own cells between an item's description and its amount
 * (`Widget   2   10.00   20.00`): quantity and unit price when quantity x unit price = amount;
 * a lone small whole number is the quantity. Numbers that fit no role stay in the description, which
 * is returned.
 */
function assignRowNumbers(row: TableRow, text: string, counted: number | undefined, total: number, itemFields: FieldDefinition[], style: DocumentStyle): string {
	const { quantity, unitPrice } = arithmeticFields(itemFields);
	const cells = splitCells(text);
	const numbers: Array<{ value: number; text: string }> = [];
	while (cells.length > 1 && numbers.length < 2 && NUMBER_CELL.test(cells[cells.length - 1].text)) {
		const cell = cells.pop() as Cell;
		const value = readCell('number', cell.text.replace(/^[$€£]/u, ''), style)?.value;
		if (typeof value !== 'number') return text;
		numbers.unshift({ value, text: cell.text });
	}
	const rest = cells.map((cell) => cell.text).join('  ');
	if (!quantity) return text;
	if (unitPrice && numbers.length === 2 && counted === undefined) {
		const [first, second] = numbers.map((number) => number.value);
		const pair = multiplies(first, second, total) ? [first, second] : multiplies(second, first, total) ? [second, first] : undefined;
		if (!pair) return text;
		[row[quantity.name], row[unitPrice.name]] = pair;
		return rest;
	}
	if (numbers.length !== 1) return text;
	if (unitPrice && counted !== undefined && multiplies(counted, numbers[0].value, total)) {
		row[unitPrice.name] = numbers[0].value;
		return rest;
	}
	// Two digits at most: `330` beside a drink is more likely millilitres than a count.
	if (counted === undefined && /^\d{1,2}$/u.test(numbers[0].text)) {
		row[quantity.name] = numbers[0].value;
		return rest;
	}
	return text;
}

function descriptionField(itemFields: FieldDefinition[]): FieldDefinition | undefined {
	return itemField(itemFields, 'description') ?? itemFields.find((field) => fieldTypeOf(field) === 'string');
}

function amountField(itemFields: FieldDefinition[]): FieldDefinition | undefined {
	return itemField(itemFields, 'amount') ?? itemFields.find((field) => fieldTypeOf(field) === 'currency');
}

/** One item line of a table without a header: a description that ends with an amount. */
function itemOfLine(line: TextLine, itemFields: FieldDefinition[], style: DocumentStyle): TableRow | undefined {
	const description = descriptionField(itemFields);
	const amount = amountField(itemFields);
	const trimmed = line.text.trim();
	const match = TRAILING_AMOUNT.exec(trimmed);
	if (!description || !amount || !match) return undefined;
	let text = trimmed.slice(0, trimmed.length - match[0].length).trim();
	if (!/\p{L}{3,}/u.test(text) || /:/.test(text) || SUMMARY_WORDS.test(text)) return undefined;
	const value = normalizeValue(fieldTypeOf(amount), match[1], style);
	if (!value || typeof value.value !== 'number') return undefined;
	const row: TableRow = Object.fromEntries(itemFields.map((field) => [field.name, null]));
	const quantity = itemField(itemFields, 'quantity');
	const leading = quantity ? leadingCount(text) : undefined;
	if (quantity && leading) {
		row[quantity.name] = leading.count;
		text = leading.rest;
	}
	row[amount.name] = value.value;
	row[description.name] = assignRowNumbers(row, text, leading?.count, value.value, itemFields, style).replace(/\s{2,}/gu, ' ');
	return row;
}

/** A line of words only under an item (`Includes responsive navigation`): its description goes on. */
function isContinuationText(line: TextLine): boolean {
	const text = line.text.trim();
	return /\p{L}{3,}/u.test(text) && !/:/.test(text) && !SUMMARY_WORDS.test(text) && !TRAILING_AMOUNT.test(text) && !isEndLine(line);
}

/**
 * The item lines right above the line at `end`, read upwards: a blank or count line
 * (`4.00xITEMS`) may stand between them and the end, one blank line between two items, and a
 * line of words under an item continues its description.
 */
function itemsAbove(lines: TextLine[], end: number, itemFields: FieldDefinition[], style: DocumentStyle): Array<{ lines: number[]; row: TableRow }> {
	const description = descriptionField(itemFields);
	const found: Array<{ lines: number[]; row: TableRow }> = [];
	let gaps = 0;
	let blanks = 0;
	let pending: TextLine | undefined;
	for (let index = end - 1; index >= 0 && lines[index].page === lines[end].page; index--) {
		const line = lines[index];
		const row = itemOfLine(line, itemFields, style);
		if (row) {
			const used = [line.index];
			if (pending && description) {
				row[description.name] = `${String(row[description.name])} ${pending.text.trim().replace(/\s{2,}/gu, ' ')}`;
				used.push(pending.index);
			}
			found.unshift({ lines: used, row });
			pending = undefined;
			blanks = 0;
			continue;
		}
		if (found.length === 0) {
			if (gaps++ < 2) continue;
			break;
		}
		// A line of words above a blank line is no item's continuation: the items end there.
		if (line.cells.length === 0 && !pending && blanks++ === 0) continue;
		if (!pending && line.cells.length > 0 && isContinuationText(line)) {
			pending = line;
			continue;
		}
		break;
	}
	return found;
}

/**
 * Items of a table printed without a header (till receipts): the run of lines right above a
 * subtotal or total line or a summary heading that each hold a description and end with an
 * amount. Read only when no header was found; at least two such lines are needed, or one whose
 * amount is the total printed below it.
 */
function headerlessRows(lines: TextLine[], itemFields: FieldDefinition[], style: DocumentStyle): { rows: TableRow[]; used: number[]; totals: number[] } | undefined {
	for (let end = 1; end < lines.length; end++) {
		if (!endsItems(lines[end])) continue;
		const found = itemsAbove(lines, end, itemFields, style);
		const totals = printedTotals(lines, end, style);
		const amount = amountField(itemFields);
		const single = found.length === 1 && amount !== undefined && sumsToTotal([found[0].row[amount.name] as number], totals);
		if (found.length >= 2 || single) return { rows: found.map((entry) => entry.row), used: found.flatMap((entry) => entry.lines), totals };
	}
	return undefined;
}

/** `Preis pro Einheit (netto)`: what the parenthesis adds does not change the column. */
const NET_OR_GROSS = /\s*\((?:netto|brutto|net|gross|ht|ttc)\)$/u;

/**
 * Items printed as blocks of labelled values, a label and its value per line (`Menge   10.00`,
 * `Gesamtpreis (netto)   10.000,00`, `Bezeichnung:   Artikel`; XRechnung's standard rendering):
 * an item ends where a number field it already has is labelled again. Read only when no header
 * was found, and only when every item has an amount and a quantity, unit price or description.
 */
function labelledItems(lines: TextLine[], itemFields: FieldDefinition[], style: DocumentStyle): { rows: TableRow[]; used: number[]; totals: number[] } | undefined {
	const rows: TableRow[] = [];
	const used: number[] = [];
	let row: TableRow | undefined;
	let last = 0;
	for (const line of lines) {
		const [labelCell, valueCell] = line.cells;
		if (!labelCell || !valueCell || line.cells.length > 4) continue;
		const label = line.folded.slice(labelCell.start, labelCell.end).replace(/[:\s]+$/u, '').replace(NET_OR_GROSS, '');
		// `Total:  $2,608.20` sums the items: no item's amount.
		if (END_PATTERNS.some((pattern) => pattern.test(label))) continue;
		const field = bestHeading(itemFields, new Set(), 1, (spec) => isWholly(spec, label))?.field;
		if (!field) continue;
		const type = fieldTypeOf(field);
		const value = readCell(type, valueCell.text, style)?.value;
		if (value === undefined || value === null || (type === 'string' && !/\p{L}{3,}/u.test(String(value)))) continue;
		if (row && row[field.name] !== null && type !== 'string') row = undefined;
		// A second text for the same field (`Beschreibung` after `Bezeichnung`) is kept only over one without letters.
		if (row && row[field.name] !== null && /\p{L}/u.test(String(row[field.name]))) continue;
		if (!row) {
			row = Object.fromEntries(itemFields.map((item) => [item.name, null]));
			rows.push(row);
		}
		row[field.name] = value;
		used.push(line.index);
		last = line.index;
	}
	const amount = amountField(itemFields);
	const { quantity, unitPrice } = arithmeticFields(itemFields);
	const description = descriptionField(itemFields);
	const complete = (item: TableRow) => amount !== undefined && item[amount.name] !== null && [quantity, unitPrice, description].some((field) => field && item[field.name] !== null);
	if (rows.length === 0 || !rows.every(complete)) return undefined;
	return { rows, used, totals: printedTotals(lines, lines.findIndex((line) => line.index === last) + 1, style) };
}

/** Items read from labelled blocks: believed only when they add up. */
const LABELLED_ITEMS_CONFIDENCE = 0.7;

/** Confidence a table reaches when its rows add up, and the most it keeps when they do not. */
const ADDS_UP_CONFIDENCE = 0.85;
const UNCHECKED_CONFIDENCE = 0.7;
/** Rows read without a header line: believed only when they add up. */
const HEADERLESS_CONFIDENCE = 0.6;

/**
 * A table with money columns is believed (>= 0.8) only when its rows add up; otherwise it keeps
 * its header's evidence, capped. A table without money (a delivery note) has nothing to add up.
 */
function tableConfidence(evidence: number, addsUp: boolean | undefined, notes: string[]): number {
	if (addsUp === undefined) return round(evidence);
	notes.push(addsUp ? 'the rows add up' : 'the rows could not be checked against each other or a total');
	return round(addsUp ? Math.max(evidence, ADDS_UP_CONFIDENCE) : Math.min(evidence, UNCHECKED_CONFIDENCE));
}

/** Whether the rows can add up at all: the table has a money column. */
function moneyAddsUp(rows: TableRow[], itemFields: FieldDefinition[], totals: number[]): boolean | undefined {
	return itemFields.some((field) => fieldTypeOf(field) === 'currency') ? rowsAddUp(rows, itemFields, totals) : undefined;
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
	const totals: number[] = [];
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
		const segmentReads: RowRead[] = [];
		let headerContinued = 0;
		/** Text of a line without money, held for the item whose money line follows. */
		let heldText: string | undefined;
		/** Whether the next line's words may still continue the last item's description. */
		let wrapOpen = false;
		for (index++; index < lines.length; index++) {
			const line = lines[index];
			if (line.page !== headerLine.page) break;
			if (line.cells.length === 0) {
				if (result.rows.length === segmentStart && (lines[index - 1] === headerLine || headerContinued > 0)) continue;
				// One blank line between rows (a wrapped description, then air): go on when a full row follows.
				const next = lines[index + 1];
				if (hasTypedColumns && result.rows.length > segmentStart && next && next.page === line.page && next.cells.length > 0 && !isEndLine(next) && !readHeader(next, itemFields)) {
					const ahead = readRow(next, header.columns, itemFields, style);
					if (isFullRow(ahead, itemFields, style)) continue;
				}
				break;
			}
			const subHeadings = index === headerLine.index + 1 && readHeader(line, itemFields) ? withSubHeadings(line, header.columns) : undefined;
			if (subHeadings) {
				header.columns = subHeadings;
				headerContinued++;
				result.usedLines.add(line.index);
				continue;
			}
			if (isEndLine(line) || readHeader(line, itemFields)) break;
			const read = readRow(line, header.columns, itemFields, style);
			const previous = result.rows[result.rows.length - 1];
			if (hasTypedColumns && result.rows.length > segmentStart && previous && isWordsLine(read)) {
				// A labelled line (`Note: ...`) or words after a detail line are no wrap of the description.
				wrapOpen &&= !opensWithLabel(line);
				if (wrapOpen) appendContinuation(previous, read, itemFields);
				result.usedLines.add(line.index);
				continue;
			}
			// A header printed on two or three lines (`NUMBER ITEM ... AMOUNT` over `OF CASES  UPC`).
			if (hasTypedColumns && read.typedValues === 0 && result.rows.length === segmentStart && headerContinued < 2 && index - headerLine.index <= 2) {
				headerContinued++;
				continue;
			}
			if (hasTypedColumns && isSummaryRow(read, segmentReads, itemFields)) break;
			const detail = hasTypedColumns && detailsItemAbove(read, segmentReads, itemFields);
			if (hasTypedColumns && !detail && (read.typedValues === 0 || losesMoneyShape(read, segmentReads, itemFields))) break;
			// Under money columns, a line without money around a money line without text is that item's
			// text with its article or EAN number (`GWDSTG-DIN976  0595810 25`), not an item.
			if (hasMoneyColumn(header.columns) && !hasMoney(read, style)) {
				const held = describeAround(read, previous, heldText, readRow(lines[index + 1] ?? line, header.columns, itemFields, style), itemFields, style);
				if (held !== 'an item') {
					heldText = held;
					result.usedLines.add(line.index);
					continue;
				}
			}
			if (detail && previous) {
				wrapOpen &&= wrapsDescription(previous, read, line, itemFields);
				result.usedLines.add(line.index);
				continue;
			}
			// `Surcharge/charge:  0,00 €` under the items: a zero and nothing else is no item.
			if (isBareZero(read.row)) continue;
			const description = descriptionField(itemFields);
			if (description && heldText !== undefined && read.row[description.name] === null) read.row[description.name] = heldText;
			heldText = undefined;
			wrapOpen = true;
			result.rows.push(read.row);
			segmentReads.push(read);
			result.usedLines.add(line.index);
			cellsSeen += read.cells;
			cellsParsed += read.parsedCells;
		}
		const segmentTotals = printedTotals(lines, index, style);
		totals.push(...segmentTotals);
		settleSegment(segmentReads, itemFields, segmentTotals, style);
		result.notes.push(...segmentReads.flatMap((read) => read.notes));
	}
	if (result.headers.length === 0 && hasTypedColumns) {
		// Without a header: items as labelled blocks, else the lines above the totals that end with an amount.
		const found: Array<[ReturnType<typeof labelledItems>, string, number]> = [
			[labelledItems(lines, itemFields, style), 'items printed as blocks of labelled values', LABELLED_ITEMS_CONFIDENCE],
			[headerlessRows(lines, itemFields, style), 'no header: the lines above the subtotal/total that end with an amount', HEADERLESS_CONFIDENCE],
		];
		for (const [items, note, evidence] of found) {
			if (!items) continue;
			result.rows = items.rows;
			items.used.forEach((line) => result.usedLines.add(line));
			result.notes.push(note);
			result.confidence = tableConfidence(evidence, moneyAddsUp(result.rows, itemFields, items.totals), result.notes);
			result.source = lines.find((line) => line.index === items.used[0])?.text.trim();
			return result;
		}
	}
	if (result.rows.length > 0) {
		const parsedShare = cellsSeen === 0 ? 0 : cellsParsed / cellsSeen;
		result.confidence = tableConfidence((headerScore / result.headers.length) * (0.5 + 0.5 * parsedShare), moneyAddsUp(result.rows, itemFields, totals), result.notes);
	}
	return result;
}
