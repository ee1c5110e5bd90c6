import { isWhitespace, Lexer } from './lexer';
import type { PdfText } from './text';
import { PdfName, type TextRange, type WorkMeter } from './values';

/**
 * Writing a PDF from another PDF's objects (ISO 32000 7.5): each object's text copied as it is in
 * the source, with only its references (`12 0 R`) renumbered, then a classic cross-reference table
 * and trailer. Values are never re-serialized from what the reader parsed: the reader shortens
 * long strings and names, and a number written back could take a form PDF does not have (1e-7).
 */

/** A token of the PDF syntax and where it is in its text. */
export interface PlacedToken {
	token: NonNullable<ReturnType<Lexer['next']>>;
	start: number;
	end: number;
}

/** Tokens of one text, written as they stand but for their references. */
export interface TokenRun {
	text: PdfText;
	tokens: PlacedToken[];
}

/** What an object is written from: generated text (ASCII), or a run of the source's tokens. */
export type Piece = string | TokenRun;

/** The tokens of `range`, each charged to the meter by the lexer. */
export function tokenize(range: TextRange, meter: WorkMeter): PlacedToken[] {
	const lexer = new Lexer(range, meter);
	const tokens: PlacedToken[] = [];
	for (;;) {
		const start = afterBlanks(range.text, lexer.offset, range.end);
		const token = lexer.next();
		if (!token) return tokens;
		tokens.push({ token, start, end: lexer.offset });
	}
}

/** Where the next token starts: past whitespace and comments, as the lexer passes them. */
function afterBlanks(text: PdfText, from: number, end: number): number {
	let position = from;
	while (position < end) {
		const code = text.charCodeAt(position);
		if (isWhitespace(code)) position++;
		else if (code === 0x25) while (position < end && text.charCodeAt(position) !== 0x0a && text.charCodeAt(position) !== 0x0d) position++;
		else break;
	}
	return position;
}

/** `12 0 R` at token `i`: the object number, or undefined. */
function referenceAt(tokens: PlacedToken[], i: number): number | undefined {
	const [id, generation, keyword] = [tokens[i]?.token, tokens[i + 1]?.token, tokens[i + 2]?.token];
	if (keyword?.kind !== 'keyword' || keyword.word !== 'R' || !isIndex(id) || !isIndex(generation)) return undefined;
	return id.value;
}

function isIndex(token: PlacedToken['token'] | undefined): token is { kind: 'value'; value: number } {
	return token?.kind === 'value' && typeof token.value === 'number' && Number.isInteger(token.value) && token.value >= 0;
}

/** The object numbers the pieces reference, in order (with repeats). */
export function referencesIn(pieces: Piece[]): number[] {
	const ids: number[] = [];
	for (const piece of pieces) {
		if (typeof piece === 'string') continue;
		for (let i = 0; i < piece.tokens.length; i++) {
			const id = referenceAt(piece.tokens, i);
			if (id === undefined) continue;
			ids.push(id);
			i += 2;
		}
	}
	return ids;
}

/** Index just past the value starting at token `i`: a whole array or dictionary, a reference, or one token. */
function valueEnd(tokens: PlacedToken[], i: number): number {
	const first = tokens[i].token;
	if (first.kind === 'open') {
		let depth = 0;
		for (let j = i; j < tokens.length; j++) {
			const { kind } = tokens[j].token;
			if (kind === 'open') depth++;
			else if (kind === 'close' && --depth === 0) return j + 1;
		}
		return tokens.length;
	}
	return referenceAt(tokens, i) === undefined ? i + 1 : i + 3;
}

export interface DictionaryEntry {
	/** The key's own token (its text is written as it stands). */
	key: TokenRun;
	value: TokenRun;
}

/**
 * The top-level entries of a dictionary's tokens, by key name (a repeated key: the last one, as
 * the reader takes it), or undefined when the tokens are not one dictionary.
 */
export function dictionaryEntries(text: PdfText, tokens: PlacedToken[]): Map<string, DictionaryEntry> | undefined {
	const open = tokens[0]?.token;
	if (open?.kind !== 'open' || open.container !== 'dict') return undefined;
	const entries = new Map<string, DictionaryEntry>();
	let i = skipJunk(tokens, 1);
	while (i < tokens.length) {
		const key = tokens[i].token;
		if (key.kind === 'close') return i === tokens.length - 1 ? entries : undefined;
		const valueStart = skipJunk(tokens, i + 1);
		if (valueStart >= tokens.length || tokens[valueStart].token.kind === 'close') return undefined;
		const next = valueEnd(tokens, valueStart);
		if (key.kind === 'value' && key.value instanceof PdfName) {
			entries.delete(key.value.name);
			entries.set(key.value.name, { key: { text, tokens: [tokens[i]] }, value: { text, tokens: tokens.slice(valueStart, next) } });
		}
		i = skipJunk(tokens, next);
	}
	return undefined;
}

