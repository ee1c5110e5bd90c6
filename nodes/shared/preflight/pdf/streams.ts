import { isWhitespace } from './lexer';
import { PdfText } from './text';
import { dictionaryValue, isDict, PdfName, type PdfDict, type PdfValue, type TextRange, type WorkMeter } from './values';

/**
 * Stream data (object streams, cross-reference streams: PDF 1.5+): only FlateDecode is inflated,
 * with the global DecompressionStream, and only the PNG predictors cross-reference streams use
 * are undone (ISO 32000 7.4.4.4).
 */

/**
 * Ceiling on the bytes inflated for one file. A real page tree is a few kilobytes; the ceiling
 * keeps a crafted "zip bomb" from exhausting memory inside n8n.
 */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

// Node loads its web streams and zlib on their first use: 3 to 25 ms, measured on a busy 2-core
// machine, that would count against the first PDF's time limit. Loaded with this module instead.
new DecompressionStream('deflate');
new Blob([]).stream();

/** FlateDecode alone, with no predictor or only a PNG one: what decodeStream can undo. */
export function isDecodable(dictionary: PdfDict): boolean {
	const filter = dictionary.get('Filter');
	const only = Array.isArray(filter) && filter.length === 1 ? filter[0] : filter;
	if (!(only instanceof PdfName) || only.name !== 'FlateDecode') return false;
	return predictorOf(dictionary.get('DecodeParms')) !== undefined;
}

/** The stream's data decoded, or null when it cannot be (another filter, damaged, over `budget`). */
export async function decodeStream(dictionary: PdfDict, data: Uint8Array, meter: WorkMeter, budget: number): Promise<Uint8Array | null> {
	if (!isDecodable(dictionary)) return null;
	const inflated = await inflate(data, meter, budget);
	const predictor = predictorOf(dictionary.get('DecodeParms'));
	if (!inflated || !predictor) return inflated;
	meter.charge(inflated.length);
	return undoPngPredictor(inflated, predictor);
}

export async function inflate(data: Uint8Array, meter: WorkMeter, budget: number): Promise<Uint8Array | null> {
	meter.lookAtClock();
	const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	let done = false;
	try {
		for (;;) {
			let chunk: Awaited<ReturnType<typeof reader.read>>;
			try {
				chunk = await meter.offTheClock(reader.read());
			} catch {
				// A damaged stream only means this route to the page count is closed.
				return null;
			}
			if (chunk.done) {
				done = true;
				break;
			}
			size += chunk.value.byteLength;
			if (size > budget) return null;
			// Charged chunk by chunk, so that the meter's clock is looked at while a large stream inflates.
			meter.charge(chunk.value.byteLength);
			chunks.push(chunk.value);
		}
	} finally {
		// Stopped early (over the budget or the meter's limit): the rest is not inflated.
		if (!done) await reader.cancel().catch(() => undefined);
	}
	const joined = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		joined.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return joined;
}

interface PngPredictor {
	/** Bytes of one row, without its leading filter-type byte. */
	rowBytes: number;
	/** Bytes of one pixel (at least 1): how far back "left" is. */
	pixelBytes: number;
}

/** undefined: a predictor this reader does not undo; null: none (the data is used as inflated). */
function predictorOf(given: PdfValue | undefined): PngPredictor | null | undefined {
	// Like /Filter, /DecodeParms may be an array with one entry per filter.
	const parameters = Array.isArray(given) && given.length === 1 ? given[0] : given;
	if (parameters === undefined || parameters === null) return null;
	if (!isDict(parameters)) return undefined;
	const predictor = dictionaryValue.integer(parameters, 'Predictor') ?? 1;
	if (predictor === 1) return null;
	if (predictor < 10 || predictor > 15) return undefined;
	const colors = dictionaryValue.integer(parameters, 'Colors') ?? 1;
	const bits = dictionaryValue.integer(parameters, 'BitsPerComponent') ?? 8;
	const columns = dictionaryValue.integer(parameters, 'Columns') ?? 1;
	if (colors < 1 || colors > 32 || ![1, 2, 4, 8, 16].includes(bits) || columns < 1 || columns > 4096) return undefined;
	return { rowBytes: Math.ceil((colors * bits * columns) / 8), pixelBytes: Math.max(1, Math.ceil((colors * bits) / 8)) };
}

