/**
 * `npm run bench:split`: Split PDFs (issue 46) on the real-world corpus's PDFs, the 12-invoice
 * scanner batch made from its invoices (test/harness/scannerBatch.ts) and a synthetic 500-page
 * PDF, each split page by page as the node does it: the file opened once (`openSplit`), its parts
 * made one at a time and let go once checked. For each file it prints its pages, bytes, parts, the
 * time of that split, the time of the same parts made in one `splitPdf` call (all kept), the peak
 * memory each added (heap and buffers, sampled each time the split looks at its clock, over a
 * baseline taken after a garbage collection), and qpdf's verdict on every part
 * (`--check` without warnings, or none the file itself has not, `--show-npages` the pages asked). Files the split refuses
 * (encrypted, damaged) are listed with the reason.
 *
 * Exits 1 when a part fails qpdf, has other pages than asked, differs from the same part made in
 * one call, or when a target below is missed: the batch and the synthetic file split, each file's
 * split within the time one split call is allowed, the memory added within the output budget.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

import { everyNPages } from '../../nodes/shared/preflight/pdf/pageRanges';
import { openSplit, PdfSplitError, splitBudget, splitPdf, SPLIT_TIME_LIMIT_MS } from '../../nodes/shared/preflight/pdf/split';
import { MAX_INFLATED_BYTES } from '../../nodes/shared/preflight/pdf/streams';
import { readPdfStructure } from '../../nodes/shared/preflight/pdf/structure';
import { manyPagesPdf } from '../fixtures/documents/special-files';
import { CORPUS_DIR, CORPUS_MISSING_MESSAGE, corpusPdfs, QPDF_AVAILABLE, QPDF_MISSING_MESSAGE, qpdfWarnings, readCorpusFile, withTemporaryFile } from '../harness/corpus';
import { scannerBatch, scannerBatchMissing } from '../harness/scannerBatch';

const MB = 1024 * 1024;
const SYNTHETIC_PAGES = 500;

const gc = (globalThis as { gc?: () => void }).gc;
/** What the split holds: the heap and the buffers outside it (the parts, the file's text). */
const held = () => {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.external;
};

interface Measured {
	pages: number;
	parts: Uint8Array[];
	/** One opening, parts made one at a time, as the node makes them. */
	ms: number;
	/** The same parts in one call. */
	oneCallMs: number;
	peakAddedBytes: number;
	oneCallPeakAddedBytes: number;
}

/**
 * The most `run` added to what the process holds, over a baseline after a garbage collection:
 * sampled each time the split looks at its clock (every 16,384 units of work), and at the end
 * with what it made still held. Garbage not yet collected counts: the process holds it.
 */
async function peakAdded<T>(run: (clock: () => number) => Promise<T>): Promise<{ result: T; added: number }> {
	gc?.();
	const baseline = held();
	let peak = baseline;
	const clock = () => {
		peak = Math.max(peak, held());
		return performance.now();
	};
	const result = await run(clock);
	peak = Math.max(peak, held());
	return { result, added: peak - baseline };
}

async function measure(bytes: Uint8Array): Promise<Measured | { refused: string } | { unread: true }> {
	const pages = (await readPdfStructure(bytes, { timeMs: Infinity })).pages;
	if (!pages) return { unread: true };
	const groups = everyNPages(1, pages);
	try {
		// Timed without the memory sampler (the page count's reading above warmed the code up).
		let started = performance.now();
		const splitter = await openSplit(bytes, groups);
		for (let i = 0; i < groups.length; i++) await splitter.part(i);
		const ms = performance.now() - started;
		started = performance.now();
		const together = await splitPdf(bytes, groups);
		const oneCallMs = performance.now() - started;

		// As the node: one opening, each part checked (here: compared) and let go.
		const sampled = await peakAdded(async (clock) => {
			const opened = await openSplit(bytes, groups, { clock });
			let same = true;
			for (let i = 0; i < groups.length; i++) same &&= Buffer.from(await opened.part(i)).equals(Buffer.from(together[i]));
			return same;
		});
		if (!sampled.result) failures.push('a part made one at a time differs from the same part made in one call');
		const oneCall = await peakAdded((clock) => splitPdf(bytes, groups, { clock }));
		return { pages, parts: together, ms, oneCallMs, peakAddedBytes: sampled.added, oneCallPeakAddedBytes: oneCall.added };
	} catch (error) {
		if (error instanceof PdfSplitError) return { refused: error.reason };
		throw error;
	}
}

/**
 * qpdf's verdict on every part: the page count is one, and `--check` exits 0 (3 is "with
 * warnings"), or, for a file qpdf warns of itself, warns of nothing the file does not (the part
 * keeps its streams as they are).
 */
