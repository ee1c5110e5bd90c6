import { runSteps, type Steps } from './steps';

/** An 8-bit RGB image, row-major, 3 bytes per pixel. */
export interface RgbImage {
	width: number;
	height: number;
	data: Uint8Array;
}

/**
 * An image handed over one row at a time, top to bottom (a row may be asked again, but not one of
 * an earlier band): a progressive JPEG is rendered a band at a time into the resizer this way, so
 * the decoded image (36 MB for a 48-megapixel photo at 1/2) never exists whole.
 */
export interface RgbRows {
	width: number;
	height: number;
	/** row `y`'s RGB bytes; valid until the next call */
	row(y: number): Uint8Array;
	/** the same as steps (steps.ts): rendering a row may mean decoding a band of the file again */
	rowSteps(y: number): Steps<Uint8Array>;
}

/** Row `y` of either form, as steps; a whole image's at once. */
export function* rowOf(image: RgbImage | RgbRows, y: number): Steps<Uint8Array> {
	if ('row' in image) return yield* image.rowSteps(y);
	return image.data.subarray(y * image.width * 3, (y + 1) * image.width * 3);
}

/** Either form as a whole image (rows copied only when they are not already one). */
export function wholeImage(image: RgbImage | RgbRows): RgbImage {
	return runSteps(wholeImageSteps(image));
}

/** `wholeImage` as steps: a yield after each row copied. */
export function* wholeImageSteps(image: RgbImage | RgbRows): Steps<RgbImage> {
	if (!('row' in image)) return image;
	const { width, height } = image;
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		data.set(yield* image.rowSteps(y), y * width * 3);
		yield;
	}
	return { width, height, data };
}

/** Takes an image's rows top to bottom, each once; a row is valid only during the call. */
export interface RowSink {
	row(data: Uint8Array): void;
}

/** The rows pushed into it, kept as a whole image. */
export class ImageCollector implements RowSink {
	private readonly data: Uint8Array;
	private y = 0;

	constructor(
		private readonly width: number,
		private readonly height: number,
	) {
		this.data = new Uint8Array(width * height * 3);
	}

	row(data: Uint8Array): void {
		if (this.y === this.height) throw new Error(`more than the image's ${this.height} rows`);
		this.data.set(data.subarray(0, this.width * 3), this.y++ * this.width * 3);
	}

	result(): RgbImage {
		if (this.y < this.height) throw new Error(`${this.y} rows of the image's ${this.height}`);
		return { width: this.width, height: this.height, data: this.data };
	}
}
