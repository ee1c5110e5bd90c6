/**
 * The segment layer of a JPEG file: finding markers, and reading the frame header (SOF), the scan
 * header (SOS), the restart interval (DRI) and the metadata the decoder uses (EXIF orientation,
 * Adobe colour transform). Every walk moves forward through the bytes, so it is linear in the file.
 */
import { JpegError } from './error';

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const DQT = 0xdb;
export const DHT = 0xc4;
export const DRI = 0xdd;
export const APP0 = 0xe0;
export const APP1 = 0xe1;
export const APP14 = 0xee;

export interface FrameComponent {
	id: number;
	/** sampling factors, 1-4 (set to 1 for a one-component frame, whose scans ignore them) */
	h: number;
	v: number;
	quantId: number;
}

export interface Frame {
	marker: number;
	progressive: boolean;
	width: number;
	height: number;
	components: FrameComponent[];
	maxH: number;
	maxV: number;
}

export interface ScanHeader {
	/** indexes into the frame's components, in the scan's order */
	components: number[];
	dcTableIds: number[];
	acTableIds: number[];
	ss: number;
	se: number;
	ah: number;
	al: number;
}

/** A marker and, for the ones that have a body, the bytes of that body. */
export interface Segment {
	marker: number;
	/** offset of the 0xFF that starts the marker */
	at: number;
	bodyStart: number;
	bodyEnd: number;
}

const standsAlone = (marker: number): boolean => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);

export const isRestart = (marker: number): boolean => marker >= 0xd0 && marker <= 0xd7;

/**
 * The next marker at or after `from`: stray bytes between segments and 0xFF fill bytes are
 * passed over (libjpeg does the same, with a warning). Undefined when the data ends first.
 */
export function findMarker(bytes: Uint8Array, from: number): { marker: number; at: number } | undefined {
	let at = from;
	while (at + 1 < bytes.length) {
		if (bytes[at] !== 0xff) {
			at = bytes.indexOf(0xff, at + 1);
			if (at < 0) return undefined;
			continue;
		}
		const code = bytes[at + 1];
		if (code === 0xff) at += 1;
		else if (code === 0x00) at += 2; // a stuffed 0xFF inside entropy-coded data
		else return { marker: code, at };
	}
	return undefined;
}

/** The segment whose marker is at or after `from`; undefined when the data ends before one. */
export function readSegment(bytes: Uint8Array, from: number): Segment | undefined {
	const found = findMarker(bytes, from);
	if (!found) return undefined;
	const { marker, at } = found;
	if (standsAlone(marker)) return { marker, at, bodyStart: at + 2, bodyEnd: at + 2 };
	if (at + 4 > bytes.length) throw new JpegError(`JPEG truncated: the segment header at byte ${at} is cut off`);
	const length = (bytes[at + 2] << 8) | bytes[at + 3];
	if (length < 2) throw new JpegError(`corrupt JPEG: segment 0x${marker.toString(16)} at byte ${at} has length ${length}`);
	if (at + 2 + length > bytes.length) {
		throw new JpegError(`JPEG truncated: segment 0x${marker.toString(16)} at byte ${at} runs past the end of the file`);
	}
	return { marker, at, bodyStart: at + 4, bodyEnd: at + 2 + length };
}

/** Where the entropy-coded data that starts at `from` ends: the next marker that is not RSTn. */
export function skipEntropyData(bytes: Uint8Array, from: number): number {
	let at = from;
	for (;;) {
		const found = findMarker(bytes, at);
		if (!found) return bytes.length;
		if (!isRestart(found.marker)) return found.at;
		at = found.at + 2;
	}
}

export function expectSoi(bytes: Uint8Array): void {
	if (bytes.length < 2 || bytes[0] !== 0xff || bytes[1] !== SOI) throw new JpegError('not a JPEG file (no start-of-image marker)');
	if (bytes.length < 4) throw new JpegError('JPEG truncated: nothing after the start-of-image marker');
}

/** SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
export const isStartOfFrame = (marker: number): boolean =>
	marker >= 0xc0 && marker <= 0xcf && marker !== DHT && marker !== 0xc8 && marker !== 0xcc;

function refuseFrameType(marker: number): void {
	if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) return;
	const sof = `SOF${marker - 0xc0}`;
	if (marker === 0xc3) throw new JpegError(`lossless JPEG (${sof}) is not supported`);
	if (marker >= 0xc9) throw new JpegError(`arithmetic-coded JPEG (${sof}) is not supported`);
	throw new JpegError(`hierarchical JPEG (${sof}) is not supported`);
}

/** Reads and checks a frame header; throws for every kind of frame this decoder does not decode. */
export function parseFrame(bytes: Uint8Array, segment: Segment): Frame {
	const { marker, bodyStart: p, bodyEnd } = segment;
	refuseFrameType(marker);
	if (bodyEnd - p < 6) throw new JpegError('corrupt JPEG: frame header too short');
	const precision = bytes[p];
	const height = (bytes[p + 1] << 8) | bytes[p + 2];
	const width = (bytes[p + 3] << 8) | bytes[p + 4];
	const count = bytes[p + 5];
	if (precision !== 8) throw new JpegError(`${precision}-bit JPEG is not supported (only 8-bit samples)`);
	if (width === 0 || height === 0) throw new JpegError(`JPEG declares a size of ${width} x ${height} pixels (a height set later by DNL is not supported)`);
	if (count === 4) throw new JpegError('CMYK/YCCK JPEG (4 components) is not supported');
	if (count !== 1 && count !== 3) throw new JpegError(`JPEG with ${count} components is not supported (only 1 or 3)`);
	if (bodyEnd - p < 6 + 3 * count) throw new JpegError('corrupt JPEG: frame header too short for its components');
	const components: FrameComponent[] = [];
	for (let i = 0; i < count; i++) {
		const at = p + 6 + 3 * i;
		const h = bytes[at + 1] >> 4;
		const v = bytes[at + 1] & 15;
		const quantId = bytes[at + 2];
		if (h < 1 || h > 4 || v < 1 || v > 4) throw new JpegError(`corrupt JPEG: sampling factors ${h}x${v}`);
		if (quantId > 3) throw new JpegError(`corrupt JPEG: quantization table ${quantId}`);
		// A one-component frame is always coded block by block, whatever factors it declares.
		components.push({ id: bytes[at], h: count === 1 ? 1 : h, v: count === 1 ? 1 : v, quantId });
	}
	const maxH = Math.max(...components.map((c) => c.h));
	const maxV = Math.max(...components.map((c) => c.v));
	return { marker, progressive: marker === 0xc2, width, height, components, maxH, maxV };
}

