/**
 * Huffman tables (DHT) and the bit reader of entropy-coded data. Codes of up to 9 bits are decoded
 * with one table look-up; for AC tables a second look-up also gives the run and the coefficient
 * when code and value fit in those 9 bits together (most coefficients of a photo do).
 */
import { JpegError } from './error';
import { isRestart, type Segment } from './markers';

const FAST_BITS = 9;
const FAST_SIZE = 1 << FAST_BITS;

export interface HuffmanTable {
	/** by the next 9 bits: (code length << 8) | symbol, or 0 for a longer code */
	lookup: Uint16Array;
	/** AC tables only, by the next 9 bits: (value << 8) | (run << 4) | bits used, or 0 */
	fastAc: Int16Array | undefined;
	/** by code length 1-16: the largest code of that length, -1 when none (17: a sentinel) */
	maxCode: Int32Array;
	/** by code length: index of a code's symbol in `values` is code + valueOffset */
	valueOffset: Int32Array;
	values: Uint8Array;
}

/** The coefficient a value of `size` bits stands for (JPEG's EXTEND). */
export const extend = (bits: number, size: number): number => (bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits);

/**
 * Builds a table from its 16 code counts and its symbols; refuses code lengths that overflow the
 * code space (libjpeg's rule, which also forbids the all-ones code).
 */
export function buildHuffmanTable(counts: Uint8Array, values: Uint8Array, isAc: boolean): HuffmanTable {
	const lookup = new Uint16Array(FAST_SIZE);
	const maxCode = new Int32Array(18).fill(-1);
	const valueOffset = new Int32Array(17);
	let code = 0;
	let k = 0;
	for (let length = 1; length <= 16; length++) {
		valueOffset[length] = k - code;
		for (let i = 0; i < counts[length - 1]; i++, k++, code++) {
			if (!isAc && values[k] > 15) throw new JpegError(`corrupt JPEG: bad Huffman table (DC symbol ${values[k]})`);
			if (length <= FAST_BITS) {
				const shift = FAST_BITS - length;
				lookup.fill((length << 8) | values[k], code << shift, (code + 1) << shift);
			}
		}
		if (code >= 1 << length) throw new JpegError('corrupt JPEG: bad Huffman table (its code lengths overflow the code space)');
		if (counts[length - 1] > 0) maxCode[length] = code - 1;
		code <<= 1;
	}
	maxCode[17] = 0x7fffffff;
	return { lookup, fastAc: isAc ? buildFastAc(lookup) : undefined, maxCode, valueOffset, values };
}

function buildFastAc(lookup: Uint16Array): Int16Array {
	const fast = new Int16Array(FAST_SIZE);
	for (let peek = 0; peek < FAST_SIZE; peek++) {
		const entry = lookup[peek];
		if (entry === 0) continue;
		const length = entry >> 8;
		const run = (entry >> 4) & 15;
		const size = entry & 15;
		if (size === 0 || length + size > FAST_BITS) continue;
		const value = extend((peek >> (FAST_BITS - length - size)) & ((1 << size) - 1), size);
		if (value >= -128 && value <= 127) fast[peek] = value * 256 + (run << 4) + length + size;
	}
	return fast;
}

/** Reads every table of a DHT segment into `dc` and `ac` (indexed by table id 0-3). */
export function readHuffmanTables(bytes: Uint8Array, segment: Segment, dc: Array<HuffmanTable | undefined>, ac: Array<HuffmanTable | undefined>): void {
	let at = segment.bodyStart;
	while (at < segment.bodyEnd) {
		if (at + 17 > segment.bodyEnd) throw new JpegError('corrupt JPEG: DHT segment too short');
		const kind = bytes[at] >> 4;
		const id = bytes[at] & 15;
		if (kind > 1 || id > 3) throw new JpegError(`corrupt JPEG: Huffman table class ${kind} id ${id}`);
		const counts = bytes.subarray(at + 1, at + 17);
		const total = counts.reduce((sum, n) => sum + n, 0);
		if (total > 256 || at + 17 + total > segment.bodyEnd) throw new JpegError('corrupt JPEG: bad Huffman table (too many symbols)');
		const table = buildHuffmanTable(counts, bytes.slice(at + 17, at + 17 + total), kind === 1);
		(kind === 1 ? ac : dc)[id] = table;
		at += 17 + total;
	}
}

/**
 * Bits of one scan's entropy-coded data, most significant first, with 0xFF00 unstuffed. At a
 * marker or the end of the data it feeds zero bits (as libjpeg does) and counts them, so the
 * caller can tell a scan that ran out of data (`exhausted`) from one that ended cleanly.
 */
export class BitReader {
	/** up to 32 bits; the low `count` bits are unread */
	buffer = 0;
	count = 0;
	private padded = 0;

	constructor(
		private readonly data: Uint8Array,
		public pos: number,
	) {}

	fill(): void {
		const data = this.data;
		while (this.count <= 24) {
			let byte = 0;
			if (this.padded === 0 && this.pos < data.length) {
				byte = data[this.pos];
				if (byte !== 0xff) this.pos++;
				else if (data[this.pos + 1] === 0) this.pos += 2;
				else byte = -1; // a marker (or the end): stop before it
			} else byte = -1;
			if (byte < 0) {
				this.padded += 8;
				byte = 0;
			}
			this.buffer = (this.buffer << 8) | byte;
			this.count += 8;
		}
	}

	/** True when the decoder has used bits that were not in the data (it ran into a marker or the end). */
	exhausted(): boolean {
		return this.padded > this.count;
	}

	decode(table: HuffmanTable): number {
		if (this.count < 16) this.fill();
		const entry = table.lookup[(this.buffer >>> (this.count - FAST_BITS)) & (FAST_SIZE - 1)];
		if (entry !== 0) {
			this.count -= entry >> 8;
			return entry & 0xff;
		}
		const peek = (this.buffer >>> (this.count - 16)) & 0xffff;
		for (let length = FAST_BITS + 1; length <= 16; length++) {
			const code = peek >>> (16 - length);
			if (code <= table.maxCode[length]) {
				this.count -= length;
				return table.values[(code + table.valueOffset[length]) & 0xff];
			}
		}
		throw new JpegError('corrupt JPEG: bad Huffman code');
	}

	bits(size: number): number {
		if (this.count < size) this.fill();
		this.count -= size;
		return (this.buffer >>> this.count) & ((1 << size) - 1);
	}

	bit(): number {
		if (this.count < 1) this.fill();
		this.count--;
		return (this.buffer >>> this.count) & 1;
	}

	/** A coefficient of `size` bits (RECEIVE and EXTEND); 0 for size 0. */
	receive(size: number): number {
		return size === 0 ? 0 : extend(this.bits(size), size);
	}

	skip(size: number): void {
		if (this.count < size) this.fill();
		this.count -= size;
	}

	/** At a restart boundary: drops the rest of the byte and passes the RSTn marker. */
	restart(): void {
		if (this.exhausted()) throw new JpegError('JPEG truncated or corrupt: the scan data ends early');
		this.buffer = 0;
		this.count = 0;
		this.padded = 0;
		const data = this.data;
		// Bytes before the marker are junk (libjpeg skips them too); the walk ends at the data's end.
		let at = this.pos;
		while (at + 1 < data.length && !(data[at] === 0xff && data[at + 1] !== 0 && data[at + 1] !== 0xff)) at++;
		if (at + 1 >= data.length || !isRestart(data[at + 1])) throw new JpegError('JPEG truncated or corrupt: a restart marker is missing');
		this.pos = at + 2;
	}
}
