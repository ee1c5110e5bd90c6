/**
 * `npm run bench`: this package's read policy, run by n8n's engine against the sandbox, next to
 * how peer n8n nodes wait (peers.ts), each peer in its own sandbox account with the same limits
 * and documents, in four scenarios; then the memory of concurrent uploads and the time to map a
 * long statement. Prints a table per scenario; the last line is the one-line summary.
 *
 * Scenarios:
 * - single: one document at a time (Extract with "Wait for Result"), `--runs` of them one after
 *   another on one key: the delay a user sees with one invoice.
 * - batch: `--docs` documents on the free plan (60 requests/min): the throughput workflow, one
 *   loop where Loop Over Items hands out batches of `--batch`, Extract uploads them ("Wait for
 *   Result" off) and the Poller waits for their results, then the next batch. n8n runs a node
 *   after the previous one finished all its items, so uploading everything first would measure
 *   the upload queue, not the Poller. Batches of 10 ask more of the key than it gives (10
 *   documents, about 20 requests, per ~15 s cycle), so the figure is the policy's, not the loop's:
 *   with 8 the loop itself runs at about the bound and any wait in it shows as lost throughput.
 * - paid: the same on a paid plan (120 requests/min).
 * - shared: the same documents split over two executions at once on one key (concurrent
 *   production executions or queue-mode workers), which share one budget and one estimate.
 *
 * Figures come from the sandboxes' own records: requests received (every route, per document),
 * 429s sent, and per document the delay from its terminal time to the first read that arrived
 * after it (that read saw the final state: the node emits the item then). Wall time runs from the
 * first upload to the last emission. The bound: a document costs at least one upload and one read,
 * so at most limit/2 documents per minute. With --fast (sandbox 20 times quicker) documents finish
 * in well under the 2 s the spec asks between reads, so delays measure that rule, not the policy,
 * and are not printed.
 *
 * `npm run bench -- --fast` is the short run (CI runs it): fast timing, 10 documents in batches
 * of 5 and 3 single runs unless given, each scenario once, every peer, one memory run. Any run
 * exits non-zero on an exception, on a document this package did not finish, on a peer without
 * figures, or when the summary line lacks a figure its scenarios should have given.
 */
import './n8nUserFolder';

import type { ChildProcess } from 'node:child_process';

import { FREE_PLAN_REQUESTS_PER_MINUTE, PAID_PLAN_REQUESTS_PER_MINUTE, startBenchSandbox } from './benchSandbox';
import { outputOf, spawnTs, waitForOutput } from './childProcess';
import { benchDocuments } from './documents';
import { measureStatementMapping, type MappingTimes } from './mapping';
import type { UploadMemory } from './memory';
import { pipelineFigures, poolRuns, quantile, type PipelineFigures } from './metrics';
import { parseBenchArgs, type BenchOptions } from './options';
import type { PeerRun } from './peerChild';
import { PEER_NAMES, PEER_STYLES, type PeerName } from './peers';
import { fixed, rssGrowthMb, summaryOf, uploadMb, type Scenario, type ScenarioResult } from './summary';
import { runExtractionWorkflow, runOneAtATime, type FlowRun } from './workflow';

const DEFAULTS = { docs: 60, runs: 60, batch: 10 };
/** The short run (--fast): every scenario and peer, in about two minutes on a 2-core machine. */
const FAST_DEFAULTS = { docs: 10, runs: 3, batch: 5 };
/** The short run stops with an error past this: a hang must fail CI, not hold it. */
const FAST_DEADLINE_MS = 10 * 60_000;
/** The Poller's timeout per batch: far above the slowest typical document, so nothing times out. */
const POLLER_TIMEOUT_SECONDS = 300;
/** Starting 16 TypeScript processes at once on a busy 2-core machine takes a while. */
const PEER_START_TIMEOUT_MS = 180_000;
/**
 * Runs of the batch scenario for this package (the peers run once, ten minutes each): its median
 * delay is a target, and one run of 60 documents is a draw (bench:policy, 400 seeds: 14 % of such
 * runs have a median over 1.5 s, before and after the policy of 2026-11-26; of three pooled, 3 %).
 */
const BATCH_RUNS = 3;
/** Runs of the memory measurement, each in a fresh process; the median is reported. */
const MEMORY_RUNS = 3;

/** Targets of issue 13. */
const TARGETS = { requestsPerDoc: 2.3, shareOfBound: 0.95, batchEmitP50: 1.5, singleEmitP50: 1.5, singleEmitP95: 3, rssPerUploadedByte: 2 };

