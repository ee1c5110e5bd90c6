/**
 * `npm run test:scale`: the package on n8n's queue mode, several workers on one API key.
 *
 *   tsx scripts/test-scale.ts [--docs N] [--batch K] [--lanes L] [--workers W]
 *                             [--binary-data database|filesystem|filesystem-shared|default] [--timing realistic|fast|<factor>] [--no-crash]
 *
 * Starts, as local processes on loopback ports with temporary folders, Redis, PostgreSQL and n8n
 * 2.x in queue mode (one main process, W workers, the packed package installed for each), the
 * sandbox of the service on the free plan (60 requests/min) and a collector for the workflows'
 * output. Then `L` callers post batches of K documents at once to two active workflows (Wait for
 * Result; upload without waiting + the Poller), all on one API key, until N documents were sent;
 * then one more batch whose worker is killed (SIGKILL) while its Poller waits: n8n's Retry of the
 * ended execution must upload nothing again, and the documents are finished from the result IDs
 * the workflow stored before the Poller. Checks from the sandbox's own records that every
 * document came out exactly once on the right output, that no upload was sent twice, that 429s
 * stay at or below 1 % of requests and throughput at or above 85 % of the rate-limit bound.
 * Prints a table, the checks, each phase's time and, last, the summary line; exits non-zero when
 * a check fails. Everything it started is stopped and removed, also on failure and Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

import { startSandbox } from '../sandbox/src';
import { documentOutcomes, keyWindows, pendingReads, scaleChecks, scaleFigures, type Check, type SentDocument } from '../test/scale/checks';
import { startCollector } from '../test/scale/collector';
import { CRASH_DETECTION_ENV, crashAndRecover, type CrashReport } from '../test/scale/crash';
import { scaleBatch } from '../test/scale/documents';
import { sendDuplicates } from '../test/scale/duplicates';
import { sendMetAgain } from '../test/scale/metAgain';
import { sendSameInvoice } from '../test/scale/sameInvoice';
import { runBatches, type Batch, type BatchRun } from '../test/scale/driver';
import { checksList, figuresTable, keyWindowsLine, pendingReadsLine, summaryLine, workerActivity, workersTable } from '../test/scale/report';
import { FINISH_STORED, SCALE_CREDENTIAL, SCALE_MODES, WEBHOOK_PATHS, WORKFLOW_IDS, finishStoredWorkflow, scaleWorkflow } from '../test/scale/workflows';
import { cleanUp, cleanUpOnSignals, onCleanup } from './n8n/cleanup';
import { buildAndPack } from './n8n/packageTarball';
import { BINARY_DATA_SETUPS, startQueueMode, type BinaryDataSetup } from './n8n/queueMode';
import { N8N_RELEASES } from './n8n/releases';
import { N8nRestApi, waitForProductionWebhook } from './n8n/restApi';
import { sandboxCredential } from './n8n/workflows';

/** Copies of one invoice sent as separate executions (the duplicates phase). */
const DUPLICATE_COPIES = 6;

/** Different invoices sent at once, then again (the met-again phase). */
const MET_AGAIN_INVOICES = 20;

/** Different invoices sent at once, then each as another file (the same-invoice phase). */
const SAME_INVOICES = 10;

/** The free plan's limit (spec 8): the one the suite is held to. */
const RATE_LIMIT_PER_MINUTE = 60;

const HELP =
	'npm run test:scale -- [--docs N] [--batch K] [--lanes L] [--workers W] [--binary-data ' +
	`${BINARY_DATA_SETUPS.join('|')}] [--timing realistic|fast|<factor>] [--no-crash]`;

interface ScaleOptions {
	docs: number;
	batch: number;
	lanes: number;
	workers: number;
	binaryData: BinaryDataSetup;
	timing: 'realistic' | 'fast' | number;
	crash: boolean;
}

const suiteStarted = Date.now();
const log = (message: string) => console.log(`[${((Date.now() - suiteStarted) / 1000).toFixed(0).padStart(3)} s] ${message}`);
const phases: Array<[string, number]> = [];

async function phase<T>(name: string, step: () => Promise<T>): Promise<T> {
	const started = Date.now();
	log(`== ${name}`);
	try {
		return await step();
	} finally {
		phases.push([name, Date.now() - started]);
	}
}

