/**
 * The file a split reads (split.ts): its objects where its own index says they are, each read
 * once and charged to the reading's share of the work; and how a split refuses a file.
 */
import { formatMegabytes } from '../../limits';
import { isWhitespace, Lexer } from './lexer';
import { readObjectAt, streamDataAt, streamDataEnd, type ObjectAt } from './objectAt';
import { decodeStream, MAX_INFLATED_BYTES, objectStreamMembers } from './streams';
import { parseValue } from './syntax';
import { PdfText } from './text';
import { dictionaryValue, isDict, OutOfWork, PdfRef, WorkMeter, type PdfValue, type TextRange } from './values';
import { PdfIndex, type IndexEntry } from './xref';

export type SplitRefusal = 'encrypted' | 'damaged' | 'pages' | 'too-large' | 'too-complex';

/** Why a PDF cannot be split as asked; the message is for the user. */
export class PdfSplitError extends Error {
	constructor(
		readonly reason: SplitRefusal,
		message: string,
	) {
		super(message);
		this.name = 'PdfSplitError';
	}
}

/** Work per byte of an inflated object stream: parsing its members (the inflating is charged apart). */
export const READ_WORK_PER_INFLATED_BYTE = 2;

export function damaged(detail: string): PdfSplitError {
	return new PdfSplitError('damaged', `The PDF cannot be split: its structure is damaged or incomplete (${detail}). Opening it in a PDF program and saving it again usually repairs it.`);
}

/**
 * The reading's share of the meter: a few passes over the file, plus what inflating object
 * streams adds. Past it, the file makes the same bytes be read again and again (e.g. strings
 * that each run on to the end of the file), and is refused rather than read in quadratic time.
 */
export class ReadingShare extends WorkMeter {
	constructor(
		readonly whole: WorkMeter,
		private allowance: number,
	) {
		super(Infinity);
	}

	/** More room, for data the reading has just inflated. */
	grant(units: number): void {
		this.allowance += units;
	}

	override charge(units: number): void {
		this.whole.charge(units);
		this.spent += units;
		if (this.spent > this.allowance) throw new OutOfWork();
	}

	override lookAtClock(): void {
		this.whole.lookAtClock();
	}

	override offTheClock<T>(work: Promise<T>): Promise<T> {
		return this.whole.offTheClock(work);
	}
}

/** An indirect object of the file: its value, its text, and where it is when it may be a stream. */
export interface SourceObject {
	id: number;
	value: PdfValue;
	/** The value's text (for a member of an object stream, in the inflated stream). */
	body: TextRange;
	/** Objects at an offset in the file: a stream's data follows the value. */
	at?: ObjectAt;
}

type Members = ReturnType<typeof objectStreamMembers>;

/** The first token after an object's `obj` keyword is this close to the offset the index gives. */
export const HEADER_WINDOW = 1024;

/** The file's objects where its index says they are, each read once (promises, so an object stream is inflated once). */
export class SourceFile {
	private readonly objects = new Map<number, Promise<SourceObject | null>>();
	private readonly objectStreams = new Map<number, Promise<Members>>();
	private readonly data = new Map<number, Uint8Array | undefined>();
	private inflatedBudget = MAX_INFLATED_BYTES;

	constructor(
		private readonly text: PdfText,
		readonly meter: ReadingShare,
		private readonly index: PdfIndex,
	) {}

	/** The object, or null when the index lists it as free or not at all (a reference to it means null, 7.3.10). */
	object(id: number): Promise<SourceObject | null> {
		let object = this.objects.get(id);
		if (!object) {
			object = this.load(id, this.index.lookup(id));
			this.objects.set(id, object);
		}
		return object;
	}

	/** A stream's data as stored (filters untouched), or undefined when the object is no stream. */
	async streamData(object: SourceObject): Promise<Uint8Array | undefined> {
		if (!object.at || !isDict(object.value)) return undefined;
		if (this.data.has(object.id)) return this.data.get(object.id);
		// Reading a /Length object never needs stream data, so this cannot wait for itself.
		const lengthValue = object.value.get('Length');
		const length = lengthValue instanceof PdfRef ? (await this.object(lengthValue.id))?.value : lengthValue;
		const data = storedStreamData(this.text, object.at, typeof length === 'number' && Number.isInteger(length) ? length : undefined, this.meter);
		this.data.set(object.id, data);
		return data;
	}

