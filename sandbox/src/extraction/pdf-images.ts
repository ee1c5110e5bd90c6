/**
 * The images a PDF page draws, as files the OCR engine decodes (ocr.ts), for pages that carry no
 * text layer: what a scanner or a phone app puts in a PDF is one image per page. On pages that do
 * carry text, a few smaller images that may hold text (a letterhead, a footer) are found too, with
 * where they are drawn (textPageImages).
 *
 * - DCTDecode images are JPEG files already: handed over as they are.
 * - CCITTFaxDecode images (1-bit office scanners) are wrapped, still compressed, in a TIFF.
 * - Images under FlateDecode, LZWDecode, RunLengthDecode or the ASCII filters become a PNG: grey,
 *   RGB, indexed (palette), 1-bit image masks, 1 to 16 bits; CMYK is turned into RGB. Flate data
 *   with PNG predictors is PNG data already and is passed through without being inflated.
 * - JBIG2Decode and JPXDecode (JPEG 2000) images, inline images and Separation/DeviceN colours
 *   are not read: such a page stays without text.
 *
 * Only images the page's content stream actually draws (`/Name Do`, also inside form XObjects)
 * count, so a resource dictionary shared by all pages does not make every page read every image;
 * the walk follows `q`, `Q` and `cm` to know where each one lands on the page.
 */
import { constants as zlibConstants, crc32, deflateSync, inflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFString, type PDFObject } from 'pdf-lib';

export interface PageImage {
	/** 0-based page index. */
	page: number;
	format: 'jpeg' | 'png' | 'tiff';
	bytes: Uint8Array;
	width: number;
	height: number;
	/** Where the page draws it, in the page's user space (points, y growing upwards). */
	box?: Box;
}

export interface SkippedImage {
	page: number;
	width: number;
	height: number;
	reason: string;
}

export interface PdfPageImages {
	images: PageImage[];
	skipped: SkippedImage[];
}

/** Smaller images are decoration (logos, stamps, rules) rather than a scanned page. */
const MIN_WIDTH = 64;
const MIN_HEIGHT = 24;
/** Images drawn on a page that are read: the largest, and others at least this share of its area. */
const MIN_AREA_SHARE = 0.2;
const MAX_IMAGES_PER_PAGE = 4;
/** Form XObjects inside form XObjects: how deep the search for images goes. */
const MAX_FORM_DEPTH = 4;

const name = (value: string) => PDFName.of(value);

function numberOf(dict: PDFDict, key: string): number | undefined {
	const value = dict.lookup(name(key));
	return value instanceof PDFNumber ? value.asNumber() : undefined;
}

function booleanOf(dict: PDFDict | undefined, key: string): boolean {
	return dict?.lookup(name(key))?.toString() === 'true';
}

function filtersOf(dict: PDFDict): string[] {
	const filter = dict.lookup(name('Filter'));
	if (filter instanceof PDFName) return [filter.decodeText()];
	if (filter instanceof PDFArray) return filter.asArray().map((entry) => dict.context.lookup(entry)).filter((entry) => entry instanceof PDFName).map((entry) => entry.decodeText());
	return [];
}

/** The DecodeParms of the filter at `index` (a dictionary, or one per filter in an array). */
function decodeParmsOf(dict: PDFDict, index: number): PDFDict | undefined {
	const parms = dict.lookup(name('DecodeParms')) ?? dict.lookup(name('DP'));
	if (parms instanceof PDFDict) return index === 0 || filtersOf(dict).length === 1 ? parms : undefined;
	if (parms instanceof PDFArray) {
		const entry = dict.context.lookup(parms.get(index));
		return entry instanceof PDFDict ? entry : undefined;
	}
	return undefined;
}