/** Past keywords that are no value (the reader passes over them too, syntax.ts). */
function skipJunk(tokens: PlacedToken[], from: number): number {
	let i = from;
	while (i < tokens.length && tokens[i].token.kind === 'keyword' && !VALUE_KEYWORDS.has((tokens[i].token as { word: string }).word)) i++;
	return i;
}

const VALUE_KEYWORDS = new Set(['true', 'false', 'null', 'R']);

/** What writing costs: every byte written is reported to it. */
export interface WriteAccount {
	/** Called with every byte count written: refuses (throws) past the budget. */
	spend(bytes: number): void;
}

/** Old object number to new one; undefined: the reference is written as null (an object left out). */
export type Renumbering = (id: number) => number | undefined;

/** One output PDF, written object by object, then its cross-reference table and trailer. */
export class PartWriter {
	private readonly chunks: Uint8Array[] = [];
	private pending = '';
	private size = 0;
	private readonly offsets = new Map<number, number>();
	private lastId = 0;

	constructor(
		version: string,
		private readonly account: WriteAccount,
	) {
		this.ascii(`%PDF-${version}\n`);
		// Bytes over 127 on the second line tell transfer programs the file is binary (7.5.2).
		this.bytes(Uint8Array.of(0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a));
	}

	/** `id 0 obj` with the pieces, and the stream's data as it is stored when there is one. */
	object(id: number, pieces: Piece[], renumber: Renumbering, streamData?: Uint8Array): void {
		this.flush();
		this.offsets.set(id, this.size);
		this.lastId = Math.max(this.lastId, id);
		this.ascii(`${id} 0 obj\n`);
		for (const piece of pieces) {
			if (typeof piece === 'string') this.ascii(piece);
			else this.run(piece, renumber);
		}
		if (streamData) {
			this.ascii('\nstream\n');
			this.bytes(streamData);
			this.ascii('\nendstream');
		}
		this.ascii('\nendobj\n');
	}

	/** The table (one subsection from object 0), the trailer, and the file's bytes. */
	finish(trailer: string): Uint8Array {
		const xref = this.size;
		const size = this.lastId + 1;
		let table = `xref\n0 ${size}\n0000000000 65535 f \n`;
		for (let id = 1; id < size; id++) {
			const offset = this.offsets.get(id);
			// Each entry is exactly 20 bytes, its end of line included (7.5.4).
			table += offset === undefined ? '0000000000 00000 f \n' : `${String(offset).padStart(10, '0')} 00000 n \n`;
		}
		this.ascii(`${table}trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`);
		this.flush();
		const out = new Uint8Array(this.size);
		let at = 0;
		for (const chunk of this.chunks) {
			out.set(chunk, at);
			at += chunk.length;
		}
		return out;
	}

	/** The run's text from its first token to its last, each `n g R` replaced by its new number (or null). */
	private run({ text, tokens }: TokenRun, renumber: Renumbering): void {
		if (tokens.length === 0) return;
		let cursor = tokens[0].start;
		for (let i = 0; i < tokens.length; i++) {
			const id = referenceAt(tokens, i);
			if (id === undefined) continue;
			this.bytes(text.bytes(cursor, tokens[i].start));
			const renumbered = renumber(id);
			this.ascii(renumbered === undefined ? 'null' : `${renumbered} 0 R`);
			cursor = tokens[i + 2].end;
			i += 2;
		}
		this.bytes(text.bytes(cursor, tokens[tokens.length - 1].end));
	}

	/** Generated text is ASCII: one byte per character. */
	private ascii(text: string): void {
		this.account.spend(text.length);
		this.pending += text;
		this.size += text.length;
	}

	private bytes(bytes: Uint8Array): void {
		if (bytes.length === 0) return;
		this.account.spend(bytes.length);
		this.flush();
		this.chunks.push(bytes);
		this.size += bytes.length;
	}

	private flush(): void {
		if (this.pending === '') return;
		this.chunks.push(Buffer.from(this.pending, 'latin1'));
		this.pending = '';
	}
}
