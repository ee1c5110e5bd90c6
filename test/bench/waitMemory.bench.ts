/**
 * Memory of one run over many files (issue 23): one run of the action node extracts N files of
 * 4.3 MB that n8n stored on disk (binary data mode `filesystem`, n8n 2.x's default), against the
 * sandbox in a child process (paid plan, realistic timing). The process's RSS is sampled every
 * 20 ms through three phases: the files read and checked (every check before the first upload),
 * the uploads, and the wait for results, when nothing should hold the files any more. The peak must
 * not grow with N: each file is read, judged and let go, and read again for its upload.
 *
 * `npm run bench:memory` runs 100 and 1,000 files, each in a fresh process (node with --expose-gc,
 * which collects once when the wait begins), and prints a table; `-- --files 100,250` picks the
 * counts. 1,000 files store 4.1 GB in a temporary folder and take about 17 minutes, 100 about one:
 * the key's requests per minute pace the uploads and reads.
 */
import './n8nUserFolder';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';

import { paddedPdf } from '../fixtures/documents/special-files';
import { runNode } from '../harness/engine';
import { DEMO_KEY } from '../../sandbox/src';
import { spawnTs, waitForOutput } from './childProcess';
import { mb, runMemoryBench } from './memoryRuns';

const DEFAULT_COUNTS = [100, 1000];
const FILE_BYTES = 4_300_000;
/** Long enough for 1,000 documents read at the key's pace: the wait must not time out. */
const WAIT_TIMEOUT_SECONDS = 3 * 3600;
const RESULT_LINE = 'MEMORY-RESULT ';

interface Measure {
	files: number;
	results: number;
	error?: string;
	seconds: number;
	before: number;
	/** Highest RSS while the files were read and checked (before the first upload was accepted). */
	peakChecking: number;
	/** Highest RSS from the first upload to the last. */
	peakUploading: number;
	waitingMedian: number;
	waitingPeak: number;
	waitingSamples: number;
}

async function measure(files: number): Promise<Measure> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-docx-bench-memory-'));
	const sandbox = spawnTs('sandbox/src/cli.ts', ['--port', '0', '--no-state', '--plan', 'paid', '--pages', String(10 * files), '--max-concurrent-uploads', String(files)]);
	try {
		const [, baseUrl] = await waitForOutput(sandbox, /listening on (http:\/\/\S+)/);
		Container.get(BinaryDataConfig).localStoragePath = folder;
		Container.get(BinaryDataConfig).mode = 'filesystem';
		const binaryData = Container.get(BinaryDataService);
		await binaryData.init();
		const bytes = Buffer.from(await paddedPdf(FILE_BYTES));
		const input: INodeExecutionData[] = [];
		for (let i = 0; i < files; i++) {
			const stored = await binaryData.store({ type: 'execution', workflowId: 'wf', executionId: '1' }, bytes, { data: '', mimeType: 'application/pdf', fileName: `file-${i + 1}.pdf` });
			input.push({ json: {}, binary: { data: stored } });
		}
		(globalThis as { gc?: () => void }).gc?.();

		const uploaded = async () => ((await (await fetch(`${baseUrl}/__sandbox/stats`)).json()) as { uploads: unknown[] }).uploads.length;
		const before = process.memoryUsage().rss;
		let phase: 'checking' | 'uploading' | 'waiting' = 'checking';
		const peaks = { checking: before, uploading: 0, waiting: 0 };
		const waiting: number[] = [];
		const sampler = setInterval(() => {
			const rss = process.memoryUsage().rss;
			peaks[phase] = Math.max(peaks[phase], rss);
			if (phase === 'waiting') waiting.push(rss);
		}, 20);
		const watcher = setInterval(() => {
			void uploaded().then((count) => {
				if (phase === 'checking' && count > 0) phase = 'uploading';
				if (count < files || phase === 'waiting') return;
				phase = 'waiting';
				// With --expose-gc: collect once, so what is left is what the node still holds, not
				// what the garbage collector has not got round to yet.
				(globalThis as { gc?: () => void }).gc?.();
			});
		}, 250);
		const started = Date.now();
		const run = await runNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', output: 'raw', options: { waitTimeout: WAIT_TIMEOUT_SECONDS } },
			credential: { apiKey: DEMO_KEY, baseUrl },
			input,
		});
		clearInterval(sampler);
		clearInterval(watcher);
		waiting.sort((a, b) => a - b);
		return {
			files,
			results: run.outputs[0]?.length ?? 0,
			...(run.error ? { error: run.error.message } : {}),
			seconds: (Date.now() - started) / 1000,
			before,
			peakChecking: peaks.checking,
			peakUploading: peaks.uploading,
			waitingMedian: waiting[Math.floor(waiting.length / 2)] ?? 0,
			waitingPeak: peaks.waiting,
			waitingSamples: waiting.length,
		};
	} finally {
		sandbox.kill();
		rmSync(folder, { recursive: true, force: true });
	}
}

function table(measures: Measure[]): void {
	console.log(`Stored files of ${(FILE_BYTES / 1e6).toFixed(1)} MB (binary data mode filesystem), one run each, RSS sampled every 20 ms:`);
	console.log('');
	console.log('| files | stored | time | RSS before | peak, reading and checking | peak, uploading | waiting (median) | waiting (peak) |');
	console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
	for (const m of measures) {
		console.log(
			`| ${m.files} | ${mb(m.files * FILE_BYTES)} | ${m.seconds.toFixed(0)} s | ${mb(m.before)} | ${mb(m.peakChecking)} | ${mb(m.peakUploading)} | ${mb(m.waitingMedian)} | ${mb(m.waitingPeak)} |`,
		);
	}
	console.log('');
	for (const m of measures) {
		if (m.results !== m.files || m.error) console.log(`${m.files} files: ${m.results} results out${m.error ? `, error: ${m.error}` : ''}`);
	}
}

runMemoryBench({
	unit: 'files',
	script: __filename,
	resultLine: RESULT_LINE,
	defaultCounts: DEFAULT_COUNTS,
	measure,
	table,
	peak: (m) => Math.max(m.peakChecking, m.peakUploading, m.waitingPeak),
});
