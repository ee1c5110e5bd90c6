/**
 * From decoded component samples to RGB rows. The decoder fills one band per component (the
 * samples of one MCU row at the output scale); this module upsamples components still subsampled
 * at that scale by repeating samples (libjpeg's "-nosmooth" upsampling) and converts YCbCr to RGB with libjpeg's
 * fixed-point tables (JFIF/BT.601, full range).
 */
import type { Layout } from './layout';

export type ColourModel = 'gray' | 'ycc' | 'rgb';

const ONE_HALF = 1 << 15;
const fix = (x: number) => Math.round(x * 65536);
const CR_R = new Int32Array(256);
const CB_B = new Int32Array(256);
const CR_G = new Int32Array(256);
const CB_G = new Int32Array(256);
for (let i = 0; i < 256; i++) {
	const x = i - 128;
	CR_R[i] = (fix(1.402) * x + ONE_HALF) >> 16;
	CB_B[i] = (fix(1.772) * x + ONE_HALF) >> 16;
	CR_G[i] = -fix(0.71414) * x;
	CB_G[i] = -fix(0.34414) * x + ONE_HALF;
}

/** One component's samples for one MCU row at the output scale. */
export interface Band {
	samples: Uint8ClampedArray;
	/** samples per row (the component's MCU-padded width at its block size) */
	stride: number;
	/** by output column: the band column it is read from */
	columns: Int32Array;
	/** band row of an output row: floor(row within the MCU row * rowsNum / rowsDen) */
	rowsNum: number;
	rowsDen: number;
}

/** A band for every component, sized for its block size (layout.ts). */
export function createBands(layout: Layout): Band[] {
	const { frame, size, outWidth } = layout;
	return layout.components.map(({ h, v, blockSize, paddedWide }) => {
		const stride = paddedWide * blockSize;
		const columns = new Int32Array(outWidth);
		const across = h * blockSize;
		const outAcross = frame.maxH * size;
		for (let x = 0; x < outWidth; x++) columns[x] = Math.floor((x * across) / outAcross);
		return { samples: new Uint8ClampedArray(stride * v * blockSize), stride, columns, rowsNum: v * blockSize, rowsDen: frame.maxV * size };
	});
}

/**
 * Writes output rows `top` to `bottom` (exclusive) from the bands, whose first row is output row
 * `bandTop`. `out` is the image's RGB bytes (clamped view).
 */
export function writeRows(
	bands: Band[],
	model: ColourModel,
	out: Uint8ClampedArray,
	width: number,
	bandTop: number,
	top: number,
	bottom: number,
): void {
	for (let y = top; y < bottom; y++) {
		const rowOf = (band: Band) => Math.floor(((y - bandTop) * band.rowsNum) / band.rowsDen) * band.stride;
		let o = y * width * 3;
		const a = bands[0];
		const aRow = rowOf(a);
		const aCols = a.columns;
		const aSamples = a.samples;
		if (model === 'gray') {
			for (let x = 0; x < width; x++, o += 3) {
				const g = aSamples[aRow + aCols[x]];
				out[o] = g;
				out[o + 1] = g;
				out[o + 2] = g;
			}
			continue;
		}
		const b = bands[1];
		const c = bands[2];
		const bRow = rowOf(b);
		const cRow = rowOf(c);
		const bCols = b.columns;
		const cCols = c.columns;
		const bSamples = b.samples;
		const cSamples = c.samples;
		if (model === 'rgb') {
			for (let x = 0; x < width; x++, o += 3) {
				out[o] = aSamples[aRow + aCols[x]];
				out[o + 1] = bSamples[bRow + bCols[x]];
				out[o + 2] = cSamples[cRow + cCols[x]];
			}
			continue;
		}
		for (let x = 0; x < width; x++, o += 3) {
			const luma = aSamples[aRow + aCols[x]];
			const cb = bSamples[bRow + bCols[x]];
			const cr = cSamples[cRow + cCols[x]];
			out[o] = luma + CR_R[cr];
			out[o + 1] = luma + ((CB_G[cb] + CR_G[cr]) >> 16);
			out[o + 2] = luma + CB_B[cb];
		}
	}
}
