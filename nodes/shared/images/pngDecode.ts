import { PngError } from './png/error';
import { inflateSteps } from './png/inflate';
import { PixelSink, pixelConverter } from './png/pixels';
import { CHANNELS, type Pass, type PngInfo } from './png/types';

export type { PngInfo } from './png/types';
import { ImageCollector, type RgbImage, type RowSink } from './raster';
import { runSteps, type Steps } from './steps';

/**
 * PNG to 8-bit RGB, for shrinking photos and scans before upload. Every colour type, bit depth
 * and Adam7 interlacing is read; alpha (and tRNS) is composited over white, as a document on
 * white paper. Chunk CRCs are checked for the small header chunks only (IHDR, PLTE, tRNS): the
 * image data is guarded by zlib's own Adler-32, which png/inflate.ts verifies.
 *
 * Memory: the IDAT data is inflated (png/inflate.ts, into one reused 64 KiB window) and unfiltered
 * row by row, so the filtered data (height x (1 + row bytes): 144 MB for a 48-megapixel RGB photo,
 * 384 MB in RGBA16) never exists at once, and `decodePngRows` hands each converted row on, so
 * neither does the decoded image. The peak is the file itself, the window, two rows and what the
 * sink keeps, plus, with `scale` > 1, 16-bit block sums of one row of blocks. An interlaced file,
 * whose passes come back to every row, is kept whole (at the output's size, with its block sums)
 * until its last pass. `npm run bench:shrink` measures it.
 */


export interface PngDecodeOptions {
	/** Refused above this many declared pixels (width x height), before anything is allocated. */
	maxPixels?: number;
	/** Averages scale x scale blocks while decoding: the full-size image never exists. */
	scale?: 1 | 2 | 4 | 8;
}

export { PngError };

export const DEFAULT_MAX_PIXELS = 100_000_000;

/**
 * libpng's default limit on either side. Row buffers grow with the width alone (up to 8 bytes a
 * pixel, twice), so a 100-million x 1 image within `maxPixels` would still cost gigabytes.
 */
const MAX_SIDE = 1_000_000;

/** Inflated bytes tolerated past what the header implies: a few encoders pad; a bomb is far more. */
const INFLATE_SLACK = 1024;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7 passes: first column, first row, column step, row step. */
const ADAM7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
];

/** The IHDR fields; throws a PngError when the file is not a PNG or the header is invalid. */
export function readPngInfo(bytes: Uint8Array): PngInfo {
	if (bytes.length < 33 || SIGNATURE.some((value, i) => bytes[i] !== value)) throw new PngError('not a PNG file');
	if (readUint32(bytes, 8) !== 13 || chunkType(bytes, 12) !== 'IHDR') throw new PngError('no IHDR chunk first');
	checkCrc(bytes, 8, 13);
	const info = { width: readUint32(bytes, 16), height: readUint32(bytes, 20), bitDepth: bytes[24], colourType: bytes[25], interlaced: bytes[28] === 1 };
	if (info.width === 0 || info.height === 0 || info.width > 0x7fffffff || info.height > 0x7fffffff) throw new PngError(`invalid size ${info.width} x ${info.height}`);
	if (!DEPTHS[info.colourType]?.includes(info.bitDepth)) throw new PngError(`invalid colour type ${info.colourType} with bit depth ${info.bitDepth}`);
	if (bytes[26] !== 0 || bytes[27] !== 0 || bytes[28] > 1) throw new PngError('unknown compression, filter or interlace method');
	return info;
}

export async function decodePng(bytes: Uint8Array, options: PngDecodeOptions = {}): Promise<RgbImage> {
	return (await decodePngRows(bytes, options, (width, height) => new ImageCollector(width, height))).result();
}

/**
 * As `decodePng`, but each row goes to the sink `open` makes for the output's size, top to bottom,
 * as soon as it is decoded (an interlaced file's once its last pass is in), so a resizer taking
 * them never holds the decoded image. A damaged file may throw after some rows have gone.
 */
export async function decodePngRows<Sink extends RowSink>(bytes: Uint8Array, options: PngDecodeOptions, open: (width: number, height: number) => Sink): Promise<Sink> {
	return runSteps(decodePngSteps(bytes, options, open));
}

/** `decodePngRows` as steps (steps.ts): a yield after each piece of data inflated (up to 64 KiB). */
export function* decodePngSteps<Sink extends RowSink>(bytes: Uint8Array, options: PngDecodeOptions, open: (width: number, height: number) => Sink): Steps<Sink> {
	const { maxPixels = DEFAULT_MAX_PIXELS, scale = 1 } = options;
	if (![1, 2, 4, 8].includes(scale)) throw new PngError(`scale must be 1, 2, 4 or 8, not ${scale}`);
	const info = readPngInfo(bytes);
	if (info.width * info.height > maxPixels || info.width > MAX_SIDE || info.height > MAX_SIDE) {
		throw new PngError(`${info.width} x ${info.height} pixels is over the limit of ${maxPixels} (or ${MAX_SIDE} on a side)`);
	}
	const { palette, transparency, idat } = readChunks(bytes, info);
	const passes = passesOf(info);
	const expected = passes.reduce((sum, pass) => sum + pass.height * (pass.rowBytes + 1), 0);
	const out = open(Math.ceil(info.width / scale), Math.ceil(info.height / scale));
	const sink = new PixelSink(info, scale, pixelConverter(info, palette, transparency), out);
	const rows = new RowReader(passes, bytesPerPixel(info), sink);
	yield* inflateSteps(idat, expected + INFLATE_SLACK, (data) => rows.push(data));
	if (!rows.complete) throw new PngError('the image data is cut short');
	yield* sink.finish();
	return out;
}

