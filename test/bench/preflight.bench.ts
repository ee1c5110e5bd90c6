/**
 * How long the preflight takes on hostile PDFs of about 4.3 MB, one per structure, and how long
 * it holds the event loop at a time (the longest gap between the ticks of a 1 ms interval while
 * it runs). Prints one row per file; `npm run bench:preflight`.
 */
import { performance } from 'node:perf_hooks';

import { readPdfStructure } from '../../nodes/shared/preflight/pdf/structure';
import { inspectUpload } from '../../nodes/shared/preflight/upload';
import { CRAFTED } from '../fixtures/craftedPdfs';
import { CORPUS_DIR, corpusPdfs, readCorpusFile } from '../harness/corpus';

async function measure(bytes: Uint8Array): Promise<{ ms: number; longestBlockMs: number }> {
	let last = performance.now();
	let longest = 0;
	const ticker = setInterval(() => {
		const now = performance.now();
		longest = Math.max(longest, now - last);
		last = now;
	}, 1);
	await new Promise((resolve) => setTimeout(resolve, 5));
	last = performance.now();
	const started = performance.now();
	await inspectUpload(bytes, 'crafted.pdf', 'application/pdf');
	const ms = performance.now() - started;
	longest = Math.max(longest, performance.now() - last);
	clearInterval(ticker);
	return { ms, longestBlockMs: longest };
}

async function main(): Promise<void> {
	const rows: string[] = [];
	let worst = { ms: 0, block: 0 };
	for (const { name, bytes } of CRAFTED) {
		const file = bytes();
		// The slower of two runs: the first also warms the code up.
		const runs = [await measure(file), await measure(file)];
		const ms = Math.max(...runs.map((run) => run.ms));
		const block = Math.max(...runs.map((run) => run.longestBlockMs));
		worst = { ms: Math.max(worst.ms, ms), block: Math.max(worst.block, block) };
		rows.push(`${(file.length / 1e6).toFixed(2).padStart(6)} MB  ${ms.toFixed(0).padStart(6)} ms  ${block.toFixed(0).padStart(6)} ms  ${name}`);
	}
	console.log('  size      time   longest block  structure');
	for (const row of rows) console.log(row);
	console.log(`preflight: worst ${worst.ms.toFixed(0)} ms per file (bound 500), longest event-loop block ${worst.block.toFixed(0)} ms (bound 100)`);
	await realFiles();
}

/** The corpus's real PDFs: how long each takes, and whether the time limit cut any short. */
async function realFiles(): Promise<void> {
	if (!CORPUS_DIR) return console.log('real files: the corpus is not here (npm run corpus fetches it)');
	const times: number[] = [];
	let cut = 0;
	for (const { name } of corpusPdfs()) {
		const bytes = readCorpusFile(name);
		await readPdfStructure(bytes);
		const started = performance.now();
		const structure = await readPdfStructure(bytes);
		times.push(performance.now() - started);
		if (!structure.complete) cut++;
	}
	times.sort((a, b) => a - b);
	const median = times[Math.floor(times.length / 2)];
	console.log(`real files: ${times.length} corpus PDFs, median ${median.toFixed(1)} ms, slowest ${times.at(-1)!.toFixed(1)} ms, ${cut} cut short by the limits`);
}

void main();
