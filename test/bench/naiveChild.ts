/**
 * The naive baseline in a process of its own, with its own sandbox: it runs at the same time as
 * the node's workflow without sharing its CPU-bound PDF reading (see UploadTurns in workflow.ts).
 * Input: JSON {docs, fast, batch, lanes} as the first argument. Output: PipelineFigures as JSON.
 */
import { startBenchSandbox } from './benchSandbox';
import { benchDocuments } from './documents';
import { pipelineFigures } from './metrics';
import { runNaive } from './naive';

async function main(): Promise<void> {
	const config = JSON.parse(process.argv[2] ?? '{}') as { docs: number; fast: boolean; batch: number; lanes: number };
	const sandbox = await startBenchSandbox(config.fast);
	try {
		const documents = await benchDocuments(config.docs);
		const run = await runNaive(documents, { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey, batch: config.batch, lanes: config.lanes });
		const stats = sandbox.stats();
		const figures = pipelineFigures(stats, config.docs, run.endedAt - run.startedAt);
		// The client saw a state when its 200 answer arrived; a read answered 429 saw nothing.
		figures.emitDelays = [...run.seenTerminalAt].map(([resultId, at]) => (at - (stats.results[resultId].terminalAt ?? at)) / 1000);
		process.stdout.write(`${JSON.stringify(figures)}\n`);
	} finally {
		await sandbox.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
