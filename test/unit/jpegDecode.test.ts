/**
 * The JPEG decoder (nodes/shared/images/jpegDecode.ts) against an independent one: libjpeg-turbo's
 * cjpeg makes the test images (every subsampling, grayscale, restart intervals, odd sizes),
 * jpegtran rewrites them as progressive or multi-scan files (same coefficients, so the decode must
 * not change by a single byte), and djpeg's decoding is the reference. Real photos of the corpus
 * are checked too when it is here; hostile files must end in a JpegError, quickly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { DEFAULT_MAX_PIXELS, JpegError, decodeJpeg, decodeJpegRows, readJpegInfo } from '../../nodes/shared/images/jpegDecode';
import type { RgbImage } from '../../nodes/shared/images/raster';
import { jpegWithComment } from '../fixtures/images';
import { MANIFEST, corpusFile, corpusPlacesLooked } from '../harness/corpusLocation';
import { LIBJPEG, LIBJPEG_MISSING, cjpeg, djpeg, jpegtran } from '../harness/libjpeg';
import { skipNotice } from '../harness/skipNotice';

const SCALES = [1, 2, 4, 8] as const;

// ---- images and comparisons ----

/** A deterministic photo-like picture: soft colour fields, hard-edged shapes, dark strokes, noise. */
function photoLike(width: number, height: number, seed = 7): RgbImage {
	const data = new Uint8Array(width * height * 3);
	let state = seed;
	const noise = () => {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		return (state / 0x7fffffff - 0.5) * 12;
	};
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const o = (y * width + x) * 3;
			const inBox = x > width / 4 && x < (width * 3) / 5 && y > height / 3 && y < (height * 4) / 5;
			const stroke = (x >> 2) % 6 === 0 && (y >> 1) % 7 < 3;
			const base = [140 + 70 * Math.sin(x / 23), 120 + 60 * Math.cos(y / 17), 100 + (80 * (x + y)) / (width + height)];
			const value = inBox ? [220, 60, 40] : stroke ? [30, 30, 40] : base;
			for (let c = 0; c < 3; c++) data[o + c] = Math.max(0, Math.min(255, Math.round(value[c] + noise())));
		}
	}
	return { width, height, data };
}

/** Mean of each s x s box (clipped at the edges): what a decode at 1/s should look like. */
function boxDownscale(image: RgbImage, s: number): RgbImage {
	const width = Math.ceil(image.width / s);
	const height = Math.ceil(image.height / s);
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			for (let c = 0; c < 3; c++) {
				let sum = 0;
				let n = 0;
				for (let yy = y * s; yy < Math.min(image.height, y * s + s); yy++) {
					for (let xx = x * s; xx < Math.min(image.width, x * s + s); xx++, n++) sum += image.data[(yy * image.width + xx) * 3 + c];
				}
				data[(y * width + x) * 3 + c] = Math.round(sum / n);
			}
		}
	}
	return { width, height, data };
}

/** Mean absolute error of each channel, and the largest error anywhere. */
function compare(actual: RgbImage, expected: RgbImage): { mae: number[]; max: number } {
	expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
	expect(actual.data.length).toBe(actual.width * actual.height * 3);
	const sums = [0, 0, 0];
	let max = 0;
	for (let i = 0; i < actual.data.length; i++) {
		const error = Math.abs(actual.data[i] - expected.data[i]);
		sums[i % 3] += error;
		max = Math.max(max, error);
	}
	return { mae: sums.map((sum) => sum / (actual.width * actual.height)), max };
}

const worst = (result: { mae: number[] }): number => Math.max(...result.mae);

/** The image's luma (BT.601) in all three channels: what subsampled chroma does not blur. */
function luma(image: RgbImage): RgbImage {
	const data = new Uint8Array(image.data.length);
	for (let i = 0; i < data.length; i += 3) {
		data[i] = data[i + 1] = data[i + 2] = Math.round(0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2]);
	}
	return { ...image, data };
}

