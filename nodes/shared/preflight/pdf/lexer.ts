import type { PdfText } from './text';
import { PdfName, PdfString, type TextRange, type WorkMeter } from './values';

/**
 * The tokens of the PDF syntax (ISO 32000 7.2): each character is read once and charged to the
 * WorkMeter.
 */

type Token =
	| { kind: 'open' | 'close'; container: 'array' | 'dict' }
	| { kind: 'value'; value: number | PdfName | PdfString }
	| { kind: 'keyword'; word: string };

const enum Char {
	Nul = 0,
	Tab = 9,
	LineFeed = 10,
	FormFeed = 12,
	Return = 13,
	Space = 32,
	Percent = 37,
	OpenParen = 40,
	CloseParen = 41,
	Slash = 47,
	Less = 60,
	Greater = 62,
	OpenBracket = 91,
	Backslash = 92,
	CloseBracket = 93,
	OpenBrace = 123,
	CloseBrace = 125,
}

export function isWhitespace(code: number): boolean {
	return code === Char.Space || code === Char.LineFeed || code === Char.Return || code === Char.Tab || code === Char.FormFeed || code === Char.Nul;
}

function isDelimiter(code: number): boolean {
	return (
		code === Char.OpenParen ||
		code === Char.CloseParen ||
		code === Char.Less ||
		code === Char.Greater ||
		code === Char.OpenBracket ||
		code === Char.CloseBracket ||
		code === Char.OpenBrace ||
		code === Char.CloseBrace ||
		code === Char.Slash ||
		code === Char.Percent
	);
}

/** A character that belongs to a name, number or keyword (ISO 32000 7.2.2). */
export function isRegular(code: number): boolean {
	return !Number.isNaN(code) && !isWhitespace(code) && !isDelimiter(code);
}

/**
 * The bytes of a string kept: the reader uses strings only for the encryption check (/ID, /O,
 * /U: at most 127 bytes), and a hostile string of megabytes would be an array as long.
 */
const MAX_STRING_BYTES = 4096;

/** Characters of a string between two charges. */
const STRING_CHARGE_STEP = 4096;

export class Lexer {
	private position: number;
	/** What the current token has charged so far (long strings charge as they go). */
	private charged = 0;

	constructor(
		private readonly range: TextRange,
		private readonly meter: WorkMeter,
	) {
		this.position = range.start;
	}

	/** Where the next token is looked for: just after the last one read. */
	get offset(): number {
		return this.position;
	}

	next(): Token | undefined {
		const { text, end } = this.range;
		const start = this.skipBlanks();
		if (start >= end) return undefined;
		const code = text.charCodeAt(start);
		let token: Token | undefined;
		if (code === Char.Less && text.charCodeAt(start + 1) === Char.Less) {
			this.position = start + 2;
			token = { kind: 'open', container: 'dict' };
		} else if (code === Char.Greater && text.charCodeAt(start + 1) === Char.Greater) {
			this.position = start + 2;
			token = { kind: 'close', container: 'dict' };
		} else if (code === Char.OpenBracket || code === Char.CloseBracket) {
			this.position = start + 1;
			token = { kind: code === Char.OpenBracket ? 'open' : 'close', container: 'array' };
		} else if (code === Char.OpenParen) {
			token = this.literalString(start + 1);
		} else if (code === Char.Less) {
			token = this.hexString(start + 1);
		} else if (code === Char.Slash) {
			const word = this.word(start + 1);
			token = { kind: 'value', value: new PdfName(decodeName(word)) };
		} else if (isRegular(code)) {
			const word = this.word(start);
			const number = /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(word) ? Number(word) : NaN;
			token = Number.isNaN(number) ? { kind: 'keyword', word } : { kind: 'value', value: number };
		} else {
			// A stray `)`, `>`, `{` or `}`: skipped like whitespace.
			this.position = start + 1;
			token = { kind: 'keyword', word: text.charAt(start) };
		}
		this.meter.charge(Math.max(1, this.position - start) - this.charged);
		this.charged = 0;
		return token;
	}

