/**
 * A PNG's unfiltered rows as RGB (pngDecode.ts): every colour type and bit depth converted, alpha
 * over white, and the rows placed in the result or summed into blocks when scaling down.
 */
import type { RowSink } from '../raster';
import type { Steps } from '../steps';
import { CHANNELS, type Pass, type PngInfo } from './types';

/** Writes `count` pixels of an unfiltered row as RGB at `out[at]`. */
export type Converter = (row: Uint8Array, count: number, out: Uint8Array, at: number) => void;

export function pixelConverter(info: PngInfo, palette: Uint8Array | undefined, transparency: Uint8Array | undefined): Converter {
	const { colourType, bitDepth } = info;
	if (colourType === 3 || (colourType === 0 && bitDepth <= 8)) return indexed(lookupTable(info, palette, transparency), bitDepth);
	const wide = bitDepth === 16;
	const sample = wide ? (row: Uint8Array, i: number) => (row[2 * i] << 8) | row[2 * i + 1] : (row: Uint8Array, i: number) => row[i];
	const to8 = wide ? (v: number) => ((v + 128) / 257) | 0 : (v: number) => v;
	const max = wide ? 65535 : 255;
	// Over white: 255 - (255 - c) x alpha, rounded, computed at the sample's own precision.
	const over = (c: number, a: number) => 255 - Math.round(((max - c) * a * 255) / (max * max));
	if (colourType === 0) {
		const clear = transparency && transparency.length >= 2 ? (transparency[0] << 8) | transparency[1] : -1;
		return (row, count, out, at) => {
			for (let i = 0; i < count; i++, at += 3) {
				const v = sample(row, i);
				out[at] = out[at + 1] = out[at + 2] = v === clear ? 255 : to8(v);
			}
		};
	}
	if (colourType === 2) {
		const clear = transparency && transparency.length >= 6 ? [0, 2, 4].map((k) => (transparency[k] << 8) | transparency[k + 1]) : undefined;
		return (row, count, out, at) => {
			for (let i = 0; i < count; i++, at += 3) {
				const r = sample(row, 3 * i);
				const g = sample(row, 3 * i + 1);
				const b = sample(row, 3 * i + 2);
				const white = clear !== undefined && r === clear[0] && g === clear[1] && b === clear[2];
				out[at] = white ? 255 : to8(r);
				out[at + 1] = white ? 255 : to8(g);
				out[at + 2] = white ? 255 : to8(b);
			}
		};
	}
	const channels = CHANNELS[colourType];
	return (row, count, out, at) => {
		for (let i = 0; i < count; i++, at += 3) {
			const first = channels * i;
			const a = sample(row, first + channels - 1);
			if (channels === 2) out[at] = out[at + 1] = out[at + 2] = over(sample(row, first), a);
			else for (let k = 0; k < 3; k++) out[at + k] = over(sample(row, first + k), a);
		}
	};
}

/** RGB on white for every value a palette index or a grey sample of up to 8 bits can take. */
function lookupTable(info: PngInfo, palette: Uint8Array | undefined, transparency: Uint8Array | undefined): Uint8Array {
	const entries = 1 << info.bitDepth;
	const table = new Uint8Array(3 * entries);
	for (let v = 0; v < entries; v++) {
		if (info.colourType === 0) {
			const clear = transparency && transparency.length >= 2 && ((transparency[0] << 8) | transparency[1]) === v;
			table.fill(clear ? 255 : (v * 255) / (entries - 1), 3 * v, 3 * v + 3);
			continue;
		}
		// An index past the palette is an error libpng tolerates: it shows black.
		const alpha = transparency && v < transparency.length ? transparency[v] : 255;
		for (let k = 0; k < 3; k++) {
			const c = palette && 3 * v + k < palette.length ? palette[3 * v + k] : 0;
			table[3 * v + k] = 255 - Math.round(((255 - c) * alpha) / 255);
		}
	}
	return table;
}

