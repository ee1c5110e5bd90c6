/** Bytes as header text: the charsets mail software names, and the fallback when it names none or a wrong one. */

export const ENCODER = new TextEncoder();

/**
 * The same bytes as a plain Uint8Array (no copy): a Node.js Buffer makes every view of it a Buffer,
 * built at many times the cost, and the readers take thousands of views of an email.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
	return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
const UTF8 = new TextDecoder('utf-8');

/**
 * UTF-8 when the bytes are UTF-8 (RFC 6532), else Latin-1 (old software writes raw 8-bit text).
 * Told by the replacement character, not by a fatal decoder: a thrown error per header line made
 * a part of thousands of Latin-1 lines cost seconds.
 */
export function utf8OrLatin1(bytes: Uint8Array): string {
	const text = UTF8.decode(bytes);
	return text.includes('\ufffd') ? latin1(bytes) : text;
}

/** One character per byte, in slices: no call gets more arguments than the stack holds. */
export function latin1(bytes: Uint8Array): string {
	let text = '';
	for (let at = 0; at < bytes.byteLength; at += 4096) text += String.fromCharCode.apply(null, bytes.subarray(at, at + 4096) as unknown as number[]);
	return text;
}

/** A decoder for each charset label TextDecoder knows (a finite set), built once: building one costs microseconds. */
const DECODERS = new Map<string, InstanceType<typeof TextDecoder>>();

/**
 * Text in the charset a mail program names; an unknown charset, or UTF-8 that is not, read as
 * `utf8OrLatin1`. `lookups` caps the labels not seen before that one header may make it look up:
 * an unknown one costs a thrown error, and a crafted header can name thousands.
 */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined, lookups = { left: 1 }): string {
	const label = charset?.trim().toLowerCase() ?? '';
	if (label === '' || label === 'utf-8' || label === 'utf8') return utf8OrLatin1(bytes);
	let decoder = DECODERS.get(label);
	if (!decoder) {
		if (lookups.left <= 0) return utf8OrLatin1(bytes);
		lookups.left--;
		try {
			decoder = new TextDecoder(label);
		} catch {
			// A charset TextDecoder does not know.
			return utf8OrLatin1(bytes);
		}
		DECODERS.set(label, decoder);
	}
	return decoder.decode(bytes);
}
