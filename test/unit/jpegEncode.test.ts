import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { encodeJpeg } from '../../nodes/shared/images/jpegEncode';
import { decodePng } from '../../nodes/shared/images/pngDecode';
import type { RgbImage } from '../../nodes/shared/images/raster';
import { resizeToFit } from '../../nodes/shared/images/resize';
import { loadFixture } from '../fixtures';
import { QPDF_AVAILABLE, QPDF_MISSING_MESSAGE } from '../harness/corpus';
import { skipNotice } from '../harness/skipNotice';

/**
 * The encoder's files are read back by an independent decoder: libjpeg, through qpdf, which
 * decodes a PDF image's DCTDecode stream with it (`--decode-level=all`). No JPEG codec is among
 * the project's packages, and djpeg, cjpeg and ImageMagick are not installed here.
 */

const work = mkdtempSync(join(tmpdir(), 'jpeg-encode-'));
/** Errors, sizes and timings, printed once the file's tests are done. */
const report: string[] = [];
afterAll(() => {
	rmSync(work, { recursive: true, force: true });
	process.stdout.write(`${report.join('\n')}\n`);
});

/** A one-image PDF whose image is the JPEG, as it is (DCTDecode, DeviceRGB). */
function pdfWithJpeg(jpeg: Uint8Array, width: number, height: number): Buffer {
	const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
	const offsets: number[] = [];
	const length = () => parts.reduce((sum, part) => sum + part.length, 0);
	const object = (id: number, ...body: Array<string | Uint8Array>) => {
		offsets[id] = length();
		parts.push(Buffer.from(`${id} 0 obj\n`), ...body.map((b) => Buffer.from(b)), Buffer.from('\nendobj\n'));
	};
	const dictionary = `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>`;
	object(1, `${dictionary}\nstream\n`, jpeg, '\nendstream');
	object(2, '<< /Type /Catalog /Pages 3 0 R >>');
	object(3, '<< /Type /Pages /Kids [] /Count 0 >>');
	const xref = length();
	const entries = [1, 2, 3].map((id) => `${String(offsets[id]).padStart(10, '0')} 00000 n \n`).join('');
	parts.push(Buffer.from(`xref\n0 4\n0000000000 65535 f \n${entries}trailer\n<< /Size 4 /Root 2 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
	return Buffer.concat(parts);
}

let files = 0;

/** libjpeg's reading of the file; any warning it prints (corrupt data, extraneous bytes) fails the test. */
function decodeWithLibjpeg(jpeg: Uint8Array, width: number, height: number): RgbImage {
	const path = join(work, `image-${files++}.pdf`);
	writeFileSync(path, pdfWithJpeg(jpeg, width, height));
	const result = spawnSync('qpdf', ['--show-object=1', '--filtered-stream-data', '--decode-level=all', path], { maxBuffer: 1 << 28 });
	expect(result.stderr.toString()).toBe('');
	expect(result.status).toBe(0);
	expect(result.stdout.length).toBe(width * height * 3);
	return { width, height, data: new Uint8Array(result.stdout) };
}

/** Mean absolute error per channel (R, G, B). */
function meanErrors(a: RgbImage, b: RgbImage): number[] {
	const sums = [0, 0, 0];
	for (let i = 0; i < a.data.length; i++) sums[i % 3] += Math.abs(a.data[i] - b.data[i]);
	return sums.map((sum) => sum / (a.width * a.height));
}

/** Smooth colour: gradients and a slow wave, as a photo's large areas are. */
function smoothImage(width: number, height: number): RgbImage {
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const at = 3 * (y * width + x);
			data[at] = (255 * x) / width;
			data[at + 1] = (255 * y) / height;
			data[at + 2] = 128 + 100 * Math.sin(x / 23 + y / 31);
		}
	}
	return { width, height, data };
}

/** Dark "lines of text" (short strokes) on white paper: hard edges everywhere. */
function textImage(width: number, height: number): RgbImage {
	const data = new Uint8Array(width * height * 3).fill(255);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const inLine = y % 24 >= 6 && y % 24 < 18;
			const stroke = (x % 9 < 2 || (y % 24 === 11 && x % 9 < 6)) && Math.floor(x / 50) % 4 !== 3;
			if (inLine && stroke) data.fill(20, 3 * (y * width + x), 3 * (y * width + x) + 3);
		}
	}
	return { width, height, data };
}

/** The marker segments of the file in order, up to the start of scan: marker and body. */
function segments(jpeg: Uint8Array): Array<{ marker: number; body: Uint8Array }> {
	const found: Array<{ marker: number; body: Uint8Array }> = [];
	for (let at = 2; at < jpeg.length && jpeg[at] === 0xff; ) {
		const end = at + 2 + ((jpeg[at + 2] << 8) | jpeg[at + 3]);
		found.push({ marker: jpeg[at + 1], body: jpeg.subarray(at + 4, end) });
		if (jpeg[at + 1] === 0xda) break;
		at = end;
	}
	return found;
}

const segment = (jpeg: Uint8Array, marker: number) => [...(segments(jpeg).find((s) => s.marker === marker)?.body ?? [])];

describe('encodeJpeg: the file itself', () => {
	it('is baseline JFIF with 4:2:0 YCbCr, libjpeg-scaled Annex K tables and no EXIF', () => {
		const jpeg = encodeJpeg(smoothImage(40, 30), 75);
		expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
		expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
		// SOI, APP0 (JFIF), DQT, SOF0 (baseline), DHT, SOS: no APP1 (EXIF).
		expect(segments(jpeg).map((s) => s.marker)).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xda]);
		expect(segment(jpeg, 0xe0)).toEqual([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
		// 8-bit, 30 x 40, three components: Y 2 x 2 with table 0, Cb and Cr 1 x 1 with table 1.
		expect(segment(jpeg, 0xc0)).toEqual([8, 0, 30, 0, 40, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
		// Quality 75: each Annex K entry x 0.5, + 0.5, floored (libjpeg); the first zig-zag entries of each table.
		const tables = segment(jpeg, 0xdb);
		expect(tables.length).toBe(130);
		expect(tables.slice(0, 4)).toEqual([0, 8, 6, 6]);
		expect(tables.slice(65, 69)).toEqual([1, 9, 9, 9]);
		// Quality 50 is the table as printed; 100 is all ones; 1 is capped at 255 (baseline).
		expect(segment(encodeJpeg(smoothImage(8, 8), 50), 0xdb).slice(1, 4)).toEqual([16, 11, 12]);
		expect(new Set(segment(encodeJpeg(smoothImage(8, 8), 100), 0xdb))).toEqual(new Set([0, 1]));
		expect(Math.max(...segment(encodeJpeg(smoothImage(8, 8), 1), 0xdb))).toBe(255);
		// Four Huffman tables, each 162 AC or 12 DC symbols long, as Annex K.3 lists them.
		expect(segment(jpeg, 0xc4).length).toBe(4 * 17 + 2 * 12 + 2 * 162);
	});

	it('refuses sizes a baseline JPEG cannot hold', () => {
		expect(() => encodeJpeg({ width: 0, height: 5, data: new Uint8Array(0) }, 85)).toThrow(/cannot encode a 0 x 5/);
		expect(() => encodeJpeg({ width: 70000, height: 1, data: new Uint8Array(210000) }, 85)).toThrow(/70000 x 1/);
		expect(() => encodeJpeg({ width: 4, height: 4, data: new Uint8Array(10) }, 85)).toThrow(/shorter/);
	});

	it('gets smaller as quality goes down', () => {
		const image = smoothImage(320, 240);
		const sizes = [95, 85, 75, 50, 20, 1].map((quality) => encodeJpeg(image, quality).length);
		report.push(`encodeJpeg 320 x 240 smooth image, bytes at quality 95/85/75/50/20/1: ${sizes.join(' / ')}`);
		for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1]);
	});
});

if (!QPDF_AVAILABLE) skipNotice(`${QPDF_MISSING_MESSAGE} (the JPEG encoder's output read back by libjpeg)`);
describe.skipIf(!QPDF_AVAILABLE)('encodeJpeg: read back by libjpeg (qpdf)', () => {
	it('a smooth image at quality 85 comes back within 4 levels per channel on average', () => {
		const image = smoothImage(320, 240);
		const errors = meanErrors(decodeWithLibjpeg(encodeJpeg(image, 85), 320, 240), image);
		const [r, g, b] = errors.map((e) => e.toFixed(2));
		report.push(`quality 85, smooth 320 x 240: mean absolute error R ${r}, G ${g}, B ${b}`);
		for (const error of errors) expect(error).toBeLessThan(4);
	});

	it('every quality decodes, with the error growing as quality falls', () => {
		const image = smoothImage(160, 120);
		const errors = [100, 95, 75, 40, 10, 1].map((quality) => {
			const [r, g, b] = meanErrors(decodeWithLibjpeg(encodeJpeg(image, quality), 160, 120), image);
			return (r + g + b) / 3;
		});
		report.push(`mean error at quality 100/95/75/40/10/1: ${errors.map((e) => e.toFixed(2)).join(' / ')}`);
		for (let i = 1; i < errors.length; i++) expect(errors[i]).toBeGreaterThan(errors[i - 1]);
	});

	it('sizes that are not multiples of 16, down to 1 x 1', () => {
		for (const [width, height] of [
			[1, 1],
			[17, 9],
			[33, 31],
			[8, 200],
			[255, 1],
		]) {
			const image = smoothImage(width, height);
			const errors = meanErrors(decodeWithLibjpeg(encodeJpeg(image, 90), width, height), image);
			for (const error of errors) expect(error, `${width} x ${height}`).toBeLessThan(5);
		}
	});

	it('dark text on white keeps its strokes at quality 85', () => {
		const image = textImage(400, 240);
		const decoded = decodeWithLibjpeg(encodeJpeg(image, 85), 400, 240);
		const errors = meanErrors(decoded, image);
		report.push(`quality 85, text 400 x 240: mean absolute error ${errors.map((e) => e.toFixed(2)).join(' / ')}`);
		for (const error of errors) expect(error).toBeLessThan(6);
		// Strokes stay dark and the paper stays light, everywhere (no ringing turns either grey).
		let lightestStroke = 0;
		let darkestPaper = 255;
		for (let i = 0; i < image.data.length; i++) {
			if (image.data[i] === 20) lightestStroke = Math.max(lightestStroke, decoded.data[i]);
			else darkestPaper = Math.min(darkestPaper, decoded.data[i]);
		}
		report.push(`quality 85, text: lightest stroke sample ${lightestStroke}, darkest paper sample ${darkestPaper}`);
		expect(lightestStroke).toBeLessThan(80);
		expect(darkestPaper).toBeGreaterThan(200);
	});

	it('the receipt sample: PNG decoded, shrunk to 800 px, encoded, read back', async () => {
		const png = await decodePng((await loadFixture('receiptPng')).bytes);
		const small = resizeToFit(png, 800);
		const jpeg = encodeJpeg(small, 85);
		const errors = meanErrors(decodeWithLibjpeg(jpeg, small.width, small.height), small);
		expect([small.width, small.height]).toEqual([500, 800]);
		for (const error of errors) expect(error).toBeLessThan(3);
	});
});

describe('encodeJpeg: time', () => {
	it('encodes a 2600 x 1950 image', () => {
		const image = smoothImage(2600, 1950);
		// Texture as a photo has it: a little noise on the smooth image.
		for (let i = 0; i < image.data.length; i += 7) image.data[i] = Math.min(255, image.data[i] + ((i * 2654435761) >>> 28));
		const times: string[] = [];
		let size = 0;
		for (let run = 0; run < 3; run++) {
			const started = performance.now();
			const cpu = process.cpuUsage();
			size = encodeJpeg(image, 85).length;
			const { user, system } = process.cpuUsage(cpu);
			times.push(`${(performance.now() - started).toFixed(0)} ms (CPU ${((user + system) / 1000).toFixed(0)} ms)`);
		}
		report.push(`encodeJpeg 2600 x 1950 at quality 85: ${times.join(', ')}; ${(size / 1024).toFixed(0)} KiB`);
		expect(size).toBeGreaterThan(0);
	});
});
