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

/** Every summary table of amounts in the document, then the one row whose own arithmetic names its amounts. */
export function summaryTables(lines: TextLine[], style: DocumentStyle): SummaryTable[] {
	const tables: SummaryTable[] = [];
	lines.forEach((line, position) => {
		const headings = headingsOf(line);
		const table = headings && tableAt(position, lines, headings, style);
		if (table && Object.keys(table.values).length > 0) tables.push(table);
	});
	const read = new Set(tables.flatMap((table) => [...table.lines]));
	const row = selfCheckingRow(lines.filter((line) => !read.has(line.index)), style);
	return row ? [...tables, row] : tables;
}

/** The heading given to the amounts of a row read by its own arithmetic (it has none the reader knows). */
export const SELF_CHECKING_ROW = 'amounts that add up';

/** The most amounts a row read by its own arithmetic may hold (net, tax, gross, and a few more). */
const MAX_ROW_AMOUNTS = 8;

/** A rate a row may carry: `21 %`, `21,00%`, or a bare number up to 100 (`VAT  21.00  522.31 ...`). */
function rateOf(text: string, style: DocumentStyle): number | undefined {
	const percent = /^(\d{1,2}(?:[.,]\d{1,2})?)\s*%$/u.exec(text.trim());
	const value = percent ? Number(percent[1].replace(',', '.')) : amountOf(text, style);
	return value !== undefined && value > 0 && value < 100 ? value : undefined;
}

/** Net, tax and gross in one line: net + tax = gross and tax = rate x net, for a rate in the same line. */
function tripleOf(line: TextLine, style: DocumentStyle): { subtotal: Cell; tax: Cell; total: Cell; values: [number, number, number] } | undefined {
	const cells = line.cells.map((cell) => ({ cell, amount: amountOf(cell.text, style), rate: rateOf(cell.text, style) }));
	const amounts = cells.filter((entry) => entry.amount !== undefined);
	// A totals row holds a few amounts; the search below is cubic, so a long line of them is no totals row.
	if (amounts.length > MAX_ROW_AMOUNTS) return undefined;
	for (const gross of amounts)
		for (const net of amounts)
			for (const tax of amounts) {
				if (new Set([gross, net, tax]).size < 3 || !(tax.amount! < net.amount!) || !agrees(net.amount! + tax.amount!, gross.amount!)) continue;
				const rated = cells.some((entry) => entry !== gross && entry !== net && entry !== tax && entry.rate !== undefined && Math.abs(roundMoney((net.amount! * entry.rate) / 100) - tax.amount!) <= 0.02);
				if (rated) return { subtotal: net.cell, tax: tax.cell, total: gross.cell, values: [net.amount!, tax.amount!, gross.amount!] };
			}
	return undefined;
}

type Triple = NonNullable<ReturnType<typeof tripleOf>>;

/**
 * Under several rows that each add up with their rate (one per VAT rate), the row right after them
 * whose three amounts are their sums (`1153.34  239.66  1393.00` under `6.00 16.98 1.02 18.00` and
 * `21.00 1136.36 238.64 1375.00`).
 */
function sumRow(lines: TextLine[], rows: Array<Triple & { line: TextLine }>, style: DocumentStyle): (Triple & { line: TextLine; note: string }) | undefined {
	const last = rows.at(-1)!.line;
	const sums = [0, 1, 2].map((at) => roundMoney(rows.reduce((sum, row) => sum + row.values[at], 0)));
	const after = lines.filter((line) => line.page === last.page && line.index > last.index && line.cells.length > 0).slice(0, 2);
	for (const line of after) {
		const cells = line.cells.map((cell) => ({ cell, amount: amountOf(cell.text, style) }));
		const found = sums.map((sum) => cells.find((entry) => entry.amount !== undefined && agrees(entry.amount, sum))?.cell);
		if (found.every((cell) => cell !== undefined) && new Set(found).size === 3)
			return { line, subtotal: found[0]!, tax: found[1]!, total: found[2]!, values: sums as [number, number, number], note: `no headings; the sums of the ${rows.length} rows above, each of which adds up with its rate` };
	}
	return undefined;
}

/**
 * A totals row printed without headings the reader knows (`VAT  21.00  522.31  109.69  632.00
 * EUR` under `TAX:  % Base amount:  Tax amount: ...`): amounts that add up, net + tax = gross, with
 * the rate in the same row giving tax = rate x net. Two checks agree, so it is believed. Only
 * when one such set of amounts is in the document, or when several (one row per VAT rate, or item
 * rows with their own net, VAT and gross) are followed by the row of their sums.
 */
function selfCheckingRow(lines: TextLine[], style: DocumentStyle): SummaryTable | undefined {
	const rows = lines.flatMap((line) => {
		const triple = tripleOf(line, style);
		return triple ? [{ line, ...triple }] : [];
	});
	const distinct = new Set(rows.map((row) => row.values.join('|')));
	if (distinct.size === 0) return undefined;
	const chosen = distinct.size === 1 ? { ...rows.at(-1)!, note: 'no headings; the row adds up (net + tax = gross) and its rate gives the tax' } : sumRow(lines, rows, style);
	if (!chosen) return undefined;
	const { line, subtotal, tax, total, values, note } = chosen;
	const heading = SELF_CHECKING_ROW;
	return {
		lines: new Set([line.index]),
		values: { subtotal: { value: values[0], heading, line, cell: subtotal }, tax: { value: values[1], heading, line, cell: tax }, total: { value: values[2], heading, line, cell: total } },
		confidence: CONSISTENT,
		notes: [note],
	};
}
