import type { DocumentKind } from './types';

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	if (bytes.length < offset + signature.length) return false;
	return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(text: string): number[] {
	return [...text].map((char) => char.charCodeAt(0));
}

/** ISO BMFF brands that mean an HEIF/HEIC still image. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/**
 * The document's kind from its magic bytes, never its name or declared type: a text file named
 * `.pdf` is 'unknown'. A PDF header may follow a little junk (readers accept it within 1 KB).
 */
export function sniffType(bytes: Uint8Array): DocumentKind {
	const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
	if (head.includes('%PDF-')) return 'pdf';
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
	if (startsWith(bytes, ascii('ftyp'), 4)) {
		const brand = Buffer.from(bytes.subarray(8, 12)).toString('latin1');
		if (HEIF_BRANDS.has(brand)) return 'heic';
	}
	return 'unknown';
}
