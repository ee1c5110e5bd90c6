import { opensWithoutPassword } from './encryption';
import {
	PdfName,
	PdfRef,
	PdfString,
	WorkMeter,
	dictionaryValue,
	isDict,
	isRegular,
	isWhitespace,
	parseFirstValue,
	type PdfDict,
	type PdfValue,
	type TextRange,
} from './syntax';
import { MAX_FILE_BYTES } from '../../limits';

/**
 * Reads the little the preflight needs from a PDF (page count, encryption, a complete ending)
 * without a PDF library: community nodes may not ship runtime dependencies. Only the object
 * structure is read; page contents are never parsed.
 *
 * Anyone who can send a file to a workflow can hand this code a hostile PDF, and it runs on n8n's
 * event loop. So every step reads each byte a bounded number of times (one forward scan; ranges
 * that do not overlap; every object parsed at most once) and all work is counted against one
 * limit: a file that needs more gives "page count unknown" and the service decides.
 *
 * PDF 1.5+ files (pdf-lib's default output, most scanners) keep the page tree inside compressed
 * object streams, so those streams are inflated with the global `DecompressionStream`.
 */

export type PdfEncryption = 'none' | 'opens-without-password' | 'needs-password';

export interface PdfStructure {
	/** `%%EOF` appears near the end, as in every complete PDF. */
	hasEndMarker: boolean;
	/** Indirect objects found, including those inside object streams. */
	objectCount: number;
	/** Pages in the document, or null when the page tree could not be read with certainty. */
	pages: number | null;
	/** null when the work limit was reached before the trailer could be read. */
	encryption: PdfEncryption | null;
	/** False when the work limit was reached: the other members are then what was known by then. */
	complete: boolean;
	/** Work spent, in units of about one byte read; tests check it stays linear and bounded. */
	work: number;
}

/** PDF readers look for `%%EOF` within the last 1,024 bytes; some writers append a little after it. */
const END_MARKER_WINDOW = 1024;
/**
 * Ceiling on the bytes inflated from object streams. A real page tree is a few kilobytes; the
 * ceiling keeps a crafted "zip bomb" from exhausting memory inside n8n.
 */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;
/**
 * All the work one file may cost: a few passes over the largest file the service takes, plus the
 * inflated object streams. The scan of a file of the maximum size needs well under half of it.
 */
export const MAX_PDF_WORK = 8 * MAX_FILE_BYTES + MAX_INFLATED_BYTES;

export async function readPdfStructure(bytes: Uint8Array, workLimit = MAX_PDF_WORK): Promise<PdfStructure> {
	const meter = new WorkMeter(workLimit);
	// latin1 maps each byte to one character, so string offsets are byte offsets.
	const text = new TextDecoder('latin1').decode(bytes);
	const hasEndMarker = text.slice(-END_MARKER_WINDOW).includes('%%EOF');
	const file = new PdfFile(text, meter);
	try {
		file.scan();
		await file.expandObjectStreams();
		return { hasEndMarker, objectCount: file.objectCount, pages: file.countPages(), encryption: file.encryption(), complete: true, work: meter.spent };
	} catch {
		// The work limit (OutOfWork), or a file this reader cannot follow: the service decides.
		return { hasEndMarker, objectCount: file.objectCount, pages: null, encryption: null, complete: false, work: meter.spent };
	}
}

/** Where an indirect object's body is, and its parsed value once read. */
interface ObjectSlot {
	range: TextRange;
	value?: PdfValue;
	parsed: boolean;
}

interface ObjectStream {
	dictionary: PdfDict;
	data: Uint8Array;
	/** Objects defined after this stream in the file replace those inside it (incremental updates). */
	order: number;
}

/** A trailer dictionary (`trailer << ... >>`) or a cross-reference stream's dictionary, in file order. */
type TrailerSource = { kind: 'trailer'; range: TextRange } | { kind: 'xrefStream'; slot: ObjectSlot };

/** Headers look like `12 0 obj`: a few digits and blanks; longer runs are not headers. */
const MAX_HEADER_BLANKS = 32;
const MAX_OBJECT_NUMBER_DIGITS = 10;
const MAX_GENERATION_DIGITS = 5;

class PdfFile {
	private readonly objects = new Map<number, { slot: ObjectSlot; order: number }>();
	private readonly objectStreams: ObjectStream[] = [];
	private readonly trailers: TrailerSource[] = [];
	private order = 0;