/** PNG filters, row by row (each row starts with its filter type); null when a row is damaged. */
function undoPngPredictor(data: Uint8Array, { rowBytes, pixelBytes }: PngPredictor): Uint8Array | null {
	const rows = Math.floor(data.length / (rowBytes + 1));
	// One row of zeros above the first: every row then has a row above it.
	const out = new Uint8Array((rows + 1) * rowBytes);
	for (let row = 0; row < rows; row++) {
		const type = data[row * (rowBytes + 1)];
		const input = row * (rowBytes + 1) + 1;
		const at = (row + 1) * rowBytes;
		for (let i = 0; i < rowBytes; i++) {
			const raw = data[input + i];
			const left = i >= pixelBytes ? out[at + i - pixelBytes] : 0;
			const up = out[at + i - rowBytes];
			if (type === 0) out[at + i] = raw;
			else if (type === 1) out[at + i] = raw + left;
			else if (type === 2) out[at + i] = raw + up;
			else if (type === 3) out[at + i] = raw + ((left + up) >> 1);
			else if (type === 4) out[at + i] = raw + paeth(left, up, i >= pixelBytes ? out[at + i - rowBytes - pixelBytes] : 0);
			else return null;
		}
	}
	return out.subarray(rowBytes);
}

function paeth(left: number, up: number, upLeft: number): number {
	const estimate = left + up - upLeft;
	const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
	if (toLeft <= toUp && toLeft <= toUpLeft) return left;
	return toUp <= toUpLeft ? up : upLeft;
}

/**
 * An object stream's members (7.5.7): `/N` pairs of "object-number offset", then the objects from
 * `/First`, in the order of the pairs (a cross-reference stream names a member by that order).
 * Each member ends where the next one by offset begins, so that no byte belongs to two members
 * however the offsets are ordered; a member sharing its offset with an earlier one, or outside the
 * data, is undefined.
 */
export function objectStreamMembers(dictionary: PdfDict, data: Uint8Array, meter: WorkMeter): Array<{ id: number; range: TextRange } | undefined> {
	const text = new PdfText(data);
	const count = dictionaryValue.integer(dictionary, 'N');
	const first = dictionaryValue.integer(dictionary, 'First');
	if (count === undefined || first === undefined || count < 0 || first < 0 || first > text.length) return [];
	const header = headerNumbers(text, first, 2 * count, meter);
	const pairs = Math.floor(header.length / 2);
	const starts: Array<number | undefined> = [];
	for (let i = 0; i < pairs; i++) starts.push(first + header[2 * i + 1] < text.length ? first + header[2 * i + 1] : undefined);
	const ordered = [...new Set(starts.filter((start) => start !== undefined))].sort((a, b) => a - b);
	meter.charge(ordered.length);
	const ends = new Map(ordered.map((start, i) => [start, ordered[i + 1] ?? text.length]));
	const taken = new Set<number>();
	return starts.map((start, i) => {
		if (start === undefined || taken.has(start)) return undefined;
		taken.add(start);
		return { id: header[2 * i], range: { text, start, end: ends.get(start) as number } };
	});
}

/** Up to `wanted` whole numbers before `end`, charged as they are read; the first thing that is not one ends them. */
function headerNumbers(text: PdfText, end: number, wanted: number, meter: WorkMeter): number[] {
	const numbers: number[] = [];
	let position = 0;
	while (numbers.length < wanted && position < end) {
		const start = position;
		while (position < end && isWhitespace(text.charCodeAt(position))) position++;
		let value = 0;
		const digitsFrom = position;
		for (let code = text.charCodeAt(position); position < end && code >= 48 && code <= 57; code = text.charCodeAt(++position)) value = value * 10 + code - 48;
		meter.charge(position - start + 1);
		// No digits, or more than an object number or offset has: the header ends here.
		if (position === digitsFrom || position - digitsFrom > 10) break;
		numbers.push(value);
	}
	return numbers;
}
