/**
 * How long the preflight takes on hostile PDFs of about 4.3 MB, one per structure, and how long
 * it holds the event loop at a time (the longest gap between the ticks of a 1 ms interval while
 * it runs); how each was read (through its own index or by the scan) and the longest the reader
 * ran between two looks at its clock. Then the corpus's real PDFs, and the hostile emails of about
 * 4 MB an attached email can be (test/fixtures/hostileEmails.ts). `npm run bench:preflight`.
 */
import { performance } from 'node:perf_hooks';

import { readPdfStructure, type PdfStructure } from '../../nodes/shared/preflight/pdf/structure';
import { inspectUpload } from '../../nodes/shared/preflight/upload';
import { CRAFTED } from '../fixtures/craftedPdfs';
import { HOSTILE_EMAILS, timeJudgement } from '../fixtures/hostileEmails';
import { CORPUS_DIR, corpusPdfs, readCorpusFile } from '../harness/corpus';

/** The 206-page linearized file with object streams: the corpus's slowest file to scan. */
const LINEARIZED = 'pdflib/linearized_with_object_streams.pdf';

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

/** One reading with the real time limit, its clock instrumented: the longest stretch between two looks at it. */
async function readWithClockWatched(bytes: Uint8Array): Promise<{ structure: PdfStructure; ms: number; longestStretchMs: number }> {
	let last: number | undefined;
	let longest = 0;
	const clock = () => {
		const now = performance.now();
		if (last !== undefined) longest = Math.max(longest, now - last);
		last = now;
		return now;
	};
	const started = performance.now();
	const structure = await readPdfStructure(bytes, { clock });
	const ms = performance.now() - started;
	// The stretch from the last look to the end of the reading counts too.
	return { structure, ms, longestStretchMs: Math.max(longest, performance.now() - (last ?? started)) };
}

async function main(): Promise<void> {
	const rows: string[] = [];
	let worst = { ms: 0, block: 0, stretch: 0 };
	for (const { name, bytes } of CRAFTED) {
		const file = bytes();
		// The slower of two runs: the first also warms the code up.
		const runs = [await measure(file), await measure(file)];
		const ms = Math.max(...runs.map((run) => run.ms));
		const block = Math.max(...runs.map((run) => run.longestBlockMs));
		const { structure, longestStretchMs } = await readWithClockWatched(file);
		worst = { ms: Math.max(worst.ms, ms), block: Math.max(worst.block, block), stretch: Math.max(worst.stretch, longestStretchMs) };
		const outcome = structure.complete ? `pages ${structure.pages ?? 'unknown'}` : 'cut short';
		rows.push(`${(file.length / 1e6).toFixed(2).padStart(6)} MB  ${ms.toFixed(0).padStart(6)} ms  ${block.toFixed(0).padStart(6)} ms  ${longestStretchMs.toFixed(1).padStart(7)} ms  ${structure.route.padEnd(5)}  ${outcome.padEnd(13)}  ${name}`);
	}
	console.log('  size      time   longest block  longest stretch  route  outcome        structure');
	for (const row of rows) console.log(row);
	console.log(`preflight: worst ${worst.ms.toFixed(0)} ms per file (bound 500), longest event-loop block ${worst.block.toFixed(0)} ms (bound 100), longest stretch between two looks at the clock ${worst.stretch.toFixed(1)} ms`);
	await realFiles();
	hostileEmails();
}

/** Each hostile email judged as Every Attachment judges one: the median of five, by the clock and in CPU time. */
function hostileEmails(): void {
	console.log('hostile emails:  size     time      CPU  shape');
	let worst = 0;
	for (const { name, bytes } of HOSTILE_EMAILS) {
		const email = bytes();
		const { ms, cpuMs } = timeJudgement(email);
		worst = Math.max(worst, cpuMs);
		console.log(`              ${(email.length / 1e6).toFixed(2).padStart(6)} MB ${ms.toFixed(1).padStart(6)} ms ${cpuMs.toFixed(1).padStart(6)} ms  ${name}`);
	}
	console.log(`hostile emails: worst ${worst.toFixed(1)} ms of CPU per 4 MB email (bound 300)`);
}

/** The corpus's real PDFs: how long each takes, how it was read, and whether the time limit cut any short. */
async function realFiles(): Promise<void> {
	if (!CORPUS_DIR) return console.log('real files: the corpus is not here (npm run corpus fetches it)');
	const times: Array<{ name: string; ms: number }> = [];
	const routes = { index: 0, scan: 0 };
	let cut = 0;
	let stretch = 0;
	for (const { name } of corpusPdfs()) {
		const bytes = readCorpusFile(name);
		await readPdfStructure(bytes);
		const reading = await readWithClockWatched(bytes);
		times.push({ name, ms: reading.ms });
		routes[reading.structure.route]++;
		stretch = Math.max(stretch, reading.longestStretchMs);
		if (!reading.structure.complete) cut++;
		if (name === LINEARIZED) {
			const { pages, route, work, complete } = reading.structure;
			console.log(`${LINEARIZED}: ${reading.ms.toFixed(1)} ms, ${complete ? `${pages} pages` : 'cut short (page count unknown)'}, read by ${route === 'index' ? 'its index' : 'the scan'}, ${(work / 1e6).toFixed(2)} million units`);
		}
	}
	times.sort((a, b) => a.ms - b.ms);
	const median = times[Math.floor(times.length / 2)].ms;
	const slowest = times.at(-1)!;
	console.log(
		`real files: ${times.length} corpus PDFs, median ${median.toFixed(1)} ms, slowest ${slowest.ms.toFixed(1)} ms (${slowest.name}), ${cut} cut short by the limits; ` +
			`${routes.index} read through their index, ${routes.scan} scanned; longest stretch between two looks at the clock ${stretch.toFixed(1)} ms`,
	);
}

void main();
