/**
 * The walk through a JPEG's segments: tables are read as they come, the frame header is checked
 * (and its size against the limit) before anything is allocated, and each scan goes to the
 * streaming path (one sequential scan with every component) or the buffered one (progressive, or
 * sequential in several scans). Each step moves forward in the file, so the walk is linear in it.
 */
import type { RgbImage, RgbRows } from '../raster';
import type { Steps } from '../steps';
import { BufferedDecoder } from './buffered';
import { JpegError } from './error';
import { readHuffmanTables } from './huffman';
import { layoutFor, withSubsampledChroma, type Layout } from './layout';
import {
	APP0,
	APP14,
	DHT,
	DQT,
	DRI,
	EOI,
	SOI,
	SOS,
	adobeTransform,
	expectSoi,
	isJfif,
	isStartOfFrame,
	parseFrame,
	parseRestartInterval,
	parseScan,
	readSegment,
	type Frame,
} from './markers';
import type { ColourModel } from './output';
import { decodeSequentialScan } from './sequential';
import { emptyTables, readQuantTables } from './tables';

/** libjpeg's choice: Adobe's transform flag first, then JFIF, then component ids 'R' 'G' 'B'. */
function colourModel(frame: Frame, jfif: boolean, adobe: number | undefined): ColourModel {
	if (frame.components.length === 1) return 'gray';
	if (adobe !== undefined) return adobe === 0 ? 'rgb' : 'ycc';
	if (jfif) return 'ycc';
	const ids = frame.components.map((c) => c.id);
	return ids[0] === 0x52 && ids[1] === 0x47 && ids[2] === 0x42 ? 'rgb' : 'ycc';
}

export interface DecodeOptions {
	scale: number;
	maxPixels: number;
	/** a buffered decode keeps subsampled chroma at its own resolution (layout.ts) */
	subsampledChroma: boolean;
	/** a buffered decode holds the coefficients of a band of MCU rows at a time within this (buffered.ts) */
	maxCoefficientBytes: number;
}

/**
 * A sequential file in one scan comes back whole; a buffered one as rows rendered on demand, the
 * file walked again for each further band of coefficients. Steps (../steps.ts): it yields after
 * each row of blocks or MCUs it decodes, here and when a band is decoded again for a row.
 */
export function* decode(bytes: Uint8Array, options: DecodeOptions): Steps<RgbImage | RgbRows> {
	const walked = yield* walk(bytes, options);
	if ('data' in walked) return walked;
	const { buffered, model } = walked;
	return buffered.rows(model, function* (band) {
		buffered.startBand(band);
		yield* walk(bytes, options, buffered);
	});
}

/** One walk through the file; `again`: the buffered decoder of an earlier walk, to feed the scans to again. */
function* walk(bytes: Uint8Array, options: DecodeOptions, again?: BufferedDecoder): Steps<RgbImage | { buffered: BufferedDecoder; model: ColourModel }> {
	const { scale, maxPixels, subsampledChroma, maxCoefficientBytes } = options;
	expectSoi(bytes);
	const tables = emptyTables();
	let layout: Layout | undefined;
	let buffered = again;
	let jfif = false;
	let adobe: number | undefined;
	let at = 2;
	let ended = false;
	for (;;) {
		const segment = readSegment(bytes, at);
		ended = segment?.marker === EOI;
		if (!segment || ended) break;
		at = segment.bodyEnd;
		const { marker } = segment;
		if (marker === DQT) readQuantTables(bytes, segment, tables.quant);
		else if (marker === DHT) readHuffmanTables(bytes, segment, tables.dc, tables.ac);
		else if (marker === DRI) tables.restartInterval = parseRestartInterval(bytes, segment);
		else if (marker === APP0) jfif ||= isJfif(bytes, segment);
		else if (marker === APP14) adobe = adobeTransform(bytes, segment) ?? adobe;
		else if (marker === SOI) throw new JpegError('corrupt JPEG: a second start-of-image marker');
		else if (isStartOfFrame(marker)) {
			if (layout) throw new JpegError('corrupt JPEG: a second frame header');
			layout = layoutFor(parseFrame(bytes, segment), scale, maxPixels, bytes.length);
		} else if (marker === SOS) {
			if (!layout) throw new JpegError('corrupt JPEG: image data before the frame header');
			const { frame } = layout;
			const scan = parseScan(bytes, segment, frame);
			if (!buffered && !frame.progressive && scan.components.length === frame.components.length) {
				return yield* decodeSequentialScan(bytes, segment.bodyEnd, layout, scan, tables, colourModel(frame, jfif, adobe));
			}
			buffered ??= new BufferedDecoder(bytes, segment, subsampledChroma ? withSubsampledChroma(layout) : layout, maxCoefficientBytes);
			at = yield* buffered.scan(segment.bodyEnd, scan, tables);
		}
		// Anything else (COM, other APPn, a stray RSTn) carries nothing the decoder needs.
	}
	if (!layout) throw new JpegError('not a decodable JPEG: no frame header');
	if (!buffered) throw new JpegError('JPEG truncated: no image data');
	// Without the end marker, a progressive file may have lost whole scans: refuse rather than guess.
	if (!ended) throw new JpegError('JPEG truncated: the data ends before the end-of-image marker');
	return { buffered, model: colourModel(layout.frame, jfif, adobe) };
}
