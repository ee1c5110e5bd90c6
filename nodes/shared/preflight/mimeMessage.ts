import { formatCount, formatMegabytes, MAX_FILE_BYTES } from '../limits';

/**
 * An email's files, read from its bytes (RFC 5322 / MIME, RFC 2045-2049): what Every Attachment
 * needs of an email sent as an attachment (Outlook's and Gmail's "Forward as attachment",
 * `message/rfc822`, `.eml`). One level deep: an email attached inside it is named, not opened.
 *
 * The bytes are untrusted. Every step moves forward through them (lines and boundaries found with
 * native searches, no regular expression runs over the message), the headers, the parts and the
 * nesting are capped, and a part is decoded only when asked, into at most MAX_FILE_BYTES: the
 * work is linear in the message's size and the memory bounded.
 */

export const MIME_LIMITS = {
	/** Parts read in one email (leaves and multiparts); more are named as not read. */
	parts: 100,
	/** Multiparts inside multiparts (mail software nests 3 or 4: mixed > related > alternative). */
	depth: 8,
	/** One header block (real ones are a few KB; a long Received chain stays under 100 KB). */
	headerBytes: 256 * 1024,
	headerLines: 4000,
	/** RFC 2046: a boundary has at most 70 characters; some software exceeds it a little. */
	boundaryLength: 200,
	/** Whole emails read (a mail server takes 25-35 MB): larger ones are named, not read. */
	emailBytes: 40_000_000,
} as const;

/** A file inside the email, decoded only on `decode()`. */
export interface MimeFile {
	/** Its place among the email's files (the same on every read of the same bytes). */
	index: number;
	fileName: string | null;
	/** The declared type, lower case (`application/pdf`); the bytes decide what it is. */
	mimeType: string;
	/**
	 * The decoded file. Over MAX_FILE_BYTES only its first bytes are kept (enough to tell its type)
	 * and `size` says the whole size, as a file read from n8n's binary data.
	 */
	decode(): { bytes: Uint8Array; size?: number };
}

export interface MimeSkipped {
	fileName: string | null;
	reason: string;
}

export type OpenedEmail =
	| { ok: true; subject: string | null; files: MimeFile[]; skipped: MimeSkipped[] }
	| { ok: false; reason: string };

const HEAD_BYTES = 1024;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Whether bytes that are not a document are an email: a header block of well-formed header lines
 * ending in an empty line, with `MIME-Version`, or `Content-Type` beside `From`, `Date` or
 * `Subject`. A text file does not pass by chance: its first line would have to be a header.
 */
export function looksLikeEmail(bytes: Uint8Array): boolean {
	const head = bytes.subarray(0, 64 * 1024);
	const block = readHeaderBlock(head, 0, head.byteLength, true);
	if ('problem' in block || !block.ended || block.count < 2) return false;
	const has = (name: string) => block.headers.has(name);
	return has('mime-version') || (has('content-type') && (has('from') || has('date') || has('subject')));
}

/** The email's subject and its files, or why it cannot be read. */
export function openEmail(bytes: Uint8Array): OpenedEmail {
	if (bytes.byteLength > MIME_LIMITS.emailBytes) {
		return { ok: false, reason: `the email is ${formatMegabytes(bytes.byteLength)} MB, over the ${formatMegabytes(MIME_LIMITS.emailBytes, 0)} MB read` };
	}
	const top = readHeaderBlock(bytes, 0, bytes.byteLength, true);
	if ('problem' in top) return { ok: false, reason: top.problem };
	if (top.count === 0 || !top.ended) return { ok: false, reason: 'it does not start with an email\'s headers' };
	const subjectValue = top.headers.get('subject');
	const walk: Walk = { bytes, files: [], skipped: [], parts: 0, stopped: false };
	readPart(walk, top.headers, top.bodyStart, bytes.byteLength, 0);
	return { ok: true, subject: subjectValue === undefined ? null : decodeEncodedWords(subjectValue).trim(), files: walk.files, skipped: walk.skipped };
}

interface Walk {
	bytes: Uint8Array;
	files: MimeFile[];
	skipped: MimeSkipped[];
	parts: number;
	stopped: boolean;
}

