import { deflateSync, inflateSync } from 'node:zlib';
import { concatTransformationMatrix, drawObject, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, popGraphicsState, pushGraphicsState, type PDFPage } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ccittTiff, drawnPlacements, imageFile, MAX_TEXT_PAGE_IMAGES, pdfPageImages, textPageImages, type Matrix } from '../../../sandbox/src/extraction/pdf-images';

/** The file tests build: pages drawing image XObjects made from a dictionary and raw bytes. */
async function pdfWith(images: Array<{ dict: Record<string, unknown>; bytes: Uint8Array; drawn?: boolean; inForm?: boolean }>): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	const page = pdf.addPage([600, 800]);
	images.forEach((image, index) => {
		const ref = pdf.context.register(PDFRawStream.of(pdf.context.obj({ Type: 'XObject', Subtype: 'Image', ...image.dict } as never) as unknown as PDFDict, image.bytes));
		if (image.drawn === false) {
			page.node.newXObject(`Unused${index}`, ref);
			return;
		}
		if (image.inForm) {
			const resources = pdf.context.obj({ XObject: { Inner: ref } });
			const form = pdf.context.flateStream(`q 600 0 0 800 0 0 cm /Inner Do Q`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 600, 800], Resources: resources });
			draw(page, page.node.newXObject(`Form${index}`, pdf.context.register(form)));
			return;
		}
		draw(page, page.node.newXObject(`Image${index}`, ref));
	});
	return pdf.save();
}

function draw(page: PDFPage, name: PDFName): void {
	page.pushOperators(pushGraphicsState(), concatTransformationMatrix(600, 0, 0, 800, 0, 0), drawObject(name), popGraphicsState());
}

/** The chunks of a PNG file: type -> data (the last of each type). */
function pngChunks(png: Uint8Array): Map<string, Buffer> {
	const buffer = Buffer.from(png);
	const chunks = new Map<string, Buffer>();
	for (let offset = 8; offset + 8 <= buffer.length; ) {
		const length = buffer.readUInt32BE(offset);
		chunks.set(buffer.subarray(offset + 4, offset + 8).toString('latin1'), buffer.subarray(offset + 8, offset + 8 + length));
		offset += 12 + length;
	}
	return chunks;
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9])]);
const GREY = { Width: 100, Height: 40, ColorSpace: 'DeviceGray', BitsPerComponent: 8 };

describe('pdfPageImages: the images a page draws, as files the OCR reads', () => {
	it('hands a DCT image over as the JPEG it is, and finds images inside form XObjects', async () => {
		const pdf = await pdfWith([{ dict: { ...GREY, Filter: 'DCTDecode' }, bytes: JPEG, inForm: true }]);
		const { images, skipped } = await pdfPageImages(pdf, [0]);
		expect(skipped).toEqual([]);
		expect(images).toHaveLength(1);
		expect(images[0]).toMatchObject({ page: 0, format: 'jpeg', width: 100, height: 40 });
		expect(Buffer.from(images[0].bytes).equals(JPEG)).toBe(true);
	});

	it('reads only images the content stream draws, leaves out small ones, names what it cannot read', async () => {
		const pdf = await pdfWith([
			{ dict: { ...GREY, Filter: 'DCTDecode' }, bytes: JPEG, drawn: false },
			{ dict: { ...GREY, Width: 30, Filter: 'DCTDecode' }, bytes: JPEG },
			{ dict: { ...GREY, Filter: 'JBIG2Decode' }, bytes: Buffer.alloc(10) },
		]);
		const { images, skipped } = await pdfPageImages(pdf, [0]);
		expect(images).toEqual([]);
		expect(skipped).toEqual([{ page: 0, width: 100, height: 40, reason: 'JBIG2Decode images are not read' }]);
	});

	it('gives no images for a file pdf-lib cannot open, or pages it does not have', async () => {
		expect(await pdfPageImages(Buffer.from('%PDF-1.7\ngarbage'), [0])).toEqual({ images: [], skipped: [] });
		const pdf = await pdfWith([{ dict: { ...GREY, Filter: 'DCTDecode' }, bytes: JPEG }]);
		expect((await pdfPageImages(pdf, [3])).images).toEqual([]);
	});
});

describe('drawnPlacements: where a content stream draws its XObjects', () => {
	it('follows q, Q and cm, and steps over strings and inline images that hold "Do"', () => {
		const drawn: Array<[string, Matrix]> = [];
		const content = 'q 200 0 0 50 100 700 cm /Logo Do Q BT (a \\) /Fake Do) Tj ET BI /W 1 /H 1 ID x /Inline Do EI q 1 0 0 1 10 10 cm 2 0 0 2 0 0 cm /Img#20A Do Q /Last Do';
		drawnPlacements(Buffer.from(content, 'latin1'), (name, ctm) => drawn.push([name, ctm]));
		expect(drawn).toEqual([
			['Logo', [200, 0, 0, 50, 100, 700]],
			['Img A', [2, 0, 0, 2, 10, 10]],
			['Last', [1, 0, 0, 1, 0, 0]],
		]);
	});
});

