import { inflateSync } from 'node:zlib';

/**
 * Text an image carries in metadata: a PNG tEXt / zTXt / iTXt chunk or a JPEG COM segment. The
 * project's own sample images carry their text there, and it is read before OCR (ocr.ts), which
 * only runs when there is none. Keywords such as `Software` describe the file, not the document,
 * so only these are read.
 */
const DOCUMENT_TEXT_KEYWORDS = new Set(['description', 'comment', 'text']);

function readPngChunkText(type: string, data: Buffer): string | undefined {
	const keywordEnd = data.indexOf(0);
	if (keywordEnd <= 0) return undefined;
	const keyword = data.subarray(0, keywordEnd).toString('latin1').toLowerCase();
	if (!DOCUMENT_TEXT_KEYWORDS.has(keyword)) return undefined;
	const rest = data.subarray(keywordEnd + 1);
	if (type === 'tEXt') return rest.toString('latin1');
	if (type === 'zTXt') return inflateSync(rest.subarray(1)).toString('latin1');
	// iTXt: compression flag, method, language tag \0, translated keyword \0, UTF-8 text.
	const compressed = rest[0] === 1;
	const languageEnd = rest.indexOf(0, 2);
	const translatedEnd = rest.indexOf(0, languageEnd + 1);
	if (languageEnd < 0 || translatedEnd < 0) return undefined;
	const body = rest.subarray(translatedEnd + 1);
	return (compressed ? inflateSync(body) : body).toString('utf8');
}

export function pngText(bytes: Uint8Array): string {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const texts: string[] = [];
	let offset = 8;
	while (offset + 8 <= buffer.length) {
		const length = buffer.readUInt32BE(offset);
		const type = buffer.subarray(offset + 4, offset + 8).toString('latin1');
		const data = buffer.subarray(offset + 8, offset + 8 + length);
		if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
			try {
				const text = readPngChunkText(type, data);
				if (text) texts.push(text);
			} catch {
				// A damaged text chunk is skipped like any unreadable metadata.
			}
		}
		if (type === 'IEND') break;
		offset += 12 + length;
	}
	return texts.join('\n\n');
}

/** Markers without a length field: SOI, EOI, RSTn and TEM. */
function isStandaloneMarker(marker: number): boolean {
	return marker === 0xd8 || marker === 0xd9 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

export function jpegText(bytes: Uint8Array): string {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const texts: string[] = [];
	let offset = 2;
	while (offset + 4 <= buffer.length && buffer[offset] === 0xff) {
		const marker = buffer[offset + 1];
		if (isStandaloneMarker(marker)) {
			offset += 2;
			continue;
		}
		// Start of scan: entropy-coded data follows; metadata segments come before it.
		if (marker === 0xda) break;
		const length = buffer.readUInt16BE(offset + 2);
		if (marker === 0xfe) {
			const body = buffer.subarray(offset + 4, offset + 2 + length);
			const text = body.toString('utf8');
			texts.push(text.includes('\ufffd') ? body.toString('latin1') : text);
		}
		offset += 2 + length;
	}
	return texts.join('\n\n');
}