	constructor(
		private readonly text: string,
		private readonly meter: WorkMeter,
	) {}

	get objectCount(): number {
		return this.objects.size;
	}

	/**
	 * One forward pass. The next `obj`, `stream` and `trailer` are each found with indexOf from
	 * where the last one was, and stream data is jumped over, so every byte is passed a bounded
	 * number of times. An object without `endobj` ends where the next object begins.
	 */
	scan(): void {
		const { text } = this;
		const finders = { obj: new KeywordFinder(text, 'obj', this.meter), stream: new KeywordFinder(text, 'stream', this.meter), trailer: new KeywordFinder(text, 'trailer', this.meter) };
		let open: { id: number; bodyStart: number; stream?: ObjectSlot } | undefined;
		let trailerStart: number | undefined;
		const closeObject = (end: number) => {
			if (!open) return;
			// A stream object's value is its dictionary, already read when its data was skipped.
			this.define(open.id, open.stream ?? { range: { text, start: open.bodyStart, end }, parsed: false });
			open = undefined;
		};
		const closeTrailer = (end: number) => {
			if (trailerStart === undefined) return;
			this.trailers.push({ kind: 'trailer', range: { text, start: trailerStart, end } });
			trailerStart = undefined;
		};

		for (;;) {
			const obj = finders.obj.peek();
			const stream = finders.stream.peek();
			const trailer = finders.trailer.peek();
			const next = Math.min(obj, stream, trailer);
			if (next === Infinity) break;

			if (next === trailer) {
				finders.trailer.consume();
				closeObject(next);
				closeTrailer(next);
				if (!isRegular(text.charCodeAt(next - 1))) trailerStart = next + 'trailer'.length;
				continue;
			}
			if (next === obj) {
				finders.obj.consume();
				if (text.startsWith('end', next - 3)) {
					closeObject(next - 3);
					continue;
				}
				const header = readObjectHeader(text, next);
				if (!header) continue;
				closeObject(header.start);
				closeTrailer(header.start);
				open = { id: header.id, bodyStart: next + 3 };
				continue;
			}
			// `stream`: its data is skipped, never searched for keywords.
			finders.stream.consume();
			if (text.startsWith('end', next - 3) || !followsDictionary(text, next)) continue;
			const dataStart = streamDataStart(text, next);
			if (dataStart === undefined) continue;
			const dictionaryRange = { text, start: open ? open.bodyStart : next, end: next };
			const dictionary = open ? parseFirstValue(dictionaryRange, this.meter) : undefined;
			const dataEnd = this.streamDataEnd(dictionary, dataStart);
			if (open && isDict(dictionary)) {
				open.stream = { range: dictionaryRange, value: dictionary, parsed: true };
				if (dictionaryValue.name(dictionary, 'Type') === 'XRef') this.trailers.push({ kind: 'xrefStream', slot: open.stream });
				if (dictionaryValue.name(dictionary, 'Type') === 'ObjStm' && isFlateOnly(dictionary)) {
					this.objectStreams.push({ dictionary, data: latin1Bytes(text, dataStart, dataEnd), order: this.order++ });
				}
			}
			for (const finder of Object.values(finders)) finder.skipTo(dataEnd);
		}
		closeObject(text.length);
		closeTrailer(text.length);
	}

	private define(id: number, slot: ObjectSlot): void {
		this.objects.set(id, { slot, order: this.order++ });
	}

	/** The stream's data end: the direct `/Length` when `endstream` follows it, else up to `endstream`. */
	private streamDataEnd(dictionary: PdfValue | undefined, dataStart: number): number {
		const { text } = this;
		const length = isDict(dictionary) ? dictionaryValue.integer(dictionary, 'Length') : undefined;
		if (length !== undefined && length >= 0 && dataStart + length <= text.length) {
			let after = dataStart + length;
			for (let blanks = 0; blanks < 4 && isWhitespace(text.charCodeAt(after)); blanks++) after++;
			if (text.startsWith('endstream', after)) return dataStart + length;
		}
		const keyword = text.indexOf('endstream', dataStart);
		this.meter.charge((keyword === -1 ? text.length : keyword) - dataStart);
		if (keyword === -1) return text.length;
		let end = keyword;
		if (text[end - 1] === '\n') end--;
		if (text[end - 1] === '\r') end--;
		return Math.max(dataStart, end);
	}

