import { afterAll, describe, expect, it } from 'vitest';

import { applyOrientation } from '../../nodes/shared/images/orientation';
import type { RgbImage } from '../../nodes/shared/images/raster';
import { FitResizer, resizeToFit } from '../../nodes/shared/images/resize';

/** Timings, printed once the file's tests are done. */
const report: string[] = [];
afterAll(() => process.stdout.write(`${report.join('\n')}\n`));

function uniform(width: number, height: number, rgb: [number, number, number]): RgbImage {
	const data = new Uint8Array(width * height * 3);
	for (let i = 0; i < data.length; i += 3) data.set(rgb, i);
	return { width, height, data };
}

function fromFunction(width: number, height: number, value: (x: number, y: number) => number): RgbImage {
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill(value(x, y), 3 * (y * width + x), 3 * (y * width + x) + 3);
	return { width, height, data };
}

const red = (image: RgbImage, x: number, y: number) => image.data[3 * (y * image.width + x)];

/** The image without a `margin` of pixels on every side. */
function crop(image: RgbImage, margin: number): RgbImage {
	const width = image.width - 2 * margin;
	const height = image.height - 2 * margin;
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) data.set(image.data.subarray(3 * ((y + margin) * image.width + margin), 3 * ((y + margin) * image.width + margin + width)), 3 * y * width);
	return { width, height, data };
}

function spread(image: RgbImage): { mean: number; min: number; max: number } {
	let sum = 0;
	let min = 255;
	let max = 0;
	for (let i = 0; i < image.data.length; i++) {
		sum += image.data[i];
		min = Math.min(min, image.data[i]);
		max = Math.max(max, image.data[i]);
	}
	return { mean: sum / image.data.length, min, max };
}

describe('resizeToFit', () => {
	it('never upscales: an image that fits is returned as it is', () => {
		const image = uniform(2600, 1200, [1, 2, 3]);
		expect(resizeToFit(image, 2600)).toBe(image);
		expect(resizeToFit(uniform(10, 10, [0, 0, 0]), 2600).width).toBe(10);
	});

	it('fits the long side exactly and keeps the aspect ratio', () => {
		// 4000 x 3000 to 2600 and the like, at a tenth of the size.
		const sizes = [
			[400, 300, 260, 195],
			[300, 400, 195, 260],
			[500, 10, 260, 5],
			[261, 261, 260, 260],
			[900, 1, 260, 1],
			[1200, 900, 260, 195],
			[5000, 10, 260, 1],
		];
		for (const [width, height, outWidth, outHeight] of sizes) {
			const result = resizeToFit(uniform(width, height, [9, 9, 9]), 260);
			expect([result.width, result.height, result.data.length]).toEqual([outWidth, outHeight, outWidth * outHeight * 3]);
		}
		expect(() => resizeToFit(uniform(4, 4, [0, 0, 0]), 0)).toThrow(/whole number/);
	});

	it('keeps a uniform colour exactly, with and without the box step', () => {
		for (const [width, height, long] of [
			[400, 300, 260],
			[401, 299, 100],
			[1000, 37, 91],
			[97, 1003, 20],
		]) {
			const result = resizeToFit(uniform(width, height, [200, 17, 90]), long);
			for (let i = 0; i < result.data.length; i += 3) expect([...result.data.subarray(i, i + 3)]).toEqual([200, 17, 90]);
		}
	});

	it('follows a ramp: each output pixel is the mean of the area it covers', () => {
		// 1000 px ramp from 0 to 249.75 shrunk by 4 (box 2, then Lanczos by 2) and by 1.54 (Lanczos only).
		for (const long of [250, 650]) {
			const ramp = fromFunction(1000, 200, (x) => x / 4);
			const result = resizeToFit(ramp, long);
			const scale = 1000 / long;
			// Away from the edges, where the filter is cut.
			for (let x = 10; x < result.width - 10; x++) {
				const expected = ((x + 0.5) * scale - 0.5) / 4;
				expect(Math.abs(red(result, x, result.height >> 1) - expected), `x ${x} of ${long}`).toBeLessThanOrEqual(1);
			}
		}
	});

	it('does not alias: a one-pixel checkerboard becomes an even grey, not a coarse pattern', () => {
		// A naive (nearest) shrink gives a pattern of 0 and 255; a box alone, uneven bands.
		for (const long of [600, 303, 100]) {
			const board = fromFunction(1000, 500, (x, y) => ((x + y) % 2 === 0 ? 0 : 255));
			const result = resizeToFit(board, long);
			const whole = spread(result);
			const inner = spread(crop(result, 6));
			expect(Math.abs(whole.mean - 127.5)).toBeLessThan(1);
			// Inside, within a level of grey; at the edges, where the filter is cut, within a few.
			expect(inner.max - inner.min, `shrunk to ${long}`).toBeLessThanOrEqual(1);
			expect(whole.max - whole.min, `shrunk to ${long}`).toBeLessThanOrEqual(12);
		}
	});

	it('keeps a black-to-white edge sharp: at most 3 output pixels of grey (Lanczos-3 at 1.54)', () => {
		const edge = fromFunction(4000, 40, (x) => (x < 2001 ? 0 : 255));
		const result = resizeToFit(edge, 2600);
		const row = Array.from({ length: result.width }, (_, x) => red(result, x, 10));
		const grey = row.filter((v) => v > 10 && v < 245).length;
		expect(grey).toBeGreaterThan(0);
		expect(grey).toBeLessThanOrEqual(3);
	});

	it('times: 4000 x 3000 to 2600 (Lanczos by 1.54) and 8000 x 6000 to 2600 (box 2, then Lanczos by 1.54)', () => {
		const photo = (width: number, height: number) => {
			const data = new Uint8Array(width * height * 3);
			for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
			return { width, height, data };
		};
		for (const [width, height] of [
			[4000, 3000],
			[8000, 6000],
		]) {
			const image = photo(width, height);
			const times: string[] = [];
			for (let run = 0; run < (width > 4000 ? 1 : 2); run++) {
				const started = performance.now();
				const cpu = process.cpuUsage();
				const result = resizeToFit(image, 2600);
				const { user, system } = process.cpuUsage(cpu);
				times.push(`${(performance.now() - started).toFixed(0)} ms (CPU ${((user + system) / 1000).toFixed(0)} ms)`);
				expect(result.width).toBe(2600);
			}
			report.push(`resizeToFit ${width} x ${height} to 2600 px: ${times.join(', ')}`);
		}
	});
});

