/**
 * `npm run bench:policy`: the read policy alone (nodes/shared/waiting/scheduler.ts with its
 * estimator and the rate budget), in simulated time, over the scenarios of `npm run bench`: one
 * document at a time, 60 documents in batches of 10 on the free and the paid plan, and two loops
 * at once on one key. Documents finish when the sandbox's realistic timing says (its own model,
 * jitter included) and the server counts fixed one-minute windows as the sandbox does. It runs in
 * seconds, so a change to the policy can be tried over many seeds before the real benchmark
 * (n8n's engine, real HTTP, about 25 minutes) confirms it. A row under the first reads one document
 * at a time as no real reader can (see Reader): the least mean delay the 2 s rule allows. The last
 * rows run one document at a time against services whose timing is not the sandbox's (twice as
 * fast, twice as slow, +-40 % instead of +-15 %), each with its reference: the policy is not tuned
 * to the sandbox. Figures only: nothing is asserted.
 *
 *   npm run bench:policy -- [--seeds N]
 */
import { parseArgs } from 'node:util';

import { CompletionEstimator } from '../../nodes/shared/waiting/completionEstimate';
import { RateBudget } from '../../nodes/shared/http/rateBudget';
import { MIN_RESULT_READ_INTERVAL_MS } from '../../nodes/shared/limits';
import { pollResults, type PollTarget } from '../../nodes/shared/waiting/scheduler';
import type { Result } from '../../nodes/shared/schemas';
import { FakeClock, FakeRateServer, sendThroughBudget } from '../harness/fakeTime';
import { seededRandom } from '../../sandbox/src/random';
import { completionWindow, REALISTIC_TIMING, scheduleResult, type TimingConfig } from '../../sandbox/src/timing';
import { benchDocuments } from './documents';
import { quantile } from './metrics';

interface Scenario {
	key: string;
	title: string;
	docs: number;
	batch: number;
	lanes: number;
	requestsPerMinute: number;
	/** n8n processes on the key (queue-mode workers), each with its own budget and estimator; the lanes are shared out among them. */
	workers?: number;
	/** The service's timing, when not the sandbox's realistic one. */
	timing?: TimingConfig;
}

const SCENARIOS: Scenario[] = [
	{ key: 'single', title: 'one document at a time, 20 runs, free plan', docs: 20, batch: 1, lanes: 1, requestsPerMinute: 60 },
	{ key: 'batch', title: '60 documents, batches of 10, free plan', docs: 60, batch: 10, lanes: 1, requestsPerMinute: 60 },
	{ key: 'paid', title: '60 documents, batches of 10, paid plan', docs: 60, batch: 10, lanes: 1, requestsPerMinute: 120 },
	{ key: 'shared', title: '60 documents, two loops at once on one free-plan key', docs: 60, batch: 10, lanes: 2, requestsPerMinute: 60 },
	// What `npm run test:scale` runs: 2 workers, 4 executions at once, batches of 8, the key the bottleneck.
	{ key: 'queue', title: '160 documents, 2 workers x 2 loops on one free-plan key', docs: 160, batch: 8, lanes: 4, requestsPerMinute: 60, workers: 2 },
];

const { queuedMs, baseMs, perPageMs } = REALISTIC_TIMING;
/** One document at a time, on services that are not the sandbox. */
const OTHER_SERVICES: Scenario[] = [
	{ title: 'a service twice as fast', timing: { ...REALISTIC_TIMING, queuedMs: queuedMs / 2, baseMs: baseMs / 2, perPageMs: perPageMs / 2 } },
	{ title: 'a service twice as slow', timing: { ...REALISTIC_TIMING, queuedMs: queuedMs * 2, baseMs: baseMs * 2, perPageMs: perPageMs * 2 } },
	{ title: 'a service with +-40 % spread', timing: { ...REALISTIC_TIMING, jitter: 0.4 } },
].map((other) => ({ ...SCENARIOS[0], key: 'single', ...other, title: `one document at a time, ${other.title}` }));

