import { isWhitespace } from './lexer';
import { readObjectAt, streamDataAt, tokenAt } from './objectAt';
import { decodeStream, MAX_INFLATED_BYTES } from './streams';
import { parseFirstValue } from './syntax';
import type { PdfText } from './text';
import { dictionaryValue, isDict, type PdfDict, type WorkMeter } from './values';

/**
 * A PDF's own index of its objects (ISO 32000 7.5.4-7.5.8): `startxref` at the end names the
 * newest cross-reference section, a table (`xref`) or a stream (`/Type /XRef`), and each section's
 * trailer names the one before it (/Prev; a hybrid file's table also names a stream, /XRefStm).
 * The newest section that lists an object says where it is: the last incremental update wins.
 *
 * Entries are looked up when an object is asked for, never all read: the index of a file of
 * 85,000 objects costs what the few objects asked for cost. Anything that does not add up (no
 * `startxref`, a section that is not where it is said to be, a /Prev cycle, an entry that is not
 * an entry) throws IndexUnusable: the caller then reads the file by scanning it.
 */

export class IndexUnusable extends Error {
	constructor(why: string) {
		super(`PDF index: ${why}`);
		this.name = 'IndexUnusable';
	}
}

/** Where the index puts an object: at an offset, or the `index`-th member of object stream `stream`. */
export type IndexEntry = { kind: 'free' } | { kind: 'offset'; offset: number } | { kind: 'compressed'; stream: number; index: number };

interface Section {
	kind: 'table' | 'stream';
	/** The section's trailer (a table's `trailer` dictionary, a stream's own dictionary). */
	trailer: PdfDict;
	/** What this section says of object `id`; undefined when it does not list it. */
	lookup(id: number): IndexEntry | undefined;
	/** Entries in use this section lists. */
	inUse: number;
}

/** `startxref` is within the last 1,024 bytes, as `%%EOF` is (some writers append a little after it). */
const STARTXREF_WINDOW = 1024;
/** Sections read when following /Prev: far more incremental updates than any real file has. */
const MAX_SECTIONS = 4096;

export class PdfIndex {
	private constructor(
		/** Newest first; the trailers of a hybrid file's streams are not trailers of the file. */
		private readonly sections: Array<Section & { ownTrailer: boolean }>,
	) {}

	/** The file's trailers, newest first. */
	get trailers(): PdfDict[] {
		return this.sections.filter((section) => section.ownTrailer).map((section) => section.trailer);
	}

	/** Entries in use over all sections (an object an update rewrites counts once per section). */
	get inUse(): number {
		return this.sections.reduce((sum, section) => sum + section.inUse, 0);
	}

	/** Where object `id` is, by the newest section that lists it; undefined when none does. */
	lookup(id: number): IndexEntry | undefined {
		for (const section of this.sections) {
			const entry = section.lookup(id);
			if (entry) return entry;
		}
		return undefined;
	}

	/** Follows `startxref` and the /Prev chain; throws IndexUnusable when the index does not add up. */
	static async read(text: PdfText, meter: WorkMeter): Promise<PdfIndex> {
		const sections: Array<Section & { ownTrailer: boolean }> = [];
		const visited = new Set<number>();
		const readAt = async (offset: number, ownTrailer: boolean) => {
			if (visited.has(offset)) throw new IndexUnusable(`the section at ${offset} is reached twice (a /Prev cycle)`);
			if (visited.size >= MAX_SECTIONS) throw new IndexUnusable('too many sections');
			visited.add(offset);
			const section = await readSection(text, offset, meter);
			sections.push({ ...section, ownTrailer });
			return section.trailer;
		};
		let offset: number | undefined = startxref(text, meter);
		while (offset !== undefined) {
			const trailer = await readAt(offset, true);
			// A hybrid file's table lists the objects of PDF 1.4 readers; its stream, the compressed ones.
			const stream = sections.at(-1)?.kind === 'table' ? offsetEntry(trailer, 'XRefStm', text) : undefined;
			if (stream !== undefined) await readAt(stream, false);
			offset = offsetEntry(trailer, 'Prev', text);
		}
		return new PdfIndex(sections);
	}
}

function startxref(text: PdfText, meter: WorkMeter): number {
	meter.charge(STARTXREF_WINDOW);
	const at = text.lastIndexOfWithin('startxref', text.length - STARTXREF_WINDOW, text.length);
	if (at === -1) throw new IndexUnusable('no startxref');
	const offset = /^[\0\t\n\f\r ]*(\d{1,10})/.exec(text.slice(at + 'startxref'.length, at + 'startxref'.length + 32));
	if (!offset || Number(offset[1]) >= text.length) throw new IndexUnusable('startxref names no offset in the file');
	return Number(offset[1]);
}

function offsetEntry(trailer: PdfDict, key: string, text: PdfText): number | undefined {
	if (!trailer.has(key)) return undefined;
	const offset = dictionaryValue.integer(trailer, key);
	if (offset === undefined || offset < 0 || offset >= text.length) throw new IndexUnusable(`/${key} is not an offset in the file`);
	return offset;
}

async function readSection(text: PdfText, offset: number, meter: WorkMeter): Promise<Section> {
	const { token, end } = tokenAt(text, offset, meter);
	return token?.kind === 'keyword' && token.word === 'xref' ? readTable(text, end, meter) : await readStream(text, offset, meter);
}

/** A subsection of a table: `first count`, then `count` entries of `width` bytes from `start`. */
interface Subsection {
	first: number;
	count: number;
	start: number;
	width: number;
}

/** An entry: 10-digit offset, 5-digit generation, `n` or `f`, and an end of line of 1 or 2 bytes (7.5.4). */
const ENTRY = /^(\d{10}) (\d{5}) ([nf])[\0\t\n\f\r ]/;