/** Runs the suite; returns what prints its report (after the cleanup, so that the summary line comes last). */
async function main(): Promise<() => void> {
	cleanUpOnSignals();
	const options = parseOptions(process.argv.slice(2));
	const release = N8N_RELEASES['2'];
	console.log(
		`Queue mode: n8n ${release.version}, 1 main + ${options.workers} workers, binary data "${options.binaryData}"; ${options.docs} documents in batches of ` +
			`${options.batch}, ${options.lanes} executions at once, one API key on the free plan (${RATE_LIMIT_PER_MINUTE} requests/min), ${options.timing} timing\n`,
	);
	const runId = randomBytes(3).toString('hex');

	const { tarball, sandbox, collector, batches, crashBatch } = await phase('prepare: build and pack, sandbox, collector, documents', async () => {
		const tarball = await buildAndPack(log);
		const sandbox = await startSandbox({ timing: options.timing, demoAccount: { plan: 'free', monthlyPages: 1_000_000, rateLimitPerMinute: RATE_LIMIT_PER_MINUTE } });
		onCleanup(() => sandbox.stop());
		const collector = await startCollector();
		onCleanup(() => collector.stop());
		const batches: Batch[] = [];
		for (let index = 0; index * options.batch < options.docs; index++) {
			const size = Math.min(options.batch, options.docs - index * options.batch);
			batches.push({ index, mode: SCALE_MODES[index % SCALE_MODES.length], documents: await scaleBatch(runId, index, size) });
		}
		const crashBatch: Batch = { index: batches.length, mode: 'poller', documents: await scaleBatch(`${runId}-crash`, batches.length, options.batch) };
		return { tarball, sandbox, collector, batches, crashBatch };
	});

	const n8n = await phase(`start: Redis, PostgreSQL, n8n main + ${options.workers} workers`, async () => {
		const n8n = await startQueueMode({
			release,
			tarball,
			workers: options.workers,
			binaryData: options.binaryData,
			env: CRASH_DETECTION_ENV,
			log,
			beforeStart: async (cli) => {
				await cli.importCredentials([sandboxCredential(sandbox.baseUrl, sandbox.demoKey, SCALE_CREDENTIAL)]);
				await cli.importWorkflows([...SCALE_MODES.map((mode) => scaleWorkflow(mode, collector)), finishStoredWorkflow(collector)]);
			},
		});
		const api = await N8nRestApi.asNewOwner(n8n.main);
		const workflows = [...SCALE_MODES.map((mode) => ({ id: WORKFLOW_IDS[mode], path: WEBHOOK_PATHS[mode] })), FINISH_STORED];
		for (const { id } of workflows) await api.activateWorkflow(id);
		for (const { path } of workflows) await waitForProductionWebhook(n8n.main.url, path);
		log('Workflows active: their webhooks run on the workers');
		return { ...n8n, api };
	});

	const runs: BatchRun[] = await phase(`load: ${batches.length} batches, ${options.lanes} executions at once`, async () => {
		const runs = await runBatches(n8n.main.url, batches, options.lanes);
		const failed = runs.filter((run) => run.status !== 200);
		log(`${runs.length - failed.length}/${runs.length} executions finished${failed.length ? `; failed: ${failed.map((run) => `batch ${run.batch.index} (${run.status}: ${run.problem})`).join('; ')}` : ''}`);
		return runs;
	});

	// Before the crash phase, which leaves one worker.
	const duplicates = await phase('duplicates: the same invoice in 6 executions, spread over the workers', () =>
		sendDuplicates({ mainUrl: n8n.main.url, sandbox, collector, workers: n8n.workers, runId, copies: DUPLICATE_COPIES, log }),
	);
	const metAgain = await phase(`met again: ${MET_AGAIN_INVOICES} different invoices at once across the workers, then the same again`, () =>
		sendMetAgain({ mainUrl: n8n.main.url, sandbox, collector, runId, count: MET_AGAIN_INVOICES, log }),
	);
	const sameInvoice = await phase(`same invoice: ${SAME_INVOICES} invoices at once across the workers, then each as another file`, () =>
		sendSameInvoice({ mainUrl: n8n.main.url, sandbox, collector, runId, count: SAME_INVOICES, log }),
	);
	const duplicateExecutions = new Set([...duplicates.copies.map((copy) => copy.execution), ...metAgain.executions, ...sameInvoice.executions]);

	let crash: CrashReport | undefined;
	let crashFailure: Check | undefined;
	if (options.crash) {
		try {
			crash = await phase('crash: SIGKILL a worker mid-batch, Retry, finish from the stored IDs', () =>
				crashAndRecover({ mainUrl: n8n.main.url, api: n8n.api, workers: n8n.workers, sandbox, collector, batch: crashBatch, log }),
			);
		} catch (error) {
			crashFailure = { id: 'crash', name: 'a worker killed mid-batch loses nothing', ok: false, detail: error instanceof Error ? error.message : String(error) };
		}
	}

	const stats = sandbox.stats();
	const sent = (batch: Batch, phaseName: SentDocument['phase']): SentDocument[] => batch.documents.map((document) => ({ ...document, batch: batch.index, mode: batch.mode, phase: phaseName }));
	const loadDocuments = batches.flatMap((batch) => sent(batch, 'load'));
	const documents = [...loadDocuments, ...(options.crash ? sent(crashBatch, 'crash') : [])];
	const { outcomes, strayItems } = documentOutcomes(
		documents,
		collector.items().filter((item) => !duplicateExecutions.has(item.execution)),
		stats,
	);
	const figures = scaleFigures(outcomes, strayItems, stats, loadDocuments, RATE_LIMIT_PER_MINUTE);
	const activity = n8n.workers.map((worker) => workerActivity(worker.name, worker.service.output(), worker.name === crash?.worker));
	const checks: Check[] = [
		...scaleChecks(figures, outcomes),
		{
			id: 'executions-succeeded',
			name: 'every execution of the load run finished without error',
			ok: runs.every((run) => run.status === 200),
			detail: `${runs.filter((run) => run.status === 200).length}/${runs.length} webhook calls answered 200`,
		},
		...workersCheck(activity),
		...duplicates.checks,
		...metAgain.checks,
		...sameInvoice.checks,
		...(crash?.checks ?? []),
		...(crashFailure ? [crashFailure] : []),
	];
	const load = loadavg();
	const collected = collector.items();
	return () => {
		console.log('');
		console.log(workersTable(activity, collected, runs));
		console.log('');
		console.log(figuresTable(figures, crash, loadDocuments.length, options.crash));
		console.log(keyWindowsLine(keyWindows(stats)));
		console.log(pendingReadsLine(pendingReads(stats)));
		console.log('');
		console.log(checksList(checks));
		console.log('');
		for (const [name, ms] of phases) console.log(`${(ms / 1000).toFixed(0).padStart(4)} s  ${name}`);
		console.log(`${((Date.now() - suiteStarted) / 1000).toFixed(0).padStart(4)} s  in all; load average at the end of the run ${load.map((value) => value.toFixed(2)).join(' ')}`);
		console.log('');
		console.log(summaryLine(options.workers, figures));
		if (checks.some((check) => !check.ok)) process.exitCode = 1;
	};
}

