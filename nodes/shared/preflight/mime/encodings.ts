import { MAX_FILE_BYTES } from '../../limits';

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

/** A body decoded: at most MAX_FILE_BYTES kept; over it only the first bytes and `size`, the whole size. */
export function decodeBody(email: Uint8Array, { start, end, encoding }: MimeBody): { bytes: Uint8Array; size?: number } {
	const input = email.subarray(start, end);
	let out: Uint8Array;
	let size: number;
	if (encoding === 'base64') [out, size] = decodeBase64(input, MAX_FILE_BYTES);
	else if (encoding === 'quoted-printable') [out, size] = decodeQuotedPrintable(input, MAX_FILE_BYTES);
	else [out, size] = [input.slice(0, MAX_FILE_BYTES), input.byteLength];
	if (size > MAX_FILE_BYTES) return { bytes: out.slice(0, HEAD_BYTES), size };
	return { bytes: out.subarray(0, size) };
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

/** Base64, line breaks and any other byte outside the alphabet passed over; `=` ends it. */
export function decodeBase64(input: Uint8Array, cap: number): [Uint8Array, number] {
	const out = new Uint8Array(Math.min(cap, Math.floor((input.byteLength * 3) / 4) + 3));
	let size = 0;
	let bits = 0;
	let held = 0;
	for (let at = 0; at < input.byteLength; at++) {
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
	return [out, size];
}

/** Quoted-printable (RFC 2045 6.7): `=XX` a byte, `=` at a line's end a soft break. */
export function decodeQuotedPrintable(input: Uint8Array, cap: number): [Uint8Array, number] {
	const out = new Uint8Array(Math.min(cap, input.byteLength));
	const length = input.byteLength;
	let size = 0;
	for (let at = 0; at < length; at++) {
		let byte = input[at];
		if (byte === 0x3d) {
			const high = hexValue(input[at + 1]);
			const low = high < 0 ? -1 : hexValue(input[at + 2]);
			if (low >= 0) {
				byte = high * 16 + low;
				at += 2;
			} else {
				// A soft line break: "=" then optional white space then the line break.
				let next = at + 1;
				while (next < length && (input[next] === 0x20 || input[next] === 0x09)) next++;
				if (next >= length || input[next] === LF || (input[next] === CR && input[next + 1] === LF)) {
					at = next < length && input[next] === CR ? next + 1 : next;
					continue;
				}
			}
		}
		if (size < out.length) out[size] = byte;
		size++;
	}
	return [out, size];
}

/** The value of a hexadecimal digit's character code, or -1. */
export function hexValue(code: number | undefined): number {
	if (code === undefined) return -1;
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	if (code >= 0x41 && code <= 0x46) return code - 0x37;
	if (code >= 0x61 && code <= 0x66) return code - 0x57;
	return -1;
}