/** Where the first marker `code` is, after the SOI. */
function markerAt(bytes: Uint8Array, code: number): number {
	for (let i = 2; i + 1 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === code) return i;
	throw new Error(`no marker ${code.toString(16)}`);
}

/** `bytes` with an EXIF APP1 segment carrying `orientation` inserted after the SOI. */
function withExifOrientation(bytes: Uint8Array, orientation: number, littleEndian: boolean, type = 3): Uint8Array {
	const tiff = Buffer.alloc(8 + 2 + 2 * 12 + 4);
	const u16 = (value: number, at: number) => (littleEndian ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at));
	const u32 = (value: number, at: number) => (littleEndian ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at));
	tiff.write(littleEndian ? 'II' : 'MM', 0, 'latin1');
	u16(42, 2);
	u32(8, 4);
	u16(2, 8);
	// Another tag first (ImageWidth), then Orientation, as cameras write them.
	u16(0x0100, 10);
	u16(3, 12);
	u32(1, 14);
	u16(4000, 18);
	u16(0x0112, 22);
	u16(type, 24);
	u32(1, 26);
	if (type === 3) u16(orientation, 30);
	else u32(orientation, 30);
	const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
	const head = Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
	return new Uint8Array(Buffer.concat([Buffer.from(bytes.subarray(0, 2)), head, body, Buffer.from(bytes.subarray(2))]));
}

/** Runs `work`, which must throw a JpegError whose message matches `message`, within `ms`. */
function expectRefused(work: () => unknown, message: RegExp, ms = 1000): void {
	const started = performance.now();
	let thrown: unknown;
	try {
		work();
	} catch (error) {
		thrown = error;
	}
	const took = performance.now() - started;
	expect(thrown).toBeInstanceOf(JpegError);
	expect((thrown as Error).message).toMatch(message);
	expect(took).toBeLessThan(ms);
}

// ---- without any tool: the repository's own hand-made JPEGs ----

describe('readJpegInfo', () => {
	it('reads size, components and the absence of EXIF from the fixture JPEG (17 x 9 grey)', () => {
		expect(readJpegInfo(jpegWithComment('a note', 17, 9))).toEqual({ width: 17, height: 9, components: 1, progressive: false, orientation: 1 });
	});

	it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads EXIF orientation %i in both byte orders', (orientation) => {
		const jpeg = jpegWithComment('x');
		expect(readJpegInfo(withExifOrientation(jpeg, orientation, true)).orientation).toBe(orientation);
		expect(readJpegInfo(withExifOrientation(jpeg, orientation, false)).orientation).toBe(orientation);
		expect(readJpegInfo(withExifOrientation(jpeg, orientation, false, 4)).orientation).toBe(orientation);
	});

	it('takes an out-of-range orientation or a broken EXIF block as 1', () => {
		const jpeg = jpegWithComment('x');
		expect(readJpegInfo(withExifOrientation(jpeg, 9, true)).orientation).toBe(1);
		const broken = withExifOrientation(jpeg, 6, true);
		broken[2 + 4 + 6 + 4] = 0xff; // IFD offset far past the segment
		expect(readJpegInfo(broken).orientation).toBe(1);
	});

	it.each([
		['SOF3', 0xc3, /lossless/],
		['SOF9', 0xc9, /arithmetic/],
		['SOF10', 0xca, /arithmetic/],
		['SOF5', 0xc5, /hierarchical/],
	])('refuses a %s frame', (_name, marker, message) => {
		const jpeg = new Uint8Array(jpegWithComment('x'));
		jpeg[markerAt(jpeg, 0xc0) + 1] = marker;
		expectRefused(() => readJpegInfo(jpeg), message);
		expectRefused(() => decodeJpeg(jpeg, { scale: 1 }), message);
	});

	it('refuses 12-bit samples, 4 components and a size of 0', () => {
		const twelve = new Uint8Array(jpegWithComment('x'));
		twelve[markerAt(twelve, 0xc0) + 4] = 12;
		expectRefused(() => readJpegInfo(twelve), /12-bit/);
		const zero = new Uint8Array(jpegWithComment('x'));
		zero[markerAt(zero, 0xc0) + 5] = 0;
		zero[markerAt(zero, 0xc0) + 6] = 0;
		expectRefused(() => readJpegInfo(zero), /0 x 8|size of/);
		expectRefused(() => decodeJpeg(zero, { scale: 1 }), /size of/);
		// A CMYK frame header: 4 components of 1x1.
		const sof = Buffer.from([0xff, 0xc0, 0, 20, 8, 0, 8, 0, 8, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0]);
		const cmyk = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]));
		expectRefused(() => readJpegInfo(cmyk), /CMYK/);
	});

	it('refuses what is not a JPEG', () => {
		expectRefused(() => readJpegInfo(new Uint8Array([0x89, 0x50, 0x4e, 0x47])), /not a JPEG/);
		expectRefused(() => readJpegInfo(new Uint8Array([0xff, 0xd8, 0xff, 0xd9])), /no frame header/);
	});
});

