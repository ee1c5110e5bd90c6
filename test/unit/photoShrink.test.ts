import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { JpegError, readJpegInfo } from '../../nodes/shared/images/jpegDecode';
import { encodeJpeg } from '../../nodes/shared/images/jpegEncode';
import { PngError } from '../../nodes/shared/images/pngDecode';
import { decodeScale, needsShrinking, photoHeader, shrinkPhoto } from '../../nodes/shared/images/shrink';
import { MAX_FILE_BYTES, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../../nodes/shared/limits';
import { pngChunk, pngWithText } from '../fixtures/images';

/** A grey gradient of `width` x `height`, as a JPEG. */
function gradientJpeg(width: number, height: number): Uint8Array {
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill((x + y) & 0xff, 3 * (y * width + x), 3 * (y * width + x) + 3);
	return encodeJpeg({ width, height, data }, 90);
}

/** `jpeg` with a big-endian EXIF block saying `orientation` (tag 274), after its SOI. */
function withOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
	const tiff = Buffer.alloc(8 + 2 + 12 + 4);
	tiff.write('MM', 0, 'latin1');
	tiff.writeUInt16BE(42, 2);
	tiff.writeUInt32BE(8, 4);
	tiff.writeUInt16BE(1, 8);
	tiff.writeUInt16BE(0x0112, 10);
	tiff.writeUInt16BE(3, 12);
	tiff.writeUInt32BE(1, 14);
	tiff.writeUInt16BE(orientation, 18);
	const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
	const head = Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
	return new Uint8Array(Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), head, body, Buffer.from(jpeg.subarray(2))]));
}

describe('photo shrink (images/shrink.ts)', () => {
	it('decodes at the largest scale that keeps the long side at 2,600 pixels or more', () => {
		expect(decodeScale(2000, 2600)).toBe(1);
		expect(decodeScale(4032, 2600)).toBe(1);
		expect(decodeScale(5200, 2600)).toBe(2);
		expect(decodeScale(6000, 2600)).toBe(2);
		expect(decodeScale(10_400, 2600)).toBe(4);
		expect(decodeScale(20_792, 2600)).toBe(4);
		// The decoders round up: 20,793 / 8 gives 2,600 pixels.
		expect(decodeScale(20_793, 2600)).toBe(8);
		expect(decodeScale(20_800, 2600)).toBe(8);
		expect(decodeScale(100_000, 2600)).toBe(8);
	});

	it('shrinks a photo over the size limit, or over 2,600 pixels on its long side, and nothing else', () => {
		const long = RECOMMENDED_IMAGE_LONG_SIDE_PX;
		expect(needsShrinking({ width: long, height: 1000, orientation: 1 }, MAX_FILE_BYTES)).toBe(false);
		expect(needsShrinking({ width: 1000, height: long + 1, orientation: 1 }, 1000)).toBe(true);
		expect(needsShrinking({ width: 1000, height: 1000, orientation: 1 }, MAX_FILE_BYTES + 1)).toBe(true);
	});

	it('a wide JPEG becomes 2,600 pixels wide at quality 85, its height in proportion', async () => {
		const jpeg = gradientJpeg(5400, 1200);
		const shrunk = await shrinkPhoto(jpeg, 'jpeg');
		expect(shrunk).toMatchObject({ width: 2600, height: 578, quality: 85 });
		expect(readJpegInfo(shrunk.bytes)).toMatchObject({ width: 2600, height: 578 });
	});

	it('a photo taken with the phone turned (EXIF orientation 6) is sent upright', async () => {
		const jpeg = withOrientation(gradientJpeg(5400, 1200), 6);
		expect(photoHeader(jpeg, 'jpeg')).toEqual({ width: 5400, height: 1200, orientation: 6 });
		const shrunk = await shrinkPhoto(jpeg, 'jpeg');
		expect(readJpegInfo(shrunk.bytes)).toMatchObject({ width: 578, height: 2600, orientation: 1 });
	});

	it('a tall PNG becomes a JPEG 2,600 pixels high', async () => {
		const png = pngWithText([], 1200, 3000);
		expect(photoHeader(png, 'png')).toEqual({ width: 1200, height: 3000, orientation: 1 });
		const shrunk = await shrinkPhoto(png, 'png');
		expect(readJpegInfo(shrunk.bytes)).toMatchObject({ width: 1040, height: 2600 });
	});

	it('a JPEG whose data stops half way is a JpegError, not a grey remainder', async () => {
		const jpeg = gradientJpeg(3000, 800);
		await expect(shrinkPhoto(jpeg.subarray(0, jpeg.length >> 1), 'jpeg')).rejects.toThrow(JpegError);
	});
});

