/**
 * `npm run bench`: upload-without-wait + Document Extraction Poller, run by n8n's engine against
 * the in-process sandbox, compared in the same run with a naive polling loop and with the bound
 * the rate limit sets. Prints a table; the last line is the one-line summary.
 *
 * How the workflow is built, and why (the figures depend on it):
 * n8n runs a node only after the previous node has finished ALL its items. Uploading 60 documents
 * and then polling all of them would leave the early documents finished long before the Poller
 * starts, and their "emission delay" would measure the upload queue, not the Poller. A user who
 * wants throughput builds a loop instead: Loop Over Items hands out batches of `--batch` documents;
 * per batch the Extract operation uploads them ("Wait for Result" off) and the Poller waits for
 * their results, then the next batch starts. One such loop leaves the key idle while it waits for
 * the slowest document of a batch; `--lanes` executions can run it at once on the same
 * credential, each taking the next batch when it is done, as n8n's concurrent production
 * executions or queue-mode workers do. The lanes share one rate budget (per key, learnt from the
 * X-RateLimit headers) and one completion estimate, as executions in one n8n process do.
 *
 * Default: one loop, batches of 8: the workflow sized to the key. It asks for about as many
 * requests per minute as the limit gives (8 documents x ~2.1 requests per ~18 s cycle), so reads
 * do not queue behind uploads. More (e.g. --batch 10 --lanes 2) saturates the key: documents per
 * minute reach the bound, but every request then waits its turn in the budget and the emission
 * delay becomes queueing time (p50 about 8 s), which says nothing about the Poller's timing.
 *
 * Measured from the sandbox's own records: requests (every request it received, per document),
 * 429s sent, and per document the delay from its terminal time to the first read that arrived
 * after it (the read that saw the final state; the Poller emits the item then, and n8n hands it to
 * the next node when the Poller's batch is complete). Wall time runs from the first upload to the
 * end of the last Poller run. The bound: a document costs at least one upload and one read, so at
 * most limit/2 documents per minute.
 *
 * The naive baseline runs the same batches and lanes with plain fetch calls that read each result
 * every 2.5 s from its upload (HTTP Request + Wait + IF loop), in a child process with its own
 * sandbox and key, at the same time. Then: peak memory of 10 concurrent 4.3 MB uploads (sandbox in
 * a child process, so only n8n's side is counted) and the time to map a 5,000-row statement.
 */
import './n8nUserFolder';

import { startBenchSandbox, BENCH_RATE_LIMIT_PER_MINUTE } from './benchSandbox';
import { outputOf, spawnTs } from './childProcess';
import { benchDocuments } from './documents';
import { measureStatementMapping, type MappingTimes } from './mapping';
import { measureConcurrentUploads, type UploadMemory } from './memory';
import { pipelineFigures, quantile, type PipelineFigures } from './metrics';
import { parseBenchArgs, type BenchOptions } from './options';
import { runExtractionWorkflow, type FlowRun } from './workflow';

const DEFAULTS = { docs: 60, batch: 8, lanes: 1 };
/** The Poller's timeout per batch: far above the slowest typical document, so nothing times out. */
const POLLER_TIMEOUT_SECONDS = 300;

/** Spec targets of issue 5. */
const TARGETS = { requestsPerDoc: 2.3, http429: 0, shareOfBound: 0.9, emitP50Seconds: 2.5 };

async function main(): Promise<void> {
	const options = parseBenchArgs(process.argv.slice(2), DEFAULTS);
	const boundDocsPerMinute = BENCH_RATE_LIMIT_PER_MINUTE / 2;
	console.log(
		`Benchmark: ${options.docs} documents, ${options.fast ? 'fast (20x) timing' : 'realistic timing (3-20 s)'}, ${BENCH_RATE_LIMIT_PER_MINUTE} requests/min, ` +
			`batches of ${options.batch}, ${options.lanes} execution(s) at once\n`,
	);

	const naive = outputOf(spawnTs('test/bench/naiveChild.ts', [JSON.stringify({ docs: options.docs, fast: options.fast, batch: options.batch, lanes: options.lanes })])).then(
		(stdout) => JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as PipelineFigures,
	);
	const node = await runNodePipeline(options);
	const baseline = await naive;

	printPipelineTable(node.figures, baseline, boundDocsPerMinute);
	if (node.run.failures.length > 0) console.log(`\nFailures in the node's workflow: ${node.run.failures.join('; ')}`);
	console.log(`Poller outputs over all batches: done ${node.run.outputs[0]}, rejected ${node.run.outputs[1]}, error ${node.run.outputs[2]}, still processing ${node.run.outputs[3]}`);
	printTargets(node.figures, boundDocsPerMinute);

	if (!options.pipelineOnly) {
		printMemory(await measureConcurrentUploads());
		printMapping(measureStatementMapping());
	}

	const f = node.figures;
	console.log(
		`\nbench: docs=${f.docs} wall_s=${f.wallSeconds.toFixed(1)} docs_per_min=${f.docsPerMinute.toFixed(1)} bound_docs_per_min=${boundDocsPerMinute.toFixed(1)} ` +
			`requests_per_doc=${f.requestsPerDoc.toFixed(2)} naive_requests_per_doc=${baseline.requestsPerDoc.toFixed(2)} http_429=${f.http429} ` +
			`emit_p50_s=${quantile(f.emitDelays, 0.5).toFixed(2)} emit_p95_s=${quantile(f.emitDelays, 0.95).toFixed(2)}`,
	);
}

