/**
 * The images a PDF page draws, as files the OCR engine decodes (ocr.ts), for pages that carry no
 * text layer: what a scanner or a phone app puts in a PDF is one image per page.
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
 * count, so a resource dictionary shared by all pages does not make every page read every image.
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

/** Names drawn by `Do` in a content stream. */
function drawnNames(content: Uint8Array): Set<string> {
	const text = Buffer.from(content).toString('latin1');
	const names = new Set<string>();
	for (const match of text.matchAll(/\/([^\s/[\]()<>{}%]+)\s*Do(?![A-Za-z])/g)) names.add(match[1].replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
	return names;
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
}

function collectImages(content: Uint8Array, resources: PDFDict | undefined, found: DrawnImage[], seen: Set<PDFRawStream>, depth: number): void {
	const xObjects = resources?.lookupMaybe(name('XObject'), PDFDict);
	if (!xObjects) return;
	for (const drawn of drawnNames(content)) {
		const object = xObjects.lookup(name(drawn));
		if (!(object instanceof PDFRawStream) || seen.has(object)) continue;
		seen.add(object);
		const subtype = object.dict.lookup(name('Subtype'));
		const kind = subtype instanceof PDFName ? subtype.decodeText() : '';
		if (kind === 'Image') {
			found.push({ stream: object, resources, width: numberOf(object.dict, 'Width') ?? 0, height: numberOf(object.dict, 'Height') ?? 0 });
		} else if (kind === 'Form' && depth < MAX_FORM_DEPTH) {
			let formContent: Uint8Array;
			try {
				formContent = decodePDFRawStream(object).decode();
			} catch {
				continue;
			}
			collectImages(formContent, object.dict.lookupMaybe(name('Resources'), PDFDict) ?? resources, found, seen, depth + 1);
		}
	}
}

/**
 * The images worth reading on the given pages (0-based): per page the largest drawn image and
 * those at least a fifth of its area, in drawing order, at most four. Never throws: a PDF that
 * pdf-lib cannot open gives no images.
 */
export async function pdfPageImages(bytes: Uint8Array, pages: number[]): Promise<PdfPageImages> {
	const result: PdfPageImages = { images: [], skipped: [] };
	let pdf: PDFDocument;
	let allPages: ReturnType<PDFDocument['getPages']>;
	try {
		pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
		allPages = pdf.getPages();
	} catch {
		return result;
	}
	for (const page of pages) {
		const leaf = allPages[page]?.node;
		if (!leaf) continue;
		const found: DrawnImage[] = [];
		try {
			collectImages(contentOf(leaf.get(name('Contents')), pdf.context), leaf.Resources(), found, new Set(), 0);
		} catch {
			continue;
		}
		const sized = found.filter((image) => image.width >= MIN_WIDTH && image.height >= MIN_HEIGHT);
		const largest = Math.max(0, ...sized.map((image) => image.width * image.height));
		const chosen = sized.filter((image) => image.width * image.height >= largest * MIN_AREA_SHARE).slice(0, MAX_IMAGES_PER_PAGE);
		for (const image of chosen) {
			let file: ReturnType<typeof imageFile>;
			try {
				file = imageFile(image.stream, image.resources);
			} catch (error) {
				file = { reason: `undecodable: ${error instanceof Error ? error.message : String(error)}` };
			}
			if ('reason' in file) result.skipped.push({ page, width: image.width, height: image.height, reason: file.reason });
			else result.images.push({ page, format: file.format, bytes: file.bytes, width: image.width, height: image.height });
		}
	}
	return result;
}
