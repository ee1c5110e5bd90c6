/**
 * A JPEG decoder in plain TypeScript that can decode at 1/2, 1/4 or 1/8 size straight from the DCT
 * coefficients (libjpeg's scaled IDCTs), so a 48-megapixel photo can be shrunk without ever
 * holding it at full resolution.
 *
 * Decodes: baseline and extended sequential (SOF0/SOF1) and progressive (SOF2) Huffman JPEG,
 * 8-bit, grayscale or three components (YCbCr, or RGB when Adobe/ids say so), any sampling
 * factors, restart intervals. Refuses with a JpegError: arithmetic coding, lossless,
 * hierarchical, 12-bit, CMYK/YCCK, a size of 0 or above `maxPixels`, and corrupt or truncated
 * data (a scan that runs out of data is an error, not a grey remainder).
 *
 * Memory: a sequential JPEG in one scan (what cameras and phones write) is decoded MCU row by MCU
 * row into the output: the output plus a few rows. A progressive one keeps N x N coefficients per
 * block (N = 8 / scale) until its last scan, at most `maxCoefficientBytes` of them at a time (the
 * file decoded again for each band of rows), and renders a band at a time as its rows are read
 * (`decodeJpegRows`): see jpeg/buffered.ts for the figures.
 */
import { decode } from './jpeg/decoder';
import { JpegError } from './jpeg/error';
import { APP1, EOI, SOS, expectSoi, exifOrientation, isStartOfFrame, parseFrame, readSegment, type Frame } from './jpeg/markers';
import { wholeImage, type RgbImage, type RgbRows } from './raster';
import { runSteps, type Steps } from './steps';

export { JpegError };

export interface JpegInfo {
	width: number;
	height: number;
	components: number;
	progressive: boolean;
	/** EXIF orientation 1-8; 1 when absent */
	orientation: number;
}

export interface JpegDecodeOptions {
	/** output at 1/scale of the full size in each direction (rounded up) */
	scale: 1 | 2 | 4 | 8;
	/** refuse images whose declared width x height is above this; default DEFAULT_MAX_PIXELS */
	maxPixels?: number;
	/**
	 * progressive (or multi-scan) files only: keep subsampled chroma at its own resolution rather than the
	 * output's (a quarter of its coefficients for 4:2:0; colour edges then repeat samples, the
	 * luma is unchanged). Default false: the same pixels as the sequential file.
	 */
	subsampledChroma?: boolean;
	/**
	 * progressive (or multi-scan) files only: hold the coefficients of a band of MCU rows at a time within this,
	 * the file decoded again for each band (slower, same pixels); default DEFAULT_MAX_COEFFICIENT_BYTES
	 */
	maxCoefficientBytes?: number;
}

export const DEFAULT_MAX_PIXELS = 100_000_000;
/** 48 megapixels 4:2:0 at 1/2 with subsampled chroma (36 MB of coefficients) in two bands. */
export const DEFAULT_MAX_COEFFICIENT_BYTES = 20_000_000;

/**
 * Size, components, progressiveness and EXIF orientation, from the segments before the image data
 * (no decoding). Throws a JpegError for a file `decodeJpeg` would refuse by its header.
 */
export function readJpegInfo(bytes: Uint8Array): JpegInfo {
	expectSoi(bytes);
	let frame: Frame | undefined;
	let orientation: number | undefined;
	let at = 2;
	for (;;) {
		const segment = readSegment(bytes, at);
		if (!segment || segment.marker === EOI || segment.marker === SOS) break;
		at = segment.bodyEnd;
		if (segment.marker === APP1) orientation ??= exifOrientation(bytes, segment);
		else if (isStartOfFrame(segment.marker)) {
			if (frame) throw new JpegError('corrupt JPEG: a second frame header');
			frame = parseFrame(bytes, segment);
		}
	}
	if (!frame) throw new JpegError('not a decodable JPEG: no frame header before the image data');
	return {
		width: frame.width,
		height: frame.height,
		components: frame.components.length,
		progressive: frame.progressive,
		orientation: orientation ?? 1,
	};
}

/** Decodes to 8-bit RGB at 1/scale size. Throws a JpegError for what it cannot or will not decode. */
export function decodeJpeg(bytes: Uint8Array, options: JpegDecodeOptions): RgbImage {
	return wholeImage(decodeJpegRows(bytes, options));
}

/**
 * As `decodeJpeg`, but a progressive file's image comes as rows rendered on demand, top to
 * bottom (raster.ts), so a resizer reading them never holds it whole. Every scan is decoded (and
 * every error thrown) before it returns.
 */
export function decodeJpegRows(bytes: Uint8Array, options: JpegDecodeOptions): RgbImage | RgbRows {
	return runSteps(decodeJpegSteps(bytes, options));
}

/** `decodeJpegRows` as steps (steps.ts): a yield after each row of blocks or MCUs decoded. */
export function* decodeJpegSteps(bytes: Uint8Array, options: JpegDecodeOptions): Steps<RgbImage | RgbRows> {
	const { scale } = options;
	if (scale !== 1 && scale !== 2 && scale !== 4 && scale !== 8) throw new JpegError(`unsupported scale ${String(scale)} (1, 2, 4 or 8)`);
	return yield* decode(bytes, {
		scale,
		maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS,
		subsampledChroma: options.subsampledChroma ?? false,
		maxCoefficientBytes: options.maxCoefficientBytes ?? DEFAULT_MAX_COEFFICIENT_BYTES,
	});
}