describe('decodeJpeg on the fixture JPEGs', () => {
	it('decodes the hand-made grey JPEG (every block DC 0) to mid-grey at every scale, sizes rounded up', () => {
		for (const scale of SCALES) {
			const image = decodeJpeg(jpegWithComment('x', 17, 9), { scale });
			expect([image.width, image.height]).toEqual([Math.ceil(17 / scale), Math.ceil(9 / scale)]);
			expect(image.data.every((value) => value === 128)).toBe(true);
		}
	});

	it('decodes the receipt sample (1200 x 1600) at 1/8', () => {
		const jpeg = new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'samples', 'ticket-es.jpg')));
		const image = decodeJpeg(jpeg, { scale: 8 });
		expect([image.width, image.height]).toEqual([150, 200]);
	});

	it('decodes an extended sequential frame (SOF1) like a baseline one', () => {
		const jpeg = new Uint8Array(jpegWithComment('x', 17, 9));
		jpeg[markerAt(jpeg, 0xc0) + 1] = 0xc1;
		expect(readJpegInfo(jpeg)).toMatchObject({ width: 17, height: 9, progressive: false });
		expect(decodeJpeg(jpeg, { scale: 1 }).data.every((value) => value === 128)).toBe(true);
	});

	it('refuses a scale other than 1, 2, 4 or 8', () => {
		expectRefused(() => decodeJpeg(jpegWithComment('x'), { scale: 3 as 1 }), /scale/);
	});
});

// ---- against libjpeg-turbo ----

/** chromaKeepsUp: the chroma is at the output's resolution at every scale (layout.ts's block sizes). */
const SAMPLINGS: Array<{ name: string; args: string[]; chromaKeepsUp: boolean }> = [
	{ name: '4:4:4', args: ['-sample', '1x1'], chromaKeepsUp: true },
	{ name: '4:2:2', args: ['-sample', '2x1'], chromaKeepsUp: false },
	{ name: '4:2:0', args: ['-sample', '2x2'], chromaKeepsUp: true },
	{ name: '4:4:0', args: ['-sample', '1x2'], chromaKeepsUp: false },
	{ name: '4:1:1', args: ['-sample', '4x1'], chromaKeepsUp: false },
	{ name: 'Y 2x2, Cb 1x2, Cr 1x1', args: ['-sample', '2x2,1x2,1x1'], chromaKeepsUp: false },
	{ name: 'grayscale', args: ['-grayscale'], chromaKeepsUp: true },
	{ name: '4:2:0, restart every MCU row', args: ['-sample', '2x2', '-restart', '1'], chromaKeepsUp: true },
	{ name: '4:2:2, restart every 3 MCUs', args: ['-sample', '2x1', '-restart', '3B'], chromaKeepsUp: false },
	{ name: 'RGB (Adobe, no transform)', args: ['-rgb'], chromaKeepsUp: true },
];
const SIZES: Array<[number, number]> = [
	[17, 9],
	[1, 1],
	[8, 8],
	[33, 65],
	[200, 120],
];