	/** Inflates the object streams one after the other, each charged to the meter, and lays out their objects. */
	async expandObjectStreams(): Promise<void> {
		let inflatedBudget = MAX_INFLATED_BYTES;
		for (const stream of this.objectStreams) {
			const data = await inflate(stream.data, this.meter, inflatedBudget);
			if (!data) continue;
			inflatedBudget -= data.length;
			for (const [id, range] of this.objectStreamMembers(stream.dictionary, new TextDecoder('latin1').decode(data))) {
				const existing = this.objects.get(id);
				// An object written after the stream (an update) wins over the copy inside it.
				if (!existing || existing.order < stream.order) this.objects.set(id, { slot: { range, parsed: false }, order: stream.order });
			}
		}
	}

	/** PDF 1.5 object streams: `/N` pairs of "object-number offset", then the objects from `/First`. */
	private objectStreamMembers(dictionary: PdfDict, text: string): Array<[number, TextRange]> {
		const count = dictionaryValue.integer(dictionary, 'N');
		const first = dictionaryValue.integer(dictionary, 'First');
		if (count === undefined || first === undefined || count < 0 || first < 0 || first > text.length) return [];
		this.meter.charge(first);
		const header = text.slice(0, first).trim().split(/\s+/).map(Number);
		const pairs = Math.min(count, Math.floor(header.length / 2));
		const members: Array<[number, TextRange]> = [];
		for (let i = 0; i < pairs; i++) {
			const id = header[2 * i];
			const offset = header[2 * i + 1];
			if (!Number.isInteger(id) || !Number.isInteger(offset) || first + offset > text.length) break;
			const next = i + 1 < pairs ? header[2 * i + 3] : undefined;
			const end = Number.isInteger(next) && first + (next as number) >= first + offset ? first + (next as number) : text.length;
			members.push([id, { text, start: first + offset, end: Math.min(end, text.length) }]);
		}
		return members;
	}

	private resolve(value: PdfValue | undefined): PdfValue | undefined {
		if (!(value instanceof PdfRef)) return value;
		const entry = this.objects.get(value.id);
		if (!entry) return undefined;
		const { slot } = entry;
		if (!slot.parsed) {
			slot.parsed = true;
			slot.value = parseFirstValue(slot.range, this.meter);
		}
		return slot.value;
	}

	/** Trailer dictionaries, newest (last in the file) first; each parsed once. */
	private *trailerDictionaries(): Generator<PdfDict> {
		for (let i = this.trailers.length - 1; i >= 0; i--) {
			const source = this.trailers[i];
			const value = source.kind === 'trailer' ? parseFirstValue(source.range, this.meter) : source.slot.value;
			if (isDict(value)) yield value;
		}
	}

	encryption(): PdfEncryption {
		for (const trailer of this.trailerDictionaries()) {
			if (!trailer.has('Encrypt')) continue;
			const encrypt = this.resolve(trailer.get('Encrypt'));
			const ids = trailer.get('ID');
			const firstId = Array.isArray(ids) && ids[0] !== undefined ? this.resolve(ids[0]) : undefined;
			const fileId = firstId instanceof PdfString ? firstId.bytes : undefined;
			return isDict(encrypt) && opensWithoutPassword(encrypt, fileId) ? 'opens-without-password' : 'needs-password';
		}
		return 'none';
	}

	/**
	 * The page count when the file states it consistently: the leaves of the page tree reached from
	 * the newest trailer's /Root, agreeing with the root's /Count. A cycle, a missing branch or a
	 * count that disagrees with the leaves means the service decides (null). Without any trailer
	 * /Root, a catalog found anywhere, or failing that the page objects, tell the count.
	 */
	countPages(): number | null {
		let catalog: PdfValue | undefined;
		for (const trailer of this.trailerDictionaries()) {
			if (!trailer.has('Root')) continue;
			catalog = this.resolve(trailer.get('Root'));
			if (!isDict(catalog)) return null;
			break;
		}
		catalog ??= this.lastObjectOfType('Catalog', '/Catalog');
		if (isDict(catalog)) return this.countPageTree(catalog.get('Pages'));
		const pageObjects = this.objectsOfType('Page', '/Page').length;
		return pageObjects > 0 ? pageObjects : null;
	}