/** Whether a /Decode array inverts the samples (`[1 0]`: 0 is white). */
function decodeInverted(dict: PDFDict): boolean {
	const decode = dict.lookup(name('Decode'));
	if (!(decode instanceof PDFArray) || decode.size() < 2) return false;
	const first = dict.context.lookup(decode.get(0));
	const second = dict.context.lookup(decode.get(1));
	return first instanceof PDFNumber && second instanceof PDFNumber && first.asNumber() > second.asNumber();
}

function bytesOf(value: PDFObject | undefined): Uint8Array | undefined {
	if (value instanceof PDFString || value instanceof PDFHexString) return value.asBytes();
	if (value instanceof PDFRawStream) return decodePDFRawStream(value).decode();
	return undefined;
}

type ColourSpace =
	| { kind: 'gray' | 'rgb' | 'cmyk'; components: 1 | 3 | 4 }
	| { kind: 'indexed'; components: 1; palette: Buffer }
	| { kind: 'unsupported'; reason: string };

/** A colour space (name, array or resource name) as what the PNG writer needs. */
function colourSpaceOf(value: PDFObject | undefined, resources: PDFDict | undefined, context: PDFDict['context'], depth = 0): ColourSpace {
	const resolved = value ? context.lookup(value) : undefined;
	if (depth > 3) return { kind: 'unsupported', reason: 'colour space nested too deep' };
	if (resolved instanceof PDFName) {
		const spaceName = resolved.decodeText();
		if (spaceName === 'DeviceGray' || spaceName === 'CalGray' || spaceName === 'G') return { kind: 'gray', components: 1 };
		if (spaceName === 'DeviceRGB' || spaceName === 'CalRGB' || spaceName === 'RGB') return { kind: 'rgb', components: 3 };
		if (spaceName === 'DeviceCMYK' || spaceName === 'CMYK') return { kind: 'cmyk', components: 4 };
		const named = resources?.lookupMaybe(name('ColorSpace'), PDFDict)?.get(resolved);
		if (named) return colourSpaceOf(named, resources, context, depth + 1);
		return { kind: 'unsupported', reason: `colour space ${spaceName}` };
	}
	if (resolved instanceof PDFArray && resolved.size() > 0) {
		const family = context.lookup(resolved.get(0));
		const familyName = family instanceof PDFName ? family.decodeText() : '';
		if (familyName === 'CalGray') return { kind: 'gray', components: 1 };
		if (familyName === 'CalRGB' || familyName === 'Lab') return familyName === 'Lab' ? { kind: 'unsupported', reason: 'Lab colours' } : { kind: 'rgb', components: 3 };
		if (familyName === 'ICCBased') {
			const profile = context.lookup(resolved.get(1));
			const components = profile instanceof PDFRawStream ? numberOf(profile.dict, 'N') : undefined;
			if (components === 1) return { kind: 'gray', components: 1 };
			if (components === 3) return { kind: 'rgb', components: 3 };
			if (components === 4) return { kind: 'cmyk', components: 4 };
			return { kind: 'unsupported', reason: 'ICC profile without 1, 3 or 4 components' };
		}
		if (familyName === 'Indexed' || familyName === 'I') {
			const base = colourSpaceOf(resolved.get(1), resources, context, depth + 1);
			const lookup = bytesOf(context.lookup(resolved.get(3)));
			const hival = context.lookup(resolved.get(2));
			if (base.kind === 'unsupported' || base.kind === 'indexed' || !lookup || !(hival instanceof PDFNumber)) {
				return { kind: 'unsupported', reason: 'indexed colours over an unsupported base' };
			}
			const entries = Math.min(256, hival.asNumber() + 1);
			const palette = Buffer.alloc(entries * 3);
			for (let entry = 0; entry < entries; entry++) {
				const colour = Array.from(lookup.subarray(entry * base.components, (entry + 1) * base.components));
				palette.set(toRgb(base.kind, colour), entry * 3);
			}
			return { kind: 'indexed', components: 1, palette };
		}
		return { kind: 'unsupported', reason: `colour space ${familyName || 'unknown'}` };
	}
	return { kind: 'unsupported', reason: 'no colour space' };
}