describe.skipIf(!LIBJPEG)('decodeJpeg against libjpeg-turbo (cjpeg makes, djpeg decodes)', () => {
	describe.each(SAMPLINGS)('baseline $name', ({ args, chromaKeepsUp }) => {
		it.each(SIZES)('%i x %i at full size matches djpeg -nosmooth', (width, height) => {
			const jpeg = cjpeg(photoLike(width, height), ['-quality', '90', ...args]);
			expect(readJpegInfo(jpeg)).toMatchObject({ width, height, progressive: false });
			const result = compare(decodeJpeg(jpeg, { scale: 1 }), djpeg(jpeg, ['-nosmooth']));
			// Same integer IDCT and colour tables as libjpeg: equal in practice.
			expect(worst(result)).toBeLessThan(0.5);
			expect(result.max).toBeLessThanOrEqual(2);
		});

		it.each([2, 4, 8] as const)('at 1/%i is close to a box-downscaled full decode and to djpeg -scale', (scale) => {
			const jpeg = cjpeg(photoLike(203, 131), ['-quality', '90', ...args]);
			const image = decodeJpeg(jpeg, { scale });
			const box = boxDownscale(djpeg(jpeg, ['-nosmooth']), scale);
			expect(worst(compare(luma(image), luma(box)))).toBeLessThan(3);
			// libjpeg-turbo's own scaled decode: the same choice of block sizes, older reduced IDCTs.
			expect(worst(compare(image, djpeg(jpeg, ['-nosmooth', '-scale', `1/${scale}`])))).toBeLessThan(4);
			// Colour is exact to the box only where the chroma keeps the output's resolution: with
			// 4:2:2, 4:4:0 and 4:1:1 it stays subsampled (as in the file), so edges of colour differ.
			expect(worst(compare(image, box))).toBeLessThan(chromaKeepsUp ? 3 : 14);
		});
	});

	it('decodes grayscale to equal R, G and B', () => {
		const image = decodeJpeg(cjpeg(photoLike(40, 30), ['-grayscale']), { scale: 1 });
		for (let p = 0; p < image.data.length; p += 3) expect([image.data[p + 1], image.data[p + 2]]).toEqual([image.data[p], image.data[p]]);
	});

	const PROGRESSIONS: Array<{ name: string; args: string[]; scans?: string }> = [
		{ name: 'jpegtran -progressive (libjpeg default script)', args: ['-progressive'] },
		{ name: 'progressive with restarts every 2 MCUs', args: ['-progressive', '-restart', '2B'] },
		{
			name: 'progressive, successive approximation on DC and AC bands no scaled decode keeps',
			args: [],
			scans: [
				'0: 0 0 0 2;',
				'1 2: 0 0 0 1;',
				'0: 1 2 0 1;',
				'0: 3 9 0 0;',
				'0: 10 63 0 1;',
				'2: 1 63 0 0;',
				'1: 1 63 0 2;',
				'1: 1 63 2 1;',
				'1: 1 63 1 0;',
				'0: 0 0 2 1;',
				'1 2: 0 0 1 0;',
				'0: 1 2 1 0;',
				'0: 10 63 1 0;',
				'0: 0 0 1 0;',
			].join('\n'),
		},
		{ name: 'sequential in three scans (one per component)', args: [], scans: '0: 0 63 0 0;\n1: 0 63 0 0;\n2: 0 63 0 0;' },
	];

	describe.each(PROGRESSIONS)('$name', ({ args, scans }) => {
		it.each([
			['4:2:0', ['-sample', '2x2'], 77, 45],
			['4:2:2', ['-sample', '2x1'], 64, 33],
			['4:4:0', ['-sample', '1x2'], 17, 9],
			['4:4:4', ['-sample', '1x1'], 120, 80],
		])('%s: the same pixels as the baseline file at every scale', (_name, sampling, width, height) => {
			const baseline = cjpeg(photoLike(width as number, height as number), ['-quality', '92', ...(sampling as string[])]);
			const rewritten = jpegtran(baseline, args, scans);
			expect(readJpegInfo(rewritten).progressive).toBe(!scans?.includes('0 63 0 0'));
			for (const scale of SCALES) {
				const expected = Buffer.from(decodeJpeg(baseline, { scale }).data);
				expect(Buffer.from(decodeJpeg(rewritten, { scale }).data).equals(expected)).toBe(true);
				// Held one MCU row at a time, the file walked again for each: the same pixels.
				expect(Buffer.from(decodeJpeg(rewritten, { scale, maxCoefficientBytes: 1 }).data).equals(expected)).toBe(true);
			}
		});
	});

	it('progressive 4:2:0 with subsampled chroma: the luma kept, colour a little further from djpeg', () => {
		const jpeg = cjpeg(photoLike(160, 120), ['-quality', '92', '-sample', '2x2', '-progressive']);
		const luma = ({ data }: RgbImage, p: number) => 0.299 * data[p] + 0.587 * data[p + 1] + 0.114 * data[p + 2];
		// Measured (worst channel's MAE against djpeg, subsampled / full chroma): 1/2 3.6 / 1.1,
		// 1/4 6.0 / 1.9, 1/8 8.2 / 1.4; luma at most 4.8 apart, where the saturated red box clips.
		// This picture's per-channel noise and red box are the worst case for colour; the bench's
		// photo of a document loses nothing measurable (PSNR 43.9 dB either way).
		expect(Buffer.from(decodeJpeg(jpeg, { scale: 1, subsampledChroma: true }).data).equals(Buffer.from(decodeJpeg(jpeg, { scale: 1 }).data))).toBe(true);
		for (const scale of [2, 4, 8] as const) {
			const image = decodeJpeg(jpeg, { scale, subsampledChroma: true });
			const full = decodeJpeg(jpeg, { scale });
			let lumaError = 0;
			for (let p = 0; p < image.data.length; p += 3) lumaError = Math.max(lumaError, Math.abs(luma(image, p) - luma(full, p)));
			expect(lumaError).toBeLessThan(6);
			expect(worst(compare(image, djpeg(jpeg, ['-nosmooth', '-scale', `1/${scale}`])))).toBeLessThan(10);
		}
	});

	it('decodeJpegRows hands a progressive file over as rows, top to bottom, a band at a time', () => {
		const jpeg = jpegtran(cjpeg(photoLike(64, 48), ['-sample', '2x2']), ['-progressive']);
		const whole = decodeJpeg(jpeg, { scale: 1 });
		const rows = decodeJpegRows(jpeg, { scale: 1, maxCoefficientBytes: 1 });
		expect('row' in rows).toBe(true);
		if (!('row' in rows)) return;
		for (let y = 0; y < rows.height; y++) expect(Buffer.from(rows.row(y)).equals(Buffer.from(whole.data.subarray(y * 64 * 3, (y + 1) * 64 * 3)))).toBe(true);
		expect(() => rows.row(0)).toThrow(/out of order/);
	});

	it('progressive grayscale from cjpeg matches djpeg', () => {
		const jpeg = cjpeg(photoLike(90, 70), ['-grayscale', '-progressive']);
		expect(readJpegInfo(jpeg)).toMatchObject({ components: 1, progressive: true });
		expect(worst(compare(decodeJpeg(jpeg, { scale: 1 }), djpeg(jpeg, ['-nosmooth'])))).toBeLessThan(0.5);
	});

	it('refuses a real arithmetic-coded file (cjpeg -arithmetic)', () => {
		const jpeg = cjpeg(photoLike(16, 16), ['-arithmetic']);
		expectRefused(() => decodeJpeg(jpeg, { scale: 1 }), /arithmetic/);
	});

	it('a truncated baseline or progressive file ends in a JpegError at every cut', () => {
		const baseline = cjpeg(photoLike(120, 90), ['-quality', '90']);
		const progressive = jpegtran(baseline, ['-progressive']);
		for (const jpeg of [baseline, progressive]) {
			const sos = markerAt(jpeg, 0xda);
			// Cuts in the headers and all through the image data (not the last two bytes: the EOI).
			const cuts = [3, 20, sos, sos + 10];
			for (let i = 1; i < 20; i++) cuts.push(sos + Math.floor(((jpeg.length - 4 - sos) * i) / 20));
			for (const cut of cuts) {
				for (const scale of SCALES) expectRefused(() => decodeJpeg(jpeg.subarray(0, cut), { scale }), /truncated|corrupt|no frame header|no image data/, 500);
			}
		}
	});

	it('random corruption ends in a picture or a JpegError, never another error or a hang', () => {
		const baseline = cjpeg(photoLike(64, 48), ['-quality', '85', '-sample', '2x2', '-restart', '1']);
		const progressive = jpegtran(baseline, ['-progressive']);
		let state = 99;
		const random = (n: number) => {
			state = (state * 1103515245 + 12345) & 0x7fffffff;
			return state % n;
		};
		const started = performance.now();
		let refused = 0;
		for (let round = 0; round < 400; round++) {
			const jpeg = Uint8Array.from(round % 2 === 0 ? baseline : progressive);
			for (let hits = 1 + random(4); hits > 0; hits--) jpeg[2 + random(jpeg.length - 2)] = random(256);
			try {
				const image = decodeJpeg(jpeg, { scale: SCALES[round % 4] });
				expect(image.data.length).toBe(image.width * image.height * 3);
			} catch (error) {
				expect(error).toBeInstanceOf(JpegError);
				refused++;
			}
		}
		expect(refused).toBeGreaterThan(0);
		expect(performance.now() - started).toBeLessThan(10_000);
	});
});