	private async load(id: number, entry: IndexEntry | undefined): Promise<SourceObject | null> {
		if (!entry || entry.kind === 'free') return null;
		if (entry.kind === 'offset') {
			const at = readObjectAt(this.text, entry.offset, this.meter);
			if (!at || at.id !== id) throw damaged(`object ${id} is not where the cross-reference table puts it`);
			return { id, value: at.value, body: { text: this.text, start: this.bodyStart(entry.offset), end: at.end }, at };
		}
		const member = (await this.members(entry.stream))[entry.index];
		if (member?.id !== id) throw damaged(`object ${id} is not in object stream ${entry.stream} where the index puts it`);
		const parsed = parseValue(member.range, this.meter);
		if (!parsed) throw damaged(`object ${id} cannot be read`);
		return { id, value: parsed.value, body: { ...member.range, end: parsed.end }, at: undefined };
	}

	/** Just past `id gen obj`, which readObjectAt has found at `offset`. */
	private bodyStart(offset: number): number {
		const lexer = new Lexer({ text: this.text, start: offset, end: Math.min(this.text.length, offset + HEADER_WINDOW) }, this.meter);
		for (let i = 0; i < 3; i++) lexer.next();
		return lexer.offset;
	}

	private members(streamId: number): Promise<Members> {
		let members = this.objectStreams.get(streamId);
		if (!members) {
			members = this.readMembers(streamId);
			this.objectStreams.set(streamId, members);
		}
		return members;
	}

	private async readMembers(streamId: number): Promise<Members> {
		// An object stream is itself at an offset: one inside an object stream (itself, say) is refused.
		const entry = this.index.lookup(streamId);
		if (entry?.kind !== 'offset') throw damaged(`object stream ${streamId} is not at an offset in the file`);
		const stream = await this.object(streamId);
		const dictionary = stream?.value;
		if (!stream?.at || !isDict(dictionary) || dictionaryValue.name(dictionary, 'Type') !== 'ObjStm') throw damaged(`object ${streamId} is not an object stream`);
		// Its /Length is followed only to an object at an offset (7.5.7), never into an object stream.
		const lengthRef = dictionary.get('Length');
		const length = lengthRef instanceof PdfRef && this.index.lookup(lengthRef.id)?.kind === 'offset' ? (await this.object(lengthRef.id))?.value : undefined;
		const raw = storedStreamData(this.text, stream.at, typeof length === 'number' && Number.isInteger(length) ? length : undefined, this.meter);
		// Inflating is charged to the whole meter, bounded by the inflate budget: the reading's
		// share only pays for parsing what came out, and is granted that.
		const data = raw && (dictionary.has('Filter') ? await decodeStream(dictionary, raw, this.meter.whole, this.inflatedBudget) : raw);
		if (!data) throw damaged(`object stream ${streamId} cannot be decoded, or inflates to more than ${formatMegabytes(MAX_INFLATED_BYTES)} MB in all`);
		this.inflatedBudget -= data.length;
		this.meter.grant(READ_WORK_PER_INFLATED_BYTE * data.length);
		return objectStreamMembers(dictionary, data, this.meter);
	}
}

/** Blanks some writers put between `stream` and its end of line; and before `stream`, as objectAt.ts allows. */
const MAX_BLANKS_AFTER_STREAM = 16;
const MAX_BLANKS_BEFORE_STREAM = 48;

/**
 * A stream's data (streamDataAt), also when its writer put blanks between `stream` and the end of
 * line (`stream \r\n`: readers take it). A dictionary followed by `stream` whose data cannot be
 * found is refused: written as a mere dictionary, a page would silently lose its content.
 */
function storedStreamData(text: PdfText, at: ObjectAt, length: number | undefined, meter: WorkMeter): Uint8Array | undefined {
	const data = streamDataAt(text, at, length, meter);
	if (data || !isDict(at.value)) return data;
	let keyword = at.end;
	while (keyword - at.end < MAX_BLANKS_BEFORE_STREAM && isWhitespace(text.charCodeAt(keyword))) keyword++;
	if (!text.startsWith('stream', keyword)) return undefined;
	let start = keyword + 'stream'.length;
	while (start - keyword < MAX_BLANKS_AFTER_STREAM && (text.charAt(start) === ' ' || text.charAt(start) === '\t')) start++;
	if (text.charAt(start) === '\r') start++;
	if (text.charAt(start) === '\n') start++;
	else if (text.charAt(start - 1) !== '\r') throw damaged(`the data of stream object ${at.id} cannot be found`);
	return text.bytes(start, streamDataEnd(text, start, length ?? dictionaryValue.integer(at.value, 'Length'), meter));
}