/** Queue mode only scales if the queue spreads executions: every worker must have run some of the load. */
function workersCheck(activity: Array<{ name: string; executions: string[] }>): Check[] {
	const idle = activity.filter((worker) => worker.executions.length === 0);
	return [
		{
			id: 'workers-used',
			name: 'every worker ran executions',
			ok: activity.length >= 2 && idle.length === 0,
			detail: activity.map((worker) => `${worker.name}: ${worker.executions.length}`).join(', '),
		},
	];
}

function parseOptions(argv: string[]): ScaleOptions {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		options: {
			docs: { type: 'string' },
			batch: { type: 'string' },
			lanes: { type: 'string' },
			workers: { type: 'string' },
			'binary-data': { type: 'string' },
			timing: { type: 'string' },
			'no-crash': { type: 'boolean' },
		},
	});
	const binaryData = (values['binary-data'] ?? 'database') as BinaryDataSetup;
	if (!BINARY_DATA_SETUPS.includes(binaryData)) throw new Error(`--binary-data: ${binaryData}?\n${HELP}`);
	const timing = values.timing === undefined || values.timing === 'realistic' || values.timing === 'fast' ? (values.timing ?? 'realistic') : Number(values.timing);
	if (typeof timing === 'number' && !(timing > 0)) throw new Error(`--timing: ${values.timing}?\n${HELP}`);
	return {
		docs: positiveInteger(values.docs, 128),
		batch: positiveInteger(values.batch, 8),
		lanes: positiveInteger(values.lanes, 4),
		workers: positiveInteger(values.workers, 2),
		binaryData,
		timing: timing as ScaleOptions['timing'],
		crash: values['no-crash'] !== true,
	};
}

function positiveInteger(value: string | undefined, fallback: number): number {
	if (value === undefined) return fallback;
	const parsed = Number(value);
	if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`Expected a positive integer, got ${value}\n${HELP}`);
	return parsed;
}

void (async () => {
	let printReport: (() => void) | undefined;
	try {
		printReport = await main();
	} catch (error) {
		console.error(`\nThe scale suite failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exitCode = 1;
	} finally {
		await phase('cleanup: stop every process, remove every temporary folder', () => cleanUp());
	}
	printReport?.();
})();