function passesOf(info: PngInfo): Pass[] {
	const bits = CHANNELS[info.colourType] * info.bitDepth;
	const steps = info.interlaced ? ADAM7 : [[0, 0, 1, 1]];
	return steps
		.map(([x0, y0, dx, dy]) => {
			const width = Math.max(0, Math.ceil((info.width - x0) / dx));
			const height = Math.max(0, Math.ceil((info.height - y0) / dy));
			return { x0, y0, dx, dy, width, height, rowBytes: Math.ceil((width * bits) / 8) };
		})
		.filter((pass) => pass.width > 0 && pass.height > 0);
}

function bytesPerPixel(info: PngInfo): number {
	return Math.max(1, (CHANNELS[info.colourType] * info.bitDepth) >> 3);
}

function readChunks(bytes: Uint8Array, info: PngInfo): { palette?: Uint8Array; transparency?: Uint8Array; idat: Uint8Array[] } {
	let palette: Uint8Array | undefined;
	let transparency: Uint8Array | undefined;
	const idat: Uint8Array[] = [];
	// Past the signature and IHDR; every chunk moves at least 12 bytes on, so the walk is bounded.
	for (let at = 33; ; ) {
		if (at + 12 > bytes.length) throw new PngError('the file is cut short (no IEND chunk)');
		const length = readUint32(bytes, at);
		const type = chunkType(bytes, at + 4);
		if (length > bytes.length - at - 12) throw new PngError(`the file is cut short inside a ${type} chunk`);
		const body = bytes.subarray(at + 8, at + 8 + length);
		if (type === 'IEND') break;
		if (type === 'IDAT') idat.push(body);
		else if (type === 'PLTE') {
			checkCrc(bytes, at, length);
			if (length % 3 !== 0 || length > 768) throw new PngError('invalid PLTE chunk');
			palette = body;
		} else if (type === 'tRNS') {
			checkCrc(bytes, at, length);
			if (length > 256) throw new PngError('invalid tRNS chunk');
			transparency = body;
		} else if (type === 'IHDR' || !/^[a-z]/.test(type)) throw new PngError(`unexpected critical chunk ${type}`);
		at += length + 12;
	}
	if (info.colourType === 3 && !palette) throw new PngError('a palette image without a PLTE chunk');
	if (idat.length === 0) throw new PngError('no image data');
	return { palette, transparency, idat };
}

/** Cuts the inflated data into rows, pass by pass, and undoes each row's filter. */
class RowReader {
	private pass = 0;
	private row = 0;
	private fill = 0;
	private line: Uint8Array;
	private previous: Uint8Array;

	constructor(
		private readonly passes: Pass[],
		private readonly pixelBytes: number,
		private readonly sink: PixelSink,
	) {
		const longest = Math.max(...passes.map((pass) => pass.rowBytes)) + 1;
		this.line = new Uint8Array(longest);
		this.previous = new Uint8Array(longest);
	}

	get complete(): boolean {
		return this.pass === this.passes.length;
	}

	push(data: Uint8Array): void {
		for (let at = 0; at < data.length && !this.complete; ) {
			const pass = this.passes[this.pass];
			const take = Math.min(pass.rowBytes + 1 - this.fill, data.length - at);
			this.line.set(data.subarray(at, at + take), this.fill);
			this.fill += take;
			at += take;
			if (this.fill === pass.rowBytes + 1) this.endRow(pass);
		}
	}

	private endRow(pass: Pass): void {
		const length = pass.rowBytes + 1;
		unfilter(this.line[0], this.line.subarray(1, length), this.previous.subarray(1, length), this.pixelBytes);
		this.sink.row(pass, this.row, this.line.subarray(1, length));
		[this.line, this.previous] = [this.previous, this.line];
		this.fill = 0;
		if (++this.row < pass.height) return;
		this.row = 0;
		this.pass++;
		// Each pass starts with a row of zeros above it.
		this.previous.fill(0);
	}
}

function unfilter(type: number, row: Uint8Array, up: Uint8Array, bpp: number): void {
	const n = row.length;
	if (type === 0) return;
	if (type === 1) for (let i = bpp; i < n; i++) row[i] += row[i - bpp];
	else if (type === 2) for (let i = 0; i < n; i++) row[i] += up[i];
	else if (type === 3) {
		for (let i = 0; i < bpp && i < n; i++) row[i] += up[i] >> 1;
		for (let i = bpp; i < n; i++) row[i] += (row[i - bpp] + up[i]) >> 1;
	} else if (type === 4) {
		for (let i = 0; i < bpp && i < n; i++) row[i] += up[i];
		for (let i = bpp; i < n; i++) {
			const a = row[i - bpp];
			const b = up[i];
			const c = up[i - bpp];
			const pa = Math.abs(b - c);
			const pb = Math.abs(a - c);
			const pc = Math.abs(a + b - c - c);
			row[i] += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
		}
	} else throw new PngError(`unknown filter type ${type}`);
}

function readUint32(bytes: Uint8Array, at: number): number {
	return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function chunkType(bytes: Uint8Array, at: number): string {
	return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

let crcTable: Uint32Array | undefined;

/** CRC-32 over the chunk's type and body (at most 780 bytes here: IHDR, PLTE, tRNS). */
function checkCrc(bytes: Uint8Array, at: number, length: number): void {
	if (!crcTable) {
		crcTable = new Uint32Array(256);
		for (let n = 0; n < 256; n++) {
			let c = n;
			for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
			crcTable[n] = c >>> 0;
		}
	}
	let crc = 0xffffffff;
	for (let i = at + 4; i < at + 8 + length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
	if (((crc ^ 0xffffffff) >>> 0) !== readUint32(bytes, at + 8 + length)) throw new PngError(`CRC error in the ${chunkType(bytes, at + 4)} chunk`);
}