function toRgb(kind: 'gray' | 'rgb' | 'cmyk', colour: number[]): number[] {
	if (kind === 'gray') return [colour[0] ?? 0, colour[0] ?? 0, colour[0] ?? 0];
	if (kind === 'rgb') return [colour[0] ?? 0, colour[1] ?? 0, colour[2] ?? 0];
	const [c = 0, m = 0, y = 0, k = 0] = colour;
	return [255 - Math.min(255, c + k), 255 - Math.min(255, m + k), 255 - Math.min(255, y + k)];
}

function pngChunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
	return Buffer.concat([head, data, crc]);
}

/** A PNG from zlib-compressed scanlines (each row led by its PNG filter byte). */
export function pngFile(options: { width: number; height: number; bitDepth: number; colourType: 0 | 2 | 3; palette?: Buffer; idat: Uint8Array }): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(options.width, 0);
	header.writeUInt32BE(options.height, 4);
	header.set([options.bitDepth, options.colourType, 0, 0, 0], 8);
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', header),
		...(options.palette ? [pngChunk('PLTE', options.palette)] : []),
		pngChunk('IDAT', Buffer.from(options.idat)),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

/** Rows of `rowBytes` bytes -> rows led by filter byte 0 (None). */
function withFilterBytes(samples: Uint8Array, rowBytes: number, height: number): Buffer {
	const out = Buffer.alloc((rowBytes + 1) * height);
	for (let row = 0; row < height; row++) {
		const start = row * rowBytes;
		out.set(samples.subarray(start, Math.min(start + rowBytes, samples.length)), row * (rowBytes + 1) + 1);
	}
	return out;
}

/** Undoes PNG row filters (the PDF Flate/LZW predictors 10-15), for data that must be changed. */
function unfilterPngRows(data: Uint8Array, rowBytes: number, height: number, bytesPerPixel: number): Buffer {
	const out = Buffer.alloc(rowBytes * height);
	for (let row = 0; row < height; row++) {
		const inStart = row * (rowBytes + 1);
		if (inStart >= data.length) break;
		const filter = data[inStart];
		const outStart = row * rowBytes;
		for (let index = 0; index < rowBytes; index++) {
			const raw = data[inStart + 1 + index] ?? 0;
			const left = index >= bytesPerPixel ? out[outStart + index - bytesPerPixel] : 0;
			const up = row > 0 ? out[outStart - rowBytes + index] : 0;
			const upLeft = row > 0 && index >= bytesPerPixel ? out[outStart - rowBytes + index - bytesPerPixel] : 0;
			let value = raw;
			if (filter === 1) value = raw + left;
			else if (filter === 2) value = raw + up;
			else if (filter === 3) value = raw + ((left + up) >> 1);
			else if (filter === 4) {
				const estimate = left + up - upLeft;
				const [pa, pb, pc] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
				value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
			}
			out[outStart + index] = value & 0xff;
		}
	}
	return out;
}

const GENERIC_FILTERS = new Set(['FlateDecode', 'Fl', 'LZWDecode', 'LZW', 'ASCII85Decode', 'A85', 'ASCIIHexDecode', 'AHx', 'RunLengthDecode', 'RL']);

/**
 * The stream's bytes after the given (generic) filters, the first ones of its /Filter: zlib for
 * Flate, pdf-lib's decoders for LZW, RunLength and the ASCII encodings.
 */
function applyGenericFilters(stream: PDFRawStream, filters: string[]): Uint8Array {
	let data: Uint8Array = stream.contents;
	filters.forEach((filter, index) => {
		if (filter === 'FlateDecode' || filter === 'Fl') {
			data = inflateSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
			return;
		}
		const parms = decodeParmsOf(stream.dict, index);
		const single = stream.dict.context.obj({ Filter: filter, ...(parms ? { DecodeParms: parms } : {}) });
		data = decodePDFRawStream(PDFRawStream.of(single, data)).decode();
	});
	return data;
}

