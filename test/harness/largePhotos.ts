/**
 * Large photos of a real document, made at test time (Shrink Large Photos, issue 46): a 48-megapixel
 * phone photo (8000 x 6000, about 9 MB of JPEG) and a 41-megapixel scan saved as a 6 MB PNG, each
 * an invoice scaled up, with a camera's grain, so that the sandbox's OCR reads its text from the
 * pixels once it is shrunk. The invoice is a real one of the corpus when it is here (its values
 * known: test/corpus/expected/dev-invoices/), else the project's invoice fixture drawn without a
 * canvas (textRaster.ts). Deterministic: the same bytes each time on one machine. cjpeg encodes
 * the JPEGs when it is here (a second or two); else the project's own encoder does (slower).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { deflateSync } from 'node:zlib';

import { decodeJpeg } from '../../nodes/shared/images/jpegDecode';
import { encodeJpeg } from '../../nodes/shared/images/jpegEncode';
import type { RgbImage } from '../../nodes/shared/images/raster';
import { loadFixture } from '../fixtures';
import { pngChunk } from '../fixtures/images';
import { corpusFile } from './corpusLocation';
import { LIBJPEG, cjpeg, ppmHeader } from './libjpeg';
import { renderPdfText } from './textRaster';

/** An invoice photographed on a desk (782 x 1104; its number, date and total printed large). */
export const LARGE_PHOTO_SOURCE = 'dev-invoices/files/mindee-invoice-johnsmith-en-us.jpg';

const sourcePath = corpusFile(LARGE_PHOTO_SOURCE);

/** What the photos show: the corpus's invoice, or the fixture drawn when the corpus is not here. */
export const LARGE_PHOTO_DOCUMENT = sourcePath ? LARGE_PHOTO_SOURCE : 'the invoice-en.pdf fixture, drawn at 144 dpi (the corpus is not here)';

export interface DocumentPhoto {
	bytes: Buffer;
	width: number;
	height: number;
	fileName: string;
	mimeType: 'image/jpeg' | 'image/png';
	/** The values the document shows. */
	expected: { invoice_number: string; total: number };
}

async function source(): Promise<{ image: RgbImage; expected: DocumentPhoto['expected'] }> {
	if (!sourcePath) {
		const fixture = await loadFixture('invoiceEn');
		const { invoice_number, total } = fixture.expected as { invoice_number: string; total: number };
		return { image: await renderPdfText(fixture.bytes, 2), expected: { invoice_number, total } };
	}
	const image = decodeJpeg(new Uint8Array(readFileSync(sourcePath)), { scale: 1 });
	const expectedPath = join(__dirname, '..', 'corpus', 'expected', 'dev-invoices', `${basename(sourcePath).replace(/\.[^.]+$/, '')}.json`);
	const { fields } = JSON.parse(readFileSync(expectedPath, 'utf8')) as { fields: { invoice_number: string; total: number } };
	return { image, expected: { invoice_number: fields.invoice_number, total: fields.total } };
}

interface Shot {
	width: number;
	height: number;
	/** grain: a sample moves by up to this much, either way */
	noise: number;
	/** one sample in this many has grain (1: every one) */
	grainEvery: number;
	/** the document's share of the picture's height (the rest is a grey desk around it) */
	fill: number;
}

/**
 * The document scaled up (bilinear) into the middle of a `width` x `height` picture, on a desk,
 * with grain; written after `headerBytes` bytes of the buffer returned (room for a PPM header).
 */
