import { constants, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { PngError } from '../../nodes/shared/images/pngDecode';
import { inflateInto } from '../../nodes/shared/images/png/inflate';

/** Our inflate (png/inflate.ts) against node:zlib's deflate: every block type, streams split anywhere, damage refused. */

function inflated(parts: Uint8Array[], budget = 1 << 30): Buffer {
	const pieces: Buffer[] = [];
	// Copied: the pieces are views of a reused window.
	inflateInto(parts, budget, (data) => pieces.push(Buffer.from(data)));
	return Buffer.concat(pieces);
}

/** Text-like bytes with repeats near and far (distances past the 32 KiB window's reuse) and noise. */
function sample(size: number, seed: number): Buffer {
	const out = Buffer.alloc(size);
	let state = seed;
	const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
	for (let i = 0; i < size; i++) {
		const r = random();
		out[i] = i > 40000 && r < 0.6 ? out[i - 1 - Math.floor(random() * 32000)] : r < 0.8 ? 97 + Math.floor(random() * 6) : Math.floor(random() * 256);
	}
	return out;
}

function split(bytes: Uint8Array, size: number): Uint8Array[] {
	const parts: Uint8Array[] = [];
	for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
	return parts;
}

describe('png/inflate', () => {
	it.each([
		{ level: 0, strategy: constants.Z_DEFAULT_STRATEGY },
		{ level: 1, strategy: constants.Z_DEFAULT_STRATEGY },
		{ level: 6, strategy: constants.Z_DEFAULT_STRATEGY },
		{ level: 9, strategy: constants.Z_FILTERED },
		{ level: 6, strategy: constants.Z_FIXED },
		{ level: 6, strategy: constants.Z_RLE },
		{ level: 6, strategy: constants.Z_HUFFMAN_ONLY },
	])('level $level, strategy $strategy: the bytes deflated, split at any size', ({ level, strategy }) => {
		for (const size of [0, 1, 300, 200_000]) {
			const data = sample(size, size + level);
			const compressed = deflateSync(data, { level, strategy });
			expect(inflated([compressed]).equals(data)).toBe(true);
			expect(inflated(split(compressed, 7)).equals(data)).toBe(true);
			expect(inflated([compressed.subarray(0, 3), new Uint8Array(0), compressed.subarray(3)]).equals(data)).toBe(true);
		}
	});

	it('refuses a wrong Adler-32, a cut-short stream, a bad header and more than the budget', () => {
		const data = sample(100_000, 3);
		const compressed = deflateSync(data);
		const wrong = Buffer.from(compressed);
		wrong[wrong.length - 1] ^= 1;
		expect(() => inflated([wrong])).toThrow(/Adler-32/);
		for (const cut of [1, 2, 5, 100, compressed.length - 5, compressed.length - 1]) expect(() => inflated([compressed.subarray(0, cut)])).toThrow(PngError);
		expect(() => inflated([Buffer.from([0x78, 0x9d, 0, 0])])).toThrow(/not a zlib stream/);
		expect(() => inflated([compressed], 99_999)).toThrow(/more than its header declares/);
	});

	it('ends any damaged stream in a PngError, never a hang or another error', () => {
		const compressed = deflateSync(sample(50_000, 4));
		for (let i = 2; i < compressed.length; i += 97) {
			const damaged = Buffer.from(compressed);
			damaged[i] ^= 0x5a;
			try {
				inflated([damaged], 60_000);
			} catch (error) {
				expect(error).toBeInstanceOf(PngError);
			}
		}
	});
});