/** A TIFF holding CCITT fax data as it is (Group 4, or Group 3 one- or two-dimensional). */
export function ccittTiff(data: Uint8Array, options: { width: number; height: number; k: number; byteAligned: boolean; inverted: boolean }): Buffer {
	const compression = options.k < 0 ? 4 : 3;
	const faxOptions = compression === 3 ? (options.k > 0 ? 1 : 0) | (options.byteAligned ? 4 : 0) : 0;
	// [tag, type (3 SHORT, 4 LONG), value]; ascending tags, as TIFF requires.
	const entries: Array<[number, 3 | 4, number]> = [
		[256, 4, options.width],
		[257, 4, options.height],
		[258, 3, 1],
		[259, 3, compression],
		// 0 WhiteIsZero: the fax runs' own colours; 1 swaps them for a PDF that inverts them.
		[262, 3, options.inverted ? 1 : 0],
		[273, 4, 0],
		[277, 3, 1],
		[278, 4, options.height],
		[279, 4, data.length],
		[compression === 4 ? 293 : 292, 4, faxOptions],
	];
	const dataOffset = 8 + 2 + entries.length * 12 + 4;
	const head = Buffer.alloc(dataOffset);
	head.write('II', 0, 'latin1');
	head.writeUInt16LE(42, 2);
	head.writeUInt32LE(8, 4);
	head.writeUInt16LE(entries.length, 8);
	entries.forEach(([tag, type, value], index) => {
		const offset = 10 + index * 12;
		head.writeUInt16LE(tag, offset);
		head.writeUInt16LE(type, offset + 2);
		head.writeUInt32LE(1, offset + 4);
		const written = tag === 273 ? dataOffset : value;
		if (type === 3) head.writeUInt16LE(written, offset + 8);
		else head.writeUInt32LE(written, offset + 8);
	});
	return Buffer.concat([head, data]);
}