/** Round trip of one request, as on a local network. */
const LATENCY_MS = 100;
/** Between two single-document runs: the user looks at the output and runs the next one. */
const PAUSE_BETWEEN_RUNS_MS = 2_000;

interface Figures {
	requests: number;
	/** Reads that found the document not done yet. */
	pendingReads: number;
	http429: number;
	wallMs: number;
	/** From each document's completion to the read that saw it. */
	delaysMs: number[];
}

/**
 * How documents are read: by the node's policy, or by a reference that no real reader can be:
 * it knows the window in which each document will finish (the sandbox's timing model, only the
 * jitter's draw unknown) and reads at the moment that gives the least mean delay, then every 2 s
 * (spec 4.4). Its delay is the best any reader keeping the 2 s rule can reach; a quicker one
 * reads more often than the service allows.
 */
type Reader = 'policy' | 'best-under-2s-rule';

/** The first read (ms after queuing) with the least mean delay when completion is uniform in the window and reads follow every `gapMs`. */
function bestFirstReadMs(timing: TimingConfig, pages: number, gapMs: number): number {
	const { fromMs, toMs } = completionWindow(timing, pages);
	const steps = 200;
	const at = (i: number) => fromMs + ((toMs - fromMs) * i) / steps;
	let best = { firstMs: toMs, meanDelayMs: Infinity };
	for (let i = 0; i <= steps; i++) {
		let total = 0;
		for (let j = 0; j < steps; j++) {
			const doneMs = at(j + 0.5);
			total += at(i) + Math.max(0, Math.ceil((doneMs - at(i)) / gapMs)) * gapMs - doneMs;
		}
		if (total / steps < best.meanDelayMs) best = { firstMs: at(i), meanDelayMs: total / steps };
	}
	return best.firstMs;
}

async function simulate(scenario: Scenario, pageMix: number[], seed: number, reader: Reader = 'policy'): Promise<Figures> {
	// Each seed starts at another point of the server's minute.
	const timing = scenario.timing ?? REALISTIC_TIMING;
	const clock = new FakeClock(1_700_000_040_000 + Math.floor(seededRandom(seed)() * 60_000));
	const server = new FakeRateServer(clock, scenario.requestsPerMinute);
	// One budget and one estimator per key in each n8n process, as the nodes share them.
	const processes = Array.from({ length: scenario.workers ?? 1 }, () => ({ budget: new RateBudget(clock), estimator: new CompletionEstimator() }));
	const finishAt = new Map<string, number>();
	const delaysMs: number[] = [];
	let requests = 0;
	let uploaded = 0;
	let pendingReads = 0;
	const sender = (budget: RateBudget) => (onArrival: () => void) =>
		sendThroughBudget(clock, budget, server, { latencyMs: LATENCY_MS, onArrival: () => (requests++, onArrival()) });

	const resultReader = (send: ReturnType<typeof sender>) => async (resultId: string): Promise<Result> => {
		let status = 'processing';
		await send(() => (status = clock.now() >= finishAt.get(resultId)! ? 'done' : 'processing'));
		if (status !== 'done') pendingReads += 1;
		return { result_id: resultId, status };
	};

	// The read arrives half a round trip after it is sent; the next is sent 2 s after the answer, as the node does.
	const readAtBestTimes = async (readResult: ReturnType<typeof resultReader>, target: PollTarget) => {
		const gapMs = MIN_RESULT_READ_INTERVAL_MS + LATENCY_MS;
		await clock.wait(target.queuedAt! + bestFirstReadMs(timing, target.pages!, gapMs) - LATENCY_MS / 2 - clock.now());
		while ((await readResult(target.resultId)).status !== 'done') await clock.wait(MIN_RESULT_READ_INTERVAL_MS);
	};

	const loop = async (documents: number, lane: number) => {
		const { budget, estimator } = processes[lane % processes.length];
		const send = sender(budget);
		const readResult = resultReader(send);
		for (let sent = 0; sent < documents; sent += scenario.batch) {
			const targets: PollTarget[] = [];
			for (let i = 0; i < Math.min(scenario.batch, documents - sent); i++) {
				const resultId = `seed${seed}-doc${uploaded}`;
				const pages = pageMix[uploaded++ % pageMix.length];
				let queuedAt = 0;
				await send(() => (queuedAt = clock.now()));
				finishAt.set(resultId, scheduleResult(timing, resultId, queuedAt, pages).finishesAt);
				targets.push({ id: targets.length, resultId, pages, queuedAt });
			}
			const onOutcome = (target: PollTarget) => void delaysMs.push(clock.now() - finishAt.get(target.resultId)!);
			if (reader === 'policy') await pollResults(targets, { timeoutMs: 600_000, onOutcome }, { readResult, budget, now: clock.now, wait: clock.wait, estimator });
			else await Promise.all(targets.map((target) => readAtBestTimes(readResult, target).then(() => onOutcome(target))));
			if (scenario.batch === 1) await clock.wait(PAUSE_BETWEEN_RUNS_MS);
		}
	};

	const start = clock.now();
	const perLane = Math.ceil(scenario.docs / scenario.lanes);
	await clock.run(Promise.all(Array.from({ length: scenario.lanes }, (_, lane) => loop(perLane, lane))));
	return { requests, pendingReads, http429: server.http429, wallMs: clock.now() - start, delaysMs };
}