function indexed(table: Uint8Array, depth: number): Converter {
	if (depth === 8) {
		return (row, count, out, at) => {
			for (let i = 0; i < count; i++, at += 3) {
				const j = 3 * row[i];
				out[at] = table[j];
				out[at + 1] = table[j + 1];
				out[at + 2] = table[j + 2];
			}
		};
	}
	const mask = (1 << depth) - 1;
	return (row, count, out, at) => {
		for (let i = 0; i < count; i++, at += 3) {
			const bit = i * depth;
			const j = 3 * ((row[bit >> 3] >> (8 - depth - (bit & 7))) & mask);
			out[at] = table[j];
			out[at + 1] = table[j + 1];
			out[at + 2] = table[j + 2];
		}
	};
}

/**
 * Hands converted rows on to `out` top to bottom, or block averages of them when scaling down.
 * An interlaced image is kept whole (at the output's size) until its last pass, as Adam7's passes
 * come back to every row; rows in order need one row, or one row of block sums.
 */
export class PixelSink {
	readonly width: number;
	readonly height: number;
	/** The interlaced image; its rows go on only once complete. */
	private readonly data?: Uint8Array;
	/** Per-channel sums of up to 8 x 8 samples of 255: 16 bits are enough. */
	private readonly sums?: Uint16Array;
	private readonly shift: number;
	private readonly scratch: Uint8Array;
	private readonly line: Uint8Array;

	constructor(
		private readonly info: PngInfo,
		scale: number,
		private readonly convert: Converter,
		private readonly out: RowSink,
	) {
		this.shift = Math.log2(scale);
		this.width = Math.ceil(info.width / scale);
		this.height = Math.ceil(info.height / scale);
		if (info.interlaced) this.data = new Uint8Array(this.width * this.height * 3);
		if (scale > 1) this.sums = new Uint16Array(info.interlaced ? this.width * this.height * 3 : 3 * this.width);
		this.scratch = new Uint8Array(3 * info.width);
		this.line = new Uint8Array(3 * this.width);
	}

	row(pass: Pass, index: number, row: Uint8Array): void {
		const y = pass.y0 + index * pass.dy;
		const { data, sums, scratch, shift } = this;
		if (!sums && pass.dx === 1) {
			this.convert(row, pass.width, data ?? this.line, data ? 3 * y * this.width : 0);
			if (!data) this.out.row(this.line);
			return;
		}
		this.convert(row, pass.width, scratch, 0);
		const target = (sums ?? data) as Uint8Array | Uint16Array;
		const base = data ? 3 * (y >> shift) * this.width : 0;
		for (let i = 0, x = pass.x0; i < pass.width; i++, x += pass.dx) {
			const at = base + 3 * (x >> shift);
			target[at] += scratch[3 * i];
			target[at + 1] += scratch[3 * i + 1];
			target[at + 2] += scratch[3 * i + 2];
		}
		if (sums && !data && ((y + 1) % (1 << shift) === 0 || y === this.info.height - 1)) {
			this.average(y >> shift, sums, this.line);
			sums.fill(0);
			this.out.row(this.line);
		}
	}

	/** After the last row: an interlaced image's rows, now complete, go on (a yield after each). */
	*finish(): Steps<void> {
		const { data, sums, width, height } = this;
		if (!data) return;
		for (let by = 0; by < height; by++) {
			const row = data.subarray(3 * by * width, 3 * (by + 1) * width);
			if (sums) this.average(by, sums.subarray(3 * by * width, 3 * (by + 1) * width), row);
			this.out.row(row);
			yield;
		}
	}

	/** Block row `by` into `row`: each block's sums over the pixels it holds (fewer at the edges). */
	private average(by: number, sums: Uint16Array, row: Uint8Array): void {
		const size = 1 << this.shift;
		const rows = Math.min(size, this.info.height - by * size);
		for (let bx = 0; bx < this.width; bx++) {
			const count = rows * Math.min(size, this.info.width - bx * size);
			for (let k = 3 * bx; k < 3 * bx + 3; k++) row[k] = Math.round(sums[k] / count);
		}
	}
}