// ---- real photos ----

const CORPUS_JPEGS = MANIFEST.filter((entry) => /\.jpe?g$/i.test(entry.name)).map((entry) => ({ name: entry.name, path: corpusFile(entry.name) }));
const presentPhotos = CORPUS_JPEGS.filter((photo) => photo.path !== undefined);

describe.skipIf(!LIBJPEG || presentPhotos.length === 0)('real photos of the corpus against djpeg', () => {
	it.each(presentPhotos)('$name at every scale', ({ path }) => {
		const jpeg = new Uint8Array(readFileSync(path as string));
		const info = readJpegInfo(jpeg);
		const full = djpeg(jpeg, ['-nosmooth']);
		expect([info.width, info.height]).toEqual([full.width, full.height]);
		expect(worst(compare(decodeJpeg(jpeg, { scale: 1 }), full))).toBeLessThan(0.5);
		for (const scale of [2, 4, 8] as const) {
			const image = decodeJpeg(jpeg, { scale });
			expect(worst(compare(image, boxDownscale(full, scale)))).toBeLessThan(3);
			expect(worst(compare(image, djpeg(jpeg, ['-nosmooth', '-scale', `1/${scale}`])))).toBeLessThan(3);
		}
		// The same photo as a progressive file: the same pixels.
		const progressive = jpegtran(jpeg, ['-progressive']);
		for (const scale of [1, 4] as const) {
			expect(Buffer.from(decodeJpeg(progressive, { scale }).data).equals(Buffer.from(decodeJpeg(jpeg, { scale }).data))).toBe(true);
		}
	});
});

