/**
 * The buffered path: a progressive frame, or a sequential one coded in several scans, needs every
 * block's coefficients until its last scan. Only those the scaled IDCT reads are kept: the
 * top-left N x N, N the component's block size (8 / scale, or more for subsampled chroma:
 * layout.ts), 2 bytes each, plus what refinement scans must know about the dropped ones
 * (coefficients.ts). The image is then rendered MCU row by MCU row like the streaming path.
 *
 * Memory, 8000 x 6000 4:2:0 progressive at scale 4: 750,000 luma blocks x 2x2 coefficients and
 * 2 x 187,500 chroma blocks x 4x4 (chroma gets the larger IDCT, layout.ts) = 9 M coefficients x
 * 2 bytes = 18 MB, + 9 MB of nonzero bits (all three components have refinement scans over
 * dropped coefficients in libjpeg's default script) + 1.1 MB `last` + the 2000 x 1500 RGB output
 * (9 MB): about 37 MB besides the file itself. Full-size coefficients would be 144 MB.
 */
import type { RgbImage } from '../raster';
import {
	decodeAcFirst,
	decodeAcRefine,
	decodeDcFirst,
	decodeDcRefine,
	decodeSequentialBlock,
	slotsFor,
	type CoefficientStore,
} from './coefficients';
import { JpegError } from './error';
import { BitReader } from './huffman';
import { idctFor } from './idct';
import type { Layout } from './layout';
import { skipEntropyData, type ScanHeader, type Segment } from './markers';
import { createBands, writeRows, type ColourModel } from './output';
import { planScans, type ScanPlan } from './scanPlan';
import { TRUNCATED } from './sequential';
import { compactQuant, scanTables, type Tables } from './tables';

type BlockKind = 'sequential' | 'dcFirst' | 'dcRefine' | 'acFirst' | 'acRefine';

export class BufferedDecoder {
	private readonly stores: CoefficientStore[];
	private readonly quants: Array<Int32Array | undefined>;
	private readonly plan: ScanPlan;
	private scanNumber = 0;

	constructor(
		private readonly bytes: Uint8Array,
		firstScan: Segment,
		private readonly layout: Layout,
	) {
		const slots = layout.components.map((c) => slotsFor(c.blockSize));
		this.plan = planScans(bytes, firstScan, layout.frame, slots);
		this.stores = layout.components.map((c, i) => {
			const blocks = c.paddedWide * c.paddedHigh;
			return {
				coefs: new Int16Array(blocks * c.blockSize * c.blockSize),
				size: c.blockSize,
				slots: slots[i],
				nonzero: this.plan.needsNonzero[i] ? new Uint32Array(blocks * 2) : undefined,
				last: new Uint8Array(blocks),
			};
		});
		this.quants = layout.components.map(() => undefined);
	}

	/** Decodes (or passes) one scan whose data starts at `dataStart`; returns where its data ends. */
	scan(dataStart: number, scan: ScanHeader, tables: Tables): number {
		const wanted = this.plan.decode[this.scanNumber++] ?? true;
		if (!wanted) return skipEntropyData(this.bytes, dataStart);
		const { frame, components } = this.layout;
		// Quantizers are latched at a component's first scan, as libjpeg does.
		for (const c of scan.components) this.quants[c] ??= compactQuant(tables, frame.components[c].quantId, components[c].blockSize);
		const kind: BlockKind = !frame.progressive
			? 'sequential'
			: scan.ss === 0
				? scan.ah === 0
					? 'dcFirst'
					: 'dcRefine'
				: scan.ah === 0
					? 'acFirst'
					: 'acRefine';
		const needsDc = kind === 'sequential' || kind === 'dcFirst';
		const needsAc = kind === 'sequential' || kind === 'acFirst' || kind === 'acRefine';
		const dc = needsDc ? scanTables(tables, scan.dcTableIds, 'dc') : [];
		const ac = needsAc ? scanTables(tables, scan.acTableIds, 'ac') : [];
		const reader = new BitReader(this.bytes, dataStart);
		const predictors = scan.components.map(() => 0);
		let eobrun = 0;
		const decodeBlock = (i: number, block: number) => {
			const store = this.stores[scan.components[i]];
			switch (kind) {
				case 'sequential':
					predictors[i] = decodeSequentialBlock(reader, dc[i], ac[i], predictors[i], store.coefs, block * store.size * store.size, store.slots);
					break;
				case 'dcFirst':
					predictors[i] = decodeDcFirst(reader, dc[i], predictors[i], store, block, scan.al);
					break;
				case 'dcRefine':
					decodeDcRefine(reader, store, block, scan.al);
					break;
				case 'acFirst':
					eobrun = decodeAcFirst(reader, ac[i], store, block, scan.ss, scan.se, scan.al, eobrun);
					break;
				case 'acRefine':
					eobrun = decodeAcRefine(reader, ac[i], store, block, scan.ss, scan.se, scan.al, eobrun);
					break;
			}
		};
		const restart = () => {
			reader.restart();
			predictors.fill(0);
			eobrun = 0;
		};
		this.forEachBlock(scan, tables.restartInterval, reader, restart, decodeBlock);
		if (reader.exhausted()) throw new JpegError(TRUNCATED);
		return skipEntropyData(this.bytes, reader.pos);
	}

