import { formatCount } from '../../limits';
import { MIME_LIMITS } from './limits';
import { utf8OrLatin1 } from './text';

/** Header blocks (RFC 5322 2.2), read line by line in one pass, capped in lines and bytes; a header decoded once, when it ends. */

const LF = 0x0a;
const CR = 0x0d;

/** Headers kept (the others are passed over, not decoded): what reading the parts needs. */
const KEPT_HEADERS = new Set(['content-type', 'content-disposition', 'content-transfer-encoding', 'subject', 'mime-version', 'from', 'date', 'to', 'message-id']);

export interface HeaderBlock {
	headers: Map<string, string>;
	/** Header lines, kept or not. */
	count: number;
	/** An empty line ended the block (else the range ended first). */
	ended: boolean;
	bodyStart: number;
}

// Read once: an imported binding is a property read, here once per line.
const { headerBytes: HEADER_BYTES, headerLines: HEADER_LINES } = MIME_LIMITS;
const NOT_HEADERS = "it does not start with an email's headers";
const TOO_LONG = `its headers run over ${formatCount(MIME_LIMITS.headerLines)} lines or ${formatCount(MIME_LIMITS.headerBytes / 1024)} KB, which no email's do`;

/**
 * The header block at `start`: folded lines unfolded, kept headers decoded as UTF-8 (RFC 6532).
 * `strict` (an email's own headers): a line that is not a header is no email. In a part, such a
 * line starts the body, as mail readers take it.
 */
export function readHeaderBlock(bytes: Uint8Array, start: number, end: number, strict: boolean): HeaderBlock | { problem: string } {
	const headers = new Map<string, string>();
	let count = 0;
	// The header being read: its name and where its lines' text lies, decoded once when it ends.
	let current: { name: string; segments: number[] } | undefined;
	let inHeader = false;
	const keep = () => {
		if (current && !headers.has(current.name)) headers.set(current.name, joinedText(bytes, current.segments));
		current = undefined;
	};
	let pos = start;
	// A file saved from a mailbox (mbox) may start with its "From sender date" separator line.
	if (strict && startsWithFromLine(bytes, pos)) pos = lineAt(bytes, pos, end)[1];
	while (pos < end) {
		if (count > HEADER_LINES) return { problem: TOO_LONG };
		const [lineEnd, next] = lineAt(bytes, pos, end);
		if (lineEnd - start > HEADER_BYTES) return { problem: TOO_LONG };
		if (lineEnd === pos) {
			keep();
			return { headers, count, ended: true, bodyStart: next };
		}
		const first = bytes[pos];
		if (first === 0x20 || first === 0x09) {
			// A folded line continues the header before it (RFC 5322 2.2.3).
			if (current) current.segments.push(pos, lineEnd);
			else if (!inHeader && strict) return { problem: NOT_HEADERS };
		} else {
			const colon = headerNameEnd(bytes, pos, lineEnd);
			if (colon < 0) {
				if (strict) return { problem: NOT_HEADERS };
				keep();
				return { headers, count, ended: true, bodyStart: pos };
			}
			keep();
			count++;
			inHeader = true;
			// A name longer than any kept one (written with spaces before its colon at most) is not built.
			const name = colon - pos > 40 ? '' : headerName(bytes, pos, colon);
			// Only the first of a header given twice is kept: the others are not decoded either.
			current = KEPT_HEADERS.has(name) && !headers.has(name) ? { name, segments: [colon + 1, lineEnd] } : undefined;
		}
		pos = next;
	}
	keep();
	return { headers, count, ended: false, bodyStart: end };
}

/** A header name, lower case: printable ASCII (headerNameEnd), "Name : value" written with spaces. */
function headerName(bytes: Uint8Array, start: number, end: number): string {
	let name = '';
	for (let at = start; at < end; at++) {
		const byte = bytes[at];
		name += String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
	}
	return name.trim();
}

/** A header's text: its lines' text (`segments`, start and end pairs) joined and decoded once. */
function joinedText(bytes: Uint8Array, segments: number[]): string {
	if (segments.length === 2) return utf8OrLatin1(bytes.subarray(segments[0], segments[1]));
	let length = 0;
	for (let n = 0; n < segments.length; n += 2) length += segments[n + 1] - segments[n];
	const joined = new Uint8Array(length);
	let at = 0;
	// Copied byte by byte: a view per folded line costs more than its few bytes.
	for (let n = 0; n < segments.length; n += 2) for (let from = segments[n]; from < segments[n + 1]; from++) joined[at++] = bytes[from];
	return utf8OrLatin1(joined);
}

function startsWithFromLine(bytes: Uint8Array, pos: number): boolean {
	return bytes[pos] === 0x46 && bytes[pos + 1] === 0x72 && bytes[pos + 2] === 0x6f && bytes[pos + 3] === 0x6d && bytes[pos + 4] === 0x20;
}

/** Where the line at `pos` ends (its CR LF or LF left out) and where the next one starts; searched here, not natively: header lines are many and short. */
function lineAt(bytes: Uint8Array, pos: number, end: number): [number, number] {
	let lf = pos;
	while (lf < end && bytes[lf] !== LF) lf++;
	if (lf >= end) return [end, end];
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