function photograph(document: RgbImage, shot: Shot, headerBytes: number): { buffer: Buffer; image: RgbImage } {
	const { width, height, noise } = shot;
	const buffer = Buffer.alloc(headerBytes + width * height * 3);
	const data = buffer.subarray(headerBytes);
	const factor = (height * shot.fill) / document.height;
	const pageWidth = Math.round(document.width * factor);
	const pageHeight = Math.round(document.height * factor);
	const left = Math.floor((width - pageWidth) / 2);
	const top = Math.floor((height - pageHeight) / 2);
	const src = document.data;
	const sw = document.width;
	let seed = 46;
	for (let y = 0, at = 0; y < height; y++) {
		const sy = Math.min(document.height - 1, Math.max(0, (y - top + 0.5) / factor - 0.5));
		const y0 = Math.floor(sy);
		const y1 = Math.min(document.height - 1, y0 + 1);
		const fy = sy - y0;
		const onRows = y >= top && y < top + pageHeight;
		for (let x = 0; x < width; x++, at += 3) {
			const onPage = onRows && x >= left && x < left + pageWidth;
			const sx = Math.min(sw - 1, Math.max(0, (x - left + 0.5) / factor - 0.5));
			const x0 = Math.floor(sx);
			const x1 = Math.min(sw - 1, x0 + 1);
			const fx = sx - x0;
			for (let c = 0; c < 3; c++) {
				let value = 96 + 12 * c;
				if (onPage) {
					const top0 = src[(y0 * sw + x0) * 3 + c] * (1 - fx) + src[(y0 * sw + x1) * 3 + c] * fx;
					const top1 = src[(y1 * sw + x0) * 3 + c] * (1 - fx) + src[(y1 * sw + x1) * 3 + c] * fx;
					// Paper as a camera or scanner sees it: off-white, so the grain is not clipped away.
					value = 8 + 0.9 * (top0 * (1 - fy) + top1 * fy);
				}
				// xorshift32: a linear congruential generator's low bits repeat, and deflate would find them.
				seed ^= seed << 13;
				seed ^= seed >>> 17;
				seed ^= seed << 5;
				const random = seed >>> 0;
				const grain = random % shot.grainEvery === 0 ? ((random >>> 8) % (2 * noise + 1)) - noise : 0;
				data[at + c] = Math.max(0, Math.min(255, Math.round(value + grain)));
			}
		}
	}
	return { buffer, image: { width, height, data } };
}

/** The 48-megapixel phone photo: 8000 x 6000, about 9 MB (`progressive`: the same picture as a progressive JPEG). */
export async function largeJpeg(options: { progressive?: boolean } = {}): Promise<DocumentPhoto> {
	const { image: document, expected } = await source();
	const shot: Shot = { width: 8000, height: 6000, noise: 9, grainEvery: 1, fill: 0.96 };
	const header = ppmHeader(shot.width, shot.height);
	const { buffer, image } = photograph(document, shot, header.length);
	let bytes: Buffer;
	if (LIBJPEG) {
		header.copy(buffer);
		bytes = Buffer.from(cjpeg(buffer, ['-quality', '90', ...(options.progressive ? ['-progressive'] : [])]));
	} else {
		if (options.progressive) throw new Error('a progressive JPEG needs cjpeg (libjpeg-turbo-progs)');
		bytes = Buffer.from(encodeJpeg(image, 90));
	}
	return { bytes, width: shot.width, height: shot.height, fileName: 'invoice-photo.jpg', mimeType: 'image/jpeg', expected };
}

/** The page scanned at about 650 dpi and saved as PNG: 5400 x 7600 RGB (41 megapixels), about 6 MB. */
export async function largePng(): Promise<DocumentPhoto> {
	const { image: document, expected } = await source();
	// The corpus's photo has its own grain; the drawn fixture is flat white, which deflate all but removes.
	const shot: Shot = { width: 5400, height: 7600, noise: sourcePath ? 0 : 1, grainEvery: 75, fill: 1 };
	const { image } = photograph(document, shot, 0);
	const rowBytes = shot.width * 3;
	const filtered = Buffer.alloc(shot.height * (rowBytes + 1));
	// Filter None (0) on every row, deflated fast (level 1): a scanner's quick PNG.
	for (let y = 0; y < shot.height; y++) filtered.set(image.data.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(shot.width, 0);
	ihdr.writeUInt32BE(shot.height, 4);
	ihdr.set([8, 2, 0, 0, 0], 8);
	const bytes = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', ihdr),
		pngChunk('IDAT', deflateSync(filtered, { level: 1 })),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
	return { bytes, width: shot.width, height: shot.height, fileName: 'invoice-scan.png', mimeType: 'image/png', expected };
}
