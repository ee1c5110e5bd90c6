/**
 * One photo shrunk (nodes/shared/images/shrink.ts) in a process of its own, for `npm run
 * bench:shrink`: a fresh process, so its resident memory is this photo's alone. Arguments: the
 * input file, `jpeg` or `png`, the file to write the shrunk JPEG to. Prints one JSON line.
 *
 * Memory: the kernel's high-water mark of resident memory (VmHWM of /proc/self/status), reset just
 * before the shrink (writing 5 to /proc/self/clear_refs), minus the resident memory then (the
 * input file already read, the garbage collected). Every byte the shrink touches counts, V8's heap
 * and the typed arrays outside it alike; pages the process had freed and kept before the shrink
 * could hide a little of it. Where the mark cannot be reset, the figure is marked as not measured.
 *
 * Event loop: a 1 ms timer chain runs beside the shrink; the longest gap between its turns is the
 * longest anything else in n8n (a webhook, another execution) would have waited.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { shrinkPhoto, type PhotoKind } from '../../nodes/shared/images/shrink';

export interface ShrinkFigures {
	ms: number;
	cpuMs: number;
	/** The longest the event loop was held while the photo was shrunk. */
	longestWaitMs: number;
	/** Peak resident memory over what the process held before the shrink; null when it could not be measured. */
	addedPeakBytes: number | null;
	width: number;
	height: number;
	quality: number;
	bytes: number;
}

/** A field of /proc/self/status (kB there), in bytes. */
function statusBytes(field: 'VmRSS' | 'VmHWM'): number {
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'latin1'));
	if (!match) throw new Error(`no ${field} in /proc/self/status`);
	return Number(match[1]) * 1024;
}

function resetPeak(): boolean {
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

async function main(): Promise<void> {
	const [input, kind, output] = process.argv.slice(2);
	if (kind !== 'jpeg' && kind !== 'png') throw new Error('usage: shrinkChild.ts <input> jpeg|png <output>');
	const bytes = new Uint8Array(readFileSync(input));
	(globalThis as { gc?: () => void }).gc?.();
	const reset = resetPeak();
	const before = statusBytes('VmRSS');
	let lastTurn = performance.now();
	let longestWaitMs = 0;
	let timer: NodeJS.Timeout | undefined;
	const turn = () => {
		const now = performance.now();
		longestWaitMs = Math.max(longestWaitMs, now - lastTurn);
		lastTurn = now;
		timer = setTimeout(turn, 1);
	};
	timer = setTimeout(turn, 1);
	const cpu = process.cpuUsage();
	const started = performance.now();
	// Giving way as in n8n, with a plain timer: n8n's sleep would load n8n-workflow into this bare process, and its heap into the figures.
	const shrunk = await shrinkPhoto(bytes, kind as PhotoKind, undefined, { wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) });
	const ms = performance.now() - started;
	const { user, system } = process.cpuUsage(cpu);
	clearTimeout(timer);
	longestWaitMs = Math.max(longestWaitMs, performance.now() - lastTurn);
	const peak = statusBytes('VmHWM');
	writeFileSync(output, shrunk.bytes);
	const figures: ShrinkFigures = {
		ms,
		cpuMs: (user + system) / 1000,
		longestWaitMs,
		addedPeakBytes: reset ? peak - before : null,
		width: shrunk.width,
		height: shrunk.height,
		quality: shrunk.quality,
		bytes: shrunk.bytes.byteLength,
	};
	process.stdout.write(`${JSON.stringify(figures)}\n`);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
