/**
 * Decoding one block's coefficients: a whole block of a sequential scan, or one step of a
 * progressive scan (DC first / DC refinement / AC first / AC refinement, JPEG Annex G).
 *
 * A decoder at scale s keeps only the top-left N x N coefficients (N = 8 / s) in a compact
 * layout; `slots` maps a zig-zag index to its place there, or -1 for a coefficient that is read
 * from the stream and dropped. Progressive refinement scans must still know which dropped
 * coefficients are nonzero: for a component with a refinement scan over dropped ones (every one
 * of a block outside the band held, buffered.ts, is dropped: `NO_SLOTS`), `nonzero`
 * keeps one bit per AC zig-zag index (two words per block); for the others, `last` (the highest
 * nonzero AC index of each block) bounds the walk of an end-of-band run, so blocks with nothing
 * to refine cost one look-up each.
 */
import type { BitReader, HuffmanTable } from './huffman';

/** Zig-zag index -> natural (row-major 8x8) index. */
export const ZIGZAG = new Uint8Array([
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50,
	43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/**
 * Zig-zag index -> slot in the compact N x N layout, or -1. 16 more entries of -1 past 63 let a
 * corrupt run overshoot the block without a bounds check (libjpeg pads its table the same way).
 */
export function slotsFor(size: number): Int8Array {
	const slots = new Int8Array(80).fill(-1);
	for (let z = 0; z < 64; z++) {
		const row = ZIGZAG[z] >> 3;
		const col = ZIGZAG[z] & 7;
		if (row < size && col < size) slots[z] = row * size + col;
	}
	return slots;
}

/** For a block outside the band being held (buffered.ts): read from the stream, nothing kept. */
export const NO_SLOTS = new Int8Array(80).fill(-1);

/** A whole sequential block into `out` at `at` (which the caller zeroed); returns the new DC predictor. */
export function decodeSequentialBlock(
	reader: BitReader,
	dc: HuffmanTable,
	ac: HuffmanTable,
	predictor: number,
	out: Int16Array,
	at: number,
	slots: Int8Array,
): number {
	const t = reader.decode(dc);
	const value = predictor + (t === 0 ? 0 : reader.receive(t));
	if (slots[0] >= 0) out[at] = value;
	const fastAc = ac.fastAc as Int16Array;
	let k = 1;
	while (k < 64) {
		if (reader.count < 16) reader.fill();
		const fast = fastAc[(reader.buffer >>> (reader.count - 9)) & 511];
		if (fast !== 0) {
			k += (fast >> 4) & 15;
			reader.count -= fast & 15;
			const slot = slots[k];
			if (slot >= 0) out[at + slot] = fast >> 8;
			k++;
			continue;
		}
		const rs = reader.decode(ac);
		const size = rs & 15;
		if (size === 0) {
			if (rs !== 0xf0) break; // end of block
			k += 16;
			continue;
		}
		k += rs >> 4;
		const slot = slots[k];
		if (slot >= 0) out[at + slot] = reader.receive(size);
		else reader.skip(size);
		k++;
	}
	return value;
}

/** Where one component's kept coefficients live during a buffered (progressive) decode. */
export interface CoefficientStore {
	/** K = N * N coefficients per block, for the blocks from `first` on (a band of MCU rows) */
	coefs: Int16Array;
	first: number;
	size: number;
	slots: Int8Array;
	/** two words per block: which dropped coefficients are nonzero (only when a refinement needs it) */
	nonzero: Uint32Array | undefined;
	/** per block: highest zig-zag index of a nonzero AC coefficient (0: none) */
	last: Uint8Array;
}

function markNonzero(store: CoefficientStore, block: number, z: number): void {
	if (z > store.last[block]) store.last[block] = z;
	if (store.nonzero) store.nonzero[2 * block + (z >> 5)] |= 1 << (z & 31);
}

export function decodeDcFirst(reader: BitReader, dc: HuffmanTable, predictor: number, store: CoefficientStore, block: number, al: number): number {
	const t = reader.decode(dc);
	const value = predictor + (t === 0 ? 0 : reader.receive(t));
	if (store.slots[0] >= 0) store.coefs[(block - store.first) * store.size * store.size] = value * (1 << al);
	return value;
}

export function decodeDcRefine(reader: BitReader, store: CoefficientStore, block: number, al: number): void {
	if (reader.bit() && store.slots[0] >= 0) store.coefs[(block - store.first) * store.size * store.size] |= 1 << al;
}

/** AC first scan of one block; returns the end-of-band run still to go. */
export function decodeAcFirst(
	reader: BitReader,
	ac: HuffmanTable,
	store: CoefficientStore,
	block: number,
	ss: number,
	se: number,
	al: number,
	eobrun: number,
): number {
	if (eobrun > 0) return eobrun - 1;
	const base = (block - store.first) * store.size * store.size;
	for (let k = ss; k <= se; k++) {
		const rs = reader.decode(ac);
		const run = rs >> 4;
		const size = rs & 15;
		if (size === 0) {
			if (run < 15) return (1 << run) - 1 + (run > 0 ? reader.bits(run) : 0);
			k += 15;
			continue;
		}
		k += run;
		if (k > 63) break; // corrupt: a run past the block
		const slot = store.slots[k];
		if (slot >= 0) store.coefs[base + slot] = reader.receive(size) * (1 << al);
		else reader.skip(size);
		markNonzero(store, block, k);
	}
	return 0;
}

/** The bits of a 32-bit word for positions `from` to `to` (inclusive, clipped to 0-31). */
function wordRange(from: number, to: number): number {
	if (from > 31 || to < 0 || from > to) return 0;
	const high = to >= 31 ? -1 : (1 << (to + 1)) - 1;
	return high & (from <= 0 ? -1 : -1 << from);
}

/**
 * AC refinement scan of one block (libjpeg's decode_mcu_AC_refine); returns the end-of-band run
 * still to go. A nonzero coefficient takes a correction bit that adds `1 << al` to its magnitude;
 * a zero one may become +-(1 << al).
 */
export function decodeAcRefine(
	reader: BitReader,
	ac: HuffmanTable,
	store: CoefficientStore,
	block: number,
	ss: number,
	se: number,
	al: number,
	eobrun: number,
): number {
	return store.nonzero
		? refineByBits(reader, ac, store, store.nonzero, block, ss, se, al, eobrun)
		: refineByValues(reader, ac, store, block, ss, se, al, eobrun);
}

/** Refinement when every coefficient of the band is kept: nonzero-ness is read from the values. */
function refineByValues(reader: BitReader, ac: HuffmanTable, store: CoefficientStore, block: number, ss: number, se: number, al: number, eobrun: number): number {
	const bit = 1 << al;
	const { coefs, slots, last } = store;
	const base = (block - store.first) * store.size * store.size;
	let k = ss;
	let run = eobrun;
	if (run === 0) {
		for (; k <= se; k++) {
			const rs = reader.decode(ac);
			let zeros = rs >> 4;
			const size = rs & 15;
			let value = 0;
			if (size !== 0) value = reader.bit() ? bit : -bit;
			else if (zeros !== 15) {
				run = (1 << zeros) + (zeros > 0 ? reader.bits(zeros) : 0);
				break;
			}
			// Pass the nonzero coefficients (each takes a correction bit) and `zeros` zero ones.
			for (; k <= se; k++) {
				const at = base + slots[k];
				const current = coefs[at];
				if (current !== 0) {
					if (reader.bit() !== 0 && (current & bit) === 0) coefs[at] = current >= 0 ? current + bit : current - bit;
				} else if (--zeros < 0) break;
			}
			if (value !== 0 && k <= se) {
				coefs[base + slots[k]] = value;
				if (k > last[block]) last[block] = k;
			}
		}
	}
	if (run > 0) {
		// In an end-of-band run only the coefficients already nonzero take a correction bit.
		const end = Math.min(se, last[block]);
		for (; k <= end; k++) {
			const at = base + slots[k];
			const current = coefs[at];
			if (current !== 0 && reader.bit() !== 0 && (current & bit) === 0) coefs[at] = current >= 0 ? current + bit : current - bit;
		}
		run--;
	}
	return run;
}

/** Adds `bit` to the magnitude of a kept coefficient (a set correction bit); nothing for a dropped one. */
function correct(coefs: Int16Array, slots: Int8Array, base: number, z: number, bit: number): void {
	const slot = slots[z];
	if (slot < 0) return;
	const current = coefs[base + slot];
	if ((current & bit) === 0) coefs[base + slot] = current >= 0 ? current + bit : current - bit;
}

/** Refinement over dropped coefficients: nonzero-ness is read from the block's two mask words. */
function refineByBits(
	reader: BitReader,
	ac: HuffmanTable,
	store: CoefficientStore,
	mask: Uint32Array,
	block: number,
	ss: number,
	se: number,
	al: number,
	eobrun: number,
): number {
	const bit = 1 << al;
	const { coefs, slots } = store;
	const base = (block - store.first) * store.size * store.size;
	let low = mask[2 * block];
	let high = mask[2 * block + 1];
	let k = ss;
	let run = eobrun;
	if (run === 0) {
		for (; k <= se; k++) {
			const rs = reader.decode(ac);
			let zeros = rs >> 4;
			const size = rs & 15;
			let value = 0;
			if (size !== 0) value = reader.bit() ? bit : -bit;
			else if (zeros !== 15) {
				run = (1 << zeros) + (zeros > 0 ? reader.bits(zeros) : 0);
				break;
			}
			for (; k <= se; k++) {
				if (((k < 32 ? low >>> k : high >>> (k - 32)) & 1) !== 0) {
					if (reader.bit() !== 0) correct(coefs, slots, base, k, bit);
				} else if (--zeros < 0) break;
			}
			if (value !== 0 && k <= se) {
				if (slots[k] >= 0) coefs[base + slots[k]] = value;
				if (k < 32) low |= 1 << k;
				else high |= 1 << (k - 32);
			}
		}
	}
	if (run > 0) {
		// Only the set bits from k to se take a correction bit, in order.
		let bits = low & wordRange(k, se);
		while (bits !== 0) {
			const lowest = bits & -bits;
			bits ^= lowest;
			if (reader.bit() !== 0) correct(coefs, slots, base, 31 - Math.clz32(lowest), bit);
		}
		bits = high & wordRange(k - 32, se - 32);
		while (bits !== 0) {
			const lowest = bits & -bits;
			bits ^= lowest;
			if (reader.bit() !== 0) correct(coefs, slots, base, 63 - Math.clz32(lowest), bit);
		}
		run--;
	}
	mask[2 * block] = low;
	mask[2 * block + 1] = high;
	return run;
}