function scenariosOf(options: BenchOptions): Scenario[] {
	const free = FREE_PLAN_REQUESTS_PER_MINUTE;
	// The batch runs are repeated for their median delay, which the fast timing does not print.
	const batchRuns = options.fast ? 1 : BATCH_RUNS;
	const all: Scenario[] = [
		{ key: 'single', title: `One document at a time, ${options.runs} runs (Extract with Wait for Result), free plan`, docs: options.runs, batch: 1, lanes: 1, requestsPerMinute: free, repeats: 1 },
		{ key: 'batch', title: `${options.docs} documents, free plan (${free} requests/min), one loop of batches of ${options.batch}`, docs: options.docs, batch: options.batch, lanes: 1, requestsPerMinute: free, repeats: batchRuns },
		{
			key: 'paid',
			title: `${options.docs} documents, paid plan (${PAID_PLAN_REQUESTS_PER_MINUTE} requests/min), one loop of batches of ${options.batch}`,
			docs: options.docs,
			batch: options.batch,
			lanes: 1,
			requestsPerMinute: PAID_PLAN_REQUESTS_PER_MINUTE,
			repeats: 1,
		},
		{ key: 'shared', title: `${options.docs} documents, free plan, two executions at once on one key, batches of ${options.batch}`, docs: options.docs, batch: options.batch, lanes: 2, requestsPerMinute: free, repeats: 1 },
	];
	return all.filter((scenario) => options.only.includes(scenario.key));
}

/** Every child process the run started (peers, memory runs), stopped if the run fails. */
const spawned = new Set<ChildProcess>();

async function main(): Promise<void> {
	const options = parseBenchArgs(process.argv.slice(2), DEFAULTS, FAST_DEFAULTS);
	const scenarios = scenariosOf(options);
	if (options.fast) {
		setTimeout(() => failNow(new Error(`the short run took over ${FAST_DEADLINE_MS / 60_000} minutes`)), FAST_DEADLINE_MS).unref();
	}
	console.log(
		`Benchmark: ${options.fast ? 'fast (20x) timing: delays not printed' : 'realistic timing (3-20 s)'}; scenarios: ${options.only.join(', ')}; ` +
			`${options.docs} documents in batches of ${options.batch}, ${options.runs} single runs\n`,
	);

	// Every peer of every scenario starts now, each in its own process and sandbox: the inline
	// styles take minutes for what the node does in one or two, and they share nothing with it.
	// The node's runs wait until the peers' start-up (compiling, loading PDF readers) is over.
	const peerRuns = new Map(scenarios.map((scenario) => [scenario.key, startPeers(scenario, options.fast)]));
	await Promise.all([...peerRuns.values()].map((peers) => peers.ready));
	const results: ScenarioResult[] = [];
	for (const scenario of scenarios) {
		const { figures, run } = await runNodeScenario(scenario, options.fast);
		results.push({ scenario, node: figures, run, peers: await peerRuns.get(scenario.key)!.figures });
		printScenario(results.at(-1)!, options.fast);
	}
	const memoryRuns = options.fast ? 1 : MEMORY_RUNS;
	const memory = options.only.includes('memory') ? await measureMemory(memoryRuns) : undefined;
	if (memory) printMemory(memory, memoryRuns);
	if (!options.fast) printTargets(results, memory);
	printMapping(measureStatementMapping());
	const { line, problems } = summaryOf(results, memory, options.fast);
	console.log(`\n${line}`);
	if (problems.length > 0) {
		console.error(`bench: FAILED: ${problems.join('; ')}`);
		process.exitCode = 1;
	}
}

async function runNodeScenario(scenario: Scenario, fast: boolean): Promise<{ figures: PipelineFigures; run: FlowRun }> {
	const runs: Array<{ figures: PipelineFigures; run: FlowRun }> = [];
	for (let i = 0; i < scenario.repeats; i++) runs.push(await runNodeScenarioOnce(scenario, fast));
	const flows = runs.map(({ run }) => run);
	const outputs = flows.map((run) => run.outputs).reduce((sum, counts) => sum.map((count, i) => count + counts[i]) as FlowRun['outputs']);
	return { figures: poolRuns(runs.map(({ figures }) => figures)), run: { startedAt: flows[0].startedAt, endedAt: flows.at(-1)!.endedAt, outputs, failures: flows.flatMap((run) => run.failures) } };
}

