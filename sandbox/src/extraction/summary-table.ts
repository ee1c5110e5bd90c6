/**
 * Totals printed as a small table (common on European invoices): a row of headings such as
 * `Net | VAT % | VAT | Gross`, `Montant HT | TVA | Montant TTC` or `Nettobetrag | USt. 19 % |
 * Bruttobetrag`, with the amounts in the row(s) under them. Each amount is read from the column
 * whose heading it sits under; with several VAT-rate rows the sum row under them gives the totals.
 */
import { normalizeValue, roundMoney, type DocumentStyle } from './normalize';
import { fold, labelPattern, overlap, type Cell, type TextLine } from './text-lines';
import { FIELD_SYNONYMS, SUMMARY_HEADINGS } from './vocabulary';

export type SummaryRole = 'subtotal' | 'tax' | 'total' | 'rate';
type AmountRole = Exclude<SummaryRole, 'rate'>;

export interface SummaryValue {
	value: number;
	heading: string;
	line: TextLine;
	cell: Cell;
}

export interface SummaryTable {
	/** The heading line and the rows read under it: labels there read no other value. */
	lines: Set<number>;
	values: Partial<Record<AmountRole, SummaryValue>>;
	confidence: number;
	notes: string[];
}

/** The row's three amounts add up: believed (the cross-check then confirms them). */
const CONSISTENT = 0.9;
/** Two columns only, nothing to check them by. */
const UNCHECKED = 0.75;
/** Three amounts that do not add up: one of them was misread or misplaced. */
const INCONSISTENT = 0.6;
/** How many rows a summary table may have under its headings (rates and a sum). */
const MAX_ROWS = 8;

const PERCENTAGE = /\d+(?:[.,]\d+)?\s*%/u;
/** A rate or a currency after a heading (`VAT 21%`, `USt. 19 %`, `Total (EUR)`) is no part of its words. */
const HEADING_TAIL = /(?:\s+(?:\d{1,2}(?:[.,]\d{1,2})?\s*%|(?:in\s+)?\(?(?:eur|usd|gbp|chf|sek|nok|dkk|pln|czk|huf|cad|aud|[€$£])\)?)|\s*:)+$/u;

function patterns(words: string[]): RegExp[] {
	return [...new Set(words.map((word) => fold(word)))].map((word) => new RegExp(`${labelPattern(word).source}$`, 'u'));
}

const ROLE_PATTERNS: [SummaryRole, RegExp[]][] = [
	['rate', patterns([...FIELD_SYNONYMS.tax_rate, ...SUMMARY_HEADINGS.rate])],
	['subtotal', patterns([...FIELD_SYNONYMS.subtotal, ...SUMMARY_HEADINGS.subtotal])],
	['tax', patterns([...FIELD_SYNONYMS.tax_amount, ...SUMMARY_HEADINGS.tax])],
	['total', patterns([...FIELD_SYNONYMS.total, ...SUMMARY_HEADINGS.total])],
];

/** The role a whole cell names as a heading, if any (`VAT %` is the rate, `VAT 21%` the tax). */
export function headingRole(text: string): SummaryRole | undefined {
	const folded = fold(text).trim();
	const bare = folded.replace(HEADING_TAIL, '').trim();
	for (const [role, rolePatterns] of ROLE_PATTERNS) {
		if (rolePatterns.some((pattern) => pattern.test(folded) || (bare !== '' && pattern.test(bare)))) return role;
	}
	return undefined;
}

interface Heading {
	role: SummaryRole;
	cell: Cell;
	text: string;
}

/** A line every cell of which is a heading, two of them amounts of different roles. */
function headingsOf(line: TextLine): Heading[] | undefined {
	if (line.cells.length < 2) return undefined;
	const headings: Heading[] = [];
	for (const cell of line.cells) {
		const role = headingRole(cell.text);
		if (!role) return undefined;
		headings.push({ role, cell, text: fold(cell.text).replace(HEADING_TAIL, '').trim() });
	}
	const amounts = new Set(headings.filter((heading) => heading.role !== 'rate').map((heading) => heading.role));
	return amounts.size >= 2 && amounts.size === headings.filter((heading) => heading.role !== 'rate').length ? headings : undefined;
}

/**
 * The heading a value cell stands under: the one its column range overlaps most, or, for a value
 * right-aligned past its heading's end, the heading it starts after and before the next one.
 */
function headingIndexOf(cell: Cell, headings: Heading[]): number | undefined {
	let best: number | undefined;
	let most = 0;
	headings.forEach((heading, index) => {
		const shared = overlap(heading.cell, cell);
		if (shared > most) [best, most] = [index, shared];
	});
	if (best !== undefined) return best;
	const index = headings.findIndex((heading, at) => cell.start > heading.cell.start && cell.end <= (headings[at + 1]?.cell.start ?? Number.POSITIVE_INFINITY));
	return index < 0 ? undefined : index;
}

