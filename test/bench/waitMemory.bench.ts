/**
 * Memory while waiting (issue 23): one run of the action node extracts 100 files of 4.3 MB that
 * n8n stored on disk (binary data mode `filesystem`, n8n 2.x's default), against the sandbox in
 * a child process (paid plan, realistic timing). The process's RSS is sampled every 20 ms; once
 * the last upload is accepted the node only waits for results, and nothing should hold the files
 * any more. Prints the RSS before, at its peak while uploading, and while waiting.
 * `npm run bench:memory` (it runs node with --expose-gc and collects once when the wait begins).
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
import { DEMO_KEY } from '../sandbox';
import { spawnTs, waitForOutput } from './childProcess';

const FILES = 100;
const FILE_BYTES = 4_300_000;
const MB = 1024 * 1024;

async function main(): Promise<void> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-docx-bench-memory-'));
	const sandbox = spawnTs('test/sandbox/cli.ts', ['--port', '0', '--plan', 'paid', '--pages', '100000', '--max-concurrent-uploads', String(FILES)]);
	try {
		const [, baseUrl] = await waitForOutput(sandbox, /listening on (http:\/\/\S+)/);
		Container.get(BinaryDataConfig).localStoragePath = folder;
		Container.get(BinaryDataConfig).mode = 'filesystem';
		const binaryData = Container.get(BinaryDataService);
		await binaryData.init();
		const bytes = Buffer.from(await paddedPdf(FILE_BYTES));
		const input: INodeExecutionData[] = [];
		for (let i = 0; i < FILES; i++) {
			const stored = await binaryData.store({ type: 'execution', workflowId: 'wf', executionId: '1' }, bytes, { data: '', mimeType: 'application/pdf', fileName: `file-${i + 1}.pdf` });
			input.push({ json: {}, binary: { data: stored } });
		}

		const uploaded = async () => ((await (await fetch(`${baseUrl}/__sandbox/stats`)).json()) as { uploads: unknown[] }).uploads.length;
		const baseline = process.memoryUsage().rss;
		let phase: 'uploading' | 'waiting' = 'uploading';
		const peaks = { uploading: baseline, waiting: 0 };
		const waiting: number[] = [];
		const sampler = setInterval(() => {
			const rss = process.memoryUsage().rss;
			peaks[phase] = Math.max(peaks[phase], rss);
			if (phase === 'waiting') waiting.push(rss);
		}, 20);
		const watcher = setInterval(() => {
			void uploaded().then((count) => {
				if (count < FILES || phase === 'waiting') return;
				phase = 'waiting';
				// With --expose-gc: collect once, so what is left is what the node still holds, not
				// what the garbage collector has not got round to yet.
				(globalThis as { gc?: () => void }).gc?.();
			});
		}, 250);
		const started = Date.now();
		const run = await runNode({ nodeType: 'action', parameters: { resource: 'document', operation: 'extract', output: 'raw' }, credential: { apiKey: DEMO_KEY, baseUrl }, input });
		clearInterval(sampler);
		clearInterval(watcher);
		const out = run.outputs[0]?.length ?? 0;
		waiting.sort((a, b) => a - b);
		const median = waiting[Math.floor(waiting.length / 2)] ?? 0;
		const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
		console.log(`${FILES} stored files of ${(FILE_BYTES / 1e6).toFixed(1)} MB, ${out} results out${run.error ? `, error: ${run.error.message}` : ''}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
		console.log(`RSS: before ${mb(baseline)}; peak while uploading ${mb(peaks.uploading)}; while waiting median ${mb(median)}, peak ${mb(peaks.waiting)} (${waiting.length} samples)`);
		console.log(`memory while waiting: +${mb(median - baseline)} over the start for ${FILES} files (${mb(FILES * FILE_BYTES)} of files)`);
	} finally {
		sandbox.kill();
		rmSync(folder, { recursive: true, force: true });
	}
}

void main();