/** One image XObject as a file the OCR engine reads, or why not. */
export function imageFile(stream: PDFRawStream, resources: PDFDict | undefined): { format: PageImage['format']; bytes: Uint8Array } | { reason: string } {
	const { dict } = stream;
	const width = numberOf(dict, 'Width') ?? numberOf(dict, 'W') ?? 0;
	const height = numberOf(dict, 'Height') ?? numberOf(dict, 'H') ?? 0;
	if (width <= 0 || height <= 0) return { reason: 'no size' };
	const filters = filtersOf(dict);
	const codec = filters[filters.length - 1];
	const before = codec && !GENERIC_FILTERS.has(codec) ? filters.slice(0, -1) : filters;
	if (before.some((filter) => !GENERIC_FILTERS.has(filter))) return { reason: `filters ${filters.join(', ')}` };
	const imageMask = booleanOf(dict, 'ImageMask') || booleanOf(dict, 'IM');

	if (codec === 'DCTDecode' || codec === 'DCT') return { format: 'jpeg', bytes: applyGenericFilters(stream, before) };
	if (codec === 'CCITTFaxDecode' || codec === 'CCF') {
		const parms = decodeParmsOf(dict, filters.length - 1);
		const k = parms ? (numberOf(parms, 'K') ?? 0) : 0;
		const columns = parms ? (numberOf(parms, 'Columns') ?? 1728) : 1728;
		const rows = (parms && numberOf(parms, 'Rows')) || height;
		// Black runs come out as 0 samples unless BlackIs1; DeviceGray and image masks show 0 as black.
		const inverted = booleanOf(parms, 'BlackIs1') !== decodeInverted(dict);
		return {
			format: 'tiff',
			bytes: ccittTiff(applyGenericFilters(stream, before), { width: columns, height: rows, k, byteAligned: booleanOf(parms, 'EncodedByteAlign'), inverted }),
		};
	}
	if (codec && !GENERIC_FILTERS.has(codec)) return { reason: `${codec} images are not read` };

	const space: ColourSpace = imageMask ? { kind: 'gray', components: 1 } : colourSpaceOf(dict.get(name('ColorSpace')) ?? dict.get(name('CS')), resources, dict.context);
	if (space.kind === 'unsupported') return { reason: space.reason };
	const bitDepth = imageMask ? 1 : (numberOf(dict, 'BitsPerComponent') ?? numberOf(dict, 'BPC') ?? 8);
	if (![1, 2, 4, 8, 16].includes(bitDepth)) return { reason: `${bitDepth} bits per component` };
	const rowBytes = Math.ceil((width * space.components * bitDepth) / 8);
	const bytesPerPixel = Math.max(1, Math.ceil((space.components * bitDepth) / 8));

	const last = filters.length - 1;
	const parms = last >= 0 ? decodeParmsOf(dict, last) : undefined;
	const predictor = parms ? (numberOf(parms, 'Predictor') ?? 1) : 1;
	if (predictor === 2) return { reason: 'TIFF predictor' };
	const pngRows = predictor >= 10;
	if (pngRows) {
		const colors = numberOf(parms!, 'Colors') ?? 1;
		const bits = numberOf(parms!, 'BitsPerComponent') ?? 8;
		const columns = numberOf(parms!, 'Columns') ?? 1;
		if (colors !== space.components || bits !== bitDepth || columns !== width) return { reason: 'predictor parameters that do not match the image' };
	}
	const inverted = imageMask ? decodeInverted(dict) : space.kind === 'gray' && decodeInverted(dict);

	const rgbColourType = space.kind === 'rgb' && bitDepth >= 8;
	const greyColourType = space.kind === 'gray' && !(inverted && bitDepth === 16);
	const paletted = space.kind === 'indexed' && bitDepth <= 8;
	// Samples a PNG holds as they are (grey, RGB, palette); only CMYK must be converted.
	const unchanged = rgbColourType || greyColourType || paletted;
	const onlyFlate = filters.length === 1 && (filters[0] === 'FlateDecode' || filters[0] === 'Fl');
	let idat: Uint8Array;
	// Flate data with PNG rows is a PNG's IDAT as it is: passed through without inflating it.
	if (unchanged && pngRows && onlyFlate) idat = stream.contents;
	else {
		const decoded = applyGenericFilters(stream, filters);
		if (space.kind === 'cmyk') {
			if (bitDepth !== 8) return { reason: `CMYK at ${bitDepth} bits` };
			const samples = pngRows ? unfilterPngRows(decoded, rowBytes, height, bytesPerPixel) : decoded;
			const rgb = Buffer.alloc(width * 3 * height);
			for (let pixel = 0; pixel < width * height; pixel++) {
				rgb.set(toRgb('cmyk', Array.from(samples.subarray(pixel * 4, pixel * 4 + 4))), pixel * 3);
			}
			return { format: 'png', bytes: pngFile({ width, height, bitDepth: 8, colourType: 2, idat: deflateSync(withFilterBytes(rgb, width * 3, height), { level: 1 }) }) };
		}
		if (!unchanged) return { reason: `${space.kind} at ${bitDepth} bits` };
		idat = deflateSync(pngRows ? decoded : withFilterBytes(decoded, rowBytes, height), { level: 1 });
	}
	if (paletted && space.kind === 'indexed') {
		return { format: 'png', bytes: pngFile({ width, height, bitDepth, colourType: 3, palette: space.palette, idat }) };
	}
	if (space.kind === 'gray' && inverted) {
		// An inverted grey (or image mask) is drawn through a palette of inverted greys.
		const levels = 1 << bitDepth;
		const palette = Buffer.alloc(levels * 3);
		for (let level = 0; level < levels; level++) palette.fill(255 - Math.round((level * 255) / (levels - 1)), level * 3, level * 3 + 3);
		return { format: 'png', bytes: pngFile({ width, height, bitDepth, colourType: 3, palette, idat }) };
	}
	return { format: 'png', bytes: pngFile({ width, height, bitDepth, colourType: space.kind === 'rgb' ? 2 : 0, idat }) };
}

