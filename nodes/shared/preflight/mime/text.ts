/** Bytes as header text: the charsets mail software names, and the fallback when it names none or a wrong one. */

export const ENCODER = new TextEncoder();
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
	for (let at = 0; at < bytes.byteLength; at += 4096) text += String.fromCharCode.apply(null, Array.from(bytes.subarray(at, at + 4096)));
	return text;
}

/** Text in the charset a mail program names; an unknown charset, or UTF-8 that is not, read as `utf8OrLatin1`. */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
	const label = charset?.trim().toLowerCase() ?? '';
	if (label === '' || label === 'utf-8' || label === 'utf8') return utf8OrLatin1(bytes);
	let decoder;
	try {
		decoder = new TextDecoder(label);
	} catch {
		// A charset TextDecoder does not know.
		return utf8OrLatin1(bytes);
	}
	return decoder.decode(bytes);
}