/** Headers kept (the others are passed over, not decoded): what reading the parts needs. */
const KEPT_HEADERS = new Set(['content-type', 'content-disposition', 'content-transfer-encoding', 'subject', 'mime-version', 'from', 'date', 'to', 'message-id']);

interface HeaderBlock {
	headers: Map<string, string>;
	/** Header lines, kept or not. */
	count: number;
	/** An empty line ended the block (else the range ended first). */
	ended: boolean;
	bodyStart: number;
}

/**
 * The header block at `start`: folded lines unfolded, kept headers decoded as UTF-8 (RFC 6532).
 * `strict` (an email's own headers): a line that is not a header is no email. In a part, such a
 * line starts the body, as mail readers take it.
 */
function readHeaderBlock(bytes: Uint8Array, start: number, end: number, strict: boolean): HeaderBlock | { problem: string } {
	const headers = new Map<string, string>();
	const utf8 = new TextDecoder('utf-8');
	let count = 0;
	let current: { name: string; value: string } | undefined;
	let inHeader = false;
	const keep = () => {
		if (current && !headers.has(current.name)) headers.set(current.name, current.value);
		current = undefined;
	};
	let pos = start;
	// A file saved from a mailbox (mbox) may start with its "From sender date" separator line.
	if (strict && bytes[pos] === 0x46 && String.fromCharCode(...bytes.subarray(pos, pos + 5)) === 'From ') pos = lineAt(bytes, pos, end)[1];
	const tooLong = { problem: `its headers run over ${formatCount(MIME_LIMITS.headerLines)} lines or ${formatCount(MIME_LIMITS.headerBytes / 1024)} KB, which no email's do` };
	while (pos < end) {
		if (count > MIME_LIMITS.headerLines) return tooLong;
		const [lineEnd, next] = lineAt(bytes, pos, end);
		if (lineEnd - start > MIME_LIMITS.headerBytes) return tooLong;
		if (lineEnd === pos) {
			keep();
			return { headers, count, ended: true, bodyStart: next };
		}
		const first = bytes[pos];
		if (first === 0x20 || first === 0x09) {
			// A folded line continues the header before it (RFC 5322 2.2.3).
			if (current) current.value += latinOrUtf8(utf8, bytes.subarray(pos, lineEnd));
			else if (!inHeader && strict) return { problem: 'it does not start with an email\'s headers' };
		} else {
			const colon = headerNameEnd(bytes, pos, lineEnd);
			if (colon < 0) {
				if (strict) return { problem: 'it does not start with an email\'s headers' };
				keep();
				return { headers, count, ended: true, bodyStart: pos };
			}
			keep();
			count++;
			inHeader = true;
			const name = String.fromCharCode(...bytes.subarray(pos, colon)).trim().toLowerCase();
			current = KEPT_HEADERS.has(name) ? { name, value: latinOrUtf8(utf8, bytes.subarray(colon + 1, lineEnd)) } : undefined;
		}
		pos = next;
	}
	keep();
	return { headers, count, ended: false, bodyStart: end };
}

/** Where the line at `pos` ends (its CR LF or LF left out) and where the next one starts. */
function lineAt(bytes: Uint8Array, pos: number, end: number): [number, number] {
	const lf = bytes.indexOf(LF, pos);
	if (lf < 0 || lf >= end) return [end, end];
	return [lf > pos && bytes[lf - 1] === CR ? lf - 1 : lf, lf + 1];
}

/** The colon after a header name (printable ASCII, RFC 5322 2.2), or -1 when the line is no header. */
function headerNameEnd(bytes: Uint8Array, pos: number, lineEnd: number): number {
	const limit = Math.min(lineEnd, pos + 100);
	for (let at = pos; at < limit; at++) {
		const byte = bytes[at];
		if (byte === 0x3a) return at > pos ? at : -1;
		// Some software writes "Name : value"; a space inside a name is no header.
		if (byte === 0x20 || byte === 0x09) {
			let after = at;
			while (after < limit && (bytes[after] === 0x20 || bytes[after] === 0x09)) after++;
			return after < limit && bytes[after] === 0x3a && after > pos ? after : -1;
		}
		if (byte < 33 || byte > 126) return -1;
	}
	return -1;
}

