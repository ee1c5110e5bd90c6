/**
 * The buffered path: a progressive frame, or a sequential one coded in several scans, needs every
 * block's coefficients until its last scan. Only those the scaled IDCT reads are kept: the
 * top-left N x N, N the component's block size (8 / scale, or more for subsampled chroma unless
 * the caller keeps it subsampled: layout.ts), 2 bytes each, plus what refinement scans must know
 * about the dropped ones (coefficients.ts). Over `maxCoefficientBytes`, they are held a band of
 * MCU rows at a time: the file is walked again for each band, every block outside it decoded and
 * dropped (its nonzero bits still kept, as refinements need them). The image is rendered MCU row
 * by MCU row as its rows are read, so it never exists whole.
 *
 * Memory, 8000 x 6000 4:2:0 progressive at scale 2 with subsampled chroma (what shrink.ts does):
 * 750,000 luma blocks x 4x4 coefficients and 2 x 187,500 chroma blocks x 4x4 = 18 M
 * coefficients, 36 MB, held in two bands of 18 MB; + 9 MB of nonzero bits + 1.1 MB `last` + one
 * MCU row of RGB (96 KB): about 28 MB besides the file, against 72 MB of coefficients and the
 * 4000 x 3000 image (36 MB) before. The price: the scans are decoded once per band (2.9 s of
 * CPU instead of 2.6 for that photo's shrink; 4.2 s with chroma at the output's resolution,
 * which takes four bands).
 */
import type { RgbRows } from '../raster';
import { runSteps, type Steps } from '../steps';
import {
	decodeAcFirst,
	decodeAcRefine,
	decodeDcFirst,
	decodeDcRefine,
	decodeSequentialBlock,
	NO_SLOTS,
	slotsFor,
	type CoefficientStore,
} from './coefficients';
import { JpegError } from './error';
import { BitReader } from './huffman';
import { idctFor } from './idct';
import type { Layout } from './layout';
import { skipEntropyData, type ScanHeader, type Segment } from './markers';
import { createBands, writeRows, type Band, type ColourModel } from './output';
import { planScans, type ScanPlan } from './scanPlan';
import { TRUNCATED } from './sequential';
import { compactQuant, scanTables, type Tables } from './tables';

type BlockKind = 'sequential' | 'dcFirst' | 'dcRefine' | 'acFirst' | 'acRefine';

export class BufferedDecoder {
	private readonly stores: CoefficientStore[];
	/** by component: the same store with every coefficient dropped, for blocks outside the band */
	private readonly outside: CoefficientStore[];
	private readonly quants: Array<Int32Array | undefined>;
	private readonly plan: ScanPlan;
	private scanNumber = 0;
	/** MCU rows whose coefficients are held at a time, and the band being held */
	private readonly bandRows: number;
	private band = 0;

	constructor(
		private readonly bytes: Uint8Array,
		firstScan: Segment,
		private readonly layout: Layout,
		maxCoefficientBytes: number,
	) {
		const slots = layout.components.map((c) => slotsFor(c.blockSize));
		const total = layout.components.reduce((sum, c) => sum + 2 * c.paddedWide * c.paddedHigh * c.blockSize * c.blockSize, 0);
		this.bandRows = Math.ceil(layout.mcusDown / Math.max(1, Math.ceil(total / maxCoefficientBytes)));
		this.plan = planScans(bytes, firstScan, layout.frame, slots, this.bandRows < layout.mcusDown);
		this.stores = layout.components.map((c, i) => {
			const blocks = c.paddedWide * c.paddedHigh;
			return {
				coefs: new Int16Array(Math.min(blocks, this.bandRows * c.v * c.paddedWide) * c.blockSize * c.blockSize),
				first: 0,
				size: c.blockSize,
				slots: slots[i],
				nonzero: this.plan.needsNonzero[i] ? new Uint32Array(blocks * 2) : undefined,
				last: new Uint8Array(blocks),
			};
		});
		this.outside = this.stores.map((store) => ({ ...store, slots: NO_SLOTS }));
		this.quants = layout.components.map(() => undefined);
	}

	/** The band of MCU rows that holds MCU row `my`. */
	bandOf(my: number): number {
		return Math.floor(my / this.bandRows);
	}

	/** Forgets every scan, to hold band `band` when the walk feeds them all again (decoder.ts). */
	startBand(band: number): void {
		this.band = band;
		this.scanNumber = 0;
		this.quants.fill(undefined);
		this.layout.components.forEach(({ v, paddedWide }, i) => {
			const store = this.stores[i];
			store.first = band * this.bandRows * v * paddedWide;
			store.coefs.fill(0);
			store.nonzero?.fill(0);
			store.last.fill(0);
		});
	}

	/** The store a block's coefficients go to: its component's, or the dropping one outside the band. */
	private storeFor(component: number, block: number): CoefficientStore {
		const store = this.stores[component];
		const held = block - store.first;
		return held >= 0 && held * store.size * store.size < store.coefs.length ? store : this.outside[component];
	}

