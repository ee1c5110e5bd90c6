/**
 * zlib inflate (RFC 1950/1951) into one reused 64 KiB window, for pngDecode.ts: DecompressionStream
 * hands out a new 16 KiB buffer per chunk, and the ~120 MB a large scan inflates to then lingered,
 * garbage, until V8 collected (about 27 MB at the peak). Here nothing is allocated per chunk.
 */
import { runSteps, type Steps } from '../steps';
import { PngError } from './error';

const WINDOW = 1 << 15;
const BUFFER = 2 * WINDOW;
/** Flushed when fewer than this many bytes are free: the longest match. */
const MARGIN = 258;

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A canonical Huffman code as a table indexed by the next `bits` bits (LSB first): symbol << 4 | length, 0 where no code. */
interface Code {
	table: Int32Array;
	bits: number;
}

function buildCode(lengths: ArrayLike<number>): Code {
	let bits = 1;
	const counts = new Int32Array(16);
	for (let i = 0; i < lengths.length; i++) {
		counts[lengths[i]]++;
		if (lengths[i] > bits) bits = lengths[i];
	}
	counts[0] = 0;
	// Over-subscribed codes are damaged data; incomplete ones are allowed (a single distance code).
	let left = 1;
	for (let len = 1; len < 16; len++) if ((left = (left << 1) - counts[len]) < 0) throw new PngError('the image data is damaged (a bad Huffman code)');
	const next = new Int32Array(16);
	for (let len = 1, code = 0; len < 16; len++) next[len] = code = (code + counts[len - 1]) << 1;
	const table = new Int32Array(1 << bits);
	for (let symbol = 0; symbol < lengths.length; symbol++) {
		const len = lengths[symbol];
		if (len === 0) continue;
		let code = next[len]++;
		let reversed = 0;
		for (let i = 0; i < len; i++, code >>= 1) reversed = (reversed << 1) | (code & 1);
		for (let at = reversed; at < table.length; at += 1 << len) table[at] = (symbol << 4) | len;
	}
	return { table, bits };
}

let fixed: { lit: Code; dist: Code } | undefined;

function fixedCodes(): { lit: Code; dist: Code } {
	if (!fixed) {
		const lengths = new Uint8Array(288);
		lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
		fixed = { lit: buildCode(lengths), dist: buildCode(new Uint8Array(30).fill(5)) };
	}
	return fixed;
}

/**
 * Inflates the zlib stream split over `parts` (the IDAT bodies, not copied), handing the output on
 * in pieces that are valid only during the call. More than `budget` bytes is refused as a bomb as
 * soon as it is seen; a damaged or cut-short stream, or a wrong Adler-32, throws a PngError.
 */
export function inflateInto(parts: Uint8Array[], budget: number, take: (data: Uint8Array) => void): void {
	runSteps(inflateSteps(parts, budget, take));
}

