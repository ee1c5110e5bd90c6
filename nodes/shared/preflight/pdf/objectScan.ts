import type { PdfText } from './text';
import type { WorkMeter } from './values';
import { isRegular, isWhitespace } from './lexer';

/** The pieces of the one forward scan (see PdfFile.scan): keywords, object headers, stream bounds. */

/** Headers look like `12 0 obj`: a few digits and blanks; longer runs are not headers. */
const MAX_HEADER_BLANKS = 32;
const MAX_OBJECT_NUMBER_DIGITS = 10;
const MAX_GENERATION_DIGITS = 5;

/**
 * indexOf for one keyword, resumed from where it last stopped: over the whole scan each byte is
 * passed at most once per keyword (and charged to the meter).
 */
export class KeywordFinder {
	private from = 0;
	private found: number | undefined;

	constructor(
		private readonly text: PdfText,
		private readonly keyword: string,
		private readonly meter: WorkMeter,
	) {}

	peek(): number {
		if (this.found === undefined) {
			const at = this.text.indexOf(this.keyword, this.from);
			this.meter.charge((at === -1 ? this.text.length : at + this.keyword.length) - this.from);
			this.found = at === -1 ? Infinity : at;
			this.from = at === -1 ? this.text.length : at + this.keyword.length;
		}
		return this.found;
	}

	consume(): void {
		this.found = undefined;
	}

	/** Forgets a match inside skipped stream data and searches on from its end. */
	skipTo(position: number): void {
		if (this.found !== undefined && this.found < position) this.found = undefined;
		if (this.from < position) this.from = position;
	}
}

/** `12 0 obj` ending at `objAt`, read backwards over a bounded number of characters. */
export function readObjectHeader(text: PdfText, objAt: number): { id: number; start: number } | undefined {
	if (isRegular(text.charCodeAt(objAt + 3))) return undefined;
	let position = objAt;
	const skipBlanks = () => {
		const from = position;
		while (position > 0 && from - position < MAX_HEADER_BLANKS && isWhitespace(text.charCodeAt(position - 1))) position--;
		return from - position;
	};
	const readDigits = (max: number) => {
		const end = position;
		while (position > 0 && end - position < max && isDigit(text.charCodeAt(position - 1))) position--;
		return text.slice(position, end);
	};
	if (skipBlanks() === 0) return undefined;
	if (readDigits(MAX_GENERATION_DIGITS) === '') return undefined;
	if (skipBlanks() === 0) return undefined;
	const id = readDigits(MAX_OBJECT_NUMBER_DIGITS);
	if (id === '' || (position > 0 && isRegular(text.charCodeAt(position - 1)))) return undefined;
	return { id: Number(id), start: position };
}

function isDigit(code: number): boolean {
	return code >= 48 && code <= 57;
}

/** A real `stream` keyword follows its dictionary's `>>` (the word also appears in comments and text). */
export function followsDictionary(text: PdfText, keywordAt: number): boolean {
	let position = keywordAt;
	while (position > 0 && keywordAt - position < MAX_HEADER_BLANKS && isWhitespace(text.charCodeAt(position - 1))) position--;
	return text.startsWith('>>', position - 2);
}

/** Where the data of a `stream` keyword starts: after its end of line (7.3.8.1). */
export function streamDataStart(text: PdfText, keywordAt: number): number | undefined {
	const after = keywordAt + 'stream'.length;
	if (text.charAt(after) === '\r' && text.charAt(after + 1) === '\n') return after + 2;
	if (text.charAt(after) === '\n' || text.charAt(after) === '\r') return after + 1;
	return undefined;
}
