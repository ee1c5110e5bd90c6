/** An 8-bit RGB image, row-major, 3 bytes per pixel. */
export interface RgbImage {
	width: number;
	height: number;
	data: Uint8Array;
}
