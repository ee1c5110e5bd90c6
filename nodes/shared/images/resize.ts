import { ImageCollector, rowOf, wholeImageSteps, type RgbImage, type RgbRows, type RowSink } from './raster';
import { runSteps, type Steps } from './steps';

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
	return runSteps(resizeToFitSteps(image, maxLongSide));
}

/** `resizeToFit` as steps (steps.ts): a yield after each row taken. */
export function* resizeToFitSteps(image: RgbImage | RgbRows, maxLongSide: number): Steps<RgbImage> {
	const { width, height } = image;
	if (Math.max(width, height) <= maxLongSide && Number.isInteger(maxLongSide)) return yield* wholeImageSteps(image);
	const resizer = new FitResizer(width, height, maxLongSide);
	for (let y = 0; y < height; y++) {
		resizer.row(yield* rowOf(image, y));
		yield;
	}
	return resizer.result();
}

/**
 * `resizeToFit` fed one row at a time, top to bottom: a decoder that can only push its rows (a
 * PNG, inflated asynchronously) hands them over as they come, so its image never exists whole.
 */
export class FitResizer implements RowSink {
	private readonly next: RowSink & { result(): RgbImage };
	private readonly box?: BoxReducer;

	constructor(width: number, height: number, maxLongSide: number) {
		if (!Number.isInteger(maxLongSide) || maxLongSide < 1) throw new Error(`resize: the long side must be a whole number of pixels, not ${maxLongSide}`);
		if (Math.max(width, height) <= maxLongSide) {
			this.next = new ImageCollector(width, height);
			return;
		}
		const factor = Math.max(width, height) / maxLongSide;
		const outWidth = width >= height ? maxLongSide : Math.max(1, Math.round(width / factor));
		const outHeight = height > width ? maxLongSide : Math.max(1, Math.round(height / factor));
		const box = Math.max(1, Math.floor(factor / 1.5));
		const reducedWidth = Math.ceil(width / box);
		const reducedHeight = Math.ceil(height / box);
		// The box step's last column and row may cover less than `box` pixels: the filters below work
		// in the reduced grid, with the original extent (width / box) spread over the output.
		this.next = new Resampler(outWidth, outHeight, filterWeights(reducedWidth, outWidth, width / box), filterWeights(reducedHeight, outHeight, height / box));
		if (box > 1) this.box = new BoxReducer(width, height, box, this.next);
	}

	row(data: Uint8Array): void {
		(this.box ?? this.next).row(data);
	}

	result(): RgbImage {
		return this.next.result();
	}
}

/** Each `box` x `box` square averaged, a row of squares at a time; the edge squares by the pixels they hold. */
class BoxReducer implements RowSink {
	private readonly sums: Uint32Array;
	private readonly line: Uint8Array;
	private y = 0;

	constructor(
		private readonly width: number,
		private readonly height: number,
		private readonly box: number,
		private readonly next: RowSink,
	) {
		this.sums = new Uint32Array(Math.ceil(width / box) * 3);
		this.line = new Uint8Array(this.sums.length);
	}

	row(data: Uint8Array): void {
		const { sums, box, width } = this;
		for (let x = 0, at = 0; x < width; x++, at += 3) {
			const k = 3 * Math.floor(x / box);
			sums[k] += data[at];
			sums[k + 1] += data[at + 1];
			sums[k + 2] += data[at + 2];
		}
		const y = this.y++;
		if ((y + 1) % box !== 0 && y !== this.height - 1) return;
		const rows = y - Math.floor(y / box) * box + 1;
		for (let outX = 0; outX < sums.length / 3; outX++) {
			const count = rows * Math.min(box, width - outX * box);
			for (let k = 3 * outX; k < 3 * outX + 3; k++) this.line[k] = Math.round(sums[k] / count);
		}
		sums.fill(0);
		this.next.row(this.line);
	}
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
 * Both passes, one output row as soon as its last input row has come: the rows resampled across
 * are kept only while the column filter still needs them (at most `taps` of them, in a ring), so
 * neither the input nor the image resampled across exists whole: at 4000 x 3000 to 2600 x 1950
 * that spares 23 MB of peak memory.
 */
class Resampler implements RowSink {
	private readonly rowLength: number;
	private readonly ring: Uint8Array;
	private readonly out: Uint8Array;
	private readonly sums: Float32Array;
	/** Input rows come and output rows made so far. */
	private taken = 0;
	private made = 0;

	constructor(
		private readonly outWidth: number,
		private readonly outHeight: number,
		private readonly across: Weights,
		private readonly down: Weights,
	) {
		this.rowLength = outWidth * 3;
		this.ring = new Uint8Array(down.taps * this.rowLength);
		this.out = new Uint8Array(this.rowLength * outHeight);
		this.sums = new Float32Array(this.rowLength);
	}

	row(data: Uint8Array): void {
		const { down, ring, rowLength, sums } = this;
		// The rows a column filter needs only move down: row r's slot held row r - taps, which no row still to make needs.
		resampleRow(data, this.across, ring, (this.taken++ % down.taps) * rowLength);
		for (let y = this.made; y < this.outHeight && down.first[y] + down.count[y] <= this.taken; y = ++this.made) {
			sums.fill(0);
			for (let k = 0; k < down.count[y]; k++) {
				const at = ((down.first[y] + k) % down.taps) * rowLength;
				const weight = down.weights[y * down.taps + k];
				for (let i = 0; i < rowLength; i++) sums[i] += weight * ring[at + i];
			}
			const at = y * rowLength;
			for (let i = 0; i < rowLength; i++) this.out[at + i] = clamp(sums[i]);
		}
	}

	result(): RgbImage {
		if (this.made < this.outHeight) throw new Error(`resize: ${this.taken} rows of the image came, short of the ${this.outHeight} rows it makes`);
		return { width: this.outWidth, height: this.outHeight, data: this.out };
	}
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