/** An amount with decimals in a cell (`1.234,50`, `€ 21,00`), undefined otherwise. */
function amountOf(text: string, style: DocumentStyle): number | undefined {
	const read = normalizeValue('currency', text, style);
	return read && typeof read.value === 'number' && /[.,]\d{2}(?!\d)/u.test(read.text) && text.replace(read.text, '').replace(/[€$£]|\b[A-Z]{3}\b|-/gu, '').trim() === '' ? read.value : undefined;
}

interface Row {
	line: TextLine;
	/** The amounts of the row by the index of the heading they stand under. */
	amounts: Map<number, { value: number; cell: Cell }>;
	/** The row carries a percentage: one VAT rate's part of the totals. */
	rate: boolean;
}

function rowOf(line: TextLine, headings: Heading[], style: DocumentStyle): Row {
	const amounts = new Map<number, { value: number; cell: Cell }>();
	for (const cell of line.cells) {
		const index = headingIndexOf(cell, headings);
		const value = amountOf(cell.text, style);
		if (index !== undefined && value !== undefined && headings[index].role !== 'rate' && !amounts.has(index)) amounts.set(index, { value, cell });
	}
	return { line, amounts, rate: PERCENTAGE.test(line.text) };
}

/** The rows under the headings: the following lines of the page that hold an amount in an amount column. */
function rowsUnder(position: number, lines: TextLine[], headings: Heading[], style: DocumentStyle): Row[] {
	const rows: Row[] = [];
	for (let next = position + 1; next < lines.length && rows.length < MAX_ROWS; next++) {
		const line = lines[next];
		if (line.page !== lines[position].page) break;
		if (line.cells.length === 0) continue;
		const row = rowOf(line, headings, style);
		if (row.amounts.size === 0) break;
		rows.push(row);
	}
	return rows;
}

/**
 * The row giving the totals: the only row, or the row without a rate after the rate rows (`19 % |
 * 100,00 | 19,00`, `7 % | 50,00 | 3,50`, then `150,00 | 22,50`). Several rate rows without a sum
 * row give no totals.
 */
function totalsRow(rows: Row[]): { row: Row; rateRows: Row[] } | undefined {
	if (rows.length === 1) return { row: rows[0], rateRows: [] };
	const firstRate = rows.findIndex((row) => row.rate);
	if (firstRate < 0) return undefined;
	const sum = rows.slice(firstRate + 1).find((row) => !row.rate);
	return sum && { row: sum, rateRows: rows.filter((row) => row.rate && row.line.index < sum.line.index) };
}

function agrees(a: number, b: number): boolean {
	return Math.abs(roundMoney(a - b)) <= 0.01;
}

function tableAt(position: number, lines: TextLine[], headings: Heading[], style: DocumentStyle): SummaryTable | undefined {
	const rows = rowsUnder(position, lines, headings, style);
	const chosen = totalsRow(rows);
	if (!chosen) return undefined;
	const values: SummaryTable['values'] = {};
	const notes: string[] = [];
	for (const [index, amount] of chosen.row.amounts) {
		const heading = headings[index];
		if (heading.role === 'rate' || values[heading.role]) continue;
		values[heading.role] = { value: amount.value, heading: heading.text, line: chosen.row.line, cell: amount.cell };
		const parts = chosen.rateRows.map((row) => row.amounts.get(index)?.value ?? 0);
		if (parts.length > 0 && !agrees(parts.reduce((a, b) => a + b, 0), amount.value)) notes.push(`the rate rows do not add up to ${amount.value}`);
	}
	const { subtotal, tax, total } = values;
	const three = subtotal !== undefined && tax !== undefined && total !== undefined;
	const consistent = three && agrees(subtotal.value + tax.value, total.value) && notes.length === 0;
	const confidence = !three ? UNCHECKED : consistent ? CONSISTENT : INCONSISTENT;
	if (three && !consistent) notes.push('the row does not add up');
	return { lines: new Set([lines[position].index, ...rows.map((row) => row.line.index)]), values, confidence, notes };
}

/** Every summary table of amounts in the document. */
export function summaryTables(lines: TextLine[], style: DocumentStyle): SummaryTable[] {
	const tables: SummaryTable[] = [];
	lines.forEach((line, position) => {
		const headings = headingsOf(line);
		const table = headings && tableAt(position, lines, headings, style);
		if (table && Object.keys(table.values).length > 0) tables.push(table);
	});
	return tables;
}
