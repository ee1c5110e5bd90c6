/**
 * Boxes of header data whose headings wrap onto two lines (`Kunden-` over `nummer`, `Date` over
 * `of issue`): the two lines are read as one row of headings, so the words under the first line
 * are not taken for values and the values stand under whole headings.
 */
import { findLabels } from './labels';
import { fold, overlap, splitCells, type Cell, type TextLine } from './text-lines';
import type { FieldDefinition } from './types';

/** The heading cell each cell of the lower line continues: undefined when one continues none or two. */
function continuations(upper: TextLine, lower: TextLine): Map<Cell, Cell> | undefined {
	const below = new Map<Cell, Cell>();
	for (const cell of lower.cells) {
		const over = upper.cells.filter((heading) => overlap(heading, cell) > 0);
		if (over.length !== 1 || below.has(over[0])) return undefined;
		below.set(over[0], cell);
	}
	return below;
}

/** `Kunden-` + `nummer` = `Kundennummer`; `Date` + `of issue` = `Date of issue`. */
function joinWords(upper: string, lower: string): string {
	return /\p{L}-$/u.test(upper) && /^\p{Ll}/u.test(lower) ? `${upper.slice(0, -1)}${lower}` : `${upper} ${lower}`;
}

/** Columns a heading may move right to make room for the joined one before it. */
const MAX_SHIFT = 3;

/** The two lines as one, each heading at its column (moved right a little where the one before grew). */
function joinedLine(upper: TextLine, below: Map<Cell, Cell>): TextLine | undefined {
	let text = '';
	for (const cell of upper.cells) {
		const lower = below.get(cell);
		const start = text === '' ? cell.start : Math.max(cell.start, text.length + 2);
		if (start - cell.start > MAX_SHIFT) return undefined;
		text = `${text.padEnd(start)}${lower ? joinWords(cell.text, lower.text) : cell.text}`;
	}
	return { ...upper, text, folded: fold(text), cells: splitCells(text) };
}

/** How many cells of the line start with a label. */
function labelledCells(fields: FieldDefinition[], line: TextLine): number {
	return new Set(findLabels(fields, [line]).map((match) => match.cellIndex)).size;
}

/** Two adjacent lines of words only, the upper one of 2 cells or more; `Label: value` pairs are no headings. */
function mayWrap(upper: TextLine, lower: TextLine): boolean {
	const wordsOnly = (line: TextLine) => !/[\d:]/u.test(line.text);
	return upper.cells.length >= 2 && lower.cells.length > 0 && lower.page === upper.page && lower.index === upper.index + 1 && wordsOnly(upper) && wordsOnly(lower);
}

/**
 * Lines with a row of headings wrapped onto the line under it joined into one (the lower line left
 * empty): both lines are words only, each of the lower line's cells continues one heading, and the
 * joined row starts as many cells with a label as the upper line alone (at least one).
 */
export function joinWrappedHeadings(fields: FieldDefinition[], lines: TextLine[]): TextLine[] {
	const joined = [...lines];
	for (let position = 0; position + 1 < joined.length; position++) {
		const [upper, lower] = [joined[position], joined[position + 1]];
		if (!mayWrap(upper, lower)) continue;
		const below = continuations(upper, lower);
		const line = below && joinedLine(upper, below);
		if (!line || labelledCells(fields, line) < Math.max(1, labelledCells(fields, upper))) continue;
		joined[position] = line;
		joined[position + 1] = { ...lower, text: '', folded: '', cells: [] };
	}
	return joined;
}