function qpdfVerdict(original: Uint8Array, parts: Uint8Array[]): string {
	const inOriginal = qpdfWarnings(original);
	const bad: string[] = [];
	for (const [i, part] of parts.entries()) {
		withTemporaryFile(part, (path) => {
			// One run for both: --check's report, then the page count on its last line.
			const run = spawnSync('qpdf', ['--check', '--show-npages', path], { encoding: 'utf8' });
			const pages = run.stdout.trim().split('\n').at(-1);
			const sound = run.status === 0 || (run.status === 3 && inOriginal.size > 0 && [...qpdfWarnings(part)].every((warning) => inOriginal.has(warning)));
			if (!sound || pages !== '1') bad.push(`part ${i + 1}: --check exit ${run.status}, ${pages} pages`);
		});
	}
	const asFile = inOriginal.size > 0 ? ' (warned as the file is)' : '';
	return bad.length === 0 ? `${parts.length}/${parts.length} ok${asFile}` : `BAD ${bad.join('; ')}`;
}

const failures: string[] = [];
const rows: string[][] = [];

async function benchFile(name: string, bytes: Uint8Array, mustSplit: boolean): Promise<void> {
	const measured = await measure(bytes);
	const kb = (bytes.length / 1024).toFixed(0);
	if ('unread' in measured || 'refused' in measured) {
		const why = 'refused' in measured ? `refused: ${measured.refused}` : 'pages not counted: refused before the split';
		rows.push([name, '?', kb, '-', '-', '-', '-', '-', why]);
		if (mustSplit) failures.push(`${name}: ${why}`);
		return;
	}
	const { pages, parts, ms, oneCallMs, peakAddedBytes, oneCallPeakAddedBytes } = measured;
	const verdict = QPDF_AVAILABLE ? qpdfVerdict(bytes, parts) : 'qpdf missing';
	rows.push([name, String(pages), kb, String(parts.length), ms.toFixed(0), oneCallMs.toFixed(0), (peakAddedBytes / MB).toFixed(1), (oneCallPeakAddedBytes / MB).toFixed(1), verdict]);
	if (verdict.startsWith('BAD')) failures.push(`${name}: ${verdict}`);
	if (parts.length !== pages) failures.push(`${name}: ${parts.length} parts for ${pages} pages`);
	if (ms > SPLIT_TIME_LIMIT_MS) failures.push(`${name}: split page by page in ${ms.toFixed(0)} ms, over the ${SPLIT_TIME_LIMIT_MS} ms one split call is allowed`);
	// One call holds at most the file's text, its inflated object streams and the parts' output.
	const allowed = splitBudget(bytes.length).outputBytes + MAX_INFLATED_BYTES + 2 * bytes.length;
	for (const [how, added] of [['page by page', peakAddedBytes], ['in one call', oneCallPeakAddedBytes]] as const) {
		if (added > allowed) failures.push(`${name}: split ${how}, added ${(added / MB).toFixed(1)} MB, over the output and inflate budgets and twice the file (${(allowed / MB).toFixed(1)} MB)`);
	}
}

function table(): string {
	const header = ['file', 'pages', 'KB', 'parts', 'ms', 'ms, one call', 'peak added MB', 'MB, one call', 'qpdf --check, 1 page each'];
	const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
	const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i === 8 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
	return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
	const started = Date.now();
	console.log(`Split PDFs, every page, as the node splits (one opening, parts made one at a time and let go)${gc ? '' : ' - run with node --expose-gc for a true baseline'}\n`);
	if (!QPDF_AVAILABLE) failures.push(QPDF_MISSING_MESSAGE);

	const missingBatch = scannerBatchMissing();
	if (missingBatch) failures.push(`the 12-invoice scanner batch cannot be made: ${missingBatch}`);
	else await benchFile('scanner batch of 12 corpus invoices', (await scannerBatch()).bytes, true);
	await benchFile(`synthetic ${SYNTHETIC_PAGES}-page PDF`, await manyPagesPdf(SYNTHETIC_PAGES), true);

	if (!CORPUS_DIR) failures.push(`the corpus: ${CORPUS_MISSING_MESSAGE}`);
	else {
		// Multi-page files first: the ones a split is for.
		const files = corpusPdfs().map(({ name }) => ({ name, bytes: readCorpusFile(name) }));
		const pageCounts = new Map<string, number>();
		for (const file of files) pageCounts.set(file.name, (await readPdfStructure(file.bytes, { timeMs: Infinity })).pages ?? 0);
		files.sort((a, b) => (pageCounts.get(b.name) ?? 0) - (pageCounts.get(a.name) ?? 0) || a.name.localeCompare(b.name));
		for (const { name, bytes } of files) await benchFile(name, bytes, false);
	}

	console.log(table());
	const split = rows.filter((row) => row[3] !== '-');
	console.log(`\n${split.length} files split into ${split.reduce((sum, row) => sum + Number(row[3]), 0)} parts, ${rows.length - split.length} refused; ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
	if (failures.length > 0) {
		console.log(`\nbench:split: FAILED\n${failures.map((failure) => `- ${failure}`).join('\n')}`);
		process.exitCode = 1;
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
