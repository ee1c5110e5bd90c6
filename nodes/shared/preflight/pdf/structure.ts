import { MAX_FILE_BYTES } from '../../limits';
import { readEncryption, type PdfEncryption } from './encryption';
import { readThroughIndex } from './indexedObjects';
import { isRegular } from './lexer';
import { streamDataEnd } from './objectAt';
import { followsDictionary, KeywordFinder, readObjectHeader, streamDataStart } from './objectScan';
import { countPages } from './pages';
import { decodeStream, isDecodable, MAX_INFLATED_BYTES, objectStreamMembers } from './streams';
import { parseFirstValue } from './syntax';
import { PdfText } from './text';
import { dictionaryValue, isDict, PdfRef, WorkMeter, type PdfDict, type PdfValue, type TextRange } from './values';

export type { PdfEncryption } from './encryption';

/**
 * Reads the little the preflight needs from a PDF (page count, encryption, a complete ending)
 * without a PDF library: community nodes may not ship runtime dependencies. Only the object
 * structure is read; page contents are never parsed.
 *
 * Anyone who can send a file to a workflow can hand this code a hostile PDF, and it runs on n8n's
 * event loop. So every step reads each byte a bounded number of times (one forward scan; ranges
 * that do not overlap; every object parsed at most once), all work is counted against one limit,
 * and the clock against another: a file that needs more gives "page count unknown" and the
 * service decides.
 *
 * The file's own index is read first (indexedObjects.ts: `startxref`, the cross-reference
 * sections, the linearization dictionary): it leads to the few objects needed, and a 4 MB file of
 * 85,000 objects is judged in milliseconds. Only when the index is missing or does not add up is
 * the whole file scanned (PdfFile below), as qpdf reconstructs a damaged file.
 *
 * PDF 1.5+ files (pdf-lib's default output, most scanners) keep the page tree inside compressed
 * object streams, so those streams are inflated with the global `DecompressionStream`.
 */

export interface PdfStructure {
	/** `%%EOF` appears near the end, as in every complete PDF. */
	hasEndMarker: boolean;
	/** Indirect objects found, including those inside object streams (read through the index: the entries it lists in use). */
	objectCount: number;
	/** Pages in the document, or null when the page tree could not be read with certainty. */
	pages: number | null;
	/** null when the work limit was reached before the trailer could be read. */
	encryption: PdfEncryption | null;
	/** False when the work limit was reached: the other members are then what was known by then. */
	complete: boolean;
	/** Work spent, in units of about one byte read; tests check it stays linear and bounded. */
	work: number;
	/** How the file was read: through its own index, or by scanning it (no usable index). */
	route: 'index' | 'scan';
}

/** PDF readers look for `%%EOF` within the last 1,024 bytes; some writers append a little after it. */
const END_MARKER_WINDOW = 1024;
/**
 * All the work one file may cost: a few passes over the largest file the service takes, plus the
 * inflated object streams. The scan of a file of the maximum size needs well under half of it.
 */
export const MAX_PDF_WORK = 8 * MAX_FILE_BYTES + MAX_INFLATED_BYTES;

/**
 * The work limit for a file of `fileBytes` bytes: MAX_PDF_WORK, or as many passes over a larger
 * file (a PDF read to be split, up to MAX_PDF_BYTES_TO_SPLIT). Linear in the file; the time limit
 * does not grow.
 */
export function pdfWorkFor(fileBytes: number): number {
	return 8 * Math.max(fileBytes, MAX_FILE_BYTES) + MAX_INFLATED_BYTES;
}

/**
 * The time one file may take, however its structure is made: n8n's event loop is held that long
 * at most (the reading is synchronous but for inflating), and a file that needs longer is
 * "page count unknown" and the service decides. Real files take under 1 ms (median of the corpus);
 * the slowest to scan, a 4 MB file of 85,000 objects (about 0.4 s), is read through its index.
 */
export const PDF_TIME_LIMIT_MS = 70;

/**
 * The time a PDF to be split may take: its pages must be counted, or it is refused (a PDF whose
 * pages are unknown cannot be split), and 70 ms can go in one pause of the process alone (measured:
 * 102 ms before the first look at the clock, a 6 MB PDF read after 9 MB photos in one run). A file
 * read through its index takes milliseconds; one that must be scanned is refused by the split
 * anyway (its index unusable). The split that follows has 5 s of its own (split.ts).
 */
export const PDF_TIME_LIMIT_TO_SPLIT_MS = 1000;

