/**
 * Memory of one run over many links (Document Source "URL"): N items, each a link to its own 1 MB
 * PDF on a server on this machine, extracted in one run against the sandbox in a child process
 * (paid plan, fast timing, Wait for Result off: the uploads are what is measured). n8n's binary
 * data mode is `filesystem` (n8n 2.x's default). The process's RSS is sampled every 20 ms while
 * the links are downloaded and checked (every check before the first upload) and while they are
 * uploaded. The peak must not grow with N: each download is stored in n8n's binary data and let go
 * once checked, and read again for its upload.
 *
 * Run by `npm run bench:memory` after the stored-files bench, or alone:
 * `node --expose-gc --import tsx test/bench/urlMemory.bench.ts -- --links 100,1000`. 1,000 links
 * take about 9 minutes (the key's 120 requests per minute pace the uploads), 100 about one.
 */
import './n8nUserFolder';

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';

import { paddedPdf } from '../fixtures/documents/special-files';
import { runNode } from '../harness/engine';
import { DEMO_KEY } from '../../sandbox/src';
import { spawnTs, waitForOutput } from './childProcess';
import { mb, runMemoryBench } from './memoryRuns';

const DEFAULT_COUNTS = [100, 1000];
const FILE_BYTES = 1_000_000;
const RESULT_LINE = 'URL-MEMORY-RESULT ';

interface Measure {
	links: number;
	receipts: number;
	errors: number;
	error?: string;
	seconds: number;
	before: number;
	/** Highest RSS while the links were downloaded and checked (before the first upload was accepted). */
	peakChecking: number;
	/** Highest RSS from the first upload to the end of the run. */
	peakUploading: number;
}

/** The same PDF for every link, with the link's number written into its padding: no two files alike. */
async function fileServer(): Promise<{ url: (i: number) => string; close: () => Promise<void> }> {
	const pdf = Buffer.from(await paddedPdf(FILE_BYTES));
	const middle = Math.floor(pdf.length / 2);
	const server = createServer((request, response) => {
		const i = Number(/^\/file-(\d+)\.pdf$/.exec(request.url ?? '')?.[1]);
		if (!Number.isSafeInteger(i)) return void response.writeHead(404).end();
		const body = Buffer.from(pdf);
		body.writeUInt32BE(i, middle);
		response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(body.length) }).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: (i) => `http://127.0.0.1:${port}/file-${i}.pdf`, close: async () => await new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function measure(links: number): Promise<Measure> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-docx-bench-url-memory-'));
	const sandbox = spawnTs('sandbox/src/cli.ts', ['--port', '0', '--no-state', '--plan', 'paid', '--pages', String(10 * links), '--timing', 'fast', '--max-concurrent-uploads', String(links)]);
	const files = await fileServer();
	try {
		const [, baseUrl] = await waitForOutput(sandbox, /listening on (http:\/\/\S+)/);
		Container.get(BinaryDataConfig).localStoragePath = folder;
		Container.get(BinaryDataConfig).mode = 'filesystem';
		await Container.get(BinaryDataService).init();
		const input = Array.from({ length: links }, (_, i) => ({ json: { link: files.url(i + 1) } }));
		(globalThis as { gc?: () => void }).gc?.();

		const uploaded = async () => ((await (await fetch(`${baseUrl}/__sandbox/stats`)).json()) as { uploads: unknown[] }).uploads.length;
		const before = process.memoryUsage().rss;
		let phase: 'checking' | 'uploading' = 'checking';
		const peaks = { checking: before, uploading: 0 };
		const sampler = setInterval(() => (peaks[phase] = Math.max(peaks[phase], process.memoryUsage().rss)), 20);
		const watcher = setInterval(() => void uploaded().then((count) => count > 0 && (phase = 'uploading')), 250);
		const started = Date.now();
		const run = await runNode({
			nodeType: 'action',
			parameters: {
				resource: 'document',
				operation: 'extract',
				documentSource: 'url',
				fileUrl: '={{ $json.link }}',
				waitForResult: false,
				options: { allowPrivateNetworkAddresses: true },
			},
			credential: { apiKey: DEMO_KEY, baseUrl },
			input,
			onError: 'continueRegularOutput',
		});
		clearInterval(sampler);
		clearInterval(watcher);
		const items = run.outputs[0] ?? [];
		const errors = items.filter((item) => item.json.error !== undefined);
		return {
			links,
			receipts: items.length - errors.length,
			errors: errors.length,
			...(run.error ? { error: run.error.message } : errors[0] ? { error: String(errors[0].json.error) } : {}),
			seconds: (Date.now() - started) / 1000,
			before,
			peakChecking: peaks.checking,
			peakUploading: peaks.uploading,
		};
	} finally {
		sandbox.kill();
		await files.close();
		rmSync(folder, { recursive: true, force: true });
	}
}

function table(measures: Measure[]): void {
	console.log(`Links to files of ${(FILE_BYTES / 1e6).toFixed(1)} MB on this machine (binary data mode filesystem), one run each, RSS sampled every 20 ms:`);
	console.log('');
	console.log('| links | files in all | time | RSS before | peak, downloading and checking | peak, uploading |');
	console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
	for (const m of measures) {
		console.log(`| ${m.links} | ${mb(m.links * FILE_BYTES)} | ${m.seconds.toFixed(0)} s | ${mb(m.before)} | ${mb(m.peakChecking)} | ${mb(m.peakUploading)} |`);
	}
	console.log('');
	for (const m of measures) {
		if (m.receipts !== m.links || m.error) console.log(`${m.links} links: ${m.receipts} receipts, ${m.errors} errors${m.error ? `, first: ${m.error}` : ''}`);
	}
}

runMemoryBench({
	unit: 'links',
	script: __filename,
	resultLine: RESULT_LINE,
	defaultCounts: DEFAULT_COUNTS,
	measure,
	table,
	peak: (m) => Math.max(m.peakChecking, m.peakUploading),
});