async function runNodeScenarioOnce(scenario: Scenario, fast: boolean): Promise<{ figures: PipelineFigures; run: FlowRun }> {
	const sandbox = await startBenchSandbox(fast, scenario.requestsPerMinute);
	try {
		const documents = await benchDocuments(scenario.docs);
		const credential = { apiKey: sandbox.demoKey, baseUrl: sandbox.baseUrl };
		const run =
			scenario.key === 'single'
				? await runOneAtATime(documents, credential)
				: await runExtractionWorkflow(documents, { credential, batch: scenario.batch, lanes: scenario.lanes, pollerTimeoutSeconds: POLLER_TIMEOUT_SECONDS });
		return { figures: pipelineFigures(sandbox.stats(), scenario.docs, run.endedAt - run.startedAt), run };
	} finally {
		await sandbox.stop();
	}
}

/** Starts every peer of a scenario; `ready` resolves once they are all past their start-up. */
function startPeers(scenario: Scenario, fast: boolean): { ready: Promise<unknown>; figures: Promise<Record<PeerName, PipelineFigures>> } {
	const children = PEER_NAMES.map((peer) => {
		const run: PeerRun = { peer, docs: scenario.docs, fast, batch: scenario.batch, lanes: scenario.lanes, requestsPerMinute: scenario.requestsPerMinute };
		const child = started(spawnTs('test/bench/peerChild.ts', [JSON.stringify(run)]));
		return { peer, ready: waitForOutput(child, /^ready$/m, PEER_START_TIMEOUT_MS), output: outputOf(child) };
	});
	return {
		ready: Promise.all(children.map((child) => child.ready)),
		// A peer that fails (e.g. its fetch reset) ends the run at once: its figures would be missing.
		figures: Promise.all(children.map(async ({ peer, output }) => [peer, lastJsonLine<PipelineFigures>(await output)] as const)).then(
			(entries) => Object.fromEntries(entries) as Record<PeerName, PipelineFigures>,
			(error: unknown) => failNow(error),
		),
	};
}

function started(child: ChildProcess): ChildProcess {
	spawned.add(child);
	child.on('exit', () => spawned.delete(child));
	return child;
}

function stopChildren(): void {
	for (const child of spawned) child.kill();
}

/** A run that cannot finish stops at once, non-zero, instead of after the scenarios still running. */
function failNow(error: unknown): never {
	console.error(error);
	console.error('bench: FAILED: see the error above');
	stopChildren();
	process.exit(1);
}

async function measureMemory(count: number): Promise<UploadMemory> {
	const runs: UploadMemory[] = [];
	for (let i = 0; i < count; i++) runs.push(lastJsonLine<UploadMemory>(await outputOf(started(spawnTs('test/bench/memoryChild.ts', [])))));
	return runs.sort((a, b) => rssGrowthMb(a) - rssGrowthMb(b))[Math.floor(runs.length / 2)];
}

function lastJsonLine<T>(stdout: string): T {
	return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T;
}

function printScenario({ scenario, node, run, peers }: ScenarioResult, fast: boolean): void {
	const bound = scenario.requestsPerMinute / 2;
	const columns: Array<[string, PipelineFigures]> = [['this package', node], ...PEER_NAMES.map((peer): [string, PipelineFigures] => [PEER_STYLES[peer].label, peers[peer]])];
	const delay = (figures: PipelineFigures, q: number) => (fast ? '-' : fixed(q === 1 ? Math.max(...figures.emitDelays) : quantile(figures.emitDelays, q), 2));
	const row = (label: string, cell: (figures: PipelineFigures) => string, boundCell: string) => [label, ...columns.map(([, figures]) => cell(figures)), boundCell];
	console.log(`\n${scenario.title}${scenario.repeats > 1 ? ` (this package: ${scenario.repeats} runs, wall time and requests their mean, 429s and delays all of them; the peers: one run)` : ''}:`);
	printTable([
		['', ...columns.map(([label]) => label), 'rate-limit bound'],
		row('wall time (s)', (f) => fixed(f.wallSeconds, 1), scenario.key === 'single' ? '-' : fixed((scenario.docs / bound) * 60, 1)),
		row('documents per minute', (f) => fixed(f.docsPerMinute, 1), scenario.key === 'single' ? '-' : fixed(bound, 1)),
		row('requests', (f) => fixed(f.requests, 0), String(scenario.docs * 2)),
		row('requests per document', (f) => fixed(f.requestsPerDoc, 2), '2.00'),
		row('HTTP 429 received', (f) => String(f.http429), '0'),
		row('emission delay p50 (s)', (f) => delay(f, 0.5), '-'),
		row('emission delay p95 (s)', (f) => delay(f, 0.95), '-'),
		row('emission delay max (s)', (f) => delay(f, 1), '-'),
		row('closest reads of one result (s)', (f) => seconds(f.closestReadsMs), '>= 2.00'),
	]);
	const done = run.outputs[0];
	const docs = scenario.docs * scenario.repeats;
	if (done !== docs || run.failures.length > 0) console.log(`This package: ${done} of ${docs} documents done; failures: ${run.failures.join('; ') || 'none'}`);
}