function readTable(text: PdfText, from: number, meter: WorkMeter): Section {
	const subsections: Subsection[] = [];
	let position = from;
	let inUse = 0;
	const skipBlanks = () => {
		const start = position;
		while (isWhitespace(text.charCodeAt(position))) position++;
		meter.charge(position - start + 1);
	};
	for (;;) {
		skipBlanks();
		if (text.startsWith('trailer', position)) break;
		const header = /^(\d{1,10})[\t ]+(\d{1,10})[\0\t\n\f\r ]/.exec(text.slice(position, position + 32));
		if (!header) throw new IndexUnusable(`no subsection or trailer at ${position}`);
		const [first, count] = [Number(header[1]), Number(header[2])];
		position += header[0].length;
		skipBlanks();
		// Entries are 20 bytes; some writers end them with one byte, not two: the first one tells.
		const width = isWhitespace(text.charCodeAt(position + 19)) ? 20 : 19;
		if (count > 0 && !ENTRY.test(text.slice(position, position + width))) throw new IndexUnusable(`no entry at ${position}`);
		if (position + count * width > text.length) throw new IndexUnusable('a subsection runs past the end of the file');
		for (let i = 0; i < count; i++) if (text.charAt(position + i * width + 17) === 'n') inUse++;
		meter.charge(count);
		subsections.push({ first, count, start: position, width });
		position += count * width;
	}
	const trailer = parseFirstValue({ text, start: position + 'trailer'.length, end: text.length }, meter);
	if (!isDict(trailer)) throw new IndexUnusable(`no trailer dictionary at ${position}`);
	return {
		kind: 'table',
		trailer,
		inUse,
		lookup: (id) => {
			for (const { first, count, start, width } of subsections) {
				meter.charge(1);
				if (id < first || id >= first + count) continue;
				const at = start + (id - first) * width;
				meter.charge(width);
				const entry = ENTRY.exec(text.slice(at, at + width));
				if (!entry) throw new IndexUnusable(`entry ${id} at ${at} is not an entry`);
				// Object 0 is the head of the free list, whatever its entry says.
				return entry[3] === 'f' || id === 0 ? { kind: 'free' } : { kind: 'offset', offset: Number(entry[1]) };
			}
			return undefined;
		},
	};
}

/** Bytes of an entry's fields in a cross-reference stream (/W): a field of 0 bytes takes its default. */
const MAX_FIELD_BYTES = 6;

async function readStream(text: PdfText, offset: number, meter: WorkMeter): Promise<Section> {
	const object = readObjectAt(text, offset, meter);
	const dictionary = object?.value;
	if (!object || !isDict(dictionary) || dictionaryValue.name(dictionary, 'Type') !== 'XRef') throw new IndexUnusable(`no cross-reference stream at ${offset}`);
	const widths = dictionary.get('W');
	const size = dictionaryValue.integer(dictionary, 'Size');
	if (!Array.isArray(widths) || widths.length !== 3 || !widths.every((w) => Number.isInteger(w) && (w as number) >= 0 && (w as number) <= MAX_FIELD_BYTES) || size === undefined) {
		throw new IndexUnusable(`the cross-reference stream at ${offset} has no usable /W or /Size`);
	}
	const [typeBytes, fieldBytes, lastBytes] = widths as number[];
	const rowBytes = typeBytes + fieldBytes + lastBytes;
	const ranges = dictionary.has('Index') ? dictionary.get('Index') : [0, size];
	if (!Array.isArray(ranges) || ranges.length % 2 !== 0 || !ranges.every((n) => Number.isInteger(n) && (n as number) >= 0) || rowBytes === 0) {
		throw new IndexUnusable(`the cross-reference stream at ${offset} has no usable /Index`);
	}
	const raw = streamDataAt(text, object, undefined, meter);
	const data = raw && (dictionary.has('Filter') ? await decodeStream(dictionary, raw, meter, MAX_INFLATED_BYTES) : raw);
	if (!data) throw new IndexUnusable(`the cross-reference stream at ${offset} cannot be decoded`);
	const subsections: Array<{ first: number; count: number; row: number }> = [];
	let rows = 0;
	for (let i = 0; i < ranges.length; i += 2) {
		subsections.push({ first: ranges[i] as number, count: ranges[i + 1] as number, row: rows });
		rows += ranges[i + 1] as number;
	}
	if (rows * rowBytes > data.length) throw new IndexUnusable(`the cross-reference stream at ${offset} has fewer entries than its /Index`);
	meter.charge(subsections.length);
	const field = (at: number, bytes: number) => {
		let value = 0;
		for (let i = 0; i < bytes; i++) value = value * 256 + data[at + i];
		return value;
	};
	// The type field defaults to 1 (an object at an offset) when /W gives it no bytes.
	const typeOf = (row: number) => (typeBytes === 0 ? 1 : field(row * rowBytes, typeBytes));
	let inUse = 0;
	for (let row = 0; row < rows; row++) if (typeOf(row) !== 0) inUse++;
	meter.charge(rows);
	return {
		kind: 'stream',
		trailer: dictionary,
		inUse,
		lookup: (id) => {
			for (const { first, count, row } of subsections) {
				meter.charge(1);
				if (id < first || id >= first + count) continue;
				const at = (row + id - first) * rowBytes;
				const [type, second, third] = [typeOf(row + id - first), field(at + typeBytes, fieldBytes), field(at + typeBytes + fieldBytes, lastBytes)];
				if (type === 1 && id !== 0) return { kind: 'offset', offset: second };
				if (type === 2) return { kind: 'compressed', stream: second, index: third };
				// Free, or a type this reader does not know: a reference to it is a reference to null (7.5.8.3).
				return { kind: 'free' };
			}
			return undefined;
		},
	};
}
