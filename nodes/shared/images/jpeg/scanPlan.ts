/**
 * Before a buffered (progressive) decode: the headers of all its scans, read ahead, decide which
 * scans can be skipped unread at a reduced scale (an AC scan none of whose coefficients is kept,
 * and whose nonzero pattern no later refinement scan needs), and which components must remember
 * which dropped coefficients are nonzero (those with a refinement scan over dropped ones).
 */
import { JpegError } from './error';
import { EOI, SOS, parseScan, readSegment, skipEntropyData, type Frame, type ScanHeader, type Segment } from './markers';

/** More scans than any encoder writes (libjpeg's default script has 10); bounds a crafted file's work. */
export const MAX_SCANS = 256;

export interface ScanPlan {
	/** by scan number: decode it (false: pass its data unread) */
	decode: boolean[];
	/** by component: keep the nonzero bits of dropped coefficients */
	needsNonzero: boolean[];
}

function readScanHeaders(bytes: Uint8Array, first: Segment, frame: Frame): ScanHeader[] {
	const headers: ScanHeader[] = [];
	let segment: Segment | undefined = first;
	while (segment && segment.marker !== EOI) {
		let next = segment.bodyEnd;
		if (segment.marker === SOS) {
			headers.push(parseScan(bytes, segment, frame));
			if (headers.length > MAX_SCANS) throw new JpegError(`corrupt JPEG: more than ${MAX_SCANS} scans`);
			next = skipEntropyData(bytes, segment.bodyEnd);
		}
		segment = readSegment(bytes, next);
	}
	return headers;
}

/**
 * `slots`, by component, map a zig-zag index to its kept place, -1 when dropped (coefficients.ts).
 * `banded`: the coefficients are held a band at a time, so outside it every one is dropped and
 * every refinement needs the nonzero bits.
 */
export function planScans(bytes: Uint8Array, first: Segment, frame: Frame, slots: Int8Array[], banded: boolean): ScanPlan {
	const headers = readScanHeaders(bytes, first, frame);
	const decode = headers.map(() => true);
	const needsNonzero = frame.components.map(() => false);
	if (!frame.progressive) return { decode, needsNonzero };
	// Going backwards: which coefficients' nonzero history a later decoded refinement reads.
	const history = frame.components.map(() => new Array<boolean>(64).fill(false));
	for (let i = headers.length - 1; i >= 0; i--) {
		const { ss, se, ah, components } = headers[i];
		if (ss === 0) continue; // DC scans are always needed
		const c = components[0];
		let wanted = false;
		for (let z = ss; z <= se; z++) wanted ||= slots[c][z] >= 0 || history[c][z];
		decode[i] = wanted;
		if (!wanted || ah === 0) continue;
		for (let z = ss; z <= se; z++) {
			history[c][z] = true;
			needsNonzero[c] ||= banded || slots[c][z] < 0;
		}
	}
	return { decode, needsNonzero };
}
