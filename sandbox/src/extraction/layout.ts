/**
 * Rebuilds readable lines from positioned text pieces, the way `pdftotext -layout` does: pieces
 * on the same baseline form a line, sorted left to right, and each piece is placed at a character
 * column proportional to its x position. Columns of a table therefore stay aligned in plain text,
 * and a wide gap always becomes at least two spaces, which is what the field and table readers
 * treat as a cell boundary.
 */

export interface PositionedText {
	text: string;
	x: number;
	/** Baseline, growing upwards (PDF user space). */
	y: number;
	width: number;
	fontSize: number;
	/**
	 * A whole word (OCR words are): at least one space from the piece before it, however close.
	 * PDF pieces may be parts of one word drawn apart, so only a gap separates them.
	 */
	word?: boolean;
	/** The font size as the glyphs show it, where the line's height understates it (OCR); else `fontSize`. */
	em?: number;
}

/** Points per character column; small enough that text rarely runs past its next column. */
const POINTS_PER_COLUMN = 4;
/** A horizontal gap wider than this share of the font size separates two cells. */
const CELL_GAP_RATIO = 0.6;
/** A vertical gap wider than this many line heights leaves a blank line (a paragraph break). */
const BLANK_LINE_RATIO = 1.9;

function groupByBaseline(pieces: PositionedText[]): PositionedText[][] {
	const sorted = [...pieces].sort((a, b) => b.y - a.y || a.x - b.x);
	const rows: PositionedText[][] = [];
	for (const piece of sorted) {
		const row = rows[rows.length - 1];
		const tolerance = Math.max(1, piece.fontSize * 0.35);
		if (row && Math.abs(row[0].y - piece.y) <= tolerance) row.push(piece);
		else rows.push([piece]);
	}
	return rows.map((row) => row.sort((a, b) => a.x - b.x));
}

function renderRow(row: PositionedText[], originX: number): string {
	let line = '';
	let previousEnd: number | undefined;
	for (const piece of row) {
		const text = piece.text.replace(/\s+$/u, '');
		if (previousEnd !== undefined) {
			const gap = piece.x - previousEnd;
			if (gap > (piece.em ?? piece.fontSize) * CELL_GAP_RATIO) {
				const column = Math.round((piece.x - originX) / POINTS_PER_COLUMN);
				line += ' '.repeat(Math.max(2, column - line.length));
			} else if (gap > piece.fontSize * 0.1 || piece.word) {
				// Words of one phrase drawn separately: one space, no column alignment.
				line += ' ';
			}
		} else {
			line = ' '.repeat(Math.round((piece.x - originX) / POINTS_PER_COLUMN));
		}
		line += text;
		previousEnd = piece.x + piece.width;
	}
	return line.replace(/\s+$/u, '');
}

/** One page's pieces as lines of text; blank lines mark large vertical gaps. */
export function layoutLines(pieces: PositionedText[]): string[] {
	const visible = pieces.filter((piece) => piece.text.trim() !== '');
	const rows = groupByBaseline(visible);
	// The page's left margin carries no meaning; columns count from the leftmost text.
	const originX = Math.min(...visible.map((piece) => piece.x));
	const lines: string[] = [];
	rows.forEach((row, index) => {
		const previous = rows[index - 1];
		if (previous) {
			const lineHeight = Math.max(previous[0].fontSize, row[0].fontSize) * 1.2;
			if (previous[0].y - row[0].y > lineHeight * BLANK_LINE_RATIO) lines.push('');
		}
		lines.push(renderRow(row, originX));
	});
	return lines;
}