/** A PDF matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `m` applied after `ctm`: the matrix of a `cm` or a form's /Matrix inside the current state. */
function multiply(m: Matrix, ctm: Matrix): Matrix {
	const [a, b, c, d, e, f] = m;
	const [A, B, C, D, E, F] = ctm;
	return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

/** Where something drawn in the unit square lands on the page (an image is drawn there). */
export interface Box {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

function unitSquareBox(ctm: Matrix): Box {
	const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([x, y]) => [x * ctm[0] + y * ctm[2] + ctm[4], x * ctm[1] + y * ctm[3] + ctm[5]]);
	const xs = corners.map(([x]) => x);
	const ys = corners.map(([, y]) => y);
	return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

const DELIMITERS = '()<>[]{}/%';
const isSpace = (char: string) => char === ' ' || char === '\n' || char === '\r' || char === '\t' || char === '\f' || char === '\0';

/** Past a literal string starting at `start` (its `(`): nested parentheses and escapes. */
function skipString(text: string, start: number): number {
	let depth = 0;
	for (let index = start; index < text.length; index++) {
		const char = text[index];
		if (char === '\\') index++;
		else if (char === '(') depth++;
		else if (char === ')' && --depth === 0) return index + 1;
	}
	return text.length;
}

/** Past an inline image's data, which follows `ID` and ends at `EI`. */
function skipInlineImage(text: string, start: number): number {
	const end = /\sEI(?=[\s/[<(]|$)/g;
	end.lastIndex = start;
	const match = end.exec(text);
	return match ? match.index + 3 : text.length;
}

/**
 * Walks a content stream for what image placement needs: `q`/`Q` (save and restore), `cm` (the
 * matrix) and `Do` (draw an XObject). Strings, inline images and everything else are stepped over.
 */
export function drawnPlacements(content: Uint8Array, onDraw: (name: string, ctm: Matrix) => void, start: Matrix = IDENTITY): void {
	const text = Buffer.from(content).toString('latin1');
	const stack: Matrix[] = [];
	let ctm = start;
	let operands: Array<number | string> = [];
	let index = 0;
	while (index < text.length) {
		const char = text[index];
		if (isSpace(char)) index++;
		else if (char === '%') index = text.indexOf('\n', index) < 0 ? text.length : text.indexOf('\n', index);
		else if (char === '(') index = skipString(text, index);
		else if (char === '<' && text[index + 1] !== '<') index = text.indexOf('>', index) < 0 ? text.length : text.indexOf('>', index) + 1;
		else if (DELIMITERS.includes(char) && char !== '/') index += char === '<' || char === '>' ? 2 : 1;
		else {
			let end = index + 1;
			while (end < text.length && !isSpace(text[end]) && !DELIMITERS.includes(text[end])) end++;
			const token = text.slice(index, end);
			index = end;
			if (token.startsWith('/')) operands.push(token.slice(1).replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
			else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token)) operands.push(Number(token));
			else {
				if (token === 'q') stack.push(ctm);
				else if (token === 'Q') ctm = stack.pop() ?? ctm;
				else if (token === 'cm' && operands.length >= 6 && operands.slice(-6).every((value) => typeof value === 'number')) ctm = multiply(operands.slice(-6) as Matrix, ctm);
				else if (token === 'Do' && typeof operands[operands.length - 1] === 'string') onDraw(operands[operands.length - 1] as string, ctm);
				else if (token === 'ID') index = skipInlineImage(text, index);
				operands = [];
			}
		}
	}
}

function contentOf(value: PDFObject | undefined, context: PDFDict['context']): Uint8Array {
	const resolved = value ? context.lookup(value) : undefined;
	if (resolved instanceof PDFRawStream) {
		try {
			return decodePDFRawStream(resolved).decode();
		} catch {
			return new Uint8Array(0);
		}
	}
	if (resolved instanceof PDFArray) return Buffer.concat(resolved.asArray().map((part) => Buffer.from(contentOf(part, context))));
	return new Uint8Array(0);
}

interface DrawnImage {
	stream: PDFRawStream;
	resources: PDFDict | undefined;
	width: number;
	height: number;
	/** Where it is drawn on the page, in the page's user space (points). */
	box: Box;
}

function matrixOf(dict: PDFDict): Matrix {
	const matrix = dict.lookup(name('Matrix'));
	if (!(matrix instanceof PDFArray) || matrix.size() !== 6) return IDENTITY;
	const values = matrix.asArray().map((entry) => dict.context.lookup(entry));
	return values.every((value) => value instanceof PDFNumber) ? (values.map((value) => (value as PDFNumber).asNumber()) as Matrix) : IDENTITY;
}

function collectImages(content: Uint8Array, resources: PDFDict | undefined, found: DrawnImage[], seen: Set<PDFRawStream>, depth: number, start: Matrix = IDENTITY): void {
	const xObjects = resources?.lookupMaybe(name('XObject'), PDFDict);
	if (!xObjects) return;
	drawnPlacements(
		content,
		(drawn, ctm) => {
			const object = xObjects.lookup(name(drawn));
			if (!(object instanceof PDFRawStream) || seen.has(object)) return;
			seen.add(object);
			const subtype = object.dict.lookup(name('Subtype'));
			const kind = subtype instanceof PDFName ? subtype.decodeText() : '';
			if (kind === 'Image') {
				found.push({ stream: object, resources, width: numberOf(object.dict, 'Width') ?? 0, height: numberOf(object.dict, 'Height') ?? 0, box: unitSquareBox(ctm) });
			} else if (kind === 'Form' && depth < MAX_FORM_DEPTH) {
				let formContent: Uint8Array;
				try {
					formContent = decodePDFRawStream(object).decode();
				} catch {
					return;
				}
				collectImages(formContent, object.dict.lookupMaybe(name('Resources'), PDFDict) ?? resources, found, seen, depth + 1, multiply(matrixOf(object.dict), ctm));
			}
		},
		start,
	);
}

interface LoadedPdf {
	pdf: PDFDocument;
	pages: ReturnType<PDFDocument['getPages']>;
}

/** pdf-lib's reading of the file, or undefined when it cannot open it. */
async function loadPdf(bytes: Uint8Array): Promise<LoadedPdf | undefined> {
	try {
		const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
		return { pdf, pages: pdf.getPages() };
	} catch {
		return undefined;
	}
}

/** The images a page draws, each once, in drawing order; none when its content cannot be read. */
function drawnImages(loaded: LoadedPdf, page: number): DrawnImage[] {
	const leaf = loaded.pages[page]?.node;
	if (!leaf) return [];
	const found: DrawnImage[] = [];
	try {
		collectImages(contentOf(leaf.get(name('Contents')), loaded.pdf.context), leaf.Resources(), found, new Set(), 0);
	} catch {
		return [];
	}
	return found;
}

/** The image as a file for the OCR engine, or the reason it is skipped. */
function toPageImage(image: DrawnImage, page: number): PageImage | SkippedImage {
	let file: ReturnType<typeof imageFile>;
	try {
		file = imageFile(image.stream, image.resources);
	} catch (error) {
		file = { reason: `undecodable: ${error instanceof Error ? error.message : String(error)}` };
	}
	if ('reason' in file) return { page, width: image.width, height: image.height, reason: file.reason };
	return { page, format: file.format, bytes: file.bytes, width: image.width, height: image.height, box: image.box };
}

function addImage(result: PdfPageImages, image: PageImage | SkippedImage): void {
	if ('reason' in image) result.skipped.push(image);
	else result.images.push(image);
}

/**
 * The images worth reading on the given pages (0-based): per page the largest drawn image and
 * those at least a fifth of its area, in drawing order, at most four. Never throws: a PDF that
 * pdf-lib cannot open gives no images.
 */
export async function pdfPageImages(bytes: Uint8Array, pages: number[]): Promise<PdfPageImages> {
	const result: PdfPageImages = { images: [], skipped: [] };
	const loaded = await loadPdf(bytes);
	if (!loaded) return result;
	for (const page of pages) {
		const sized = drawnImages(loaded, page).filter((image) => image.width >= MIN_WIDTH && image.height >= MIN_HEIGHT);
		const largest = Math.max(0, ...sized.map((image) => image.width * image.height));
		const chosen = sized.filter((image) => image.width * image.height >= largest * MIN_AREA_SHARE).slice(0, MAX_IMAGES_PER_PAGE);
		for (const image of chosen) addImage(result, toPageImage(image, page));
	}
	return result;
}

/**
 * An image on a page with text that may carry text of its own (a letterhead, a footer with the
 * VAT id and IBAN): enough pixels for a line of text, drawn at least TEXT_IMAGE_MIN_POINTS high,
 * and covering less than TEXT_IMAGE_MAX_PAGE_SHARE of the page (a larger one is the scan under
 * a searchable PDF's own text layer, or a background).
 */
const TEXT_IMAGE_MIN_WIDTH = 150;
const TEXT_IMAGE_MIN_HEIGHT = 24;
const TEXT_IMAGE_MIN_POINTS = 8;
const TEXT_IMAGE_MAX_PAGE_SHARE = 0.4;
/** Images of text pages read per document: a letterhead, a footer, and one more. */
export const MAX_TEXT_PAGE_IMAGES = 3;

export interface TextPageImages extends PdfPageImages {
	/** Each page's MediaBox (page index -> box), for placing an image among the page's lines. */
	pageBoxes: Map<number, Box>;
}

function mediaBox(loaded: LoadedPdf, page: number): Box {
	const { x, y, width, height } = loaded.pages[page].getMediaBox();
	return { x0: x, y0: y, x1: x + width, y1: y + height };
}

function mayHoldText(image: DrawnImage, page: Box): boolean {
	const area = (box: Box) => Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
	return (
		image.width >= TEXT_IMAGE_MIN_WIDTH &&
		image.height >= TEXT_IMAGE_MIN_HEIGHT &&
		image.box.y1 - image.box.y0 >= TEXT_IMAGE_MIN_POINTS &&
		area(image.box) < area(page) * TEXT_IMAGE_MAX_PAGE_SHARE
	);
}

/**
 * The images on pages that have a text layer that may carry text of their own (see mayHoldText),
 * with where they are drawn: at most MAX_TEXT_PAGE_IMAGES, in page order, the largest of a page
 * first, and an image drawn on several pages (a letterhead) only where it is first drawn.
 */
export async function textPageImages(bytes: Uint8Array, pages: number[]): Promise<TextPageImages> {
	const result: TextPageImages = { images: [], skipped: [], pageBoxes: new Map() };
	// Image XObjects are streams, never inside object streams: without `/Image` in the bytes there are none.
	if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('/Image')) return result;
	const loaded = await loadPdf(bytes);
	if (!loaded) return result;
	const read = new Set<PDFRawStream>();
	for (const page of pages) {
		if (result.images.length >= MAX_TEXT_PAGE_IMAGES || !loaded.pages[page]) break;
		const box = mediaBox(loaded, page);
		const candidates = drawnImages(loaded, page)
			.filter((image) => !read.has(image.stream) && mayHoldText(image, box))
			.sort((a, b) => b.width * b.height - a.width * a.height);
		for (const image of candidates.slice(0, MAX_TEXT_PAGE_IMAGES - result.images.length)) {
			read.add(image.stream);
			addImage(result, toPageImage(image, page));
		}
		if (candidates.length > 0) result.pageBoxes.set(page, box);
	}
	return result;
}
