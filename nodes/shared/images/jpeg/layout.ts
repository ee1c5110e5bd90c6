/**
 * The geometry of a frame decoded at a scale: MCUs, blocks per component, output size. Checked
 * against the caller's pixel limit, and against the file's length, before anything is allocated.
 */
import { JpegError } from './error';
import type { Frame } from './markers';

export interface ComponentLayout {
	h: number;
	v: number;
	/**
	 * output pixels per block side. A subsampled component gets a larger IDCT than the luma when
	 * its factors allow (libjpeg's choice), e.g. 4:2:0 chroma at 1/4 scale is decoded 4x4 from
	 * 4x4 coefficients, so it needs no upsampling and keeps its full resolution at that scale.
	 */
	blockSize: number;
	/** blocks a scan of this component alone covers */
	blocksWide: number;
	blocksHigh: number;
	/** blocks in the MCU-padded plane (what an interleaved scan covers) */
	paddedWide: number;
	paddedHigh: number;
}

export interface Layout {
	frame: Frame;
	mcusAcross: number;
	mcusDown: number;
	/** output pixels per block side of the largest components: 8 / scale */
	size: number;
	outWidth: number;
	outHeight: number;
	components: ComponentLayout[];
}

/** libjpeg's jdmaster.c: double the block size while the sampling ratios still divide it. */
function scaledBlockSize(size: number, h: number, v: number, maxH: number, maxV: number): number {
	let blockSize = size;
	while (blockSize < 8 && (maxH * size) % (h * blockSize * 2) === 0 && (maxV * size) % (v * blockSize * 2) === 0) blockSize *= 2;
	return blockSize;
}

export function layoutFor(frame: Frame, scale: number, maxPixels: number, fileLength: number): Layout {
	const { width, height, maxH, maxV } = frame;
	if (width * height > maxPixels) {
		throw new JpegError(`JPEG of ${width} x ${height} pixels is larger than the ${maxPixels} pixels this decoder accepts`);
	}
	const mcusAcross = Math.ceil(width / (8 * maxH));
	const mcusDown = Math.ceil(height / (8 * maxV));
	const size = 8 / scale;
	const components = frame.components.map(({ h, v }) => ({
		h,
		v,
		blockSize: scaledBlockSize(size, h, v, maxH, maxV),
		blocksWide: Math.ceil(Math.ceil((width * h) / maxH) / 8),
		blocksHigh: Math.ceil(Math.ceil((height * v) / maxV) / 8),
		paddedWide: mcusAcross * h,
		paddedHigh: mcusDown * v,
	}));
	// Every block costs at least one bit of Huffman code: a file too short for its declared size
	// is refused here rather than after allocating for that size.
	const blocks = components.reduce((sum, c) => sum + c.blocksWide * c.blocksHigh, 0);
	if (blocks > fileLength * 8) {
		throw new JpegError(`JPEG truncated or corrupt: ${width} x ${height} pixels (${blocks} blocks) cannot fit in ${fileLength} bytes`);
	}
	return { frame, mcusAcross, mcusDown, size, outWidth: Math.ceil(width / scale), outHeight: Math.ceil(height / scale), components };
}

/**
 * The layout with every component decoded at the output's scale of its own plane, without the
 * larger IDCT: subsampled chroma then stays subsampled and is upsampled by repeating samples,
 * but a buffered decode keeps a quarter of its coefficients. 48 megapixels 4:2:0 at 1/2: 12 MB of
 * chroma coefficients instead of 48. Text is in the luma, which is unchanged.
 */
export function withSubsampledChroma(layout: Layout): Layout {
	return { ...layout, components: layout.components.map((c) => ({ ...c, blockSize: layout.size })) };
}