	private countPageTree(rootReference: PdfValue | undefined): number | null {
		if (!(rootReference instanceof PdfRef)) return null;
		const root = this.resolve(rootReference);
		if (!isDict(root)) return null;
		const visited = new Set<number>([rootReference.id]);
		const pending: PdfDict[] = [root];
		let leaves = 0;
		for (let node = pending.pop(); node; node = pending.pop()) {
			this.meter.charge(1);
			const kids = node.get('Kids');
			const type = dictionaryValue.name(node, 'Type') ?? (kids === undefined ? 'Page' : 'Pages');
			if (type === 'Page') {
				leaves++;
				continue;
			}
			if (type !== 'Pages' || !Array.isArray(kids)) return null;
			for (const kid of kids) {
				// A node reached twice is a cycle or a shared branch: the tree cannot be trusted.
				if (!(kid instanceof PdfRef) || visited.has(kid.id)) return null;
				visited.add(kid.id);
				const child = this.resolve(kid);
				if (!isDict(child)) return null;
				pending.push(child);
			}
		}
		const count = dictionaryValue.integer(root, 'Count');
		return count === undefined || count === leaves ? leaves : null;
	}

	private lastObjectOfType(type: string, marker: string): PdfDict | undefined {
		return this.objectsOfType(type, marker).at(-1);
	}

	/** Objects of a /Type, in file order; `marker` is looked for first so that other objects are never parsed. */
	private objectsOfType(type: string, marker: string): PdfDict[] {
		const found: Array<{ dict: PdfDict; order: number }> = [];
		for (const [id, { slot, order }] of this.objects) {
			const { text, start, end } = slot.range;
			// Bounded to the object's own range: ranges do not overlap, so this reads each byte once.
			const at = text.slice(start, end).indexOf(marker);
			this.meter.charge(end - start);
			if (at === -1) continue;
			const value = this.resolve(new PdfRef(id, 0));
			if (isDict(value) && dictionaryValue.name(value, 'Type') === type) found.push({ dict: value, order });
		}
		return found.sort((a, b) => a.order - b.order).map(({ dict }) => dict);
	}
}

/**
 * indexOf for one keyword, resumed from where it last stopped: over the whole scan each byte is
 * passed at most once per keyword (and charged to the meter).
 */
class KeywordFinder {
	private from = 0;
	private found: number | undefined;

	constructor(
		private readonly text: string,
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
function readObjectHeader(text: string, objAt: number): { id: number; start: number } | undefined {
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
function followsDictionary(text: string, keywordAt: number): boolean {
	let position = keywordAt;
	while (position > 0 && keywordAt - position < MAX_HEADER_BLANKS && isWhitespace(text.charCodeAt(position - 1))) position--;
	return text.startsWith('>>', position - 2);
}

/** Where the data of a `stream` keyword starts: after its end of line (7.3.8.1). */
function streamDataStart(text: string, keywordAt: number): number | undefined {
	const after = keywordAt + 'stream'.length;
	if (text[after] === '\r' && text[after + 1] === '\n') return after + 2;
	if (text[after] === '\n' || text[after] === '\r') return after + 1;
	return undefined;
}

function isFlateOnly(dictionary: PdfDict): boolean {
	const filter = dictionary.get('Filter');
	const only = Array.isArray(filter) && filter.length === 1 ? filter[0] : filter;
	return only instanceof PdfName && only.name === 'FlateDecode' && !dictionary.has('DecodeParms');
}

function latin1Bytes(text: string, start: number, end: number): Uint8Array {
	const bytes = new Uint8Array(end - start);
	for (let i = 0; i < bytes.length; i++) bytes[i] = text.charCodeAt(start + i);
	return bytes;
}

async function inflate(data: Uint8Array, meter: WorkMeter, budget: number): Promise<Uint8Array | null> {
	const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			size += value.byteLength;
			if (size > budget || meter.spent + value.byteLength > meter.limit) {
				await reader.cancel();
				break;
			}
			chunks.push(value);
		}
	} catch {
		// A damaged stream only means this route to the page count is closed.
		return null;
	}
	// Charged outside the stream's error handling, so that running out of work ends the whole reading.
	meter.charge(size);
	if (size > budget) return null;
	const joined = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		joined.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return joined;
}
