/** What the PNG decoder's parts share: the header's fields, the interlace passes, samples per pixel. */

export interface PngInfo {
	width: number;
	height: number;
	bitDepth: number;
	colourType: number;
	interlaced: boolean;
}

export interface Pass {
	x0: number;
	y0: number;
	dx: number;
	dy: number;
	width: number;
	height: number;
	rowBytes: number;
}

/** Samples per pixel of each colour type. */
export const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
