import { Lexer } from './lexer';
import { PdfName, PdfRef, type PdfDict, type PdfValue, type TextRange, type WorkMeter } from './values';

/**
 * The PDF object syntax (ISO 32000 7.2-7.3) as far as the preflight needs it: numbers, names,
 * strings, arrays, dictionaries and references. The parser is iterative (no recursion, so no
 * nesting can overflow the stack), reads each character once, and charges every character it
 * reads to a WorkMeter, so a hostile file costs at most the meter's limit.
 */

/** Arrays and dictionaries nested deeper than this are not read (real files nest a few levels). */
const MAX_NESTING = 32;

/**
 * The first complete value in `range`, or undefined when there is none (damaged, cut off, or
 * nested deeper than MAX_NESTING). Reading stops at that value: the rest of the range is not read.
 */
export function parseFirstValue(range: TextRange, meter: WorkMeter): PdfValue | undefined {
	return parseValue(range, meter)?.value;
}

/** The first complete value in `range` and where it ends, or undefined (as parseFirstValue). */
export function parseValue(range: TextRange, meter: WorkMeter): { value: PdfValue; end: number } | undefined {
	const lexer = new Lexer(range, meter);
	const stack: PdfValue[][] = [];
	const kinds: Array<'array' | 'dict'> = [];
	for (;;) {
		const token = lexer.next();
		if (token === undefined) return undefined;
		let value: PdfValue | undefined;
		switch (token.kind) {
			case 'open':
				if (stack.length >= MAX_NESTING) return undefined;
				stack.push([]);
				kinds.push(token.container);
				continue;
			case 'close': {
				if (kinds.pop() !== token.container) return undefined;
				const items = stack.pop() as PdfValue[];
				value = token.container === 'array' ? items : toDict(items);
				break;
			}
			case 'keyword':
				if (token.word === 'R') {
					// `12 0 R`: the two integers before it become a reference.
					const container = stack[stack.length - 1];
					if (!container) return undefined;
					const generation = container.pop();
					const id = container.pop();
					if (!isIndex(id) || !isIndex(generation)) return undefined;
					value = new PdfRef(id, generation);
				} else if (token.word === 'true' || token.word === 'false') {
					value = token.word === 'true';
				} else if (token.word === 'null') {
					value = null;
				} else if (stack.length === 0) {
					// `stream`, `endobj` or junk before any value: nothing to read here.
					return undefined;
				} else {
					continue;
				}
				break;
			default:
				value = token.value;
		}
		if (stack.length === 0) return { value, end: lexer.offset };
		stack[stack.length - 1].push(value);
	}
}

function isIndex(value: PdfValue | undefined): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function toDict(items: PdfValue[]): PdfDict {
	const dict: PdfDict = new Map();
	for (let i = 0; i + 1 < items.length; i += 2) {
		const key = items[i];
		if (key instanceof PdfName) dict.set(key.name, items[i + 1]);
	}
	return dict;
}