	/** Charges a long string as it is read, so the meter's clock is looked at inside it too. */
	private chargeAlong(from: number, position: number): void {
		if (position - from - this.charged < STRING_CHARGE_STEP) return;
		this.meter.charge(position - from - this.charged);
		this.charged = position - from;
	}

	/** Skips whitespace and comments, charging what it passes. */
	private skipBlanks(): number {
		const { text, end } = this.range;
		let position = this.position;
		const from = position;
		while (position < end) {
			const code = text.charCodeAt(position);
			if (isWhitespace(code)) {
				position++;
			} else if (code === Char.Percent) {
				while (position < end && text.charCodeAt(position) !== Char.LineFeed && text.charCodeAt(position) !== Char.Return) position++;
			} else {
				break;
			}
		}
		this.meter.charge(position - from);
		this.position = position;
		return position;
	}

	private word(from: number): string {
		const { text, end } = this.range;
		let position = from;
		// Names and numbers are short; a longer run is junk and is cut (and charged) as one token.
		while (position < end && isRegular(text.charCodeAt(position))) position++;
		this.position = position;
		return text.slice(from, Math.min(position, from + 256));
	}

	/** `( ... )` with balanced parentheses and backslash escapes (7.3.4.2). */
	private literalString(from: number): Token | undefined {
		const { text, end } = this.range;
		const bytes: number[] = [];
		let depth = 1;
		let position = from;
		while (position < end) {
			this.chargeAlong(from - 1, position);
			const code = text.charCodeAt(position++);
			if (code === Char.Backslash) {
				position = readEscape(text, position, end, bytes);
				if (bytes.length > MAX_STRING_BYTES) bytes.length = MAX_STRING_BYTES;
				continue;
			}
			if (code === Char.OpenParen) depth++;
			if (code === Char.CloseParen && --depth === 0) {
				this.position = position;
				return { kind: 'value', value: new PdfString(Uint8Array.from(bytes)) };
			}
			if (bytes.length < MAX_STRING_BYTES) bytes.push(code);
		}
		this.position = end;
		return undefined;
	}

	/** `<48656C6C6F>`; whitespace ignored, an odd last digit counts as followed by 0 (7.3.4.3). */
	private hexString(from: number): Token | undefined {
		const { text, end } = this.range;
		let digits = '';
		let position = from;
		// Character by character, stopping at the first one that cannot be part of the string, so
		// that no character is read twice however many `<` the range holds.
		for (; position < end; position++) {
			this.chargeAlong(from - 1, position);
			const code = text.charCodeAt(position);
			if (code === Char.Greater) break;
			if (isWhitespace(code)) continue;
			if (!isHexDigit(code)) {
				this.position = position;
				return { kind: 'keyword', word: '<' };
			}
			digits += text.charAt(position);
		}
		if (position >= end) {
			this.position = end;
			return undefined;
		}
		this.position = position + 1;
		const padded = digits.length % 2 ? `${digits}0` : digits;
		const bytes = new Uint8Array(padded.length / 2);
		for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(padded.slice(2 * i, 2 * i + 2), 16);
		return { kind: 'value', value: new PdfString(bytes) };
	}
}

function isHexDigit(code: number): boolean {
	return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };

function readEscape(text: PdfText, position: number, end: number, bytes: number[]): number {
	if (position >= end) return position;
	const char = text.charAt(position);
	if (char in ESCAPES) {
		bytes.push(ESCAPES[char]);
		return position + 1;
	}
	if (char >= '0' && char <= '7') {
		let octal = '';
		while (octal.length < 3 && position < end && text.charAt(position) >= '0' && text.charAt(position) <= '7') octal += text.charAt(position++);
		bytes.push(parseInt(octal, 8) & 0xff);
		return position;
	}
	// A backslash before a line break continues the string on the next line.
	if (char === '\r') return text.charAt(position + 1) === '\n' ? position + 2 : position + 1;
	if (char === '\n') return position + 1;
	return position;
}

/** `#20` in a name stands for the byte 0x20 (7.3.5). */
function decodeName(raw: string): string {
	return raw.includes('#') ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw;
}