/** `clock` (milliseconds) is for tests: the time limit is measured with it. */
export async function readPdfStructure(bytes: Uint8Array, limits: { work?: number; timeMs?: number; clock?: () => number } = {}): Promise<PdfStructure> {
	const meter = new WorkMeter(limits.work ?? MAX_PDF_WORK, limits.timeMs ?? PDF_TIME_LIMIT_MS, limits.clock);
	const text = new PdfText(bytes);
	const hasEndMarker = text.indexOfWithin('%%EOF', text.length - END_MARKER_WINDOW, text.length) !== -1;
	let file: PdfFile | undefined;
	try {
		const indexed = await readThroughIndex(text, meter);
		if (indexed) return { hasEndMarker, ...indexed, complete: true, work: meter.spent, route: 'index' };
		file = new PdfFile(text, meter);
		file.scan();
		await file.expandObjectStreams();
		const [pages, encryption] = [await countPages(file), await readEncryption(file)];
		return { hasEndMarker, objectCount: file.objectCount, pages, encryption, complete: true, work: meter.spent, route: 'scan' };
	} catch {
		// The work or time limit (OutOfWork), or a file this reader cannot follow: the service decides.
		return { hasEndMarker, objectCount: file?.objectCount ?? 0, pages: null, encryption: null, complete: false, work: meter.spent, route: file ? 'scan' : 'index' };
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

class PdfFile {
	private readonly objects = new Map<number, { slot: ObjectSlot; order: number }>();
	private readonly objectStreams: ObjectStream[] = [];
	private readonly trailers: TrailerSource[] = [];
	private order = 0;

	constructor(
		private readonly text: PdfText,
		readonly meter: WorkMeter,
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
			// One stream per object: a second `stream` in the same object is not a reason to parse its dictionary again.
			const dictionary = open && !open.stream ? parseFirstValue(dictionaryRange, this.meter) : undefined;
			const dataEnd = streamDataEnd(text, dataStart, isDict(dictionary) ? dictionaryValue.integer(dictionary, 'Length') : undefined, this.meter);
			if (open && isDict(dictionary)) {
				open.stream = { range: dictionaryRange, value: dictionary, parsed: true };
				if (dictionaryValue.name(dictionary, 'Type') === 'XRef') this.trailers.push({ kind: 'xrefStream', slot: open.stream });
				if (dictionaryValue.name(dictionary, 'Type') === 'ObjStm' && isDecodable(dictionary)) {
					this.objectStreams.push({ dictionary, data: text.bytes(dataStart, dataEnd), order: this.order++ });
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

	/** Inflates the object streams one after the other, each charged to the meter, and lays out their objects. */
	async expandObjectStreams(): Promise<void> {
		let inflatedBudget = MAX_INFLATED_BYTES;
		for (const stream of this.objectStreams) {
			const data = await decodeStream(stream.dictionary, stream.data, this.meter, inflatedBudget);
			if (!data) continue;
			inflatedBudget -= data.length;
			for (const member of objectStreamMembers(stream.dictionary, data, this.meter)) {
				if (!member) continue;
				const { id, range } = member;
				const existing = this.objects.get(id);
				// An object written after the stream (an update) wins over the copy inside it.
				if (!existing || existing.order < stream.order) this.objects.set(id, { slot: { range, parsed: false }, order: stream.order });
			}
		}
	}

	resolve(value: PdfValue | undefined): PdfValue | undefined {
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
	*trailerDictionaries(): Generator<PdfDict> {
		for (let i = this.trailers.length - 1; i >= 0; i--) {
			const source = this.trailers[i];
			const value = source.kind === 'trailer' ? parseFirstValue(source.range, this.meter) : source.slot.value;
			if (isDict(value)) yield value;
		}
	}

	/** Objects of a /Type, in file order; `marker` is looked for first so that other objects are never parsed. */
	objectsOfType(type: string, marker: string): PdfDict[] {
		const found: Array<{ dict: PdfDict; order: number }> = [];
		for (const [id, { slot, order }] of this.objects) {
			const { text, start, end } = slot.range;
			// Bounded to the object's own range: ranges do not overlap, so this reads each byte once.
			const at = text.indexOfWithin(marker, start, end);
			this.meter.charge(end - start);
			if (at === -1) continue;
			const value = this.resolve(new PdfRef(id, 0));
			if (isDict(value) && dictionaryValue.name(value, 'Type') === type) found.push({ dict: value, order });
		}
		return found.sort((a, b) => a.order - b.order).map(({ dict }) => dict);
	}
}