	private forEachBlock(
		scan: ScanHeader,
		interval: number,
		reader: BitReader,
		restart: () => void,
		decodeBlock: (i: number, block: number) => void,
	): void {
		let toGo = interval;
		const beforeMcu = () => {
			if (interval === 0) return;
			if (toGo === 0) {
				restart();
				toGo = interval;
			}
			toGo--;
		};
		if (scan.components.length === 1) {
			// A scan of one component covers its blocks in raster order, one block per MCU.
			const { blocksWide, blocksHigh, paddedWide } = this.layout.components[scan.components[0]];
			for (let by = 0; by < blocksHigh; by++) {
				for (let bx = 0; bx < blocksWide; bx++) {
					beforeMcu();
					decodeBlock(0, by * paddedWide + bx);
				}
				if (reader.exhausted()) throw new JpegError(TRUNCATED);
			}
			return;
		}
		const { mcusAcross, mcusDown } = this.layout;
		const parts = scan.components.map((c) => this.layout.components[c]);
		for (let my = 0; my < mcusDown; my++) {
			for (let mx = 0; mx < mcusAcross; mx++) {
				beforeMcu();
				for (let i = 0; i < parts.length; i++) {
					const { h, v, paddedWide } = parts[i];
					for (let by = 0; by < v; by++) for (let bx = 0; bx < h; bx++) decodeBlock(i, (my * v + by) * paddedWide + mx * h + bx);
				}
			}
			if (reader.exhausted()) throw new JpegError(TRUNCATED);
		}
	}

	render(model: ColourModel): RgbImage {
		const { frame, size, outWidth, outHeight, mcusDown } = this.layout;
		const missing = this.quants.findIndex((q) => q === undefined);
		if (missing >= 0) throw new JpegError(`JPEG truncated or corrupt: component ${frame.components[missing].id} has no scan`);
		const data = new Uint8Array(outWidth * outHeight * 3);
		const out = new Uint8ClampedArray(data.buffer);
		const bands = createBands(this.layout);
		const work = new Int32Array(64);
		const rowHeight = frame.maxV * size;
		for (let my = 0; my < mcusDown; my++) {
			this.layout.components.forEach(({ v, paddedWide, blockSize }, i) => {
				const { coefs } = this.stores[i];
				const quant = this.quants[i] as Int32Array;
				const { samples, stride } = bands[i];
				const idct = idctFor(blockSize);
				const perBlock = blockSize * blockSize;
				for (let by = 0; by < v; by++) {
					const rowStart = (my * v + by) * paddedWide;
					for (let bx = 0; bx < paddedWide; bx++) {
						idct(coefs, (rowStart + bx) * perBlock, quant, samples, by * blockSize * stride + bx * blockSize, stride, work);
					}
				}
			});
			const top = my * rowHeight;
			writeRows(bands, model, out, outWidth, top, top, Math.min(outHeight, top + rowHeight));
		}
		return { width: outWidth, height: outHeight, data };
	}
}