	/** Decodes (or passes) one scan whose data starts at `dataStart`; returns where its data ends. Yields after each row of blocks or MCUs. */
	*scan(dataStart: number, scan: ScanHeader, tables: Tables): Steps<number> {
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
			const store = this.storeFor(scan.components[i], block);
			switch (kind) {
				case 'sequential':
					predictors[i] = decodeSequentialBlock(reader, dc[i], ac[i], predictors[i], store.coefs, (block - store.first) * store.size * store.size, store.slots);
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
		yield* this.forEachBlock(scan, tables.restartInterval, reader, restart, decodeBlock);
		if (reader.exhausted()) throw new JpegError(TRUNCATED);
		return skipEntropyData(this.bytes, reader.pos);
	}

	private *forEachBlock(
		scan: ScanHeader,
		interval: number,
		reader: BitReader,
		restart: () => void,
		decodeBlock: (i: number, block: number) => void,
	): Steps<void> {
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
			const blockRow = (by: number) => {
				for (let bx = 0; bx < blocksWide; bx++) {
					beforeMcu();
					decodeBlock(0, by * paddedWide + bx);
				}
				if (reader.exhausted()) throw new JpegError(TRUNCATED);
			};
			for (let by = 0; by < blocksHigh; by++) {
				blockRow(by);
				yield;
			}
			return;
		}
		const { mcusAcross, mcusDown } = this.layout;
		const parts = scan.components.map((c) => this.layout.components[c]);
		const mcuRow = (my: number) => {
			for (let mx = 0; mx < mcusAcross; mx++) {
				beforeMcu();
				for (let i = 0; i < parts.length; i++) {
					const { h, v, paddedWide } = parts[i];
					for (let by = 0; by < v; by++) for (let bx = 0; bx < h; bx++) decodeBlock(i, (my * v + by) * paddedWide + mx * h + bx);
				}
			}
			if (reader.exhausted()) throw new JpegError(TRUNCATED);
		};
		for (let my = 0; my < mcusDown; my++) {
			mcuRow(my);
			yield;
		}
	}

	/**
	 * The image, rendered one MCU row at a time as its rows are asked for (top to bottom): only one
	 * band of RGB is held besides the coefficients. A row past the band held runs `decodeBand`,
	 * which must start that band and feed every scan again (decoder.ts): `rowSteps` yields while it runs.
	 */
	rows(model: ColourModel, decodeBand: (band: number) => Steps<void>): RgbRows {
		const { frame, size, outWidth, outHeight } = this.layout;
		const bands = createBands(this.layout);
		const work = new Int32Array(64);
		const rowHeight = frame.maxV * size;
		const rowBytes = outWidth * 3;
		const strip = new Uint8Array(rowHeight * rowBytes);
		const clamped = new Uint8ClampedArray(strip.buffer);
		let rendered = -1;
		this.checkComplete();
		// A generator function has a `this` of its own: what it needs of this decoder, as arrows.
		const bandHeld = () => this.band;
		const bandOf = (my: number) => this.bandOf(my);
		const checkComplete = () => this.checkComplete();
		const render = (my: number) => {
			this.renderMcuRow(my, bands, work);
			writeRows(bands, model, clamped, outWidth, 0, 0, Math.min(rowHeight, outHeight - my * rowHeight));
		};
		const rowSteps = function* (y: number): Steps<Uint8Array> {
			const my = Math.floor(y / rowHeight);
			if (y < 0 || y >= outHeight || my < rendered) throw new Error(`JPEG rows: row ${y} asked out of order`);
			if (my !== rendered) {
				if (bandOf(my) !== bandHeld()) {
					yield* decodeBand(bandOf(my));
					checkComplete();
				}
				render(my);
				rendered = my;
			}
			return strip.subarray((y - my * rowHeight) * rowBytes, (y - my * rowHeight + 1) * rowBytes);
		};
		return { width: outWidth, height: outHeight, row: (y) => runSteps(rowSteps(y)), rowSteps };
	}

	private checkComplete(): void {
		const missing = this.quants.findIndex((q) => q === undefined);
		if (missing >= 0) throw new JpegError(`JPEG truncated or corrupt: component ${this.layout.frame.components[missing].id} has no scan`);
	}

	/** Every component's blocks of MCU row `my` through the IDCT into the bands. */
	private renderMcuRow(my: number, bands: Band[], work: Int32Array): void {
		this.layout.components.forEach(({ v, paddedWide, blockSize }, i) => {
			const { coefs, first } = this.stores[i];
			const quant = this.quants[i] as Int32Array;
			const { samples, stride } = bands[i];
			const idct = idctFor(blockSize);
			const perBlock = blockSize * blockSize;
			for (let by = 0; by < v; by++) {
				const rowStart = (my * v + by) * paddedWide - first;
				for (let bx = 0; bx < paddedWide; bx++) {
					idct(coefs, (rowStart + bx) * perBlock, quant, samples, by * blockSize * stride + bx * blockSize, stride, work);
				}
			}
		});
	}
}
