import { binaryItem, runNode } from '../harness/engine';
import { paddedPdf } from '../fixtures/documents/special-files';
import { DEMO_KEY } from '../../sandbox/src';
import { spawnTs, waitForOutput } from './childProcess';

export interface UploadMemory {
	uploads: number;
	fileBytes: number;
	accepted: number;
	seconds: number;
	baselineRssMb: number;
	peakRssMb: number;
	baselineHeapMb: number;
	peakHeapMb: number;
}

const UPLOADS = 10;
/** Just under the spec's "about 4.4 MB" per request, multipart envelope included. */
const FILE_BYTES = 4_300_000;
const SAMPLE_EVERY_MS = 5;
const MB = 1024 * 1024;

/**
 * Peak memory of this process while 10 executions of the action node each upload a 4.3 MB PDF at
 * once, over what it held before with their input items already built (the file inline as
 * base64, as an email trigger delivers it). The sandbox runs in a child process, so its copies of
 * the files are not counted: what is measured is the node's upload path (the binary buffer, the
 * preflight, the request body, n8n's HTTP client).
 */
export async function measureConcurrentUploads(): Promise<UploadMemory> {
	const sandbox = spawnTs('sandbox/src/cli.ts', ['--port', '0', '--no-state', '--plan', 'paid', '--pages', '100000', '--max-concurrent-uploads', String(UPLOADS)]);
	try {
		const [, baseUrl] = await waitForOutput(sandbox, /listening on (http:\/\/\S+)/);
		const credential = { apiKey: DEMO_KEY, baseUrl };
		const bytes = await paddedPdf(FILE_BYTES);
		// One small run first, so module loading and first-use caches are not counted as the uploads' cost.
		await runNode({ nodeType: 'action', parameters: { resource: 'template', operation: 'getMany', returnAll: true }, credential });

		// The input items exist before the node runs (an email trigger delivered them, the file inline
		// as base64): built before the baseline, so what is measured is the node's own upload path.
		const inputs = Array.from({ length: UPLOADS }, (_, i) => binaryItem(bytes, `large-${i + 1}.pdf`, 'application/pdf'));
		const baseline = process.memoryUsage();
		const peak = { rss: baseline.rss, heapUsed: baseline.heapUsed };
		const sampler = setInterval(() => {
			const now = process.memoryUsage();
			peak.rss = Math.max(peak.rss, now.rss);
			peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
		}, SAMPLE_EVERY_MS);
		const started = Date.now();
		const runs = await Promise.all(
			inputs.map((input) => runNode({ nodeType: 'action', parameters: { resource: 'document', operation: 'extract', waitForResult: false }, credential, input: [input] })),
		);
		const seconds = (Date.now() - started) / 1000;
		clearInterval(sampler);
		return {
			uploads: UPLOADS,
			fileBytes: bytes.length,
			accepted: runs.filter((run) => !run.error && run.outputs[0]?.[0]?.json.result_id).length,
			seconds,
			baselineRssMb: baseline.rss / MB,
			peakRssMb: peak.rss / MB,
			baselineHeapMb: baseline.heapUsed / MB,
			peakHeapMb: peak.heapUsed / MB,
		};
	} finally {
		sandbox.kill();
	}
}