async function main(): Promise<void> {
	const { values } = parseArgs({ args: process.argv.slice(2), strict: true, options: { seeds: { type: 'string' } } });
	const seeds = values.seeds === undefined ? 200 : Number(values.seeds);
	if (!Number.isInteger(seeds) || seeds < 1) throw new Error(`--seeds needs a positive integer, got ${values.seeds}`);
	const pageMix = (await benchDocuments(6)).map((document) => document.pages);

	console.log(`Read policy in simulated time: sandbox timing, pages ${pageMix.join(',')}, ${seeds} seeds per scenario\n`);
	const rows: string[][] = [['scenario', 'requests/doc', 'pending reads/doc', 'HTTP 429', 'docs/min (bound)', 'delay p50 (s)', 'delay p95 (s)']];
	const withReference = (scenario: Scenario) => [
		[scenario, 'policy'] as const,
		[{ ...scenario, title: '  the same, read by a reference that knows the timing model' }, 'best-under-2s-rule'] as const,
	];
	const runsToMake = [...withReference(SCENARIOS[0]), ...SCENARIOS.slice(1).map((scenario) => [scenario, 'policy'] as const), ...OTHER_SERVICES.flatMap(withReference)];
	for (const [scenario, reader] of runsToMake) {
		const runs = await Promise.all(Array.from({ length: seeds }, (_, seed) => simulate(scenario, pageMix, seed + 1, reader)));
		const delays = runs.flatMap((run) => run.delaysMs.map((ms) => ms / 1000));
		const docsPerMinute = runs.reduce((sum, run) => sum + (scenario.docs / run.wallMs) * 60_000, 0) / seeds;
		const bound = scenario.requestsPerMinute / 2;
		rows.push([
			scenario.title,
			(runs.reduce((sum, run) => sum + run.requests, 0) / (seeds * scenario.docs)).toFixed(2),
			(runs.reduce((sum, run) => sum + run.pendingReads, 0) / (seeds * scenario.docs)).toFixed(3),
			String(runs.reduce((sum, run) => sum + run.http429, 0)),
			scenario.key === 'single' ? '-' : `${docsPerMinute.toFixed(1)} (${bound})`,
			quantile(delays, 0.5).toFixed(2),
			quantile(delays, 0.95).toFixed(2),
		]);
	}
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
	console.log('\nThe reference knows when each document can finish and reads when the mean delay is least, then every 2 s: no reader that keeps 2 s between reads (spec 4.4) has a lower mean delay.');
	console.log('A window opened mid-minute lets the first minute hold more than its share, so docs/min can exceed the bound in short runs.');
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