/** Header text: UTF-8 when it is, else Latin-1 (old software writes raw 8-bit names). */
function latinOrUtf8(utf8: { decode(bytes: Uint8Array): string }, bytes: Uint8Array): string {
	const text = utf8.decode(bytes);
	return text.includes('\ufffd') ? latin1(bytes) : text;
}

function latin1(bytes: Uint8Array): string {
	let text = '';
	for (let at = 0; at < bytes.byteLength; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
	return text;
}

/** One part: a multipart is walked, a leaf is a file, the body's text, or an email not opened. */
function readPart(walk: Walk, headers: Map<string, string>, start: number, end: number, depth: number): void {
	if (walk.stopped) return;
	if (++walk.parts > MIME_LIMITS.parts) {
		walk.stopped = true;
		walk.skipped.push({ fileName: null, reason: `the attached email has more than ${MIME_LIMITS.parts} parts: the rest were not read` });
		return;
	}
	const type = parseParameterized(headers.get('content-type') ?? 'text/plain');
	const disposition = parseParameterized(headers.get('content-disposition') ?? '');
	const mimeType = type.value.includes('/') ? type.value : 'text/plain';
	const fileName = fileNameOf(disposition.params) ?? fileNameOf(type.params);

	if (mimeType.startsWith('multipart/')) {
		const boundary = type.params.get('boundary');
		if (!boundary || boundary.length > MIME_LIMITS.boundaryLength) {
			walk.skipped.push({ fileName, reason: `a ${mimeType} part without a usable boundary: it could not be read` });
			return;
		}
		if (depth >= MIME_LIMITS.depth) {
			walk.skipped.push({ fileName, reason: `parts nested more than ${MIME_LIMITS.depth} deep: they were not read` });
			return;
		}
		for (const [partStart, partEnd] of multipartBodies(walk.bytes, boundary, start, end)) {
			if (walk.stopped) return;
			const block = readHeaderBlock(walk.bytes, partStart, partEnd, false);
			if ('problem' in block) {
				walk.skipped.push({ fileName: null, reason: `a part whose headers could not be read: ${block.problem}` });
				continue;
			}
			readPart(walk, block.headers, block.bodyStart, partEnd, depth + 1);
		}
		return;
	}
	if (mimeType === 'message/rfc822' || mimeType === 'message/global') {
		walk.skipped.push({
			fileName: fileName ?? emailSubjectAt(walk.bytes, start, end),
			reason: 'an email attached inside the attached email: only one level of attached emails is opened; forward that email on its own',
		});
		return;
	}
	const isBodyText = (mimeType === 'text/plain' || mimeType === 'text/html') && fileName === null && disposition.value !== 'attachment';
	if (isBodyText) return;
	const encoding = (headers.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase();
	const bytes = walk.bytes;
	walk.files.push({ index: walk.files.length, fileName, mimeType, decode: () => decodeBody(bytes, start, end, encoding) });
}

/** An inner email's subject, to name it (its headers only are read, within the caps). */
function emailSubjectAt(bytes: Uint8Array, start: number, end: number): string | null {
	const block = readHeaderBlock(bytes, start, end, true);
	if ('problem' in block) return null;
	const subject = block.headers.get('subject');
	return subject === undefined ? null : decodeEncodedWords(subject).trim();
}

/**
 * The bodies of a multipart's parts (RFC 2046 5.1.1): between delimiter lines `--boundary`, the
 * line break before a delimiter belonging to it. A message cut off before its closing delimiter
 * keeps its last part up to the end, as mail readers do.
 */
function multipartBodies(bytes: Uint8Array, boundary: string, start: number, end: number): Array<[number, number]> {
	const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const delimiter = Buffer.from(`--${boundary}`, 'utf8');
	const bodies: Array<[number, number]> = [];
	let partStart = -1;
	let pos = start;
	while (pos < end) {
		const found = view.indexOf(delimiter, pos);
		if (found < 0 || found + delimiter.length > end) break;
		if (found !== start && bytes[found - 1] !== LF) {
			pos = found + 1;
			continue;
		}
		let after = found + delimiter.length;
		const closing = bytes[after] === 0x2d && bytes[after + 1] === 0x2d;
		if (closing) after += 2;
		// Only white space may follow the boundary on its line (else it is a longer boundary).
		while (after < end && (bytes[after] === 0x20 || bytes[after] === 0x09)) after++;
		let next: number;
		if (after >= end) next = end;
		else if (bytes[after] === LF) next = after + 1;
		else if (bytes[after] === CR && (after + 1 >= end || bytes[after + 1] === LF)) next = Math.min(end, after + 2);
		else {
			pos = found + 1;
			continue;
		}
		if (partStart >= 0) bodies.push([partStart, lineBreakBefore(bytes, found, partStart)]);
		if (closing) return bodies;
		if (bodies.length >= MIME_LIMITS.parts) return bodies;
		partStart = next;
		pos = next;
	}
	if (partStart >= 0 && partStart < end) bodies.push([partStart, end]);
	return bodies;
}

/** The end of a part's body: before the CR LF (or LF) that belongs to the delimiter after it. */
function lineBreakBefore(bytes: Uint8Array, delimiter: number, floor: number): number {
	let end = delimiter;
	if (end > floor && bytes[end - 1] === LF) end--;
	if (end > floor && bytes[end - 1] === CR) end--;
	return end;
}

/** A part's body decoded (RFC 2045 6): at most MAX_FILE_BYTES kept, the rest only counted. */
function decodeBody(bytes: Uint8Array, start: number, end: number, encoding: string): { bytes: Uint8Array; size?: number } {
	const input = bytes.subarray(start, end);
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
	let size = 0;
	const put = (byte: number) => {
		if (size < out.length) out[size] = byte;
		size++;
	};
	for (let at = 0; at < input.byteLength; at++) {
		const byte = input[at];
		if (byte !== 0x3d) {
			put(byte);
			continue;
		}
		const high = hexValue(input[at + 1]);
		const low = hexValue(input[at + 2]);
		if (high >= 0 && low >= 0) {
			put(high * 16 + low);
			at += 2;
			continue;
		}
		// A soft line break: "=" then optional white space then the line break.
		let next = at + 1;
		while (input[next] === 0x20 || input[next] === 0x09) next++;
		if (input[next] === CR && input[next + 1] === LF) at = next + 1;
		else if (input[next] === LF) at = next;
		else if (next >= input.byteLength) at = next;
		else put(byte);
	}
	return [out, size];
}

function hexValue(byte: number | undefined): number {
	if (byte === undefined) return -1;
	if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
	if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
	if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
	return -1;
}

/** `type/subtype; name=value; ...` (RFC 2045 5.1, 2183), values unquoted, names lower case. */
export function parseParameterized(header: string): { value: string; params: Map<string, string> } {
	const params = new Map<string, string>();
	let at = 0;
	const length = header.length;
	const skipSpace = () => {
		while (at < length && (header[at] === ' ' || header[at] === '\t' || header[at] === '\r' || header[at] === '\n')) at++;
	};
	let semicolon = header.indexOf(';');
	if (semicolon < 0) semicolon = length;
	const value = header.slice(0, semicolon).trim().toLowerCase();
	at = semicolon + 1;
	while (at < length) {
		skipSpace();
		const equals = header.indexOf('=', at);
		if (equals < 0) break;
		const name = header.slice(at, equals).trim().toLowerCase();
		at = equals + 1;
		skipSpace();
		let paramValue = '';
		if (header[at] === '"') {
			at++;
			while (at < length && header[at] !== '"') {
				if (header[at] === '\\' && at + 1 < length) at++;
				paramValue += header[at];
				at++;
			}
			at++;
			const next = header.indexOf(';', at);
			at = next < 0 ? length : next + 1;
		} else {
			const next = header.indexOf(';', at);
			const stop = next < 0 ? length : next;
			paramValue = header.slice(at, stop).trim();
			at = stop + 1;
		}
		if (name && !params.has(name)) params.set(name, paramValue);
	}
	return { value, params };
}

/**
 * A file name from `filename` / `name`: RFC 2231 (`filename*=UTF-8''Rechnung%20M%C3%BCller.pdf`,
 * continuations `filename*0*=`, `filename*1*=`) first, then the plain parameter, whose RFC 2047
 * encoded words (`=?UTF-8?B?...?=`, which many programs write there) are decoded.
 */
function fileNameOf(params: Map<string, string>): string | null {
	for (const name of ['filename', 'name']) {
		const extended = extendedParameter(params, name);
		if (extended) return extended;
		const plain = params.get(name);
		if (plain) return decodeEncodedWords(plain).trim() || null;
	}
	return null;
}

/** An RFC 2231 parameter: `name*` or its numbered sections `name*0`, `name*0*`, `name*1*`, ... */
function extendedParameter(params: Map<string, string>, name: string): string | null {
	const single = params.get(`${name}*`);
	if (single !== undefined) return decodeExtended([{ value: single, encoded: true }]);
	const sections: Array<{ value: string; encoded: boolean }> = [];
	for (let n = 0; n < MIME_LIMITS.parts; n++) {
		const encoded = params.get(`${name}*${n}*`);
		const plain = params.get(`${name}*${n}`);
		if (encoded !== undefined) sections.push({ value: encoded, encoded: true });
		else if (plain !== undefined) sections.push({ value: plain, encoded: false });
		else break;
	}
	return sections.length > 0 ? decodeExtended(sections) : null;
}

function decodeExtended(sections: Array<{ value: string; encoded: boolean }>): string | null {
	let charset = 'utf-8';
	const bytes: number[] = [];
	sections.forEach(({ value, encoded }, n) => {
		let text = value;
		if (n === 0 && encoded) {
			// charset'language'value
			const first = text.indexOf("'");
			const second = first < 0 ? -1 : text.indexOf("'", first + 1);
			if (second >= 0) {
				charset = text.slice(0, first).trim() || charset;
				text = text.slice(second + 1);
			}
		}
		if (!encoded) {
			bytes.push(...new TextEncoder().encode(text));
			return;
		}
		for (let at = 0; at < text.length; at++) {
			const high = hexValue(text.charCodeAt(at + 1));
			const low = hexValue(text.charCodeAt(at + 2));
			if (text[at] === '%' && high >= 0 && low >= 0) {
				bytes.push(high * 16 + low);
				at += 2;
			} else {
				bytes.push(...new TextEncoder().encode(text[at]));
			}
		}
	});
	return decodeCharset(Uint8Array.from(bytes), charset).trim() || null;
}

/** Text in a charset a mail program names; an unknown one is read as UTF-8. */
function decodeCharset(bytes: Uint8Array, charset: string): string {
	try {
		return new TextDecoder(charset.trim().toLowerCase()).decode(bytes);
	} catch {
		return new TextDecoder('utf-8').decode(bytes);
	}
}

/**
 * RFC 2047 encoded words (`=?charset?B?...?=`, `=?charset?Q?...?=`) in a header's text decoded;
 * the white space between two adjacent encoded words dropped, as the RFC says. One pass forward.
 */
export function decodeEncodedWords(header: string): string {
	// A subject or a file name is shown, not read whole: the cap keeps a crafted header cheap.
	const text = header.slice(0, MAX_DECODED_HEADER_CHARS);
	let result = '';
	let at = 0;
	let lastWasWord = false;
	let pendingSpace = '';
	while (at < text.length) {
		const open = text.indexOf('=?', at);
		if (open < 0) break;
		const word = encodedWordAt(text, open);
		if (word === 'none') break;
		if (!word) {
			result += pendingSpace + text.slice(at, open + 2);
			pendingSpace = '';
			lastWasWord = false;
			at = open + 2;
			continue;
		}
		const between = text.slice(at, open);
		if (lastWasWord && between.trim() === '') result += word.text;
		else result += pendingSpace + between + word.text;
		pendingSpace = '';
		lastWasWord = true;
		at = word.end;
	}
	return result + pendingSpace + text.slice(at);
}

const MAX_DECODED_HEADER_CHARS = 4000;

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
	const raw = new TextEncoder().encode(encoding === 'Q' ? payload.replace(/_/g, ' ') : payload);
	const [bytes, size] = encoding === 'B' ? decodeBase64(raw, raw.byteLength) : decodeQuotedPrintable(raw, raw.byteLength);
	return { text: decodeCharset(bytes.subarray(0, size), charset), end: close + 2 };
}
