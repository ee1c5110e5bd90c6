/**
 * Lines of document text split into cells. Two or more spaces (or a tab) separate cells, which
 * is how the layout rebuild (layout.ts) and plain-text metadata keep columns apart.
 */

export interface Cell {
	text: string;
	/** Character columns [start, end) in the line. */
	start: number;
	end: number;
}

export interface TextLine {
	/** Index of the line in the document (across pages). */
	index: number;
	page: number;
	text: string;
	folded: string;
	cells: Cell[];
}

/**
 * Lower case without accents, `º`/`°` read as `o` (`Nº` = `N°` = `No`), one character for
 * one character so that positions found in the folded text hold in the original.
 */
export function fold(text: string): string {
	let folded = '';
	for (const char of text) {
		const plain = char === 'º' || char === '°' ? 'o' : char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
		folded += plain.length === char.length ? plain : char.toLowerCase().length === char.length ? char.toLowerCase() : char;
	}
	return folded;
}

export function splitCells(line: string): Cell[] {
	const cells: Cell[] = [];
	const pattern = /\S+(?:[ ]\S+)*/gu;
	const spaced = line.replace(/\t/g, '  ');
	for (const match of spaced.matchAll(pattern)) {
		const end = match.index + match[0].length;
		const previous = cells.at(-1);
		// A colon aligned apart from its label (`Date d'échéance        :  05-08-2022`) ends the label's cell.
		if (match[0] === ':' && previous) {
			cells[cells.length - 1] = { text: spaced.slice(previous.start, end), start: previous.start, end };
			continue;
		}
		cells.push({ text: match[0], start: match.index, end });
	}
	return cells;
}

export function toLines(pageTexts: string[]): TextLine[] {
	const lines: TextLine[] = [];
	pageTexts.forEach((pageText, page) => {
		for (const text of pageText.split(/\r?\n/)) {
			lines.push({ index: lines.length, page, text, folded: fold(text), cells: splitCells(text) });
		}
	});
	return lines;
}

/** Overlap of two column ranges, in characters. */
export function overlap(a: { start: number; end: number }, b: { start: number; end: number }): number {
	return Math.min(a.end, b.end) - Math.max(a.start, b.start);
}

/** `invoice_number` -> `invoice number`. */
export function humanise(name: string): string {
	return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim().toLowerCase();
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern for a label, tolerant in the ways labels vary: `No.`/`No`, `Rechnungs-Nr.` /
 * `Rechnungs Nr`, any run of spaces. It matches at the start of the text given to it.
 */
export function labelPattern(label: string): RegExp {
	const tokens = fold(label).trim().split(/\s+/u);
	const body = tokens
		.map((token) => escape(token).replace(/\\\./g, '\\.?').replace(/-/g, '[- ]?').replace(/\//g, '\\s*/\\s*'))
		.join('\\s+');
	return new RegExp(`^${body}(?![\\p{L}\\p{N}])`, 'u');
}

/** Levenshtein distance of two short words. */
export function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		}
		previous = current;
	}
	return previous[b.length];
}
