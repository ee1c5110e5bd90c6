/**
 * A PDF page's text drawn as pixels without a canvas: pdfjs reads the text and where it stands
 * (getTextContent needs no renderer), and each glyph is drawn from Liberation Sans (the TrueType
 * font pdfjs-dist ships, metrically the Helvetica the fixtures use), its outlines filled with
 * anti-aliasing. Lines, boxes and images of the page are left out: the text is what OCR reads.
 * For test/harness/largePhotos.ts when the corpus is not here (and @napi-rs/canvas may not be).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { RgbImage } from '../../nodes/shared/images/raster';

const requireHere = createRequire(__filename);
const FONT_DIR = join(dirname(requireHere.resolve('pdfjs-dist/package.json')), 'standard_fonts');

type Point = [x: number, y: number];

/** The tables of a TrueType font this needs: outlines (glyf, loca), advances (hmtx), the character map (cmap format 4). */
class TrueTypeFont {
	private readonly view: DataView;
	private readonly tables = new Map<string, number>();
	readonly unitsPerEm: number;
	private readonly longLoca: boolean;
	private readonly metrics: number;

	constructor(bytes: Uint8Array) {
		this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		for (let i = 0, count = this.view.getUint16(4); i < count; i++) {
			const at = 12 + 16 * i;
			this.tables.set(String.fromCharCode(...bytes.subarray(at, at + 4)), this.view.getUint32(at + 8));
		}
		this.unitsPerEm = this.view.getUint16(this.table('head') + 18);
		this.longLoca = this.view.getInt16(this.table('head') + 50) === 1;
		this.metrics = this.view.getUint16(this.table('hhea') + 34);
	}

	private table(tag: string): number {
		const at = this.tables.get(tag);
		if (at === undefined) throw new Error(`no ${tag} table`);
		return at;
	}

	glyphOf(code: number): number {
		const cmap = this.table('cmap');
		const v = this.view;
		for (let i = 0, count = v.getUint16(cmap + 2); i < count; i++) {
			const record = cmap + 4 + 8 * i;
			if (v.getUint16(record) !== 3 || v.getUint16(record + 2) !== 1) continue;
			const sub = cmap + v.getUint32(record + 4);
			const segments = v.getUint16(sub + 6) / 2;
			const ends = sub + 14;
			const starts = ends + 2 * segments + 2;
			const deltas = starts + 2 * segments;
			const offsets = deltas + 2 * segments;
			for (let s = 0; s < segments; s++) {
				if (code > v.getUint16(ends + 2 * s) || code < v.getUint16(starts + 2 * s)) continue;
				const offset = v.getUint16(offsets + 2 * s);
				const glyph = offset === 0 ? code : v.getUint16(offsets + 2 * s + offset + 2 * (code - v.getUint16(starts + 2 * s)));
				return glyph === 0 ? 0 : (glyph + (offset === 0 ? v.getInt16(deltas + 2 * s) : 0)) & 0xffff;
			}
		}
		return 0;
	}

	advance(glyph: number): number {
		return this.view.getUint16(this.table('hmtx') + 4 * Math.min(glyph, this.metrics - 1));
	}

	/** The glyph's contours as polygons in font units (quadratic curves flattened), composites included. */
	contours(glyph: number): Point[][] {
		const v = this.view;
		const loca = this.table('loca');
		const start = this.longLoca ? v.getUint32(loca + 4 * glyph) : 2 * v.getUint16(loca + 2 * glyph);
		const end = this.longLoca ? v.getUint32(loca + 4 * glyph + 4) : 2 * v.getUint16(loca + 2 * glyph + 2);
		if (end <= start) return [];
		const at = this.table('glyf') + start;
		const count = v.getInt16(at);
		return count >= 0 ? this.simple(at, count) : this.composite(at + 10);
	}

	private composite(at: number): Point[][] {
		const v = this.view;
		const result: Point[][] = [];
		for (let more = true; more; ) {
			const flags = v.getUint16(at);
			const glyph = v.getUint16(at + 2);
			const words = (flags & 1) !== 0;
			const dx = words ? v.getInt16(at + 4) : v.getInt8(at + 4);
			const dy = words ? v.getInt16(at + 6) : v.getInt8(at + 5);
			at += words ? 8 : 6;
			// Scales (rare in Latin text) are passed over, not applied.
			at += flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0;
			for (const contour of this.contours(glyph)) result.push(contour.map(([x, y]): Point => [x + dx, y + dy]));
			more = (flags & 0x20) !== 0;
		}
		return result;
	}

	private simple(at: number, count: number): Point[][] {
		const v = this.view;
		const ends = Array.from({ length: count }, (_, i) => v.getUint16(at + 10 + 2 * i));
		const points = count === 0 ? 0 : ends[count - 1] + 1;
		let p = at + 10 + 2 * count;
		p += 2 + v.getUint16(p);
		const flags: number[] = [];
		while (flags.length < points) {
			const flag = v.getUint8(p++);
			flags.push(flag);
			if (flag & 8) for (let repeat = v.getUint8(p++); repeat > 0; repeat--) flags.push(flag);
		}
		const read = (short: number, same: number): number[] => {
			const values: number[] = [];
			let value = 0;
			for (const flag of flags) {
				if (flag & short) value += flag & same ? v.getUint8(p++) : -v.getUint8(p++);
				else if (!(flag & same)) {
					value += v.getInt16(p);
					p += 2;
				}
				values.push(value);
			}
			return values;
		};
		const xs = read(2, 16);
		const ys = read(4, 32);
		const contours: Point[][] = [];
		for (let c = 0, first = 0; c < count; first = ends[c] + 1, c++) {
			const raw = Array.from({ length: ends[c] - first + 1 }, (_, i) => ({ x: xs[first + i], y: ys[first + i], on: (flags[first + i] & 1) !== 0 }));
			contours.push(flatten(raw));
		}
		return contours;
	}
}