/**
 * Hostile files through the whole step, as the node runs it on a file it read (photo.ts): the
 * header is believed only as far as the decoders' limits, and each is refused before anything the
 * size of its claim is allocated, in milliseconds, with the decoder's own error (the item's message).
 */
describe('photo shrink: hostile files refused before they allocate', () => {
	/** `bytes` with its frame header (SOF0, which encodeJpeg writes) claiming `width` x `height`. */
	function jpegClaiming(width: number, height: number): Uint8Array {
		const bytes = Buffer.from(gradientJpeg(16, 16));
		const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
		bytes.writeUInt16BE(height, sof + 5);
		bytes.writeUInt16BE(width, sof + 7);
		return new Uint8Array(bytes);
	}

	/** The PNG with its IHDR saying `width` x `height`, its CRC made right. */
	function pngClaiming(png: Buffer, width: number, height: number): Buffer {
		const bytes = Buffer.from(png);
		bytes.writeUInt32BE(width, 16);
		bytes.writeUInt32BE(height, 20);
		bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
		return bytes;
	}

	/**
	 * Refused with `message`, within `ms`, with `arrayBuffers` (typed arrays not yet collected
	 * included: no garbage collection is forced) at most `bytes` more once it is refused.
	 */
	async function expectRefused(bytes: Uint8Array, kind: 'jpeg' | 'png', error: typeof JpegError | typeof PngError, message: RegExp, ms: number, maxBytes = 1_000_000): Promise<void> {
		const header = photoHeader(bytes, kind);
		expect(needsShrinking(header, bytes.byteLength)).toBe(true);
		const before = process.memoryUsage().arrayBuffers;
		let largest = 0;
		const started = performance.now();
		const shrinking = shrinkPhoto(bytes, kind, header);
		largest = Math.max(largest, process.memoryUsage().arrayBuffers - before);
		await expect(shrinking).rejects.toThrow(error);
		await expect(shrinking).rejects.toThrow(message);
		expect(performance.now() - started).toBeLessThan(ms);
		largest = Math.max(largest, process.memoryUsage().arrayBuffers - before);
		expect(largest).toBeLessThan(maxBytes);
	}

	it('a JPEG of under 2 KB claiming 60000 x 60000 pixels (3.6 gigapixels): over the decoder\'s 100 megapixels', async () => {
		const jpeg = jpegClaiming(60000, 60000);
		expect(jpeg.byteLength).toBeLessThan(2000);
		await expectRefused(jpeg, 'jpeg', JpegError, /60000 x 60000 pixels is larger than the 100000000 pixels/, 100);
	});

	it('a small JPEG claiming 9000 x 9000 pixels, within the limit: refused as too short for that many blocks', async () => {
		await expectRefused(jpegClaiming(9000, 9000), 'jpeg', JpegError, /cannot fit in \d+ bytes/, 100);
	});

	it('a small PNG claiming 60000 x 60000 pixels', async () => {
		await expectRefused(pngClaiming(pngWithText([], 64, 64), 60000, 60000), 'png', PngError, /60000 x 60000 pixels is over the limit of 100000000/, 100);
	});

	it('a PNG bomb: 3,000 x 1,000 grey declared, its data inflating to 256 MiB of zeros, refused once past what the header declares (3 MB)', async () => {
		const bomb = deflateSync(Buffer.alloc(256 * 2 ** 20), { level: 9 });
		const png = pngClaiming(pngWithText([], 64, 64), 3000, 1000);
		const idat = png.indexOf('IDAT') - 4;
		const file = Buffer.concat([png.subarray(0, idat), pngChunk('IDAT', bomb), pngChunk('IEND', Buffer.alloc(0))]);
		expect(file.byteLength).toBeLessThan(300_000);
		// What the claim itself costs is allocated (the 9 MB RGB result, inflate's chunks): never the bomb's 256 MiB.
		await expectRefused(file, 'png', PngError, /inflates to more than its header declares/, 1000, 16_000_000);
	});
});
