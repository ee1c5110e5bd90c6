/**
 * The streaming path: a sequential (baseline) frame whose one scan holds every component is
 * decoded MCU row by MCU row straight into the output. Besides the output image, it holds one
 * band of samples per component (one MCU row at the output scale) and a single block.
 */
import type { RgbImage } from '../raster';
import type { Steps } from '../steps';
import { decodeSequentialBlock, slotsFor } from './coefficients';
import { JpegError } from './error';
import { BitReader } from './huffman';
import { idctFor } from './idct';
import type { Layout } from './layout';
import type { ScanHeader } from './markers';
import { createBands, writeRows, type ColourModel } from './output';
import { compactQuant, scanTables, type Tables } from './tables';

export const TRUNCATED = 'JPEG truncated or corrupt: the scan data ends early';

/** Yields after each MCU row (steps.ts). */
export function* decodeSequentialScan(bytes: Uint8Array, dataStart: number, layout: Layout, scan: ScanHeader, tables: Tables, model: ColourModel): Steps<RgbImage> {
	const { frame, size, outWidth, outHeight, mcusAcross, mcusDown } = layout;
	const dcTables = scanTables(tables, scan.dcTableIds, 'dc');
	const acTables = scanTables(tables, scan.acTableIds, 'ac');
	const data = new Uint8Array(outWidth * outHeight * 3);
	const out = new Uint8ClampedArray(data.buffer);
	const bands = createBands(layout);
	const parts = scan.components.map((c) => {
		const { h, v, blockSize } = layout.components[c];
		return { h, v, blockSize, band: bands[c], slots: slotsFor(blockSize), idct: idctFor(blockSize), quant: compactQuant(tables, frame.components[c].quantId, blockSize) };
	});
	const block = new Int16Array(64);
	const work = new Int32Array(64);
	const predictors = scan.components.map(() => 0);
	const reader = new BitReader(bytes, dataStart);
	const interval = tables.restartInterval;
	let toGo = interval;
	const rowHeight = frame.maxV * size;
	// The hot loop is a plain function: the generator around it only steps from row to row.
	const decodeMcuRow = (my: number) => {
		for (let mx = 0; mx < mcusAcross; mx++) {
			if (interval > 0) {
				if (toGo === 0) {
					reader.restart();
					predictors.fill(0);
					toGo = interval;
				}
				toGo--;
			}
			for (let i = 0; i < parts.length; i++) {
				const { h, v, blockSize, band, slots, idct, quant } = parts[i];
				for (let by = 0; by < v; by++) {
					for (let bx = 0; bx < h; bx++) {
						block.fill(0, 0, blockSize * blockSize);
						predictors[i] = decodeSequentialBlock(reader, dcTables[i], acTables[i], predictors[i], block, 0, slots);
						idct(block, 0, quant, band.samples, by * blockSize * band.stride + (mx * h + bx) * blockSize, band.stride, work);
					}
				}
			}
		}
		if (reader.exhausted()) throw new JpegError(TRUNCATED);
		const top = my * rowHeight;
		writeRows(bands, model, out, outWidth, top, top, Math.min(outHeight, top + rowHeight));
	};
	for (let my = 0; my < mcusDown; my++) {
		decodeMcuRow(my);
		yield;
	}
	return { width: outWidth, height: outHeight, data };
}