describe('textPageImages: images on pages with text that may carry text of their own', () => {
	/** Pages of 600 x 800 points drawing images at [width, height, x, y] in points. */
	async function placed(pages: Array<Array<{ image: number; at: [number, number, number, number] }>>, images: Array<Record<string, unknown>>): Promise<Uint8Array> {
		const pdf = await PDFDocument.create();
		const refs = images.map((dict) => pdf.context.register(PDFRawStream.of(pdf.context.obj({ Type: 'XObject', Subtype: 'Image', Filter: 'DCTDecode', ...dict } as never) as unknown as PDFDict, JPEG)));
		for (const draws of pages) {
			const page = pdf.addPage([600, 800]);
			for (const { image, at } of draws) {
				const [width, height, x, y] = at;
				page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, x, y), drawObject(page.node.newXObject(`Im${image}`, refs[image])), popGraphicsState());
			}
		}
		return pdf.save();
	}
	const LETTERHEAD = { ...GREY, Width: 600, Height: 120 };
	const ICON = { ...GREY, Width: 80, Height: 75 };
	const SCAN = { ...GREY, Width: 1700, Height: 2200 };

	it('finds a letterhead with where it is drawn, leaves out icons and a page-covering scan, reads a repeated image once', async () => {
		const pdf = await placed(
			[
				[{ image: 0, at: [300, 60, 50, 720] }, { image: 1, at: [40, 38, 500, 400] }, { image: 2, at: [600, 800, 0, 0] }],
				[{ image: 0, at: [300, 60, 50, 720] }],
			],
			[LETTERHEAD, ICON, SCAN],
		);
		const { images, pageBoxes } = await textPageImages(pdf, [0, 1]);
		expect(images).toHaveLength(1);
		expect(images[0]).toMatchObject({ page: 0, width: 600, height: 120, box: { x0: 50, y0: 720, x1: 350, y1: 780 } });
		expect(pageBoxes.get(0)).toEqual({ x0: 0, y0: 0, x1: 600, y1: 800 });
	});

	it('gives nothing for a file that holds no image at all', async () => {
		const pdf = await PDFDocument.create();
		pdf.addPage([600, 800]).drawText('Invoice');
		expect(await textPageImages(await pdf.save(), [0])).toEqual({ images: [], skipped: [], pageBoxes: new Map() });
	});

	it(`reads at most ${MAX_TEXT_PAGE_IMAGES} images of a document, the largest of a page first`, async () => {
		const strip = (width: number) => ({ ...GREY, Width: width, Height: 60 });
		const pdf = await placed([[0, 1, 2, 3].map((image) => ({ image, at: [200, 20, 50, 100 + image * 100] as [number, number, number, number] }))], [strip(300), strip(500), strip(400), strip(200)]);
		const { images } = await textPageImages(pdf, [0]);
		expect(images.map((image) => image.width)).toEqual([500, 400, 300].slice(0, MAX_TEXT_PAGE_IMAGES));
	});
});

