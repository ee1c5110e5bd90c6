import { createHash } from 'node:crypto';

/** A seeded generator (mulberry32), so injected faults repeat run after run. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A stable number in [0, 1) from a string: jitter that is the same on every read of a result. */
export function unitFromString(text: string): number {
	return createHash('sha256').update(text).digest().readUInt32BE(0) / 4294967296;
}

export function sha256Hex(bytes: Uint8Array): string {
	return createHash('sha256').update(bytes).digest('hex');
}
