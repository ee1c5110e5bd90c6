import { crc32, deflateRawSync, deflateSync, constants as zlibConstants } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

import { decodePng, decodePngRows, PngError, readPngInfo } from '../../nodes/shared/images/pngDecode';
import type { RgbImage } from '../../nodes/shared/images/raster';
import { loadFixture } from '../fixtures';
import { pngWithText } from '../fixtures/images';
import { upngImage } from '../harness/upng';

/**
 * PNGs of every colour type, bit depth and interlacing, written here (node:zlib deflates them),
 * with every row filter in turn. Each decode is compared with the pixels the test put in, and with
 * an independent decoder (UPNG, which pdf-lib brings in) composited over white the same way.
 */

/** Timings, printed once the file's tests are done. */
const report: string[] = [];
afterAll(() => process.stdout.write(`${report.join('\n')}\n`));

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
];

interface PngSpec {
	width: number;
	height: number;
	colourType: number;
	bitDepth: number;
	interlaced?: boolean;
	/** Sample `channel` of pixel (x, y), in 0 .. 2^bitDepth - 1. */
	sample: (x: number, y: number, channel: number) => number;
	palette?: number[];
	transparency?: number[];
	/** IDAT chunks to split the data into. */
	idatCount?: number;
	/** Bytes appended to the inflated data (as some encoders pad it). */
	extraInflated?: number;
	/**
	 * No Average filter on the first row of a pass: UPNG undoes that one at the wrong offset in
	 * every pass but the first (its _filterZero reads data[x + 1], not data[off + x + 1]). UPNG
	 * also misreads an interlaced image with an empty Adam7 pass (narrower or lower than 5 pixels),
	 * and 1- and 2-bit interlaced ones: its inflate buffer, (row bytes + 2) x height, is too small
	 * for their per-pass padding, so it loses the last rows.
	 */
	forUpng?: boolean;
}

function chunk(type: string, data: Uint8Array): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
	return Buffer.concat([head, data, crc]);
}