function printTargets(results: ScenarioResult[], memory: UploadMemory | undefined): void {
	const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
	console.log('\nTargets (issue 13):');
	for (const { scenario, node, peers } of results) {
		const fewest = Math.min(...PEER_NAMES.map((peer) => peers[peer].requestsPerDoc));
		const bestPeerP50 = Math.min(...PEER_NAMES.map((peer) => quantile(peers[peer].emitDelays, 0.5)));
		console.log(
			`  ${scenario.key}: requests per document ${fixed(node.requestsPerDoc, 2)} <= ${TARGETS.requestsPerDoc} ${check(node.requestsPerDoc <= TARGETS.requestsPerDoc)}; ` +
				`HTTP 429 ${node.http429} ${check(node.http429 === 0)}; fewer requests per document than every peer (${fixed(fewest, 2)}) ${check(node.requestsPerDoc < fewest)}, ` +
				`delay p50 ${fixed(quantile(node.emitDelays, 0.5), 2)} s <= every peer's (best ${fixed(bestPeerP50, 2)} s) ${check(quantile(node.emitDelays, 0.5) <= bestPeerP50)}`,
		);
	}
	const single = results.find((result) => result.scenario.key === 'single');
	if (single) {
		const [p50, p95] = [quantile(single.node.emitDelays, 0.5), quantile(single.node.emitDelays, 0.95)];
		console.log(`  single: delay p50 ${fixed(p50, 2)} s <= ${TARGETS.singleEmitP50} ${check(p50 <= TARGETS.singleEmitP50)}; p95 ${fixed(p95, 2)} s <= ${TARGETS.singleEmitP95} ${check(p95 <= TARGETS.singleEmitP95)}`);
	}
	const batch = results.find((result) => result.scenario.key === 'batch');
	if (batch) {
		const share = batch.node.docsPerMinute / (batch.scenario.requestsPerMinute / 2);
		const p50 = quantile(batch.node.emitDelays, 0.5);
		console.log(`  batch: ${fixed(share * 100, 1)} % of the bound >= ${TARGETS.shareOfBound * 100} % ${check(share >= TARGETS.shareOfBound)}; delay p50 ${fixed(p50, 2)} s <= ${TARGETS.batchEmitP50} ${check(p50 <= TARGETS.batchEmitP50)}`);
	}
	if (memory) {
		const ratio = rssGrowthMb(memory) / uploadMb(memory);
		console.log(`  memory: RSS growth ${fixed(ratio, 2)} x the bytes uploaded <= ${TARGETS.rssPerUploadedByte} ${check(ratio <= TARGETS.rssPerUploadedByte)}`);
	}
}

function printMemory(memory: UploadMemory, runs: number): void {
	console.log(
		`\nMemory, ${memory.uploads} action-node executions each uploading ${fixed(memory.fileBytes / 1e6, 2)} MB at once ` +
			`(${memory.accepted} accepted in ${fixed(memory.seconds, 1)} s; ${runs === 1 ? 'one run, in a fresh process' : `median of ${runs} runs, each in a fresh process`}, input items built beforehand):`,
	);
	printTable([
		['', 'before', 'peak', 'growth'],
		['process RSS (MB)', fixed(memory.baselineRssMb, 0), fixed(memory.peakRssMb, 0), fixed(rssGrowthMb(memory), 0)],
		['JS heap used (MB)', fixed(memory.baselineHeapMb, 0), fixed(memory.peakHeapMb, 0), fixed(memory.peakHeapMb - memory.baselineHeapMb, 0)],
		['uploaded (MB)', '', '', fixed(uploadMb(memory), 0)],
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

main().catch(failNow);