/** A closed quadratic B-spline contour as a polygon: off-curve points between two others imply an on-curve midpoint. */
function flatten(raw: Array<{ x: number; y: number; on: boolean }>): Point[] {
	if (raw.length === 0) return [];
	const startIndex = raw.findIndex((point) => point.on);
	const start = startIndex >= 0 ? raw[startIndex] : { x: (raw[0].x + raw[1 % raw.length].x) / 2, y: (raw[0].y + raw[1 % raw.length].y) / 2, on: true };
	const ordered = startIndex >= 0 ? [...raw.slice(startIndex + 1), ...raw.slice(0, startIndex)] : raw;
	const polygon: Point[] = [[start.x, start.y]];
	let from: Point = [start.x, start.y];
	let control: Point | undefined;
	const curveTo = (to: Point) => {
		if (!control) polygon.push(to);
		else for (let t = 0.25; t <= 1; t += 0.25) polygon.push([(1 - t) ** 2 * from[0] + 2 * t * (1 - t) * control[0] + t * t * to[0], (1 - t) ** 2 * from[1] + 2 * t * (1 - t) * control[1] + t * t * to[1]]);
		from = to;
		control = undefined;
	};
	for (const point of [...ordered, start]) {
		if (point.on) curveTo([point.x, point.y]);
		else {
			if (control) curveTo([(control[0] + point.x) / 2, (control[1] + point.y) / 2]);
			control = [point.x, point.y];
		}
	}
	return polygon;
}

/** Fills `polygons` (pixel coordinates, non-zero winding) into `ink` (0-1 per pixel), 4 samples per pixel row, exact along x at 1/4 px. */
function fill(ink: Float32Array, width: number, height: number, polygons: Point[][]): void {
	const edges: Array<[number, number, number, number]> = [];
	for (const polygon of polygons) for (let i = 0; i < polygon.length; i++) edges.push([...polygon[i], ...polygon[(i + 1) % polygon.length]]);
	if (edges.length === 0) return;
	const top = Math.max(0, Math.floor(Math.min(...edges.map((e) => Math.min(e[1], e[3])))));
	const bottom = Math.min(height - 1, Math.ceil(Math.max(...edges.map((e) => Math.max(e[1], e[3])))));
	for (let y = top; y <= bottom; y++) {
		for (let sub = 0; sub < 4; sub++) {
			const sy = y + (sub + 0.5) / 4;
			const crossings: Array<[number, number]> = [];
			for (const [x0, y0, x1, y1] of edges) {
				if ((y0 <= sy) === (y1 <= sy)) continue;
				crossings.push([x0 + ((sy - y0) * (x1 - x0)) / (y1 - y0), y1 > y0 ? 1 : -1]);
			}
			crossings.sort((a, b) => a[0] - b[0]);
			for (let i = 0, winding = 0; i < crossings.length - 1; i++) {
				winding += crossings[i][1];
				if (winding === 0) continue;
				for (let qx = Math.round(crossings[i][0] * 4); qx < Math.round(crossings[i + 1][0] * 4); qx++) {
					const x = qx >> 2;
					if (x >= 0 && x < width) ink[y * width + x] += 1 / 16;
				}
			}
		}
	}
}

/** Page 1 of `pdf` as black text on white at `scale` x 72 dpi, every line in the regular face. */
export async function renderPdfText(pdf: Uint8Array, scale: number): Promise<RgbImage> {
	const font = new TrueTypeFont(new Uint8Array(readFileSync(join(FONT_DIR, 'LiberationSans-Regular.ttf'))));
	const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
	const document = await pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 }).promise;
	try {
		const page = await document.getPage(1);
		const viewport = page.getViewport({ scale });
		const width = Math.ceil(viewport.width);
		const height = Math.ceil(viewport.height);
		const ink = new Float32Array(width * height);
		const content = await page.getTextContent();
		for (const item of content.items) {
			if (!('str' in item) || item.str.trim() === '') continue;
			const [a, b, , , e, f] = item.transform as number[];
			const size = Math.hypot(a, b) * scale;
			const unit = size / font.unitsPerEm;
			const [left, baseline] = viewport.convertToViewportPoint(e, f) as Point;
			let x = left;
			for (const character of item.str) {
				const glyph = font.glyphOf(character.codePointAt(0) ?? 0);
				const polygons = font.contours(glyph).map((contour) => contour.map(([gx, gy]): Point => [x + gx * unit, baseline - gy * unit]));
				fill(ink, width, height, polygons);
				x += font.advance(glyph) * unit;
			}
		}
		const data = new Uint8Array(width * height * 3);
		for (let i = 0; i < ink.length; i++) data.fill(Math.round(255 * (1 - Math.min(1, ink[i]))), 3 * i, 3 * i + 3);
		return { width, height, data };
	} finally {
		await document.destroy();
	}
}
