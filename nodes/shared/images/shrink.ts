import { MAX_FILE_BYTES, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../limits';
import { decodeJpegRows, readJpegInfo } from './jpegDecode';
import { encodeJpeg } from './jpegEncode';
import { applyOrientation } from './orientation';
import { decodePngRows, readPngInfo } from './pngDecode';
import { FitResizer, resizeToFit } from './resize';

/**
 * A phone photo or a scan too large to send, made into a JPEG the service takes: decoded at the
 * largest scale that keeps its long side at least the recommended size (spec 8.6), so a large
 * photo never exists at full resolution, resized to that long side, turned upright (EXIF), and
 * encoded as JPEG, at a lower quality when it is still over the size limit.
 */

export type PhotoKind = 'jpeg' | 'png';

export interface PhotoHeader {
	width: number;
	height: number;
	/** EXIF orientation 1-8 (a PNG's is 1). */
	orientation: number;
}

export interface ShrunkPhoto {
	bytes: Uint8Array;
	width: number;
	height: number;
	quality: number;
}

/** The size and orientation from the header, without decoding. Throws JpegError or PngError for a header that cannot be read. */
export function photoHeader(bytes: Uint8Array, kind: PhotoKind): PhotoHeader {
	if (kind === 'jpeg') {
		const { width, height, orientation } = readJpegInfo(bytes);
		return { width, height, orientation };
	}
	const { width, height } = readPngInfo(bytes);
	return { width, height, orientation: 1 };
}

/** Over the size limit, or larger than the text needs. */
export function needsShrinking(header: PhotoHeader, size: number): boolean {
	return size > MAX_FILE_BYTES || Math.max(header.width, header.height) > RECOMMENDED_IMAGE_LONG_SIDE_PX;
}

/** Qualities tried in turn: ~85 keeps small print sharp; lower only when the file is still too large. */
const QUALITIES = [85, 75, 65, 50, 35];

/**
 * The photo as a JPEG of at most the recommended long side and the size limit. Throws JpegError or
 * PngError for an image that cannot be decoded, and an Error when even the lowest quality is too large.
 */
export async function shrinkPhoto(bytes: Uint8Array, kind: PhotoKind, header: PhotoHeader = photoHeader(bytes, kind)): Promise<ShrunkPhoto> {
	const scale = decodeScale(Math.max(header.width, header.height), RECOMMENDED_IMAGE_LONG_SIDE_PX);
	// Decoded rows go straight into the resizer (a progressive JPEG's chroma kept subsampled: text is
	// in the luma), so the decoded image never exists whole: 48 megapixels peak at about 50 MiB
	// instead of 117, a 41-megapixel PNG at about 55 instead of 84 (docs/documents.md).
	const resized =
		kind === 'jpeg'
			? resizeToFit(decodeJpegRows(bytes, { scale, subsampledChroma: true }), RECOMMENDED_IMAGE_LONG_SIDE_PX)
			: (await decodePngRows(bytes, { scale }, (width, height) => new FitResizer(width, height, RECOMMENDED_IMAGE_LONG_SIDE_PX))).result();
	// Resized first, then turned: the long side is the same either way, and turning copies the small image, not the decoded one.
	const image = applyOrientation(resized, header.orientation);
	for (const quality of QUALITIES) {
		const encoded = encodeJpeg(image, quality);
		if (encoded.byteLength <= MAX_FILE_BYTES) return { bytes: encoded, width: image.width, height: image.height, quality };
	}
	throw new Error(`even as a JPEG of ${image.width} x ${image.height} pixels at quality ${QUALITIES.at(-1)} it is over the size limit`);
}

/** The largest decoder scale (1, 2, 4 or 8) whose output keeps the long side at least `target`. */
export function decodeScale(longSide: number, target: number): 1 | 2 | 4 | 8 {
	for (const scale of [8, 4, 2] as const) if (Math.ceil(longSide / scale) >= target) return scale;
	return 1;
}