async function runNodePipeline(options: BenchOptions): Promise<{ figures: PipelineFigures; run: FlowRun }> {
	const sandbox = await startBenchSandbox(options.fast);
	try {
		const documents = await benchDocuments(options.docs);
		const run = await runExtractionWorkflow(documents, {
			credential: { apiKey: sandbox.demoKey, baseUrl: sandbox.baseUrl },
			batch: options.batch,
			lanes: options.lanes,
			pollerTimeoutSeconds: POLLER_TIMEOUT_SECONDS,
		});
		return { figures: pipelineFigures(sandbox.stats(), options.docs, run.endedAt - run.startedAt), run };
	} finally {
		await sandbox.stop();
	}
}

function printPipelineTable(node: PipelineFigures, naive: PipelineFigures, boundDocsPerMinute: number): void {
	const rows: Array<[string, string, string, string]> = [
		['', 'Poller node', 'naive 2.5 s loop', 'rate-limit bound'],
		['wall time (s)', fixed(node.wallSeconds, 1), fixed(naive.wallSeconds, 1), fixed((node.docs / boundDocsPerMinute) * 60, 1)],
		['documents per minute', fixed(node.docsPerMinute, 1), fixed(naive.docsPerMinute, 1), fixed(boundDocsPerMinute, 1)],
		['requests', String(node.requests), String(naive.requests), String(node.docs * 2)],
		['requests per document', fixed(node.requestsPerDoc, 2), fixed(naive.requestsPerDoc, 2), '2.00'],
		['HTTP 429 received', String(node.http429), String(naive.http429), '0'],
		['emission delay p50 (s)', fixed(quantile(node.emitDelays, 0.5), 2), fixed(quantile(naive.emitDelays, 0.5), 2), '-'],
		['emission delay p95 (s)', fixed(quantile(node.emitDelays, 0.95), 2), fixed(quantile(naive.emitDelays, 0.95), 2), '-'],
		['emission delay max (s)', fixed(Math.max(...node.emitDelays), 2), fixed(Math.max(...naive.emitDelays), 2), '-'],
		['closest reads of one result (s)', seconds(node.closestReadsMs), seconds(naive.closestReadsMs), '>= 2.00'],
	];
	printTable(rows);
}

function printTargets(node: PipelineFigures, boundDocsPerMinute: number): void {
	const p50 = quantile(node.emitDelays, 0.5);
	const share = node.docsPerMinute / boundDocsPerMinute;
	const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
	console.log('\nTargets:');
	console.log(`  requests per document <= ${TARGETS.requestsPerDoc}: ${fixed(node.requestsPerDoc, 2)} ${check(node.requestsPerDoc <= TARGETS.requestsPerDoc)}`);
	console.log(`  HTTP 429 = ${TARGETS.http429}: ${node.http429} ${check(node.http429 === TARGETS.http429)}`);
	console.log(`  documents per minute >= ${TARGETS.shareOfBound * 100}% of the bound: ${fixed(share * 100, 1)}% ${check(share >= TARGETS.shareOfBound)}`);
	console.log(`  emission delay p50 <= ${TARGETS.emitP50Seconds} s: ${fixed(p50, 2)} s ${check(p50 <= TARGETS.emitP50Seconds)}`);
}

function printMemory(memory: UploadMemory): void {
	console.log(`\nMemory, ${memory.uploads} action-node executions each uploading ${fixed(memory.fileBytes / 1e6, 2)} MB at once (${memory.accepted} accepted in ${fixed(memory.seconds, 1)} s):`);
	printTable([
		['', 'before', 'peak', 'growth'],
		['process RSS (MB)', fixed(memory.baselineRssMb, 0), fixed(memory.peakRssMb, 0), fixed(memory.peakRssMb - memory.baselineRssMb, 0)],
		['JS heap used (MB)', fixed(memory.baselineHeapMb, 0), fixed(memory.peakHeapMb, 0), fixed(memory.peakHeapMb - memory.baselineHeapMb, 0)],
	]);
}

function printMapping(mapping: MappingTimes): void {
	console.log(`\nMapping a ${mapping.rows.toLocaleString('en')}-row bank statement to items (median of 5):`);
	printTable([
		['', 'ms'],
		['schema check of the answer', fixed(mapping.parseMs, 1)],
		['doneResultToJson, fields (1 item)', fixed(mapping.fieldsMs, 1)],
		[`doneResultToJson, tableRows (${mapping.tableRowItems} items)`, fixed(mapping.tableRowsMs, 1)],
	]);
}

function printTable(rows: string[][]): void {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
}

function seconds(ms: number | null): string {
	return ms === null ? '-' : fixed(ms / 1000, 2);
}

function fixed(value: number, digits: number): string {
	return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
