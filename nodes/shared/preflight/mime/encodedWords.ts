import { decodeBase64, decodeQuotedPrintable } from './encodings';
import { MIME_LIMITS } from './limits';
import { decodeCharset } from './text';

/**
 * RFC 2047 encoded words (`=?charset?B?...?=`, `=?charset?Q?...?=`) in a header's text decoded;
 * the white space between two adjacent encoded words dropped, as the RFC says. One pass forward.
 * The bytes of adjacent words in one charset are decoded together (a character may be split
 * between two words), each word's payload copied into one buffer: no allocation or native call
 * per word, which a header of thousands of tiny words would multiply.
 */
export function decodeEncodedWords(header: string): string {
	// A subject or a file name is shown, not read whole: the cap keeps a crafted header cheap.
	const text = header.slice(0, MIME_LIMITS.textChars);
	// Payloads as bytes, and the bytes they decode to (never more than the payload's).
	const payload = new Uint8Array(text.length);
	const decoded = new Uint8Array(text.length);
	// Real headers name one or two charsets.
	const lookups = { left: 4 };
	let result = '';
	let run = { charset: '', size: 0 };
	const flush = () => {
		if (run.size > 0) result += decodeCharset(decoded.subarray(0, run.size), run.charset, lookups);
		run = { charset: '', size: 0 };
	};
	let at = 0;
	let lastWasWord = false;
	while (at < text.length) {
		const open = text.indexOf('=?', at);
		if (open < 0) break;
		const word = encodedWordAt(text, open, payload);
		if (word === 'none') break;
		if (!word) {
			flush();
			result += text.slice(at, open + 2);
			lastWasWord = false;
			at = open + 2;
			continue;
		}
		const between = text.slice(at, open);
		const adjacent = lastWasWord && between.trim() === '';
		if (!adjacent || word.charset !== run.charset) flush();
		if (!adjacent) result += between;
		const size = word.q ? decodeQuotedPrintable(payload, 0, word.length, decoded, run.size, true) : decodeBase64(payload, 0, word.length, decoded, run.size);
		run = { charset: word.charset, size };
		lastWasWord = true;
		at = word.end;
	}
	flush();
	return result + text.slice(at);
}

/**
 * The encoded word at `open`, its payload copied into `payload` as bytes; undefined when none is
 * there, 'none' when no "?=" follows, so no word can follow either.
 */
function encodedWordAt(text: string, open: number, payload: Uint8Array): { charset: string; q: boolean; length: number; end: number } | 'none' | undefined {
	const charsetEnd = text.indexOf('?', open + 2);
	if (charsetEnd < 0 || charsetEnd - open > 80) return undefined;
	const encoding = text.charCodeAt(charsetEnd + 1) | 0x20;
	if ((encoding !== 0x62 && encoding !== 0x71) || text.charCodeAt(charsetEnd + 2) !== 0x3f) return undefined;
	const close = text.indexOf('?=', charsetEnd + 3);
	if (close < 0) return 'none';
	let length = 0;
	for (let at = charsetEnd + 3; at < close; at++) {
		const code = text.charCodeAt(at);
		// White space, "?" and anything but ASCII end no word (RFC 2047 section 5).
		if (code <= 0x20 || code === 0x3f || code > 0x7e) return undefined;
		payload[length++] = code;
	}
	// "charset*language" (RFC 2231 section 5)
	const star = text.indexOf('*', open + 2);
	const charset = text.slice(open + 2, star > 0 && star < charsetEnd ? star : charsetEnd).toLowerCase();
	return { charset, q: encoding === 0x71, length, end: close + 2 };
}
