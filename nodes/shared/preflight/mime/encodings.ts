import { MAX_FILE_BYTES } from '../../limits';
import { plainBytes } from './text';

/** Content transfer encodings (RFC 2045 6): a part's body decoded into at most a cap, the rest only counted. */

/** Where a file's body lies in the email's bytes and how it is written: enough to decode it from the same bytes again. */
export interface MimeBody {
	start: number;
	end: number;
	/** Its Content-Transfer-Encoding, lower case. */
	encoding: string;
}

/** Enough of a file's beginning to tell its type (fileTypes.ts reads its first bytes). */
const HEAD_BYTES = 1024;
const LF = 0x0a;
const CR = 0x0d;

/**
 * A body decoded: at most `capFor(head)` bytes kept (MAX_FILE_BYTES unless the caller reads a file
 * of that type whole: a photo to shrink, a PDF to split); over it only the first bytes and `size`,
 * the whole size. The cap is chosen from the body's first bytes, decoded apart from a window of
 * the encoded text at its start, so the body is still decoded in one pass and at most the cap held.
 */
export function decodeBody(bytes: Uint8Array, body: MimeBody, capFor: (head: Uint8Array) => number = () => MAX_FILE_BYTES): { bytes: Uint8Array; size?: number } {
	const cap = capFor(decodeInto(bytes, { ...body, end: Math.min(body.end, body.start + HEAD_WINDOW) }, HEAD_BYTES).bytes);
	const decoded = decodeInto(bytes, body, cap);
	if (decoded.size > cap) return { bytes: decoded.bytes.slice(0, HEAD_BYTES), size: decoded.size };
	return { bytes: decoded.bytes.subarray(0, decoded.size) };
}

/**
 * Enough of the encoded text to decode HEAD_BYTES from: base64's 4 characters for 3 bytes and its
 * line breaks, quoted-printable's 3 for one, with room; a window of junk gives less, the type unknown.
 */
const HEAD_WINDOW = 4 * HEAD_BYTES;

/** `[start, end)` decoded, at most `cap` bytes kept (`bytes`, up to `cap` long) and all counted (`size`). */
function decodeInto(bytes: Uint8Array, { start, end, encoding }: MimeBody, cap: number): { bytes: Uint8Array; size: number } {
	const email = plainBytes(bytes);
	if (encoding === 'base64') {
		const out = new Uint8Array(Math.min(cap, Math.floor(((end - start) * 3) / 4) + 3));
		return { bytes: out, size: decodeBase64(email, start, end, out, 0) };
	}
	if (encoding === 'quoted-printable') {
		const out = new Uint8Array(Math.min(cap, end - start));
		return { bytes: out, size: decodeQuotedPrintable(email, start, end, out, 0) };
	}
	return { bytes: email.slice(start, Math.min(end, start + cap)), size: end - start };
}

const BASE64_VALUES = (() => {
	const values = new Int8Array(256).fill(-1);
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	for (let n = 0; n < alphabet.length; n++) values[alphabet.charCodeAt(n)] = n;
	// The URL-safe alphabet, which some software writes.
	values[0x2d] = 62;
	values[0x5f] = 63;
	return values;
})();

/**
 * Base64 from `input[start, end)` into `out` from `size`, line breaks and any other byte outside
 * the alphabet passed over, `=` ending it: the size after, bytes past `out`'s end counted, not kept.
 */
export function decodeBase64(input: Uint8Array, start: number, end: number, out: Uint8Array, size: number): number {
	let bits = 0;
	let held = 0;
	for (let at = start; at < end; at++) {
		const byte = input[at];
		if (byte === 0x3d) break;
		const value = BASE64_VALUES[byte];
		if (value < 0) continue;
		bits = (bits << 6) | value;
		held += 6;
		if (held >= 8) {
			held -= 8;
			if (size < out.length) out[size] = (bits >> held) & 0xff;
			size++;
			bits &= (1 << held) - 1;
		}
	}
	return size;
}

/**
 * Quoted-printable (RFC 2045 6.7) from `input[start, end)` into `out` from `size`: `=XX` a byte,
 * `=` at a line's end a soft break; `underscoreIsSpace` for RFC 2047's Q encoding. The size after,
 * as decodeBase64's.
 */
export function decodeQuotedPrintable(input: Uint8Array, start: number, end: number, out: Uint8Array, size: number, underscoreIsSpace = false): number {
	for (let at = start; at < end; at++) {
		let byte = input[at];
		if (byte === 0x3d) {
			const high = hexValue(input[at + 1]);
			const low = high < 0 || at + 2 >= end ? -1 : hexValue(input[at + 2]);
			if (low >= 0) {
				byte = high * 16 + low;
				at += 2;
			} else {
				// A soft line break: "=" then optional white space then the line break.
				let next = at + 1;
				while (next < end && (input[next] === 0x20 || input[next] === 0x09)) next++;
				if (next >= end || input[next] === LF || (input[next] === CR && next + 1 < end && input[next + 1] === LF)) {
					at = next < end && input[next] === CR ? next + 1 : next;
					continue;
				}
			}
		} else if (byte === 0x5f && underscoreIsSpace) byte = 0x20;
		if (size < out.length) out[size] = byte;
		size++;
	}
	return size;
}

/** The value of a hexadecimal digit's character code, or -1. */
export function hexValue(code: number | undefined): number {
	if (code === undefined) return -1;
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	if (code >= 0x41 && code <= 0x46) return code - 0x37;
	if (code >= 0x61 && code <= 0x66) return code - 0x57;
	return -1;
}
