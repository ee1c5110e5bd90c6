import { MIME_LIMITS } from './limits';
import { CR, LF } from './headers';

/**
 * The bodies of a multipart's parts (RFC 2046 5.1.1): between delimiter lines `--boundary`, the
 * line break before a delimiter belonging to it. A message cut off before its closing delimiter
 * keeps its last part up to the end, as mail readers do. A delimiter starts a line: a match that
 * is not a delimiter moves the search to the next line, so each byte is searched once.
 */
export function multipartBodies(bytes: Uint8Array, boundary: string, start: number, end: number): Array<[number, number]> {
	const view = Buffer.from(bytes.buffer, bytes.byteOffset, end);
	const delimiter = Buffer.from(`--${boundary}`, 'utf8');
	const bodies: Array<[number, number]> = [];
	let partStart = -1;
	let pos = start;
	while (pos < end) {
		const found = view.indexOf(delimiter, pos);
		if (found < 0) break;
		const next = found === start || bytes[found - 1] === LF ? afterDelimiterLine(bytes, found + delimiter.length, end) : undefined;
		if (!next) {
			const lineEnd = view.indexOf(LF, found);
			if (lineEnd < 0) break;
			pos = lineEnd + 1;
			continue;
		}
		if (partStart >= 0) bodies.push([partStart, lineBreakBefore(bytes, found, partStart)]);
		if (next.closing || bodies.length >= MIME_LIMITS.parts) return bodies;
		partStart = next.at;
		pos = next.at;
	}
	if (partStart >= 0 && partStart < end) bodies.push([partStart, end]);
	return bodies;
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
