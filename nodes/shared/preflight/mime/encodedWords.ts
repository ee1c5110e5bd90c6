import { decodeBase64, decodeQuotedPrintable } from './encodings';
import { MIME_LIMITS } from './limits';
import { decodeCharset, ENCODER } from './text';

/**
 * RFC 2047 encoded words (`=?charset?B?...?=`, `=?charset?Q?...?=`) in a header's text decoded;
 * the white space between two adjacent encoded words dropped, as the RFC says. One pass forward.
 */
export function decodeEncodedWords(header: string): string {
	// A subject or a file name is shown, not read whole: the cap keeps a crafted header cheap.
	const text = header.slice(0, MIME_LIMITS.textChars);
	let result = '';
	let at = 0;
	let lastWasWord = false;
	while (at < text.length) {
		const open = text.indexOf('=?', at);
		if (open < 0) break;
		const word = encodedWordAt(text, open);
		if (word === 'none') break;
		if (!word) {
			result += text.slice(at, open + 2);
			lastWasWord = false;
			at = open + 2;
			continue;
		}
		const between = text.slice(at, open);
		if (!(lastWasWord && between.trim() === '')) result += between;
		result += word.text;
		lastWasWord = true;
		at = word.end;
	}
	return result + text.slice(at);
}

/** The encoded word at `open`; 'none' when no "?=" follows, so no word can follow either. */
function encodedWordAt(text: string, open: number): { text: string; end: number } | 'none' | undefined {
	const charsetEnd = text.indexOf('?', open + 2);
	if (charsetEnd < 0 || charsetEnd - open > 80) return undefined;
	const encoding = text[charsetEnd + 1]?.toUpperCase();
	if ((encoding !== 'B' && encoding !== 'Q') || text[charsetEnd + 2] !== '?') return undefined;
	const close = text.indexOf('?=', charsetEnd + 3);
	if (close < 0) return 'none';
	const payload = text.slice(charsetEnd + 3, close);
	if (/[\s?]/.test(payload)) return undefined;
	// "charset*language" (RFC 2231 section 5)
	const charset = text.slice(open + 2, charsetEnd).split('*')[0];
	const raw = ENCODER.encode(encoding === 'Q' ? payload.replace(/_/g, ' ') : payload);
	const [bytes, size] = encoding === 'B' ? decodeBase64(raw, raw.byteLength) : decodeQuotedPrintable(raw, raw.byteLength);
	return { text: decodeCharset(bytes.subarray(0, size), charset), end: close + 2 };
}
