import { ZIGZAG } from './jpeg/coefficients';
import { AC_CHROMA, AC_LUMA, CHROMA_QUANT, DC_CHROMA, DC_LUMA, LUMA_QUANT, type HuffmanSpec } from './jpeg/standardTables';
import type { RgbImage } from './raster';
import { runSteps, type Steps } from './steps';

/**
 * Baseline JPEG (ITU T.81): YCbCr with 4:2:0 chroma, the Annex K quantisation tables scaled by
 * quality as libjpeg scales them, the Annex K Huffman tables, a JFIF APP0 and nothing else (the
 * orientation is already applied, so no EXIF). Float AAN DCT, as libjpeg's jfdctflt.
 */

/** AAN scale factors: cos(k pi / 16) x sqrt(2) for k > 0. */
const AAN = [1, 1.387039845, 1.306562965, 1.175875602, 1, 0.785694958, 0.5411961, 0.275899379];

export function encodeJpeg(image: RgbImage, quality: number): Uint8Array {
	return runSteps(encodeJpegSteps(image, quality));
}

/** `encodeJpeg` as steps (steps.ts): a yield after each row of MCUs (16 rows of pixels) encoded. */
export function* encodeJpegSteps(image: RgbImage, quality: number): Steps<Uint8Array> {
	const { width, height, data } = image;
	if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 65535 || height > 65535) {
		throw new Error(`JPEG: cannot encode a ${width} x ${height} image`);
	}
	if (data.length < width * height * 3) throw new Error('JPEG: the pixel data is shorter than width x height x 3');
	const lumaTable = scaledTable(LUMA_QUANT, quality);
	const chromaTable = scaledTable(CHROMA_QUANT, quality);
	const out = new ByteWriter(width * height);
	writeHeaders(out, width, height, lumaTable, chromaTable);
	yield* new ScanEncoder(out, lumaTable, chromaTable).encode(image);
	out.bytes([0xff, 0xd9]);
	return out.result();
}

/** libjpeg's jpeg_quality_scaling, clamped to 1-255 as for a baseline file. */
function scaledTable(base: number[], quality: number): number[] {
	const q = Math.min(100, Math.max(1, Math.round(Number.isFinite(quality) ? quality : 75)));
	const scale = q < 50 ? Math.floor(5000 / q) : 200 - 2 * q;
	return base.map((value) => Math.min(255, Math.max(1, Math.floor((value * scale + 50) / 100))));
}

