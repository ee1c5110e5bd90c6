import { readEncryption, type PdfEncryption } from './encryption';
import { Lexer } from './lexer';
import { readObjectAt, streamDataAt } from './objectAt';
import { countPages, statedPageCount, type PdfObjects } from './pages';
import { decodeStream, MAX_INFLATED_BYTES, objectStreamMembers } from './streams';
import { parseFirstValue } from './syntax';
import type { PdfText } from './text';
import { dictionaryValue, isDict, PdfRef, WorkShare, type PdfDict, type PdfValue, type TextRange, type WorkMeter } from './values';
import { IndexUnusable, PdfIndex } from './xref';

/**
 * The page count and encryption read through the file's own index (xref.ts): only the objects on
 * the way are read (trailer, catalog, page tree, /Encrypt), so a 4 MB file of 85,000 objects costs
 * what its page tree costs. A linearized file states its page count at its start (/N, Annex F),
 * and that is taken when its /L still matches the file's length (an update appended since would
 * not) and the page tree's root states the same /Count; else the page tree's leaves are counted.
 * Whatever does not add up gives undefined: the caller then scans the whole file.
 */

export interface IndexedReading {
	pages: number | null;
	encryption: PdfEncryption;
	/** Entries in use the index lists. */
	objectCount: number;
}

/**
 * The work the index may cost before the file is scanned instead: twice its length (well-formed
 * sections and objects do not overlap, so reading them costs less than one pass) and a megabyte
 * for the inflated streams of a small file. Spent this way, a crafted index that makes the same
 * bytes be read again and again ends in a scan, and the whole stays linear in the file's size.
 */
const indexWork = (length: number) => 2 * length + 1024 * 1024;

/** The linearization dictionary is the first object, wholly within the first 1,024 bytes (F.3.3). */
const LINEARIZATION_WINDOW = 1024;

/** The reading through the index, or undefined when the index is unusable; running out of work or time (OutOfWork) ends everything. */
export async function readThroughIndex(text: PdfText, meter: WorkMeter): Promise<IndexedReading | undefined> {
	return await readIndexed(text, meter).catch((error: unknown) => {
		if (error instanceof IndexUnusable) return undefined;
		throw error;
	});
}

async function readIndexed(text: PdfText, meter: WorkMeter): Promise<IndexedReading> {
	const share = new WorkShare(meter, indexWork(text.length), () => new IndexUnusable('it costs more than reading the file'));
	const index = await PdfIndex.read(text, share);
	const file = new IndexedObjects(text, share, index);
	if (!index.trailers.some((trailer) => trailer.has('Root'))) throw new IndexUnusable('no trailer names the catalog');
	const encryption = await readEncryption(file);
	file.encrypted = encryption !== 'none';
	// /N is taken when the page tree's root states the same count: one number alone could be a lie, two that agree are the file's word.
	const linearized = linearizedPageCount(text, share, index.inUse);
	const pages = linearized !== undefined && linearized === (await statedPageCount(file)) ? linearized : await countPages(file);
	return { pages, encryption, objectCount: index.inUse };
}

/** /N of a linearization dictionary whose /L is the file's length, and no more pages than the index has objects. */
function linearizedPageCount(text: PdfText, meter: WorkMeter, objects: number): number | undefined {
	// The lexer skips the header and the binary-marker line (comments), and reads nothing past the window.
	const window = { text, start: 0, end: Math.min(text.length, LINEARIZATION_WINDOW) };
	const lexer = new Lexer(window, meter);
	const header = [lexer.next(), lexer.next(), lexer.next()];
	if (!header.every((token, i) => (i < 2 ? token?.kind === 'value' && typeof token.value === 'number' : token?.kind === 'keyword' && token.word === 'obj'))) return undefined;
	const dictionary = parseFirstValue({ ...window, start: lexer.offset }, meter);
	if (!isDict(dictionary) || !dictionary.has('Linearized')) return undefined;
	const pages = dictionaryValue.integer(dictionary, 'N');
	return dictionaryValue.integer(dictionary, 'L') === text.length && pages !== undefined && pages >= 0 && pages <= objects ? pages : undefined;
}

