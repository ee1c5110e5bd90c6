/**
 * The pixel size of a PNG or JPEG, read from its header without decoding the image: PNG keeps it
 * in the first chunk, JPEG in its start-of-frame segment, found by hopping from segment to segment
 * (each hop moves forward, so the walk is linear in the file). Undefined when it cannot be read.
 */

export interface ImageSize {
	width: number;
	height: number;
}

export function pngSize(bytes: Uint8Array): ImageSize | undefined {
	// Signature (8), IHDR length (4) and type (4), then width and height.
	if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined;
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers that stand alone, with no length: TEM, RST0-7, SOI, EOI. */
const standsAlone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);

export function jpegSize(bytes: Uint8Array): ImageSize | undefined {
	let at = 2;
	while (at + 4 <= bytes.length) {
		if (bytes[at] !== 0xff) return undefined;
		const marker = bytes[at + 1];
		if (marker === 0xff) {
			at++; // fill byte before a marker
			continue;
		}
		if (standsAlone(marker)) {
			at += 2;
			continue;
		}
		const length = (bytes[at + 2] << 8) | bytes[at + 3];
		if (length < 2) return undefined;
		if (isStartOfFrame(marker)) {
			if (at + 9 > bytes.length) return undefined;
			return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] };
		}
		// The image data follows the start of scan: a frame header was not found before it.
		if (marker === 0xda) return undefined;
		at += 2 + length;
	}
	return undefined;
}