/** `inflateInto` as steps (../steps.ts): a yield after each piece handed on (at most 64 KiB). */
export function* inflateSteps(parts: Uint8Array[], budget: number, take: (data: Uint8Array) => void): Steps<void> {
	let part = 0;
	let at = 0;
	let bitBuffer = 0;
	let bitCount = 0;
	/** Zero bytes read past the end: fine for a look-ahead, damage when consumed. */
	let over = 0;
	const nextByte = (): number => {
		while (part < parts.length && at >= parts[part].length) [part, at] = [part + 1, 0];
		if (part < parts.length) return parts[part][at++];
		if (++over > 4) throw new PngError('the image data is damaged or cut short');
		return 0;
	};
	const need = (n: number): void => {
		while (bitCount < n) {
			bitBuffer |= nextByte() << bitCount;
			bitCount += 8;
		}
	};
	const bits = (n: number): number => {
		need(n);
		const value = bitBuffer & ((1 << n) - 1);
		bitBuffer >>>= n;
		bitCount -= n;
		return value;
	};
	const decode = ({ table, bits: width }: Code): number => {
		need(width);
		const entry = table[bitBuffer & ((1 << width) - 1)];
		const len = entry & 15;
		if (len === 0) throw new PngError('the image data is damaged (an unused Huffman code)');
		bitBuffer >>>= len;
		bitCount -= len;
		return entry >> 4;
	};

	const out = new Uint8Array(BUFFER);
	let pos = 0;
	let flushed = 0;
	let total = 0;
	let a = 1;
	let b = 0;
	const flush = (): void => {
		const piece = out.subarray(flushed, pos);
		total += piece.length;
		if (total > budget) throw new PngError('the image data inflates to more than its header declares');
		for (let i = 0; i < piece.length; ) {
			// 5552 bytes keep the sums below 2^53 before the modulo (zlib's NMAX).
			const end = Math.min(piece.length, i + 5552);
			for (; i < end; i++) b += a += piece[i];
			a %= 65521;
			b %= 65521;
		}
		take(piece);
		flushed = pos;
		if (pos > BUFFER - WINDOW) {
			out.copyWithin(0, pos - WINDOW, pos);
			pos = flushed = WINDOW;
		}
	};

	const header = bits(16);
	const cmf = header & 0xff;
	const flg = header >> 8;
	if ((cmf & 15) !== 8 || (cmf >> 4) > 7 || ((cmf << 8) | flg) % 31 !== 0 || flg & 0x20) throw new PngError('the image data is damaged (not a zlib stream)');
	// The blocks are inflated by a plain function that stops whenever the buffer is to be flushed: V8
	// does not optimise a loop inside a generator while it runs (no on-stack replacement there), and
	// a PNG's stream is inflated by one call. Its state stays here between calls.
	let last = 0;
	/** Bytes left in the stored block being read; -1 in a Huffman-coded block; undefined between blocks. */
	let storedLeft: number | undefined;
	let codes: { lit: Code; dist: Code } | undefined;
	/** Inflates until the buffer is to be flushed (false) or the last block has ended (true). */
	const inflateSome = (): boolean => {
		for (;;) {
			if (storedLeft === undefined) {
				if (last) return true;
				last = bits(1);
				const type = bits(2);
				if (type === 0) {
					// A stored block starts on a byte boundary; the look-ahead may already hold its first bytes.
					bitBuffer >>>= bitCount & 7;
					bitCount -= bitCount & 7;
					const length = bits(16);
					if ((length ^ 0xffff) !== bits(16)) throw new PngError('the image data is damaged (a stored block)');
					storedLeft = length;
				} else if (type === 3) throw new PngError('the image data is damaged (a reserved block type)');
				else {
					codes = type === 1 ? fixedCodes() : dynamicCodes(bits, decode);
					storedLeft = -1;
				}
			}
			if (storedLeft >= 0) {
				while (storedLeft > 0) {
					out[pos++] = bits(8);
					storedLeft--;
					if (pos >= BUFFER - MARGIN) return false;
				}
			} else {
				const { lit, dist } = codes as { lit: Code; dist: Code };
				for (;;) {
					const symbol = decode(lit);
					if (symbol < 256) out[pos++] = symbol;
					else if (symbol === 256) break;
					else {
						if (symbol > 285) throw new PngError('the image data is damaged (a bad length)');
						const length = LENGTH_BASE[symbol - 257] + bits(LENGTH_EXTRA[symbol - 257]);
						const code = decode(dist);
						if (code > 29) throw new PngError('the image data is damaged (a bad distance)');
						const distance = DIST_BASE[code] + bits(DIST_EXTRA[code]);
						if (distance > pos || distance > total + pos - flushed) throw new PngError('the image data is damaged (a distance too far back)');
						for (let i = 0; i < length; i++, pos++) out[pos] = out[pos - distance];
					}
					if (pos >= BUFFER - MARGIN) return false;
				}
			}
			storedLeft = undefined;
			if (over * 8 > bitCount) throw new PngError('the image data is damaged or cut short');
		}
	};
	while (!inflateSome()) {
		flush();
		yield;
	}
	flush();
	// The Adler-32 starts on a byte boundary.
	bitBuffer >>>= bitCount & 7;
	bitCount -= bitCount & 7;
	const stored = ((bits(8) << 24) | (bits(8) << 16) | (bits(8) << 8) | bits(8)) >>> 0;
	if (over > 0 && over * 8 > bitCount) throw new PngError('the image data is damaged or cut short');
	if (stored !== ((b << 16) | a) >>> 0) throw new PngError('the image data is damaged (a wrong Adler-32)');
}

function dynamicCodes(bits: (n: number) => number, decode: (code: Code) => number): { lit: Code; dist: Code } {
	const literals = bits(5) + 257;
	const distances = bits(5) + 1;
	const codeLengths = new Uint8Array(19);
	for (let i = 0, n = bits(4) + 4; i < n; i++) codeLengths[CODE_ORDER[i]] = bits(3);
	const lengthCode = buildCode(codeLengths);
	const lengths = new Uint8Array(literals + distances);
	for (let i = 0; i < lengths.length; ) {
		const symbol = decode(lengthCode);
		if (symbol < 16) lengths[i++] = symbol;
		else {
			if (symbol === 16 && i === 0) throw new PngError('the image data is damaged (a repeat with nothing before it)');
			const value = symbol === 16 ? lengths[i - 1] : 0;
			const count = symbol === 16 ? 3 + bits(2) : symbol === 17 ? 3 + bits(3) : 11 + bits(7);
			if (i + count > lengths.length) throw new PngError('the image data is damaged (too many code lengths)');
			lengths.fill(value, i, i + count);
			i += count;
		}
	}
	if (lengths[256] === 0) throw new PngError('the image data is damaged (no end-of-block code)');
	return { lit: buildCode(lengths.subarray(0, literals)), dist: buildCode(lengths.subarray(literals)) };
}
