import { MAX_FILE_BYTES, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../limits';
import { throwIfCancelled } from '../cancel';
import { decodeJpegSteps, readJpegInfo } from './jpegDecode';
import { encodeJpegSteps } from './jpegEncode';
import { applyOrientationSteps } from './orientation';
import { decodePngSteps, readPngInfo } from './pngDecode';
import { FitResizer, resizeToFitSteps } from './resize';
import { runGivingWay, runSteps, type GiveWay, type Steps } from './steps';

/**
 * A phone photo or a scan too large to send, made into a JPEG the service takes: decoded at the
 * largest scale that keeps its long side at least the recommended size (spec 8.6), so a large
 * photo never exists at full resolution, resized to that long side, turned upright (EXIF), and
 * encoded as JPEG, at a lower quality when it is still over the size limit. In n8n it gives way to
 * the event loop every 20 ms or so (steps.ts), and shrinks one photo at a time in the process.
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

/** The shrink running now in this process, if any: the next one starts once it has ended. */
let running: Promise<void> = Promise.resolve();

/**
 * The photo as a JPEG of at most the recommended long side and the size limit. Throws JpegError or
 * PngError for an image that cannot be decoded, and an Error when even the lowest quality is too large.
 * About 2 s of CPU for a 48-megapixel photo. With `giveWay` (the node passes n8n's sleep and the
 * execution's cancel signal), in slices of about 20 ms between which n8n's other work runs, stopped
 * with ExecutionCancelledError at the end of the slice once the signal is aborted; without it,
 * straight through. One shrink at a time in the process: shrinks that take turns would each hold
 * their decoding memory (about 60 MB for 48 megapixels) at once.
 */
export async function shrinkPhoto(bytes: Uint8Array, kind: PhotoKind, header: PhotoHeader = photoHeader(bytes, kind), giveWay?: GiveWay): Promise<ShrunkPhoto> {
	const before = running;
	let done = () => {};
	running = new Promise((resolve) => (done = resolve));
	try {
		await before;
		throwIfCancelled(giveWay?.signal);
		const steps = shrinkSteps(bytes, kind, header);
		return giveWay ? await runGivingWay(steps, giveWay) : runSteps(steps);
	} finally {
		done();
	}
}

function* shrinkSteps(bytes: Uint8Array, kind: PhotoKind, header: PhotoHeader): Steps<ShrunkPhoto> {
	const scale = decodeScale(Math.max(header.width, header.height), RECOMMENDED_IMAGE_LONG_SIDE_PX);
	// Decoded rows go straight into the resizer (a progressive JPEG's chroma kept subsampled: text is
	// in the luma), so the decoded image never exists whole: 48 megapixels peak at about 50 MiB
	// instead of 117, a 41-megapixel PNG at about 55 instead of 84 (docs/documents.md).
	const resized =
		kind === 'jpeg'
			? yield* resizeToFitSteps(yield* decodeJpegSteps(bytes, { scale, subsampledChroma: true }), RECOMMENDED_IMAGE_LONG_SIDE_PX)
			: (yield* decodePngSteps(bytes, { scale }, (width, height) => new FitResizer(width, height, RECOMMENDED_IMAGE_LONG_SIDE_PX))).result();
	// Resized first, then turned: the long side is the same either way, and turning copies the small image, not the decoded one.
	const image = yield* applyOrientationSteps(resized, header.orientation);
	for (const quality of QUALITIES) {
		const encoded = yield* encodeJpegSteps(image, quality);
		if (encoded.byteLength <= MAX_FILE_BYTES) return { bytes: encoded, width: image.width, height: image.height, quality };
	}
	throw new Error(`even as a JPEG of ${image.width} x ${image.height} pixels at quality ${QUALITIES.at(-1)} it is over the size limit`);
}

/** The largest decoder scale (1, 2, 4 or 8) whose output keeps the long side at least `target`. */
export function decodeScale(longSide: number, target: number): 1 | 2 | 4 | 8 {
	for (const scale of [8, 4, 2] as const) if (Math.ceil(longSide / scale) >= target) return scale;
	return 1;
}
