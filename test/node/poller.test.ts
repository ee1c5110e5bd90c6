/**
 * The Document Extraction Poller through n8n's engine against the local sandbox over real HTTP:
 * its four outputs, pairedItem, "every input item leaves exactly once", unknown states,
 * cancellation, Retry-After and the 2 s rule between reads of one result, the last three checked
 * on the sandbox's own record of when each request arrived.
 *
 * Every test starts its own sandbox (faults and stats are per sandbox) and so gets its own rate
 * budget and completion estimate (both are per key and base URL): the tests are independent and
 * run concurrently. Their keys are idle, so the node reads a document 2 s or more after its upload
 * and then every 2-3 s: with the sandbox's fast timing the first read finds it done.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, it, type ExpectStatic } from 'vitest';

import { MIN_RESULT_READ_INTERVAL_MS } from '../../nodes/shared/limits';
import { binaryItem, runNode, startNode, type RunResult, type TestCredential } from '../harness/engine';
import { loadFixture, type FixtureName } from '../fixtures';
import { startSandbox, type Fault, type FaultKind, type Sandbox, type SandboxOptions } from '../../sandbox/src';

/** The poller's outputs, in order. */
const OUTPUT_NAMES = ['done', 'rejected', 'error', 'stillProcessing'] as const;
type OutputName = (typeof OUTPUT_NAMES)[number];

/** Time enough for the slowest test (a 32 s timeout plus its last reads) on a busy machine. */
const TEST_TIMEOUT_MS = 60_000;

type OnFinished = (cleanup: () => Promise<void>) => void;

/** A sandbox of its own, stopped when the test ends, with a paid account whose limits stay out of the way. */
async function sandboxWith(onTestFinished: OnFinished, options: SandboxOptions = {}): Promise<{ sandbox: Sandbox; credential: TestCredential }> {
	const sandbox = await startSandbox({
		timing: 'fast',
		demoAccount: { plan: 'paid', monthlyPages: 15_000, rateLimitPerMinute: 100_000, maxConcurrentUploads: 50 },
		...options,
	});
	onTestFinished(() => sandbox.stop());
	return { sandbox, credential: { apiKey: sandbox.demoKey, baseUrl: sandbox.baseUrl } };
}

/** What to upload, and the upload fault the sandbox applies to it (an absent fault is a 0 ms latency). */
interface Upload {
	fixture: FixtureName;
	fault?: FaultKind | Fault;
}

/**
 * One upload run at a time in this process. The sandbox reads PDFs with pdfjs 5.4, whose page
 * count lives in a process-wide singleton (PagesMapper): two PDFs read at once can make a
 * multi-page one fail with "Invalid page request" and come back as a damaged document. The
 * sandbox reads a file only while handling its upload, so keeping uploads apart avoids it.
 */
let uploadTurn: Promise<unknown> = Promise.resolve();

/**
 * Uploads through the action node with "Wait for Result" off, as a user's workflow would, and
 * returns its items (the upload receipts). The action node uploads item by item, so queueing one
 * fault entry per upload gives each document its own fate.
 */
async function uploadWithActionNode(sandbox: Sandbox, credential: TestCredential, uploads: Upload[]): Promise<INodeExecutionData[]> {
	const turn = uploadTurn.then(async () => await uploadInTurn(sandbox, credential, uploads));
	uploadTurn = turn.catch(() => undefined);
	return await turn;
}

async function uploadInTurn(sandbox: Sandbox, credential: TestCredential, uploads: Upload[]): Promise<INodeExecutionData[]> {
	for (const upload of uploads) sandbox.faults.enqueue('process', upload.fault ?? { kind: 'latency', ms: 0 });
	const input = await Promise.all(
		// A name per upload: the same file under the same name would be one upload (the upload ledger).
		uploads.map(async ({ fixture }, index) => {
			const file = await loadFixture(fixture);
			return binaryItem(file.bytes, `${index + 1}-${file.fileName}`, file.mimeType);
		}),
	);
	const run = await runNode({ nodeType: 'action', parameters: { resource: 'document', operation: 'extract', waitForResult: false }, credential, input });
	if (run.error) throw new Error(`upload failed: ${run.error.message}`);
	return run.outputs[0];
}

function pollerRun(credential: TestCredential, input: INodeExecutionData[], parameters: INodeParameters = {}, onError?: 'continueRegularOutput') {
	return { nodeType: 'poller' as const, parameters: { options: { timeout: 60 }, ...parameters }, credential, input, onError };
}