/** Reads a scan header and checks it against the frame (the progression rules libjpeg applies). */
export function parseScan(bytes: Uint8Array, segment: Segment, frame: Frame): ScanHeader {
	const { bodyStart: p, bodyEnd } = segment;
	const count = bytes[p];
	if (count < 1 || count > 4 || bodyEnd - p < 4 + 2 * count) throw new JpegError('corrupt JPEG: bad scan header');
	const scan: ScanHeader = { components: [], dcTableIds: [], acTableIds: [], ss: 0, se: 0, ah: 0, al: 0 };
	for (let i = 0; i < count; i++) {
		const id = bytes[p + 1 + 2 * i];
		const index = frame.components.findIndex((c) => c.id === id);
		if (index < 0 || scan.components.includes(index)) throw new JpegError(`corrupt JPEG: scan names component ${id}`);
		const tables = bytes[p + 2 + 2 * i];
		if (tables >> 4 > 3 || (tables & 15) > 3) throw new JpegError('corrupt JPEG: scan names a Huffman table above 3');
		scan.components.push(index);
		scan.dcTableIds.push(tables >> 4);
		scan.acTableIds.push(tables & 15);
	}
	const at = p + 1 + 2 * count;
	scan.ss = bytes[at];
	scan.se = bytes[at + 1];
	scan.ah = bytes[at + 2] >> 4;
	scan.al = bytes[at + 2] & 15;
	if (frame.progressive) {
		const dc = scan.ss === 0;
		const bad =
			(dc ? scan.se !== 0 : scan.se < scan.ss || scan.se > 63 || count !== 1) || scan.al > 13 || (scan.ah !== 0 && scan.al !== scan.ah - 1);
		if (bad) throw new JpegError(`corrupt JPEG: invalid progressive scan (Ss=${scan.ss} Se=${scan.se} Ah=${scan.ah} Al=${scan.al})`);
	} else {
		// Sequential scans always carry the whole block, whatever the header says.
		scan.ss = 0;
		scan.se = 63;
		scan.ah = 0;
		scan.al = 0;
	}
	const blocksInMcu = count === 1 ? 1 : scan.components.reduce((sum, c) => sum + frame.components[c].h * frame.components[c].v, 0);
	if (blocksInMcu > 10) throw new JpegError(`corrupt JPEG: ${blocksInMcu} blocks in one MCU (at most 10)`);
	return scan;
}

export function parseRestartInterval(bytes: Uint8Array, segment: Segment): number {
	if (segment.bodyEnd - segment.bodyStart < 2) throw new JpegError('corrupt JPEG: DRI segment too short');
	return (bytes[segment.bodyStart] << 8) | bytes[segment.bodyStart + 1];
}

const startsWith = (bytes: Uint8Array, at: number, end: number, text: string): boolean => {
	if (end - at < text.length) return false;
	for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
	return true;
};

export const isJfif = (bytes: Uint8Array, segment: Segment): boolean => startsWith(bytes, segment.bodyStart, segment.bodyEnd, 'JFIF\0');

/** The Adobe APP14 colour transform (0: none, i.e. RGB; 1: YCbCr; 2: YCCK), or undefined. */
export function adobeTransform(bytes: Uint8Array, segment: Segment): number | undefined {
	if (!startsWith(bytes, segment.bodyStart, segment.bodyEnd, 'Adobe') || segment.bodyEnd - segment.bodyStart < 12) return undefined;
	return bytes[segment.bodyStart + 11];
}

/**
 * The EXIF orientation (tag 0x0112 of the first IFD) of an APP1 segment, in either byte order;
 * undefined when the segment is not EXIF, has no such tag, or the tag is not 1-8.
 */
export function exifOrientation(bytes: Uint8Array, segment: Segment): number | undefined {
	const { bodyStart, bodyEnd } = segment;
	if (!startsWith(bytes, bodyStart, bodyEnd, 'Exif\0\0')) return undefined;
	const tiff = bodyStart + 6;
	if (bodyEnd - tiff < 8) return undefined;
	const little = bytes[tiff] === 0x49 && bytes[tiff + 1] === 0x49;
	if (!little && !(bytes[tiff] === 0x4d && bytes[tiff + 1] === 0x4d)) return undefined;
	const u16 = (at: number) => (little ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1]);
	const u32 = (at: number) => (little ? u16(at) + u16(at + 2) * 65536 : u16(at) * 65536 + u16(at + 2));
	if (u16(tiff + 2) !== 42) return undefined;
	const ifd = tiff + u32(tiff + 4);
	if (ifd + 2 > bodyEnd) return undefined;
	const entries = u16(ifd);
	for (let i = 0; i < entries && ifd + 2 + 12 * (i + 1) <= bodyEnd; i++) {
		const entry = ifd + 2 + 12 * i;
		if (u16(entry) !== 0x0112) continue;
		const type = u16(entry + 2);
		const value = type === 3 ? u16(entry + 8) : type === 4 ? u32(entry + 8) : 0;
		return value >= 1 && value <= 8 ? value : undefined;
	}
	return undefined;
}