function header(width: number, height: number, bitDepth: number, colourType: number, interlaced: boolean): Buffer {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr.set([bitDepth, colourType, 0, 0, interlaced ? 1 : 0], 8);
	return chunk('IHDR', ihdr);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
	const pa = Math.abs(b - c);
	const pb = Math.abs(a - c);
	const pc = Math.abs(a + b - c - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Filters one row with `type` (PNG 9.2), given the unfiltered row above. */
function filterRow(type: number, row: Uint8Array, up: Uint8Array, bpp: number): Uint8Array {
	const out = new Uint8Array(row.length + 1);
	out[0] = type;
	for (let i = 0; i < row.length; i++) {
		const a = i >= bpp ? row[i - bpp] : 0;
		const b = up[i];
		const c = i >= bpp ? up[i - bpp] : 0;
		const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][type];
		out[i + 1] = (row[i] - predictor) & 0xff;
	}
	return out;
}

/** The raw (filtered) image data: each pass's rows, packed at the bit depth, filters 0-4 in turn. */
function filteredData(spec: PngSpec): Buffer {
	const channels = CHANNELS[spec.colourType];
	const bits = channels * spec.bitDepth;
	const bpp = Math.max(1, bits >> 3);
	const passes = spec.interlaced ? ADAM7 : [[0, 0, 1, 1]];
	const rows: Uint8Array[] = [];
	let rowIndex = 0;
	for (const [x0, y0, dx, dy] of passes) {
		const passWidth = Math.max(0, Math.ceil((spec.width - x0) / dx));
		const passHeight = Math.max(0, Math.ceil((spec.height - y0) / dy));
		if (passWidth === 0 || passHeight === 0) continue;
		let up = new Uint8Array(Math.ceil((passWidth * bits) / 8));
		for (let py = 0; py < passHeight; py++) {
			const row = new Uint8Array(up.length);
			for (let px = 0; px < passWidth; px++) {
				for (let c = 0; c < channels; c++) {
					const value = spec.sample(x0 + px * dx, y0 + py * dy, c);
					const bit = (px * channels + c) * spec.bitDepth;
					if (spec.bitDepth === 16) {
						row[bit >> 3] = value >> 8;
						row[(bit >> 3) + 1] = value & 0xff;
					} else if (spec.bitDepth === 8) row[bit >> 3] = value;
					else row[bit >> 3] |= value << (8 - spec.bitDepth - (bit & 7));
				}
			}
			const type = rowIndex++ % 5;
			rows.push(filterRow(spec.forUpng && py === 0 && type === 3 ? 4 : type, row, up, bpp));
			up = row;
		}
	}
	return Buffer.concat([...rows, Buffer.alloc(spec.extraInflated ?? 0)]);
}

function buildPng(spec: PngSpec, compressed: Buffer = deflateSync(filteredData(spec))): Buffer {
	const pieces = spec.idatCount ?? 3;
	const size = Math.ceil(compressed.length / pieces);
	const idat: Buffer[] = [];
	for (let at = 0; at < compressed.length; at += size) idat.push(chunk('IDAT', compressed.subarray(at, at + size)));
	return Buffer.concat([
		SIGNATURE,
		header(spec.width, spec.height, spec.bitDepth, spec.colourType, spec.interlaced ?? false),
		...(spec.palette ? [chunk('PLTE', Uint8Array.from(spec.palette))] : []),
		...(spec.transparency ? [chunk('tRNS', Uint8Array.from(spec.transparency))] : []),
		chunk('tEXt', Buffer.from('Comment\0made by the test', 'latin1')),
		...idat,
		chunk('IEND', new Uint8Array(0)),
	]);
}

/** What the decode must give: each pixel from the spec, in exact arithmetic, over white. */
function expectedImage(spec: PngSpec): RgbImage {
	const max = 2 ** spec.bitDepth - 1;
	const data = new Uint8Array(spec.width * spec.height * 3);
	const trns = spec.transparency;
	for (let y = 0; y < spec.height; y++) {
		for (let x = 0; x < spec.width; x++) {
			const s = (c: number) => spec.sample(x, y, c);
			let rgb: number[];
			let alpha = 1;
			if (spec.colourType === 3) {
				const index = s(0);
				rgb = spec.palette!.slice(3 * index, 3 * index + 3).map((v) => v / 255);
				alpha = trns && index < trns.length ? trns[index] / 255 : 1;
			} else if (spec.colourType === 0 || spec.colourType === 4) {
				rgb = [s(0) / max, s(0) / max, s(0) / max];
				if (spec.colourType === 4) alpha = s(1) / max;
				else if (trns && s(0) === ((trns[0] << 8) | trns[1])) alpha = 0;
			} else {
				rgb = [s(0) / max, s(1) / max, s(2) / max];
				if (spec.colourType === 6) alpha = s(3) / max;
				else if (trns && [0, 1, 2].every((c) => s(c) === ((trns[2 * c] << 8) | trns[2 * c + 1]))) alpha = 0;
			}
			for (let c = 0; c < 3; c++) data[3 * (y * spec.width + x) + c] = Math.round(255 * (1 - (1 - rgb[c]) * alpha));
		}
	}
	return { width: spec.width, height: spec.height, data };
}

function largestDifference(a: RgbImage, b: RgbImage): number {
	expect([a.width, a.height]).toEqual([b.width, b.height]);
	let largest = 0;
	for (let i = 0; i < a.data.length; i++) largest = Math.max(largest, Math.abs(a.data[i] - b.data[i]));
	return largest;
}

/** A varied, deterministic sample: gradients plus a hash, so every filter has something to predict. */
function varied(max: number): (x: number, y: number, channel: number) => number {
	return (x, y, channel) => {
		const hash = Math.imul(x * 73856093 ^ y * 19349663 ^ channel * 83492791, 2654435761) >>> 0;
		return (x * 7 + y * 13 + channel * 29 + (hash % 5 === 0 ? hash >>> 16 : 0)) % (max + 1);
	};
}

const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const COMBINATIONS = Object.entries(DEPTHS).flatMap(([type, depths]) =>
	depths.flatMap((bitDepth) => [false, true].map((interlaced) => ({ colourType: Number(type), bitDepth, interlaced }))),
);

function specFor(colourType: number, bitDepth: number, interlaced: boolean, width = 13, height = 11): PngSpec {
	const max = 2 ** bitDepth - 1;
	const spec: PngSpec = { width, height, colourType, bitDepth, interlaced, sample: varied(max) };
	if (colourType === 3) {
		const entries = 2 ** bitDepth;
		spec.palette = Array.from({ length: 3 * entries }, (_, i) => (i * 37 + 11) % 256);
		// Alpha for the first few entries only: the rest are opaque (PNG 11.3.2.1).
		spec.transparency = Array.from({ length: Math.min(entries, 5) }, (_, i) => [0, 64, 128, 255, 200][i]);
	}
	return spec;
}

describe('decodePng: every colour type, bit depth and interlacing', () => {
	it.each(COMBINATIONS)('colour type $colourType, $bitDepth-bit, interlaced $interlaced', async ({ colourType, bitDepth, interlaced }) => {
		for (const [width, height] of [
			[13, 11],
			[1, 1],
			[3, 2],
			[9, 17],
		]) {
			const spec = specFor(colourType, bitDepth, interlaced, width, height);
			const png = buildPng(spec);
			expect(readPngInfo(png)).toEqual({ width, height, bitDepth, colourType, interlaced });
			const decoded = await decodePng(png);
			expect(largestDifference(decoded, expectedImage(spec))).toBe(0);
			if (interlaced && (width < 5 || height < 5 || bitDepth < 4)) continue;
			const forUpng = buildPng({ ...spec, forUpng: true });
			// UPNG keeps the high byte of a 16-bit sample where this decoder rounds: one level apart at most.
			expect(largestDifference(await decodePng(forUpng), upngImage(forUpng))).toBeLessThanOrEqual(bitDepth === 16 ? 1 : 0);
		}
	});

	it.each([
		{ colourType: 0, bitDepth: 1, clear: 1 },
		{ colourType: 0, bitDepth: 4, clear: 9 },
		{ colourType: 0, bitDepth: 8, clear: 20 },
		{ colourType: 0, bitDepth: 16, clear: 20 },
		{ colourType: 2, bitDepth: 8, clear: [7, 13, 29] },
		{ colourType: 2, bitDepth: 16, clear: [7, 13, 29] },
	])('a tRNS colour in colour type $colourType, $bitDepth-bit, is white', async ({ colourType, bitDepth, clear }) => {
		const spec = specFor(colourType, bitDepth, false, 16, 16);
		const values = Array.isArray(clear) ? clear : [clear];
		// Some pixels take exactly the transparent colour.
		const base = spec.sample;
		spec.sample = (x, y, c) => ((x + y) % 3 === 0 ? values[c] : base(x, y, c));
		spec.transparency = values.flatMap((v) => [v >> 8, v & 0xff]);
		const png = buildPng(spec);
		const decoded = await decodePng(png);
		expect(largestDifference(decoded, expectedImage(spec))).toBe(0);
		expect([...decoded.data.subarray(0, 3)]).toEqual([255, 255, 255]);
		// UPNG misreads a 16-bit grey tRNS; every other case it reads as this decoder does.
		if (!(colourType === 0 && bitDepth === 16)) expect(largestDifference(decoded, upngImage(png))).toBeLessThanOrEqual(bitDepth === 16 ? 1 : 0);
	});

	it('accepts a little padding after the image data', async () => {
		const spec = { ...specFor(2, 8, false), extraInflated: 16 };
		expect(largestDifference(await decodePng(buildPng(spec)), expectedImage(spec))).toBe(0);
	});

	it('reads the project fixtures: pngWithText and the receipt sample', async () => {
		const page = await decodePng(pngWithText([{ type: 'tEXt', keyword: 'Description', text: 'hello' }], 64, 96));
		expect([page.width, page.height]).toEqual([64, 96]);
		expect([...page.data.subarray(0, 3)]).toEqual([0xf4, 0xf4, 0xf4]);
		// Row 3 has a darker "line of text" from x = 5.
		expect([...page.data.subarray(3 * (3 * 64 + 5), 3 * (3 * 64 + 6))]).toEqual([0x60, 0x60, 0x60]);
		const receipt = await loadFixture('receiptPng');
		const full = await decodePng(receipt.bytes);
		const quarter = await decodePng(receipt.bytes, { scale: 4 });
		expect([full.width, full.height, quarter.width, quarter.height]).toEqual([1000, 1600, 250, 400]);
		expect(largestDifference(quarter, boxAverage(full, 4))).toBe(0);
	});
});

/** The reference for `scale`: s x s blocks of the full decode averaged, the edge blocks by what they hold. */
function boxAverage(image: RgbImage, s: number): RgbImage {
	const width = Math.ceil(image.width / s);
	const height = Math.ceil(image.height / s);
	const data = new Uint8Array(width * height * 3);
	for (let by = 0; by < height; by++) {
		for (let bx = 0; bx < width; bx++) {
			for (let c = 0; c < 3; c++) {
				let sum = 0;
				let count = 0;
				for (let y = by * s; y < Math.min(image.height, by * s + s); y++) {
					for (let x = bx * s; x < Math.min(image.width, bx * s + s); x++, count++) sum += image.data[3 * (y * image.width + x) + c];
				}
				data[3 * (by * width + bx) + c] = Math.round(sum / count);
			}
		}
	}
	return { width, height, data };
}

describe('decodePng with scale: blocks averaged while decoding', () => {
	it.each([2, 4, 8] as const)('scale %i equals the full decode box-averaged, interlaced or not, odd sizes', async (scale) => {
		for (const [colourType, bitDepth, interlaced] of [
			[6, 8, false],
			[6, 16, true],
			[3, 4, true],
			[0, 1, false],
		] as const) {
			const png = buildPng(specFor(colourType, bitDepth, interlaced, 37, 29));
			const reduced = await decodePng(png, { scale });
			expect(largestDifference(reduced, boxAverage(await decodePng(png), scale))).toBe(0);
		}
	});

	it.each([1, 2, 4] as const)('decodePngRows at scale %i hands over the rows of decodePng, top to bottom, each once', async (scale) => {
		for (const { colourType, bitDepth, interlaced } of COMBINATIONS) {
			const png = buildPng(specFor(colourType, bitDepth, interlaced, 37, 29));
			const whole = await decodePng(png, { scale });
			const rows: Uint8Array[] = [];
			let size: number[] = [];
			// Each row copied: the decoder reuses its row buffer.
			await decodePngRows(png, { scale }, (width, height) => ((size = [width, height]), { row: (data: Uint8Array) => rows.push(data.slice()) }));
			expect(size).toEqual([whole.width, whole.height]);
			expect(rows).toHaveLength(whole.height);
			rows.forEach((row, y) => expect(Buffer.from(row).equals(Buffer.from(whole.data.subarray(3 * y * whole.width, 3 * (y + 1) * whole.width)))).toBe(true));
		}
	});

	it('refuses a scale that is not 1, 2, 4 or 8', async () => {
		await expect(decodePng(buildPng(specFor(2, 8, false)), { scale: 3 as 2 })).rejects.toThrow(/scale must be/);
	});
});

/** A zlib stream of `gigabytes` x 1 GiB of zeros, built from one small deflated mebibyte repeated. */
function zeroBomb(gigabytes: number): Buffer {
	// Not the final block, ended by a sync flush: copies can follow one another in one stream.
	const mebibyte = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH });
	const last = deflateRawSync(Buffer.alloc(0));
	const copies = 1024 * gigabytes;
	const size = copies * 2 ** 20;
	// Adler-32 of `size` zeros: a stays 1, b adds 1 per byte.
	const adler = Buffer.alloc(4);
	adler.writeUInt32BE(((size % 65521) * 65536 + 1) >>> 0);
	return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: copies }, () => mebibyte), last, adler]);
}