/** Where each input item went: output name per input index, and the items in input order. */
function routing(run: RunResult, inputCount: number, expect: ExpectStatic): { output: OutputName[]; json: IDataObject[] } {
	const output: OutputName[] = [];
	const json: IDataObject[] = [];
	expect(run.outputs).toHaveLength(4);
	run.outputs.forEach((items, index) => {
		for (const item of items) {
			const paired = item.pairedItem as { item: number } | undefined;
			expect(paired, 'every item carries pairedItem').toEqual({ item: expect.any(Number) });
			const input = paired!.item;
			expect(input).toBeGreaterThanOrEqual(0);
			expect(input).toBeLessThan(inputCount);
			expect(output[input], `input item ${input} left more than once`).toBeUndefined();
			output[input] = OUTPUT_NAMES[index];
			json[input] = item.json;
		}
	});
	return { output, json };
}

/** Consecutive arrivals of reads of one result, in ms. */
function gaps(reads: number[]): number[] {
	return reads.slice(1).map((at, i) => at - reads[i]);
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > until) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe.concurrent('Document Extraction Poller through the engine, against the sandbox', () => {
	it('sends each document to Done, Rejected, Error or Still Processing, paired with its input item', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const receipts = await uploadWithActionNode(sandbox, credential, [
			{ fixture: 'invoiceEn', fault: 'extractionError' },
			{ fixture: 'invoiceEn', fault: 'neverFinish' },
			{ fixture: 'invoiceEn' },
			{ fixture: 'scanned' },
		]);
		const resultIds = receipts.map((item) => String(item.json.result_id));

		const run = await runNode(pollerRun(credential, receipts, { options: { timeout: 20 } }));

		expect(run.error).toBeUndefined();
		const { output, json } = routing(run, 4, expect);
		expect(output).toEqual(['error', 'stillProcessing', 'done', 'rejected']);
		expect(json[0]).toMatchObject({ result_id: resultIds[0], status: 'error', error_code: 'PROCESSING_FAILED' });
		// Still Processing carries what a loop back through a Wait node needs.
		expect(json[1]).toMatchObject({ result_id: resultIds[1], status: 'processing', pending: true });
		expect(json[2]).toMatchObject({ invoice_number: 'INV-2026-0042', total: 1234.56, extraction: { result_id: resultIds[2], status: 'done' } });
		expect(json[3]).toMatchObject({ result_id: resultIds[3], status: 'rejected', error_code: 'NO_TEXT' });

		// Finished documents were read once: the first read came after they were done.
		const reads = sandbox.stats().results;
		for (const index of [0, 2, 3]) expect(reads[resultIds[index]].reads).toHaveLength(1);
		expect(reads[resultIds[1]].reads.length).toBeGreaterThan(1);
	});

	it('every one of 40 items leaves exactly once under continueOnFail: documents, duplicates, bad and unknown ids', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const kinds: Array<{ upload: Upload; expected: OutputName }> = [
			{ upload: { fixture: 'invoiceEn' }, expected: 'done' },
			{ upload: { fixture: 'bankStatement' }, expected: 'done' },
			{ upload: { fixture: 'receiptPng' }, expected: 'done' },
			{ upload: { fixture: 'scanned' }, expected: 'rejected' },
			{ upload: { fixture: 'invoiceDe', fault: 'extractionError' }, expected: 'error' },
		];
		const planned = Array.from({ length: 30 }, (_, i) => kinds[i % kinds.length]);
		const receipts = await uploadWithActionNode(sandbox, credential, planned.map((entry) => entry.upload));

		const input: INodeExecutionData[] = [...receipts];
		const expected: OutputName[] = planned.map((entry) => entry.expected);
		const expectedResultId: Array<string | undefined> = receipts.map((item) => String(item.json.result_id));
		// The same document twice (a workflow that merged two branches): read once, emitted for both.
		for (const original of [0, 1, 3, 4]) {
			input.push({ json: { ...receipts[original].json, copy: true } });
			expected.push(expected[original]);
			expectedResultId.push(expectedResultId[original]);
		}
		// Ids the node refuses before any request, and well-formed ids the service does not know (404).
		for (const resultId of ['', 'not-a-result-id', '12345', '3f2b8e8e-1c2d-4b5a-9e0f-aaaaaaaaaaaa', '3f2b8e8e-1c2d-4b5a-9e0f-bbbbbbbbbbbb', '3f2b8e8e-1c2d-4b5a-9e0f-cccccccccccc']) {
			input.push({ json: { result_id: resultId } });
			expected.push('error');
			expectedResultId.push(undefined);
		}
		expect(input).toHaveLength(40);

		const run = await runNode(pollerRun(credential, input, {}, 'continueRegularOutput'));

		expect(run.error).toBeUndefined();
		const { output, json } = routing(run, 40, expect);
		expect(output).toEqual(expected);
		expect(run.outputs.flat()).toHaveLength(40);
		json.forEach((item, i) => {
			const resultId = expectedResultId[i];
			if (expected[i] === 'done') expect(item.extraction).toMatchObject({ result_id: resultId, status: 'done' });
			else if (resultId) expect(item).toMatchObject({ result_id: resultId, status: expected[i] });
			else expect(item.error, `input ${i} is an error item`).toEqual(expect.any(String));
		});
		expect(json[34]).toMatchObject({ error: expect.stringMatching(/result ID is empty/) });
		expect(json[35]).toMatchObject({ error: expect.stringMatching(/not a result ID/) });
		expect(json[37]).toMatchObject({ error_code: 'RESULT_NOT_FOUND', http_status: 404, result_id: '3f2b8e8e-1c2d-4b5a-9e0f-aaaaaaaaaaaa' });
		// One shape on the Error output: every item leads with result_id, status, error_code, error_message.
		for (const [i, item] of json.entries()) {
			if (expected[i] !== 'error') continue;
			expect(Object.keys(item).slice(0, 4), `input ${i}`).toEqual(['result_id', 'status', 'error_code', 'error_message']);
		}
		expect(json[35]).toMatchObject({ result_id: null, status: 'unreadable', error_code: null, error_message: expect.stringMatching(/^"not-a-result-id" is not a result ID/) });
		expect(json[37]).toMatchObject({ status: 'unreadable', error_message: 'No result with ID 3f2b8e8e-1c2d-4b5a-9e0f-aaaaaaaaaaaa exists in this account' });

		// Each uploaded result was read exactly once, duplicates included; refused ids were never sent.
		const stats = sandbox.stats();
		for (const item of receipts) expect(stats.results[String(item.json.result_id)].reads).toHaveLength(1);
		expect(stats.requests.getResult).toBe(30 + 3);
	});

	it('a status the spec does not know goes to Error at once, not after the timeout', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const receipts = await uploadWithActionNode(sandbox, credential, [
			{ fixture: 'invoiceEn', fault: { kind: 'unknownStatus', status: 'paused' } },
			{ fixture: 'invoiceEn', fault: { kind: 'unknownStatus', status: 'archived' } },
		]);

		const started = Date.now();
		const run = await runNode(pollerRun(credential, receipts, { options: { timeout: 300 } }));

		expect(Date.now() - started).toBeLessThan(30_000);
		expect(run.error).toBeUndefined();
		const { output, json } = routing(run, 2, expect);
		expect(output).toEqual(['error', 'error']);
		expect(json[0]).toMatchObject({ result_id: receipts[0].json.result_id, status: 'paused' });
		expect(json[1]).toMatchObject({ result_id: receipts[1].json.result_id, status: 'archived' });
		const stats = sandbox.stats();
		for (const item of receipts) expect(stats.results[String(item.json.result_id)].reads).toHaveLength(1);
	});

	it('cancelling the execution ends the run at once, and no read is sent after the cancel', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const receipts = await uploadWithActionNode(sandbox, credential, [
			{ fixture: 'invoiceEn', fault: 'neverFinish' },
			{ fixture: 'invoiceEn', fault: 'neverFinish' },
			{ fixture: 'invoiceEn', fault: 'neverFinish' },
		]);
		const readCount = () => Object.values(sandbox.stats().results).reduce((sum, result) => sum + result.reads.length, 0);

		const running = startNode(pollerRun(credential, receipts, { options: { timeout: 300 } }));
		// Polling is under way: the three first reads have arrived, the next ones are 2 s or more away.
		await waitUntil(() => readCount() >= 3, 30_000);
		const cancelledAt = Date.now();
		running.cancel();
		await running.result;
		expect(Date.now() - cancelledAt).toBeLessThan(1000);

		const readsAtCancel = readCount();
		await new Promise((resolve) => setTimeout(resolve, 3 * MIN_RESULT_READ_INTERVAL_MS));
		expect(readCount()).toBe(readsAtCancel);
		const lastRead = Math.max(...Object.values(sandbox.stats().results).flatMap((result) => result.reads));
		expect(lastRead).toBeLessThanOrEqual(cancelledAt);
	});

	it('after a 429 no request is sent before Retry-After has passed, and the read is then repeated', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const receipts = await uploadWithActionNode(sandbox, credential, [{ fixture: 'invoiceEn' }, { fixture: 'invoiceEn', fault: 'neverFinish' }]);
		const retryAfterMs = 5000;
		sandbox.faults.enqueue('getResult', { kind: 'rateLimited', retryAfterSeconds: retryAfterMs / 1000 });

		const run = await runNode(pollerRun(credential, receipts, { options: { timeout: 22 } }));

		expect(run.error).toBeUndefined();
		expect(routing(run, 2, expect).output).toEqual(['done', 'stillProcessing']);
		const stats = sandbox.stats();
		expect(stats.rateLimited).toBe(1);
		const limitedAt = stats.faults.find((fault) => fault.kind === 'rateLimited')!.at;
		// Both first reads go out together; the other one may already be on its way when the 429 arrives.
		const inFlightAllowanceMs = 500;
		const allReads = receipts.flatMap((item) => stats.results[String(item.json.result_id)].reads);
		const tooEarly = allReads.filter((at) => at > limitedAt + inFlightAllowanceMs && at < limitedAt + retryAfterMs);
		expect(tooEarly).toEqual([]);
		expect(allReads.filter((at) => at >= limitedAt + retryAfterMs).length).toBeGreaterThanOrEqual(2);
		expect(allReads.filter((at) => at > limitedAt && at <= limitedAt + inFlightAllowanceMs).length).toBeLessThanOrEqual(1);
	});

	it('never reads one result more often than every 2 s, retries of failed reads included', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		// Documents that take about 21 s, longer than the node first expects of short ones, so they are read several times.
		const { sandbox, credential } = await sandboxWith(onTestFinished, { timing: { queuedMs: 1000, baseMs: 20_000, perPageMs: 0, jitter: 0.1 } });
		const receipts = await uploadWithActionNode(sandbox, credential, [
			{ fixture: 'invoiceEn' },
			{ fixture: 'bankStatement' },
			{ fixture: 'receiptPng' },
			{ fixture: 'invoiceEn', fault: 'neverFinish' },
		]);
		// The first reads fail with 500: the transport retries them, and a retry is a read too.
		sandbox.faults.enqueue('getResult', 'internalError', 2);

		const run = await runNode(pollerRun(credential, receipts, { options: { timeout: 32 } }));

		expect(run.error).toBeUndefined();
		expect(routing(run, 4, expect).output).toEqual(['done', 'done', 'done', 'stillProcessing']);
		const stats = sandbox.stats();
		expect(stats.faults.filter((fault) => fault.kind === 'internalError')).toHaveLength(2);
		const readsPerResult = receipts.map((item) => stats.results[String(item.json.result_id)].reads);
		// The 10-page statement is expected to take about as long as it does, so one read may find it
		// done; the others are read again and again, and the spacing holds for every result.
		expect(readsPerResult.filter((reads) => reads.length >= 2).length).toBeGreaterThanOrEqual(3);
		for (const reads of readsPerResult) {
			if (reads.length >= 2) expect(Math.min(...gaps(reads))).toBeGreaterThanOrEqual(MIN_RESULT_READ_INTERVAL_MS);
		}
	});

	it('a result its output settings cannot map becomes an error item; the other items still leave', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const receipts = await uploadWithActionNode(sandbox, credential, [{ fixture: 'invoiceEn' }, { fixture: 'scanned' }]);

		const run = await runNode(pollerRun(credential, receipts, { output: 'tableRows', tableField: 'no_such_table' }, 'continueRegularOutput'));

		expect(run.error).toBeUndefined();
		const { output, json } = routing(run, 2, expect);
		expect(output[1]).toBe('rejected');
		expect(json[0]).toMatchObject({ result_id: receipts[0].json.result_id, error: expect.stringMatching(/no field named "no_such_table"/) });
	});

	it('refuses a timeout that is not a positive number instead of waiting for ever', { timeout: TEST_TIMEOUT_MS }, async ({ expect, onTestFinished }) => {
		const { sandbox, credential } = await sandboxWith(onTestFinished);
		const receipts = await uploadWithActionNode(sandbox, credential, [{ fixture: 'invoiceEn' }]);

		const run = await runNode(pollerRun(credential, receipts, { options: { timeout: '={{ "soon" }}' } }));

		expect(run.error?.message).toMatch(/Timeout/);
		expect(sandbox.stats().requests.getResult).toBe(0);
	});
});
