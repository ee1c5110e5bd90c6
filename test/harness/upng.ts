/**
 * UPNG (which pdf-lib brings in): an independent PNG decoder, the reference of the tests and the
 * bench of nodes/shared/images/pngDecode.ts.
 */
import * as upngModule from '@pdf-lib/upng';

import type { RgbImage } from '../../nodes/shared/images/raster';

// The package's types name its functions; its module has them as a default export.
const UPNG = (upngModule as unknown as { default?: typeof upngModule }).default ?? upngModule;

/** UPNG's reading (16-bit samples cut to their high byte), put over white as the decoder does. */
export function upngImage(bytes: Uint8Array): RgbImage {
	const decoded = UPNG.decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
	const rgba = new Uint8Array(UPNG.toRGBA8(decoded)[0]);
	const data = new Uint8Array(decoded.width * decoded.height * 3);
	for (let i = 0; i < decoded.width * decoded.height; i++) {
		for (let c = 0; c < 3; c++) data[3 * i + c] = Math.round(255 - ((255 - rgba[4 * i + c]) * rgba[4 * i + 3]) / 255);
	}
	return { width: decoded.width, height: decoded.height, data };
}