function writeHeaders(out: ByteWriter, width: number, height: number, luma: number[], chroma: number[]): void {
	out.bytes([0xff, 0xd8]);
	// JFIF 1.01, no units, 1:1 pixel aspect, no thumbnail.
	out.segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
	out.segment(0xdb, [0, ...ZIGZAG.map((i) => luma[i]), 1, ...ZIGZAG.map((i) => chroma[i])]);
	// Y samples 2 x 2 with table 0; Cb and Cr 1 x 1 with table 1: 4:2:0.
	out.segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
	const tables: Array<[number, HuffmanSpec]> = [
		[0x00, DC_LUMA],
		[0x10, AC_LUMA],
		[0x01, DC_CHROMA],
		[0x11, AC_CHROMA],
	];
	out.segment(
		0xc4,
		tables.flatMap(([id, spec]) => [id, ...spec.counts, ...spec.symbols]),
	);
	out.segment(0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
}

/** Code and length of each symbol (T.81 Annex C). */
function huffmanCodes(spec: HuffmanSpec): { code: Uint16Array; size: Uint8Array } {
	const code = new Uint16Array(256);
	const size = new Uint8Array(256);
	let next = 0;
	let k = 0;
	for (let length = 1; length <= 16; length++) {
		for (let i = 0; i < spec.counts[length - 1]; i++, k++) {
			code[spec.symbols[k]] = next++;
			size[spec.symbols[k]] = length;
		}
		next <<= 1;
	}
	return { code, size };
}

class ScanEncoder {
	private readonly lumaDivisors: Float32Array;
	private readonly chromaDivisors: Float32Array;
	private readonly codes = [DC_LUMA, AC_LUMA, DC_CHROMA, AC_CHROMA].map(huffmanCodes);
	private readonly y = new Float32Array(256);
	private readonly cb = new Float32Array(256);
	private readonly cr = new Float32Array(256);
	private readonly block = new Float32Array(64);
	private readonly quantised = new Int32Array(64);
	/** Each component's previous DC value (a block's DC is coded as the difference from it), carried from one MCU row to the next. */
	private readonly dc = [0, 0, 0];
	private bitBuffer = 0;
	private bitCount = 0;

	constructor(
		private readonly out: ByteWriter,
		luma: number[],
		chroma: number[],
	) {
		this.lumaDivisors = divisors(luma);
		this.chromaDivisors = divisors(chroma);
	}

	*encode(image: RgbImage): Steps<void> {
		for (let top = 0; top < image.height; top += 16) {
			this.encodeMcuRow(image, top);
			yield;
		}
		// Pad the last byte with ones (T.81 F.1.2.3).
		if (this.bitCount > 0) this.putBits((1 << (8 - this.bitCount)) - 1, 8 - this.bitCount);
	}

	private encodeMcuRow({ width, height, data }: RgbImage, top: number): void {
		const { y, cb, cr, dc } = this;
		for (let left = 0; left < width; left += 16) {
			// Pixels past the right or bottom edge repeat the edge, so partial blocks add no ringing.
			for (let row = 0; row < 16; row++) {
				const source = Math.min(top + row, height - 1) * width;
				for (let column = 0; column < 16; column++) {
					const at = 3 * (source + Math.min(left + column, width - 1));
					const r = data[at];
					const g = data[at + 1];
					const b = data[at + 2];
					const k = row * 16 + column;
					y[k] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
					cb[k] = -0.168735892 * r - 0.331264108 * g + 0.5 * b;
					cr[k] = 0.5 * r - 0.418687589 * g - 0.081312411 * b;
				}
			}
			for (const [dx, dy] of [
				[0, 0],
				[8, 0],
				[0, 8],
				[8, 8],
			]) {
				this.copyBlock(y, dx, dy);
				dc[0] = this.encodeBlock(this.lumaDivisors, dc[0], 0);
			}
			this.averageBlock(cb);
			dc[1] = this.encodeBlock(this.chromaDivisors, dc[1], 2);
			this.averageBlock(cr);
			dc[2] = this.encodeBlock(this.chromaDivisors, dc[2], 2);
		}
	}

	private copyBlock(plane: Float32Array, dx: number, dy: number): void {
		for (let row = 0; row < 8; row++) for (let column = 0; column < 8; column++) this.block[row * 8 + column] = plane[(dy + row) * 16 + dx + column];
	}

	/** 4:2:0 chroma: each sample the mean of a 2 x 2 square, not just one of its four pixels. */
	private averageBlock(plane: Float32Array): void {
		for (let row = 0; row < 8; row++) {
			for (let column = 0; column < 8; column++) {
				const at = row * 32 + column * 2;
				this.block[row * 8 + column] = (plane[at] + plane[at + 1] + plane[at + 16] + plane[at + 17]) / 4;
			}
		}
	}

	/** DCT, quantise, Huffman-code the block; returns its DC value for the next difference. */
	private encodeBlock(divisorTable: Float32Array, previousDc: number, table: 0 | 2): number {
		const { block, quantised } = this;
		forwardDct(block);
		for (let k = 0; k < 64; k++) {
			const i = ZIGZAG[k];
			const value = block[i] * divisorTable[i];
			// Rounds half away from zero, as libjpeg does; an AC value must fit in 10 bits (T.81 F.1.2.2).
			const rounded = value < 0 ? -Math.floor(0.5 - value) : Math.floor(value + 0.5);
			quantised[k] = k === 0 ? rounded : Math.max(-1023, Math.min(1023, rounded));
		}
		const dcCodes = this.codes[table];
		const acCodes = this.codes[table + 1];
		this.putValue(quantised[0] - previousDc, dcCodes, 0);
		let run = 0;
		for (let k = 1; k < 64; k++) {
			const value = quantised[k];
			if (value === 0) {
				run++;
				continue;
			}
			for (; run >= 16; run -= 16) this.putBits(acCodes.code[0xf0], acCodes.size[0xf0]);
			this.putValue(value, acCodes, run << 4);
			run = 0;
		}
		if (run > 0) this.putBits(acCodes.code[0], acCodes.size[0]);
		return quantised[0];
	}

	/** The symbol (run and size category) then the value's bits: negatives in one's complement. */
	private putValue(value: number, codes: { code: Uint16Array; size: Uint8Array }, run: number): void {
		const magnitude = Math.abs(value);
		const category = magnitude === 0 ? 0 : 32 - Math.clz32(magnitude);
		const symbol = run | category;
		this.putBits(codes.code[symbol], codes.size[symbol]);
		if (category > 0) this.putBits(value < 0 ? value - 1 + (1 << category) : value, category);
	}

	private putBits(bits: number, count: number): void {
		this.bitBuffer = (this.bitBuffer << count) | bits;
		this.bitCount += count;
		while (this.bitCount >= 8) {
			this.bitCount -= 8;
			const byte = (this.bitBuffer >>> this.bitCount) & 0xff;
			this.out.byte(byte);
			// A 0xFF in entropy-coded data is followed by a stuffed zero (T.81 B.1.1.5).
			if (byte === 0xff) this.out.byte(0);
		}
		this.bitBuffer &= (1 << this.bitCount) - 1;
	}
}

/** 1 / (quantiser x AAN row and column scales x 8): the DCT's output times this is quantised. */
function divisors(table: number[]): Float32Array {
	const result = new Float32Array(64);
	for (let row = 0; row < 8; row++) for (let column = 0; column < 8; column++) result[row * 8 + column] = 1 / (table[row * 8 + column] * AAN[row] * AAN[column] * 8);
	return result;
}

/** libjpeg's jfdctflt (Arai, Agui, Nakajima), rows then columns, in place; outputs are AAN-scaled. */
function forwardDct(d: Float32Array): void {
	for (let pass = 0; pass < 2; pass++) {
		// Rows: stride 1 within a row, 8 between rows; columns: the other way round.
		const step = pass === 0 ? 1 : 8;
		const next = pass === 0 ? 8 : 1;
		for (let line = 0; line < 8; line++) {
			const p = line * next;
			const tmp0 = d[p] + d[p + 7 * step];
			const tmp7 = d[p] - d[p + 7 * step];
			const tmp1 = d[p + step] + d[p + 6 * step];
			const tmp6 = d[p + step] - d[p + 6 * step];
			const tmp2 = d[p + 2 * step] + d[p + 5 * step];
			const tmp5 = d[p + 2 * step] - d[p + 5 * step];
			const tmp3 = d[p + 3 * step] + d[p + 4 * step];
			const tmp4 = d[p + 3 * step] - d[p + 4 * step];

			const tmp10 = tmp0 + tmp3;
			const tmp13 = tmp0 - tmp3;
			const tmp11 = tmp1 + tmp2;
			const tmp12 = tmp1 - tmp2;
			d[p] = tmp10 + tmp11;
			d[p + 4 * step] = tmp10 - tmp11;
			const z1 = (tmp12 + tmp13) * 0.707106781;
			d[p + 2 * step] = tmp13 + z1;
			d[p + 6 * step] = tmp13 - z1;

			const odd10 = tmp4 + tmp5;
			const odd11 = tmp5 + tmp6;
			const odd12 = tmp6 + tmp7;
			const z5 = (odd10 - odd12) * 0.382683433;
			const z2 = 0.5411961 * odd10 + z5;
			const z4 = 1.306562965 * odd12 + z5;
			const z3 = odd11 * 0.707106781;
			const z11 = tmp7 + z3;
			const z13 = tmp7 - z3;
			d[p + 5 * step] = z13 + z2;
			d[p + 3 * step] = z13 - z2;
			d[p + step] = z11 + z4;
			d[p + 7 * step] = z11 - z4;
		}
	}
}

/** A growing byte buffer: the encoded size is not known ahead. */
class ByteWriter {
	private buffer: Uint8Array;
	private length = 0;

	constructor(expected: number) {
		this.buffer = new Uint8Array(Math.max(1024, expected >> 2));
	}

	byte(value: number): void {
		if (this.length === this.buffer.length) {
			const grown = new Uint8Array(this.buffer.length * 2);
			grown.set(this.buffer);
			this.buffer = grown;
		}
		this.buffer[this.length++] = value;
	}

	bytes(values: number[]): void {
		for (const value of values) this.byte(value);
	}

	/** A marker segment: FF, marker, big-endian length (which counts itself), body. */
	segment(marker: number, body: number[]): void {
		const length = body.length + 2;
		this.bytes([0xff, marker, length >> 8, length & 0xff, ...body]);
	}

	result(): Uint8Array {
		return this.buffer.slice(0, this.length);
	}
}
