/**
 * The tables a scan is decoded with, as the segments before it left them: quantization (DQT),
 * Huffman (DHT) and the restart interval (DRI). Later segments may replace any of them.
 */
import { ZIGZAG } from './coefficients';
import { JpegError } from './error';
import type { HuffmanTable } from './huffman';
import type { Segment } from './markers';

export interface Tables {
	/** by table id: 64 quantizers in natural (row-major) order */
	quant: Array<Uint16Array | undefined>;
	dc: Array<HuffmanTable | undefined>;
	ac: Array<HuffmanTable | undefined>;
	/** MCUs between restart markers; 0 for none */
	restartInterval: number;
}

export const emptyTables = (): Tables => ({ quant: [], dc: [], ac: [], restartInterval: 0 });

export function readQuantTables(bytes: Uint8Array, segment: Segment, quant: Array<Uint16Array | undefined>): void {
	let at = segment.bodyStart;
	while (at < segment.bodyEnd) {
		const wide = bytes[at] >> 4;
		const id = bytes[at] & 15;
		const length = wide ? 128 : 64;
		if (wide > 1 || id > 3 || at + 1 + length > segment.bodyEnd) throw new JpegError('corrupt JPEG: bad quantization table');
		const table = new Uint16Array(64);
		for (let z = 0; z < 64; z++) {
			table[ZIGZAG[z]] = wide ? (bytes[at + 1 + 2 * z] << 8) | bytes[at + 2 + 2 * z] : bytes[at + 1 + z];
		}
		quant[id] = table;
		at += 1 + length;
	}
}

/** The top-left `size` x `size` quantizers of table `id`, in the compact layout the IDCTs read. */
export function compactQuant(tables: Tables, id: number, size: number): Int32Array {
	const table = tables.quant[id];
	if (!table) throw new JpegError(`corrupt JPEG: quantization table ${id} is used but not defined`);
	const compact = new Int32Array(size * size);
	for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) compact[row * size + col] = table[row * 8 + col];
	return compact;
}

/** The Huffman tables of each component of a scan; throws when one it needs is not defined. */
export function scanTables(tables: Tables, ids: number[], kind: 'dc' | 'ac'): HuffmanTable[] {
	return ids.map((id) => {
		const table = tables[kind][id];
		if (!table) throw new JpegError(`corrupt JPEG: the scan uses ${kind.toUpperCase()} Huffman table ${id}, which is not defined`);
		return table;
	});
}