describe('decodePng: hostile and damaged files', () => {
	it('refuses a tiny PNG that claims 60000 x 60000 pixels at once', async () => {
		const png = buildPng({ width: 1, height: 1, colourType: 2, bitDepth: 8, sample: () => 0 });
		png.writeUInt32BE(60000, 16);
		png.writeUInt32BE(60000, 20);
		png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
		const started = performance.now();
		await expect(decodePng(png)).rejects.toThrow(/60000 x 60000 pixels is over the limit of 100000000/);
		expect(readPngInfo(png).width).toBe(60000);
		expect(performance.now() - started).toBeLessThan(50);
		await expect(decodePng(buildPng(specFor(2, 8, false, 100, 100)), { maxPixels: 9999 })).rejects.toThrow(/over the limit of 9999/);
		// Within the pixel limit, but one row would need gigabytes of buffers.
		const line = buildPng({ width: 1, height: 1, colourType: 6, bitDepth: 16, sample: () => 0 });
		line.writeUInt32BE(50_000_000, 16);
		line.writeUInt32BE(crc32(line.subarray(12, 29)), 29);
		await expect(decodePng(line)).rejects.toThrow(/50000000 x 1 pixels is over the limit .* 1000000 on a side/);
	});

	it('refuses a PNG whose image data inflates to 1 GiB once past what its header declares, fast', async () => {
		const bomb = zeroBomb(1);
		const png = buildPng({ width: 1000, height: 1000, colourType: 0, bitDepth: 8, sample: () => 0 }, bomb);
		const started = performance.now();
		await expect(decodePng(png)).rejects.toThrow(/inflates to more than its header declares/);
		const elapsed = performance.now() - started;
		report.push(`PNG bomb (${(png.length / 1024).toFixed(0)} KiB file, 1 GiB inflated, 1 MB declared) refused in ${elapsed.toFixed(0)} ms`);
		expect(elapsed).toBeLessThan(2000);
	});

	it('ends every truncation of a file in an Error', async () => {
		const png = buildPng({ ...specFor(6, 8, true, 40, 30), idatCount: 4 });
		await expect(decodePng(png)).resolves.toBeDefined();
		for (let length = 0; length < png.length; length += length < 64 ? 1 : 7) {
			await expect(decodePng(png.subarray(0, length)), `cut at ${length} of ${png.length}`).rejects.toThrow(PngError);
		}
		// Cut just before IEND: every pixel is there but the file is not whole.
		await expect(decodePng(png.subarray(0, png.length - 12))).rejects.toThrow(/no IEND/);
	});

	it('refuses damaged data, sizes, chunks and filters', async () => {
		const good = buildPng(specFor(2, 8, false, 20, 20));
		const idat = good.indexOf('IDAT') + 4;
		const damaged = Buffer.from(good);
		damaged[idat + 30] ^= 0x55;
		await expect(decodePng(damaged)).rejects.toThrow(PngError);
		const badCrc = Buffer.from(good);
		badCrc[29] ^= 1;
		await expect(decodePng(badCrc)).rejects.toThrow(/CRC error in the IHDR chunk/);
		const zeroWidth = Buffer.concat([SIGNATURE, header(0, 5, 8, 2, false), good.subarray(33)]);
		await expect(decodePng(zeroWidth)).rejects.toThrow(/invalid size 0 x 5/);
		const badDepth = Buffer.concat([SIGNATURE, header(20, 20, 4, 2, false), good.subarray(33)]);
		await expect(decodePng(badDepth)).rejects.toThrow(/colour type 2 with bit depth 4/);
		await expect(decodePng(Buffer.from('GIF89a not a png at all, really not'))).rejects.toThrow(/not a PNG/);
		const raw = filteredData(specFor(2, 8, false, 20, 20));
		raw[0] = 9;
		await expect(decodePng(buildPng(specFor(2, 8, false, 20, 20), deflateSync(raw)))).rejects.toThrow(/unknown filter type 9/);
		const short = filteredData(specFor(2, 8, false, 20, 20)).subarray(0, 500);
		await expect(decodePng(buildPng(specFor(2, 8, false, 20, 20), deflateSync(short)))).rejects.toThrow(/cut short/);
		const palette = specFor(3, 8, false);
		delete palette.palette;
		await expect(decodePng(buildPng(palette))).rejects.toThrow(/without a PLTE/);
	});
});

describe('decodePng: time on a photo-sized file', () => {
	it('decodes a 4000 x 3000 RGB PNG at scale 1 and 2', async () => {
		const spec: PngSpec = { width: 4000, height: 3000, colourType: 2, bitDepth: 8, sample: (x, y, c) => (x + 2 * y + 50 * c) & 0xff };
		const png = buildPng(spec, deflateSync(filteredData(spec), { level: 1 }));
		for (const scale of [1, 2] as const) {
			const started = performance.now();
			const cpu = process.cpuUsage();
			const image = await decodePng(png, { scale });
			const { user, system } = process.cpuUsage(cpu);
			const times = `${(performance.now() - started).toFixed(0)} ms (CPU ${((user + system) / 1000).toFixed(0)} ms, with zlib's threads)`;
			report.push(`decodePng 4000 x 3000 RGB (${(png.length / 2 ** 20).toFixed(1)} MiB), scale ${scale}: ${times}`);
			expect(image.width).toBe(4000 / scale);
		}
	});
});