describe('imageFile: PDF image streams -> PNG and TIFF', () => {
	const rows = (width: number, height: number, value: (x: number, y: number) => number, bytesPerPixel = 1) => {
		const data = Buffer.alloc(width * height * bytesPerPixel);
		for (let y = 0; y < height; y++) for (let x = 0; x < width * bytesPerPixel; x++) data[y * width * bytesPerPixel + x] = value(x, y);
		return data;
	};
	const streamOf = async (dict: Record<string, unknown>, bytes: Uint8Array) => {
		const pdf = await PDFDocument.create();
		return PDFRawStream.of(pdf.context.obj({ Type: 'XObject', Subtype: 'Image', ...dict } as never) as unknown as PDFDict, bytes);
	};

	it('Flate grey without predictor: rows get their filter byte, samples unchanged', async () => {
		const samples = rows(100, 40, (x, y) => (x + y) % 256);
		const file = imageFile(await streamOf({ ...GREY, Filter: 'FlateDecode' }, deflateSync(samples)), undefined);
		expect(file).toMatchObject({ format: 'png' });
		const chunks = pngChunks((file as { bytes: Uint8Array }).bytes);
		expect([...chunks.get('IHDR')!.subarray(8, 10)]).toEqual([8, 0]);
		const scanlines = inflateSync(chunks.get('IDAT')!);
		expect(scanlines.length).toBe(101 * 40);
		expect(scanlines[101]).toBe(0);
		expect(scanlines.subarray(102, 201).equals(samples.subarray(100, 199))).toBe(true);
	});

	it('Flate RGB with PNG predictors: the stream is the IDAT as it is', async () => {
		const filtered = Buffer.concat(Array.from({ length: 40 }, () => Buffer.concat([Buffer.from([1]), rows(100, 1, () => 3, 3)])));
		const compressed = deflateSync(filtered);
		const dict = { ...GREY, ColorSpace: 'DeviceRGB', Filter: 'FlateDecode', DecodeParms: { Predictor: 15, Colors: 3, BitsPerComponent: 8, Columns: 100 } };
		const file = imageFile(await streamOf(dict, compressed), undefined) as { bytes: Uint8Array };
		const chunks = pngChunks(file.bytes);
		expect([...chunks.get('IHDR')!.subarray(8, 10)]).toEqual([8, 2]);
		expect(chunks.get('IDAT')!.equals(compressed)).toBe(true);
	});

	it('an inverted 1-bit image mask (Decode [1 0]) is drawn through a white-black palette; indexed colours keep theirs', async () => {
		const mask = imageFile(await streamOf({ Width: 100, Height: 40, ImageMask: true, Decode: [1, 0], Filter: 'FlateDecode' }, deflateSync(Buffer.alloc(13 * 40))), undefined) as {
			bytes: Uint8Array;
		};
		const maskChunks = pngChunks(mask.bytes);
		expect([...maskChunks.get('IHDR')!.subarray(8, 10)]).toEqual([1, 3]);
		expect([...maskChunks.get('PLTE')!]).toEqual([255, 255, 255, 0, 0, 0]);

		const indexed = await streamOf({ Width: 100, Height: 40, BitsPerComponent: 8, Filter: 'FlateDecode' }, deflateSync(Buffer.alloc(4000)));
		// [/Indexed /DeviceGray 1 <10F0>]: two greys.
		indexed.dict.set(PDFName.of('ColorSpace'), indexed.dict.context.obj([PDFName.of('Indexed'), PDFName.of('DeviceGray'), 1, PDFHexString.of('10F0')]));
		const palette = pngChunks((imageFile(indexed, undefined) as { bytes: Uint8Array }).bytes).get('PLTE')!;
		expect([...palette]).toEqual([0x10, 0x10, 0x10, 0xf0, 0xf0, 0xf0]);
	});

	it('CMYK becomes RGB; a colour space it does not know is named', async () => {
		const cmyk = imageFile(await streamOf({ ...GREY, ColorSpace: 'DeviceCMYK', Filter: 'FlateDecode' }, deflateSync(rows(100, 40, (x) => (x % 4 === 3 ? 255 : 0), 4))), undefined) as { bytes: Uint8Array };
		const scanlines = inflateSync(pngChunks(cmyk.bytes).get('IDAT')!);
		expect([...scanlines.subarray(1, 4)]).toEqual([0, 0, 0]);
		expect(imageFile(await streamOf({ ...GREY, ColorSpace: 'Pattern', Filter: 'FlateDecode' }, deflateSync(Buffer.alloc(4000))), undefined)).toEqual({ reason: 'colour space Pattern' });
	});

	it('CCITT fax data goes into a TIFF unchanged: Group 4 for K < 0, photometric from BlackIs1 and Decode', async () => {
		const data = Buffer.from([1, 2, 3, 4, 5]);
		const file = imageFile(await streamOf({ Width: 1728, Height: 10, BitsPerComponent: 1, ColorSpace: 'DeviceGray', Filter: 'CCITTFaxDecode', DecodeParms: { K: -1, Columns: 1728 } }, data), undefined);
		expect(file).toMatchObject({ format: 'tiff' });
		const tiff = Buffer.from((file as { bytes: Uint8Array }).bytes);
		expect(tiff.subarray(0, 4).toString('latin1')).toBe('II*\0');
		expect(tiff.subarray(tiff.length - 5).equals(data)).toBe(true);
		const tag = (buffer: Buffer, id: number) => {
			for (let index = 0; index < buffer.readUInt16LE(8); index++) if (buffer.readUInt16LE(10 + index * 12) === id) return buffer.readUInt16LE(10 + index * 12 + 8);
			return undefined;
		};
		expect(tag(tiff, 259)).toBe(4);
		expect(tag(tiff, 262)).toBe(0);
		const g3 = ccittTiff(data, { width: 8, height: 8, k: 0, byteAligned: true, inverted: true });
		expect([tag(g3, 259), tag(g3, 262), tag(g3, 292)]).toEqual([3, 1, 4]);
	});
});