describe('FitResizer', () => {
	it('refuses to give a result before the rows it needs have come, with and without the box step', () => {
		for (const [width, height] of [
			[4000, 300],
			[9000, 300],
		]) {
			const resizer = new FitResizer(width, height, 2600);
			const row = new Uint8Array(3 * width);
			for (let y = 0; y < height - 10; y++) resizer.row(row);
			expect(() => resizer.result()).toThrow(/short of the/);
		}
	});
});

describe('applyOrientation', () => {
	// A 3 x 2 image whose pixels are the letters A-F (red = the letter's code):
	//   A B C
	//   D E F
	const letters = fromFunction(3, 2, (x, y) => 'ABCDEF'.charCodeAt(y * 3 + x));
	const asText = (image: RgbImage) =>
		Array.from({ length: image.height }, (_, y) => Array.from({ length: image.width }, (_, x) => String.fromCharCode(red(image, x, y))).join('')).join('/');

	// EXIF (TIFF tag 274): where the stored first row and column are to be shown.
	it.each([
		[1, 'ABC/DEF', 'as stored'],
		[2, 'CBA/FED', 'mirrored left to right'],
		[3, 'FED/CBA', 'turned 180 degrees'],
		[4, 'DEF/ABC', 'flipped top to bottom'],
		[5, 'AD/BE/CF', 'transposed (first row shown as the left column, top down)'],
		[6, 'DA/EB/FC', 'turned 90 degrees clockwise (first row shown as the right column)'],
		[7, 'FC/EB/DA', 'transversed (first row shown as the right column, bottom up)'],
		[8, 'CF/BE/AD', 'turned 90 degrees anticlockwise (first row shown as the left column, bottom up)'],
	])('orientation %i gives %s: %s', (orientation, expected) => {
		const result = applyOrientation(letters, orientation);
		expect(asText(result)).toBe(expected);
		// All three channels move together.
		for (let i = 0; i < result.data.length; i += 3) expect(new Set(result.data.subarray(i, i + 3)).size).toBe(1);
	});

	it('1 and values outside 1-8 return the image itself', () => {
		expect(applyOrientation(letters, 1)).toBe(letters);
		expect(applyOrientation(letters, 0)).toBe(letters);
		expect(applyOrientation(letters, 9)).toBe(letters);
	});

	it('each orientation undone by its inverse gives the original back', () => {
		const inverse: Record<number, number> = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6 };
		const image = fromFunction(5, 3, (x, y) => 10 * y + x);
		for (const [orientation, back] of Object.entries(inverse)) {
			expect(applyOrientation(applyOrientation(image, Number(orientation)), back)).toEqual(image);
		}
	});
});
