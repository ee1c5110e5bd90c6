import type { RgbImage } from './raster';
import { runSteps, type Steps } from './steps';

/**
 * The image as it is meant to be seen, given its EXIF orientation (TIFF 6.0 tag 274): 2 mirrors,
 * 3 turns 180 degrees, 4 flips, 5 transposes, 6 turns 90 degrees clockwise, 7 transverses, 8 turns
 * 90 degrees anticlockwise. 1 (or a value outside 1-8) returns the image itself.
 */
export function applyOrientation(image: RgbImage, orientation: number): RgbImage {
	return runSteps(applyOrientationSteps(image, orientation));
}

/** `applyOrientation` as steps (steps.ts): a yield after each row of the result. */
export function* applyOrientationSteps(image: RgbImage, orientation: number): Steps<RgbImage> {
	if (!Number.isInteger(orientation) || orientation < 2 || orientation > 8) return image;
	const { width, height, data } = image;
	const swaps = orientation >= 5;
	const outWidth = swaps ? height : width;
	const outHeight = swaps ? width : height;
	const out = new Uint8Array(width * height * 3);
	// Where output pixel (x, y) comes from: a start and a step in the source for x and for y.
	const [startX, stepX, startY, stepY] = sourceWalk(orientation, width, height);
	const outRow = (y: number) => {
		for (let x = 0, at = 3 * y * outWidth, from = startY + y * stepY + startX; x < outWidth; x++, at += 3, from += stepX) {
			out[at] = data[from];
			out[at + 1] = data[from + 1];
			out[at + 2] = data[from + 2];
		}
	};
	for (let y = 0; y < outHeight; y++) {
		outRow(y);
		yield;
	}
	return { width: outWidth, height: outHeight, data: out };
}

/** Byte offsets: the source of output (0, 0), then the step per output column and per output row. */
function sourceWalk(orientation: number, width: number, height: number): [number, number, number, number] {
	const pixel = 3;
	const row = 3 * width;
	const right = (width - 1) * pixel;
	const bottom = (height - 1) * row;
	switch (orientation) {
		case 2:
			return [right, -pixel, 0, row];
		case 3:
			return [right, -pixel, bottom, -row];
		case 4:
			return [0, pixel, bottom, -row];
		case 5:
			return [0, row, 0, pixel];
		case 6:
			return [bottom, -row, 0, pixel];
		case 7:
			return [bottom, -row, right, -pixel];
		default:
			return [0, row, right, -pixel];
	}
}