/** A decoded object stream: its members, each parsed when first asked for; undefined when it is encrypted. */
type ObjectStream = Array<{ id: number; range: TextRange } | undefined> | undefined;

/** The file's objects where its index says they are; an object that is not there makes the index unusable. */
class IndexedObjects implements PdfObjects {
	private readonly values = new Map<number, PdfValue | undefined>();
	private readonly streams = new Map<number, Promise<ObjectStream>>();
	/** An encrypted file's streams are encrypted: this reader does not decrypt them, and a scan could not either. */
	encrypted = false;

	constructor(
		private readonly text: PdfText,
		readonly meter: WorkMeter,
		private readonly index: PdfIndex,
	) {}

	*trailerDictionaries(): Generator<PdfDict> {
		yield* this.index.trailers;
	}

	objectsOfType(): PdfDict[] {
		// Only asked for when no trailer names the catalog, which readThroughIndex has excluded.
		throw new IndexUnusable('no catalog');
	}

	resolve(value: PdfValue | undefined): PdfValue | undefined | Promise<PdfValue | undefined> {
		if (!(value instanceof PdfRef)) return value;
		const { id } = value;
		if (this.values.has(id)) return this.values.get(id);
		const entry = this.index.lookup(id);
		if (!entry) throw new IndexUnusable(`object ${id} is not in the index`);
		if (entry.kind === 'free') return this.remember(id, null);
		if (entry.kind === 'offset') return this.remember(id, this.objectAt(id, entry.offset).value);
		return this.member(entry.stream, entry.index, id);
	}

	private remember(id: number, value: PdfValue | undefined): PdfValue | undefined {
		this.values.set(id, value);
		return value;
	}

	private objectAt(id: number, offset: number) {
		const object = readObjectAt(this.text, offset, this.meter);
		if (!object || object.id !== id) throw new IndexUnusable(`object ${id} is not at ${offset}`);
		return object;
	}

	private async member(streamId: number, index: number, id: number): Promise<PdfValue | undefined> {
		let stream = this.streams.get(streamId);
		if (!stream) {
			stream = this.objectStream(streamId);
			this.streams.set(streamId, stream);
		}
		const members = await stream;
		if (!members) return this.remember(id, undefined);
		const member = members[index];
		if (member?.id !== id) throw new IndexUnusable(`object ${id} is not member ${index} of object stream ${streamId}`);
		// Asked for twice while its stream inflated: parsed once.
		if (this.values.has(id)) return this.values.get(id);
		return this.remember(id, parseFirstValue(member.range, this.meter));
	}

	private async objectStream(streamId: number): Promise<ObjectStream> {
		const entry = this.index.lookup(streamId);
		if (entry?.kind !== 'offset') throw new IndexUnusable(`object stream ${streamId} is not at an offset`);
		const object = this.objectAt(streamId, entry.offset);
		const dictionary = object.value;
		if (!isDict(dictionary) || dictionaryValue.name(dictionary, 'Type') !== 'ObjStm') throw new IndexUnusable(`object ${streamId} is not an object stream`);
		// An object stream's /Length may be a reference, to an object outside any object stream (7.5.7):
		// only such a one is followed (one inside this very stream would wait for itself).
		const lengthRef = dictionary.get('Length');
		const length = lengthRef instanceof PdfRef && this.index.lookup(lengthRef.id)?.kind === 'offset' ? this.resolve(lengthRef) : undefined;
		const raw = streamDataAt(this.text, object, typeof length === 'number' ? length : undefined, this.meter);
		const data = raw && (await decodeStream(dictionary, raw, this.meter, MAX_INFLATED_BYTES));
		if (!data && raw && this.encrypted) return undefined;
		if (!data) throw new IndexUnusable(`object stream ${streamId} cannot be decoded`);
		return objectStreamMembers(dictionary, data, this.meter);
	}
}