// ---- hostile files, with or without the tools ----

describe('hostile files end in a JpegError, quickly', () => {
	/** The 8 x 8 fixture JPEG claiming another size in its frame header. */
	function claiming(width: number, height: number): Uint8Array {
		const jpeg = new Uint8Array(jpegWithComment('x'));
		const at = markerAt(jpeg, 0xc0);
		jpeg.set([height >> 8, height & 0xff, width >> 8, width & 0xff], at + 5);
		return jpeg;
	}

	it('a small file claiming 60000 x 60000 pixels is refused before anything is allocated', () => {
		expectRefused(() => decodeJpeg(claiming(60000, 60000), { scale: 8 }), /60000 x 60000.*larger than the 100000000/, 50);
		expect(readJpegInfo(claiming(60000, 60000))).toMatchObject({ width: 60000, height: 60000 });
	});

	it('a small file claiming a size within the limit but far beyond its bytes is refused too', () => {
		expectRefused(() => decodeJpeg(claiming(10000, 10000), { scale: 1 }), /cannot fit in/, 50);
	});

	it('maxPixels is the caller’s limit', () => {
		expectRefused(() => decodeJpeg(jpegWithComment('x', 17, 9), { scale: 1, maxPixels: 100 }), /larger than the 100 pixels/);
		expect(DEFAULT_MAX_PIXELS).toBe(100_000_000);
	});

	it('a Huffman table whose code lengths overflow the code space', () => {
		const jpeg = jpegWithComment('x');
		const dht = markerAt(jpeg, 0xc4);
		const end = dht + 2 + jpeg.readUInt16BE(dht + 2);
		// A DC table with two 1-bit codes and one 2-bit code: 0, 1, then 10 is not a free prefix.
		const counts = Buffer.alloc(16);
		counts.set([2, 1]);
		const table = Buffer.concat([Buffer.from([0x00]), counts, Buffer.from([0, 1, 2])]);
		const segment = Buffer.concat([Buffer.from([0xff, 0xc4, 0, table.length + 2]), table]);
		const bad = new Uint8Array(Buffer.concat([jpeg.subarray(0, dht), segment, jpeg.subarray(end)]));
		expectRefused(() => decodeJpeg(bad, { scale: 1 }), /Huffman table \(its code lengths overflow/);
	});

	it('an endless run of markers, fill bytes or restart markers', () => {
		const soi = Buffer.from([0xff, 0xd8]);
		const comments = Buffer.concat([soi, Buffer.alloc(4_000_000, Buffer.from([0xff, 0xfe, 0x00, 0x02]))]);
		const fill = Buffer.concat([soi, Buffer.alloc(4_000_000, 0xff)]);
		const restarts = Buffer.concat([soi, Buffer.alloc(4_000_000, Buffer.from([0xff, 0xd0]))]);
		for (const bytes of [comments, fill, restarts]) {
			expectRefused(() => readJpegInfo(new Uint8Array(bytes)), /no frame header/, 2000);
			expectRefused(() => decodeJpeg(new Uint8Array(bytes), { scale: 1 }), /no frame header/, 2000);
		}
	});

	it('a progressive file with thousands of scans', () => {
		// Frame 8 x 8 grey progressive, then the same DC scan (one bit: code 0 = difference 0) again and again.
		const head = Buffer.from(jpegWithComment('x').subarray(0, markerAt(jpegWithComment('x'), 0xda)));
		head[markerAt(head, 0xc0) + 1] = 0xc2;
		const scan = Buffer.from([0xff, 0xda, 0, 8, 1, 1, 0x00, 0, 0, 0, 0x3f]);
		const bytes = Buffer.concat([head, ...Array.from({ length: 5000 }, () => scan), Buffer.from([0xff, 0xd9])]);
		expectRefused(() => decodeJpeg(new Uint8Array(bytes), { scale: 1 }), /more than 256 scans/);
	});

	it('a segment whose length runs past the end, and a scan before any frame', () => {
		expectRefused(() => readJpegInfo(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0x7f, 0xff, 0x45])), /runs past the end/);
		const scanFirst = new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0xff, 0xd9]);
		expectRefused(() => decodeJpeg(scanFirst, { scale: 1 }), /before the frame header/);
	});
});

if (!LIBJPEG) skipNotice(LIBJPEG_MISSING);
if (LIBJPEG && presentPhotos.length === 0) {
	skipNotice(`the real-world JPEG photos of the corpus are not here (looked in ${corpusPlacesLooked()}; \`npm run corpus\` fetches them)`);
}
