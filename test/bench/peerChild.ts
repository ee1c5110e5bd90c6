/**
 * One peer baseline (see peers.ts) in a process of its own, with its own sandbox and account:
 * it runs at the same time as the Poller's scenarios without sharing their CPU or their key.
 * Input: JSON PeerRun as the first argument. Output: "ready" once started, then PipelineFigures as
 * JSON on the last line.
 */
import { startBenchSandbox } from './benchSandbox';
import { benchDocuments } from './documents';
import { pipelineFigures } from './metrics';
import { runPeer, type PeerName } from './peers';

export interface PeerRun {
	peer: PeerName;
	docs: number;
	fast: boolean;
	batch: number;
	lanes: number;
	requestsPerMinute: number;
}

async function main(): Promise<void> {
	const run = JSON.parse(process.argv[2] ?? '{}') as PeerRun;
	const sandbox = await startBenchSandbox(run.fast, run.requestsPerMinute);
	try {
		const documents = await benchDocuments(run.docs);
		// The parent starts its own measurements once every peer is past its start-up work.
		process.stdout.write('ready\n');
		const wallMs = await runPeer(run.peer, documents, { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey, batch: run.batch, lanes: run.lanes });
		process.stdout.write(`${JSON.stringify(pipelineFigures(sandbox.stats(), run.docs, wallMs))}\n`);
	} finally {
		await sandbox.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
