import { isWhitespace, Lexer } from './lexer';
import { streamDataStart } from './objectScan';
import { parseValue } from './syntax';
import type { PdfText } from './text';
import { dictionaryValue, isDict, type PdfValue, type WorkMeter } from './values';

/** Reading one indirect object where an index says it is (7.3.10), rather than by scanning. */

/**
 * How far before an object's header the offset may point: readers tokenize from the offset, so
 * blanks and comments before the header are passed over (some writers point at a comment line).
 */
const HEADER_WINDOW = 1024;
/** `stream` follows its dictionary after an end of line, give or take a writer's extra blanks. */
const MAX_BLANKS_BEFORE_STREAM = 48;
/** Blanks between a stream's data and `endstream` (the end of line, give or take a writer's extra). */
const MAX_BLANKS_BEFORE_ENDSTREAM = 4;

export interface ObjectAt {
	id: number;
	generation: number;
	value: PdfValue;
	/** Where the value ends: a stream's `stream` keyword follows. */
	end: number;
}

/** The first token at `offset` (blanks and comments passed over), and where it ends. */
export function tokenAt(text: PdfText, offset: number, meter: WorkMeter): { token: ReturnType<Lexer['next']>; end: number } {
	const lexer = new Lexer({ text, start: offset, end: Math.min(text.length, offset + HEADER_WINDOW) }, meter);
	return { token: lexer.next(), end: lexer.offset };
}

/** The object whose `id gen obj` header is at `offset`, or undefined when no header is there. */
export function readObjectAt(text: PdfText, offset: number, meter: WorkMeter): ObjectAt | undefined {
	const lexer = new Lexer({ text, start: offset, end: Math.min(text.length, offset + HEADER_WINDOW) }, meter);
	const [id, generation, keyword] = [lexer.next(), lexer.next(), lexer.next()];
	if (!isIndex(id) || !isIndex(generation) || keyword?.kind !== 'keyword' || keyword.word !== 'obj') return undefined;
	const parsed = parseValue({ text, start: lexer.offset, end: text.length }, meter);
	if (!parsed) return undefined;
	return { id: id.value, generation: generation.value, value: parsed.value, end: parsed.end };
}

function isIndex(token: ReturnType<Lexer['next']>): token is { kind: 'value'; value: number } {
	return token?.kind === 'value' && typeof token.value === 'number' && Number.isInteger(token.value) && token.value >= 0;
}

/**
 * The data of a stream object read with readObjectAt: from after the `stream` line to `/Length`
 * bytes on when `endstream` is there (`length` is the resolved /Length), else to `endstream`.
 */
export function streamDataAt(text: PdfText, object: ObjectAt, length: number | undefined, meter: WorkMeter): Uint8Array | undefined {
	if (!isDict(object.value)) return undefined;
	let keyword = object.end;
	while (keyword - object.end < MAX_BLANKS_BEFORE_STREAM && isWhitespace(text.charCodeAt(keyword))) keyword++;
	if (!text.startsWith('stream', keyword)) return undefined;
	const start = streamDataStart(text, keyword);
	if (start === undefined) return undefined;
	return text.bytes(start, streamDataEnd(text, start, length ?? dictionaryValue.integer(object.value, 'Length'), meter));
}

/** A stream's data end: `length` on when `endstream` follows there, else up to `endstream` (charged). */
export function streamDataEnd(text: PdfText, dataStart: number, length: number | undefined, meter: WorkMeter): number {
	if (length !== undefined && length >= 0 && dataStart + length <= text.length) {
		let after = dataStart + length;
		for (let blanks = 0; blanks < MAX_BLANKS_BEFORE_ENDSTREAM && isWhitespace(text.charCodeAt(after)); blanks++) after++;
		if (text.startsWith('endstream', after)) return dataStart + length;
	}
	const keyword = text.indexOf('endstream', dataStart);
	meter.charge((keyword === -1 ? text.length : keyword) - dataStart);
	if (keyword === -1) return text.length;
	let end = keyword;
	if (text.charAt(end - 1) === '\n') end--;
	if (text.charAt(end - 1) === '\r') end--;
	return Math.max(dataStart, end);
}
