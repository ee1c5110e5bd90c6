/**
 * The customer's (or delivery) block: a heading from CUSTOMER_BLOCK_LABELS, or an addressee's title
 * opening a postal address, and the lines under it.
 * The names, ids and accounts printed there are the customer's, not the supplier's.
 */
import { labelPattern, overlap, type TextLine } from './text-lines';
import { CUSTOMER_BLOCK_LABELS } from './vocabulary';

const CUSTOMER_HEADS = CUSTOMER_BLOCK_LABELS.map(labelPattern);
/** How many lines under its heading a customer block may run (name, street, town, country, ids). */
const BLOCK_LINES = 6;
/** How wide a block's column is, from its heading's start; a little left of it for ragged print. */
const BLOCK_WIDTH = 40;
const BLOCK_LEFT = 4;

export interface ColumnRange {
	start: number;
	end: number;
}

/** Whether folded text starts with a customer-block word (`Bill to ...`, `Kunde`): not a supplier's name. */
export function startsWithCustomerLabel(folded: string): boolean {
	return CUSTOMER_HEADS.some((pattern) => pattern.test(folded));
}

/**
 * A heading of the customer's block: `Bill to`, `Client :` or `Client : Dupont SA`, not `Customer
 * number: 123` nor `Customer VAT: ...` (labels of their own).
 */
function isCustomerHead(text: string): boolean {
	return CUSTOMER_HEADS.some((pattern) => {
		const head = pattern.exec(text)?.[0];
		if (head === undefined) return false;
		const rest = text.slice(head.length);
		return /^\s*:?\s*$/u.test(rest) || /^\s*:\s*\p{L}/u.test(rest);
	});
}

/**
 * A postal address opening with the addressee's title (`M DE LATTRE ALEXIS`, `Herrn Max Muster`,
 * `Firma Muster GmbH`, `Mrs J. Smith`): the customer's, as the window of an envelope shows it.
 */
const ADDRESSEE_TITLES = new Set(['m', 'mr', 'mrs', 'ms', 'miss', 'mme', 'mlle', 'monsieur', 'madame', 'herr', 'herrn', 'frau', 'firma', 'sr', 'sra', 'dhr', 'mevr', 'sig', 'sig.ra']);

function isAddresseeHead(text: string): boolean {
	const head = /^(\S+?)\.?\s+(\p{Lu}[\p{L}'’.&\s-]*)$/u.exec(text.trim());
	return head !== null && ADDRESSEE_TITLES.has(head[1].toLowerCase());
}

/**
 * The customer's blocks: each heading's column on its own line and on the lines under it, to the
 * next blank line (at most 6 lines), keyed by line index. A letterhead in another column of the
 * same lines stays outside.
 */
export function customerBlocks(lines: TextLine[]): Map<number, ColumnRange[]> {
	const blocks = new Map<number, ColumnRange[]>();
	const add = (index: number, range: ColumnRange) => blocks.set(index, [...(blocks.get(index) ?? []), range]);
	lines.forEach((line, position) => {
		for (const cell of line.cells) {
			if (!isCustomerHead(line.folded.slice(cell.start, cell.end)) && !isAddresseeHead(cell.text)) continue;
			const range = { start: cell.start - BLOCK_LEFT, end: cell.start + BLOCK_WIDTH };
			add(line.index, range);
			for (let next = position + 1; next < lines.length && next <= position + BLOCK_LINES; next++) {
				const below = lines[next];
				if (below.index !== lines[next - 1].index + 1 || below.cells.length === 0 || below.page !== line.page) break;
				add(below.index, range);
			}
		}
	});
	return blocks;
}

/** Whether the value at `column` of line `index` lies in a customer block. */
export function inCustomerBlock(blocks: Map<number, ColumnRange[]>, index: number, column: number): boolean {
	return (blocks.get(index) ?? []).some((range) => column >= range.start && column < range.end);
}

/** The indexes of the lines with a cell in a customer block: whole lines, for searches that skip lines. */
export function customerBlockLines(lines: TextLine[]): Set<number> {
	const blocks = customerBlocks(lines);
	const inside = lines.filter((line) => line.cells.some((cell) => (blocks.get(line.index) ?? []).some((range) => overlap(cell, range) > 0)));
	return new Set(inside.map((line) => line.index));
}
