import { MIME_LIMITS } from './limits';
import { ENCODER } from './text';

// Local, not imported: a module's imported constant is a property read in a loop run per byte.
const LF = 0x0a;
const CR = 0x0d;

/**
 * The bodies of a multipart's parts (RFC 2046 5.1.1): between delimiter lines `--boundary`, the
 * line break before a delimiter belonging to it. A message cut off before its closing delimiter
 * keeps its last part up to the end, as mail readers do. A delimiter starts a line, so the scan
 * goes line by line, each line compared with the delimiter at most over its own length: linear,
 * without a native call per line (the lines of a hostile email are many and short).
 */
export function multipartBodies(bytes: Uint8Array, boundary: string, start: number, end: number): Array<[number, number]> {
	const delimiter = ENCODER.encode(`--${boundary}`);
	const bodies: Array<[number, number]> = [];
	let partStart = -1;
	let line = start;
	while (line < end) {
		const next = startsWith(bytes, line, delimiter, end) ? afterDelimiterLine(bytes, line + delimiter.length, end) : undefined;
		if (next) {
			if (partStart >= 0) bodies.push([partStart, lineBreakBefore(bytes, line, partStart)]);
			if (next.closing || bodies.length >= MIME_LIMITS.parts) return bodies;
			partStart = next.at;
			line = next.at;
			continue;
		}
		while (line < end && bytes[line] !== LF) line++;
		line++;
	}
	if (partStart >= 0 && partStart < end) bodies.push([partStart, end]);
	return bodies;
}

function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array, end: number): boolean {
	if (at + prefix.length > end) return false;
	for (let n = 0; n < prefix.length; n++) if (bytes[at + n] !== prefix[n]) return false;
	return true;
}

/** After `--boundary`: `--` when it closes, then only white space up to the line's end (else it is a longer boundary, or text). */
function afterDelimiterLine(bytes: Uint8Array, from: number, end: number): { at: number; closing: boolean } | undefined {
	let after = from;
	const closing = bytes[after] === 0x2d && bytes[after + 1] === 0x2d && after + 1 < end;
	if (closing) after += 2;
	while (after < end && (bytes[after] === 0x20 || bytes[after] === 0x09)) after++;
	if (after >= end) return { at: end, closing };
	if (bytes[after] === LF) return { at: after + 1, closing };
	if (bytes[after] === CR && (after + 1 >= end || bytes[after + 1] === LF)) return { at: Math.min(end, after + 2), closing };
	return undefined;
}

/** The end of a part's body: before the CR LF (or LF) that belongs to the delimiter after it. */
function lineBreakBefore(bytes: Uint8Array, delimiter: number, floor: number): number {
	let end = delimiter;
	if (end > floor && bytes[end - 1] === LF) end--;
	if (end > floor && bytes[end - 1] === CR) end--;
	return end;
}
