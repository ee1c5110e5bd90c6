import { rowsOf, wholeImage, type RgbImage, type RgbRows } from './raster';

/**
 * Downscaling for documents: an exact box average by the largest integer factor that leaves at
 * least 1.5 to go (Pillow's `reducing_gap` idea; its default gap of 2 would leave a 48-megapixel
 * photo, factor 3.1, wholly to the Lanczos step at about twice the cost), then Lanczos-3 over the
 * rest, in two separable passes. Lanczos-3 keeps the strokes of small print sharper than a
 * triangle filter, which blurs them by about a pixel of the result; its slight ringing is clamped,
 * and spanning 1.5 pixels or more per output pixel it smooths the box step's seams. After the box
 * step (linear in the input) the work is the output size x the filter width: 6 x the remaining
 * factor (under 3) + 1 taps, so at most 19.
 */

/** The image scaled so that its longer side is `maxLongSide`; the same image when it already fits (never upscaled). */
export function resizeToFit(image: RgbImage | RgbRows, maxLongSide: number): RgbImage {
	const { width, height } = image;
	if (!Number.isInteger(maxLongSide) || maxLongSide < 1) throw new Error(`resize: the long side must be a whole number of pixels, not ${maxLongSide}`);
	if (Math.max(width, height) <= maxLongSide) return wholeImage(image);
	const factor = Math.max(width, height) / maxLongSide;
	const outWidth = width >= height ? maxLongSide : Math.max(1, Math.round(width / factor));
	const outHeight = height > width ? maxLongSide : Math.max(1, Math.round(height / factor));
	const box = Math.max(1, Math.floor(factor / 1.5));
	const reduced = box > 1 ? boxReduce(image, box) : image;
	// The box step's last column and row may cover less than `box` pixels: the filters below work
	// in the reduced grid, with the original extent (width / box) spread over the output.
	return resample(reduced, outWidth, outHeight, filterWeights(reduced.width, outWidth, width / box), filterWeights(reduced.height, outHeight, height / box));
}

/** Each `box` x `box` square averaged; the edge squares by the pixels they hold. */
function boxReduce(image: RgbImage | RgbRows, box: number): RgbImage {
	const { width, height } = image;
	const rowAt = rowsOf(image);
	const outWidth = Math.ceil(width / box);
	const outHeight = Math.ceil(height / box);
	const out = new Uint8Array(outWidth * outHeight * 3);
	const sums = new Uint32Array(outWidth * 3);
	for (let outY = 0; outY < outHeight; outY++) {
		sums.fill(0);
		const rows = Math.min(box, height - outY * box);
		for (let y = outY * box; y < outY * box + rows; y++) {
			const data = rowAt(y);
			for (let x = 0, at = 0; x < width; x++, at += 3) {
				const k = 3 * Math.floor(x / box);
				sums[k] += data[at];
				sums[k + 1] += data[at + 1];
				sums[k + 2] += data[at + 2];
			}
		}
		for (let outX = 0; outX < outWidth; outX++) {
			const count = rows * Math.min(box, width - outX * box);
			for (let k = 3 * outX; k < 3 * outX + 3; k++) out[outY * outWidth * 3 + k] = Math.round(sums[k] / count);
		}
	}
	return { width: outWidth, height: outHeight, data: out };
}

/** For each output sample: its first input sample, how many follow, and their normalised weights (`taps` apart). */
interface Weights {
	first: Int32Array;
	count: Int32Array;
	taps: number;
	weights: Float32Array;
}

function lanczos3(x: number): number {
	if (x === 0) return 1;
	if (x <= -3 || x >= 3) return 0;
	const px = Math.PI * x;
	return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
}

/**
 * Lanczos-3 stretched by the scale (so it low-passes at the output's Nyquist), centred on each
 * output pixel; taps past the image's edge are dropped and the rest renormalised, as Pillow does.
 */
function filterWeights(inSize: number, outSize: number, span: number): Weights {
	const scale = span / outSize;
	const stretch = Math.max(1, scale);
	const support = 3 * stretch;
	const taps = Math.ceil(support) * 2 + 1;
	const first = new Int32Array(outSize);
	const count = new Int32Array(outSize);
	const weights = new Float32Array(outSize * taps);
	for (let i = 0; i < outSize; i++) {
		const centre = (i + 0.5) * scale;
		const lo = Math.max(0, Math.floor(centre - support + 0.5));
		const hi = Math.min(inSize, Math.floor(centre + support + 0.5));
		let total = 0;
		for (let x = lo; x < hi; x++) total += weights[i * taps + x - lo] = lanczos3((x + 0.5 - centre) / stretch);
		for (let k = 0; k < hi - lo; k++) weights[i * taps + k] /= total;
		first[i] = lo;
		count[i] = hi - lo;
	}
	return { first, count, taps, weights };
}

/**
 * Both passes, one output row at a time: the rows resampled across are kept only while the
 * column filter still needs them (at most `taps` of them, in a ring), so the image resampled
 * across never exists whole: at 4000 x 3000 to 2600 x 1950 that spares 23 MB of peak memory.
 */
function resample(image: RgbImage | RgbRows, outWidth: number, outHeight: number, across: Weights, down: Weights): RgbImage {
	const rowLength = outWidth * 3;
	const ring = new Uint8Array(down.taps * rowLength);
	// Which row resampled across each slot of the ring holds; the rows a column filter needs only move down.
	const held = new Int32Array(down.taps).fill(-1);
	const out = new Uint8Array(rowLength * outHeight);
	const rowAt = rowsOf(image);
	const sums = new Float32Array(rowLength);
	for (let y = 0; y < outHeight; y++) {
		sums.fill(0);
		for (let k = 0; k < down.count[y]; k++) {
			const row = down.first[y] + k;
			const slot = row % down.taps;
			const at = slot * rowLength;
			if (held[slot] !== row) {
				resampleRow(rowAt(row), across, ring, at);
				held[slot] = row;
			}
			const weight = down.weights[y * down.taps + k];
			for (let i = 0; i < rowLength; i++) sums[i] += weight * ring[at + i];
		}
		const at = y * rowLength;
		for (let i = 0; i < rowLength; i++) out[at + i] = clamp(sums[i]);
	}
	return { width: outWidth, height: outHeight, data: out };
}

/** One row resampled across into `out` at `at`, rounded to 8 bits as a pass of its own would be. */
function resampleRow(data: Uint8Array, { first, count, taps, weights }: Weights, out: Uint8Array, at: number): void {
	for (let x = 0; x < count.length; x++, at += 3) {
		let r = 0;
		let g = 0;
		let b = 0;
		const taken = count[x];
		for (let k = 0, w = x * taps, source = 3 * first[x]; k < taken; k++, w++, source += 3) {
			const weight = weights[w];
			r += weight * data[source];
			g += weight * data[source + 1];
			b += weight * data[source + 2];
		}
		out[at] = clamp(r);
		out[at + 1] = clamp(g);
		out[at + 2] = clamp(b);
	}
}

function clamp(value: number): number {
	return value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value);
}
