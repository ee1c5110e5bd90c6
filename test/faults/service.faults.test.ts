/**
 * Service faults (issue 7): 429 storms, 503 BUSY bursts, 500s and dropped connections, answers
 * slower than the request timeout, malformed JSON, unknown statuses, a result that never
 * finishes, the quota running out mid-batch, a template deleted between upload and result.
 * Each scenario drives the nodes through n8n's engine against the sandbox's fault injection;
 * `Scenario.finish()` then checks the invariants every scenario keeps.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { RETRY } from '../../nodes/shared/http/transport';
import { binaryItem, startNode } from '../harness/engine';
import { loadFixture } from '../fixtures';
import { extractParameters, numberedPdf, pdfItems, Scenario, useSandbox, useShortBackoff, type Route } from './support';

const sandbox = useSandbox();
useShortBackoff();

const ON_ERROR_CONTINUE = 'continueRegularOutput' as const;

async function files(tag: string, count: number, pagesOf: (n: number) => number = () => 1): Promise<Uint8Array[]> {
	return await Promise.all(Array.from({ length: count }, (_, n) => numberedPdf(tag, n + 1, pagesOf(n + 1))));
}

/** Action node: upload without waiting (the receipts feed the Poller). */
async function upload(scenario: Scenario, documents: Uint8Array[], expected: Route[] = documents.map(() => 'ok')) {
	const run = await scenario.run({ nodeType: 'action', label: 'upload', parameters: extractParameters(false), input: pdfItems(documents), onError: ON_ERROR_CONTINUE });
	scenario.expectRoutes(run, 'action', expected);
	return run;
}

/** Action node: upload and wait for the data. */
async function extract(scenario: Scenario, documents: Uint8Array[], expected: Route[], options: Record<string, unknown> = {}) {
	const run = await scenario.run({ nodeType: 'action', label: 'extract', parameters: extractParameters(true, { options }), input: pdfItems(documents), onError: ON_ERROR_CONTINUE });
	scenario.expectRoutes(run, 'action', expected);
	return run;
}

async function poll(scenario: Scenario, receipts: INodeExecutionData[], expected: Route[], timeoutSeconds = 60) {
	const run = await scenario.run({ nodeType: 'poller', parameters: { options: { timeout: timeoutSeconds } }, input: receipts, onError: ON_ERROR_CONTINUE });
	scenario.expectRoutes(run, 'poller', expected);
	return run;
}

const errorItem = (run: { outputs: INodeExecutionData[][] }, index: number, output = 0) =>
	run.outputs[output].find((item) => (item.pairedItem as { item: number }).item === index)?.json as Record<string, unknown>;

describe('429 storms', () => {
	it('bursts of 429 on every operation: the node waits Retry-After and every document comes through', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.configure({ seed: 11, retryAfterSeconds: 1, rates: { '*': { rateLimited: 0.2 } }, queue: [{ endpoint: '*', fault: 'rateLimited', count: 5 }] });
		const documents = await files('storm', 6);
		await extract(scenario, documents, documents.map(() => 'ok'));
		const stats = await scenario.finish();
		expect(stats.rateLimited).toBeGreaterThanOrEqual(5);
		expect(stats.uploads).toHaveLength(6);
	});

	it('a storm longer than the retries: that item fails saying so, nothing uploaded twice, the next items go through', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', { kind: 'rateLimited', retryAfterSeconds: 1 }, RETRY.rateLimitedRetries + 1);
		const documents = await files('longstorm', 3);
		const run = await upload(scenario, documents, ['error', 'ok', 'ok']);
		expect(errorItem(run, 0)).toMatchObject({ error: expect.stringMatching(/^Item 1: Too many requests/), error_code: 'RATE_LIMITED', http_status: 429 });
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(2);
	});
});

describe('503 BUSY on upload', () => {
	it('BUSY bursts: each upload is retried until accepted, and received once', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.configure({ seed: 5, rates: { process: { busy: 0.3 } }, queue: [{ endpoint: 'process', fault: 'busy', count: 4 }] });
		const documents = await files('busy', 6);
		const receipts = await upload(scenario, documents);
		await poll(scenario, receipts.outputs[0], documents.map(() => 'done'));
		const stats = await scenario.finish();
		expect(stats.responses['503']).toBeGreaterThanOrEqual(4);
		expect(stats.uploads).toHaveLength(6);
	});

	it('real BUSY: two executions upload at once to an account that takes one upload at a time', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid', maxConcurrentUploads: 1 });
		scenario.sandbox.faults.configure({ latencyMs: { process: 300 } });
		const [first, second] = [await files('busy-a', 4), await files('busy-b', 4)];
		const other = scenario.addKey();
		const options = (documents: Uint8Array[], credential = scenario.credential) =>
			({ nodeType: 'action', parameters: extractParameters(false), input: pdfItems(documents), credential, onError: ON_ERROR_CONTINUE }) as const;
		const runs = await Promise.all([
			scenario.track({ ...options(first), label: 'upload A' }, startNode(options(first))),
			scenario.track({ ...options(second, other), label: 'upload B' }, startNode(options(second, other))),
		]);
		runs.forEach((run) => scenario.expectRoutes(run, 'action', ['ok', 'ok', 'ok', 'ok']));
		const stats = await scenario.finish();
		expect(stats.responses['503'], 'the uploads did not overlap, so BUSY was never met').toBeGreaterThan(0);
		expect(stats.uploads).toHaveLength(8);
	});

	it('BUSY longer than the retries: that item fails saying so, the next one goes through', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', 'busy', RETRY.busyRetries + 1);
		const run = await upload(scenario, await files('busylong', 2), ['error', 'ok']);
		expect(errorItem(run, 0)).toMatchObject({ error: expect.stringMatching(/busy/), error_code: 'BUSY', http_status: 503 });
		await scenario.finish();
	});
});

describe('500s and dropped connections', () => {
	it('on result reads: the Poller retries (2 s apart) and reads every result; a rejected document is given its pages back', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		// A scan without a text layer: the service rejects it (NO_TEXT) and charges nothing (spec 7.4).
		const scanned = await loadFixture('scanned');
		const documents = await files('drops', 6);
		const input = [...pdfItems(documents), binaryItem(scanned.bytes, scanned.fileName, scanned.mimeType)];
		const receipts = await scenario.run({ nodeType: 'action', label: 'upload', parameters: extractParameters(false), input, onError: ON_ERROR_CONTINUE });
		scenario.expectRoutes(receipts, 'action', input.map(() => 'ok'));
		for (const fault of ['internalError', 'dropBeforeBody', 'dropAfterBody'] as const) scenario.sandbox.faults.enqueue('getResult', fault, 2);
		const polled = await poll(scenario, receipts.outputs[0], [...documents.map((): Route => 'done'), 'rejected']);
		expect(polled.outputs[1][0].json).toMatchObject({ status: 'rejected', error_code: 'NO_TEXT' });
		const stats = await scenario.finish();
		expect(stats.droppedConnections).toBe(4);
		expect(stats.responses['500']).toBe(2);
		expect(stats.pages[scenario.accountId]).toEqual({ charged: 6 + 2, released: 2 });
	});

	it('a result read failing more often than the retries: Error output with the result id to read it later', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const receipts = await upload(scenario, await files('readfail', 1));
		scenario.sandbox.faults.enqueue('getResult', 'internalError', RETRY.idempotentRetries + 1);
		const run = await poll(scenario, receipts.outputs[0], ['error']);
		expect(run.outputs[2][0].json).toMatchObject({ error: expect.stringMatching(/internal error/), error_code: 'INTERNAL_ERROR', result_id: receipts.outputs[0][0].json.result_id });
		await scenario.finish();
	});

	it('on uploads: a connection dropped before or after the service took the file is never re-sent', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', 'dropAfterBody');
		scenario.sandbox.faults.enqueue('process', 'dropBeforeBody');
		const documents = await files('updrop', 3);
		const run = await extract(scenario, documents, ['error', 'error', 'ok']);
		for (const index of [0, 1]) expect(errorItem(run, index)).toMatchObject({ error_description: expect.stringMatching(/^The upload was not sent again/) });
		const stats = await scenario.finish();
		// The first file was accepted (and charged) although the node never heard back: once only.
		expect(stats.uploads.filter((entry) => entry.resultId)).toHaveLength(2);
		expect(stats.droppedConnections).toBe(2);
	});

	// The transport's own headline must reach the user: n8n's generic ECONNRESET text says
	// "You can retry the request immediately", which for an upload may charge the document twice.
	it('a dropped upload is reported as the node words it, not as "retry immediately"', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', 'dropAfterBody');
		const run = await upload(scenario, await files('updrop-message', 1), ['error']);
		await scenario.finish();
		expect(errorItem(run, 0).error).toMatch(/^Item 1: Could not reach the service/);
		expect(errorItem(run, 0).error).not.toMatch(/retry the request immediately/);
	});
});

describe('answers slower than the request timeout', () => {
	const shortTimeouts = { readTimeoutMs: 1_000, uploadTimeoutMs: 1_500 };

	it('slow result reads are abandoned and retried; a slow upload is not re-sent', async (context) => {
		const original = { readTimeoutMs: RETRY.readTimeoutMs, uploadTimeoutMs: RETRY.uploadTimeoutMs };
		Object.assign(RETRY, shortTimeouts);
		try {
			const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
			scenario.sandbox.faults.enqueue('process', { kind: 'latency', ms: 2_500 });
			const documents = await files('slow', 4);
			const receipts = await upload(scenario, documents, ['error', 'ok', 'ok', 'ok']);
			expect(errorItem(receipts, 0)).toMatchObject({ error: 'Item 1: The service did not answer in time', error_description: expect.stringMatching(/not sent again/) });

			scenario.sandbox.faults.enqueue('getResult', { kind: 'latency', ms: 2_500 }, 2);
			const okReceipts = receipts.outputs[0].filter((item) => item.json.error === undefined);
			await poll(scenario, okReceipts, ['done', 'done', 'done']);
			const stats = await scenario.finish();
			// The slow upload was still taken by the service after the node gave up: received once, never again.
			expect(stats.uploads).toHaveLength(4);
		} finally {
			Object.assign(RETRY, original);
		}
	});
});

describe('malformed JSON', () => {
	it('unreadable answers to reads are retried; an unreadable upload answer is not re-sent', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', 'malformedJson');
		const documents = await files('malformed', 3);
		const receipts = await upload(scenario, documents, ['error', 'ok', 'ok']);
		expect(errorItem(receipts, 0)).toMatchObject({ error: 'Item 1: The service accepted the upload but its answer could not be read' });

		scenario.sandbox.faults.enqueue('getResult', 'malformedJson', 2);
		await poll(scenario, receipts.outputs[0].slice(1), ['done', 'done']);

		scenario.sandbox.faults.enqueue('listScanners', 'malformedJson');
		const listed = await scenario.run({ nodeType: 'action', label: 'getMany', parameters: { resource: 'template', operation: 'getMany', returnAll: true } });
		expect(listed.error).toBeUndefined();
		expect(listed.outputs[0]).toHaveLength(8);
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
	});
});

describe('unknown status values', () => {
	it('a result in a state the spec does not list ends as an error item, never an endless wait', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', { kind: 'unknownStatus', status: 'paused' }, 1);
		const documents = await files('unknown', 4);
		const receipts = await upload(scenario, documents.slice(0, 2));
		const polled = await poll(scenario, receipts.outputs[0], ['error', 'done']);
		expect(polled.outputs[2][0].json).toMatchObject({ status: 'paused', error_message: expect.stringMatching(/status this node does not know: "paused"/) });

		scenario.sandbox.faults.enqueue('process', { kind: 'unknownStatus', status: 'archived' }, 1);
		const extracted = await extract(scenario, documents.slice(2), ['error', 'ok']);
		expect(errorItem(extracted, 0)).toMatchObject({ status: 'archived', error: expect.stringMatching(/status this node does not know: "archived"/) });
		await scenario.finish();
	});
});

describe('a result that never finishes', () => {
	it('Poller: Still Processing after its timeout; action node: a clear timeout error, or the pending result', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const documents = await files('never', 3);
		scenario.sandbox.faults.enqueue('process', 'neverFinish', 3);
		const receipts = await upload(scenario, documents.slice(0, 1));
		const polled = await poll(scenario, receipts.outputs[0], ['still'], 5);
		expect(polled.outputs[3][0].json).toMatchObject({ result_id: receipts.outputs[0][0].json.result_id, status: expect.stringMatching(/^(queued|processing)$/) });

		const failed = await extract(scenario, documents.slice(1, 2), ['error'], { waitTimeout: 5 });
		expect(errorItem(failed, 0)).toMatchObject({
			error: expect.stringMatching(/^Item 1: the document was not processed within 5 seconds \(status "(queued|processing)"\)$/),
			error_description: expect.stringMatching(/do not upload the file again/),
		});

		const pending = await extract(scenario, documents.slice(2), ['ok'], { waitTimeout: 5, onTimeout: 'emitPending' });
		expect(pending.outputs[0][0].json).toMatchObject({ status: expect.stringMatching(/^(queued|processing)$/), pending: true });
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
	});

	// scheduler.ts plans a "last look" 1 ms before the deadline, but checks the deadline before
	// starting due reads: a timer waking 1 ms late (the usual case) skips the last look.
	it('a short Poller timeout still reads a finished document once before giving up', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const receipts = await upload(scenario, await files('lastlook', 2));
		const polled = await scenario.run({ nodeType: 'poller', parameters: { options: { timeout: 5 } }, input: receipts.outputs[0], onError: ON_ERROR_CONTINUE });
		const stats = await scenario.finish();
		expect(stats.requests.getResult, 'the Poller gave up without reading the results once').toBeGreaterThanOrEqual(2);
		scenario.expectRoutes(polled, 'poller', ['done', 'done']);
	});
});

describe('quota', () => {
	it('the quota runs out in the middle of a batch: refused documents say how many pages they need, nothing is charged for them', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'free', pagesUsed: 16 });
		// 4 pages left: three 1-page documents, a 3-page one (refused), a 1-page one, then one more (refused).
		const documents = await files('quota', 6, (n) => (n === 4 ? 3 : 1));
		const run = await extract(scenario, documents, ['ok', 'ok', 'ok', 'error', 'ok', 'error']);
		expect(errorItem(run, 3)).toMatchObject({
			error: 'Item 4: Not enough pages left in your quota: this document needs 3, 1 left on the free plan',
			error_code: 'INSUFFICIENT_TOKENS',
			error_description: expect.stringMatching(/renew on \d{4}-\d{2}-01/),
		});
		expect(errorItem(run, 5)).toMatchObject({ error: expect.stringMatching(/needs 1, 0 left/), http_status: 402 });
		const stats = await scenario.finish();
		expect(stats.pages[scenario.accountId]).toEqual({ charged: 4, released: 0 });
		expect(scenario.sandbox.accounts.get(scenario.accountId)?.pagesAvailable).toBe(0);
	});
});

describe('templates', () => {
	it('the template is deleted between upload and result: the uploaded documents keep their data; new uploads get a clear 404', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const created = await scenario.run({
			nodeType: 'action',
			label: 'create',
			parameters: {
				resource: 'template',
				operation: 'create',
				name: 'Short-lived invoice template',
				fieldsDefinedAs: 'json',
				fieldsJson: JSON.stringify([{ name: 'invoice_number', type: 'string' }, { name: 'total', type: 'currency' }]),
			},
		});
		const templateId = String(created.outputs[0][0].json.scanner_id);
		const withTemplate = { resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value: templateId } };
		const documents = await files('deleted', 4);

		const receipts = await scenario.run({ nodeType: 'action', label: 'upload', parameters: { ...withTemplate, waitForResult: false }, input: pdfItems(documents.slice(0, 3)) });
		scenario.expectRoutes(receipts, 'action', ['ok', 'ok', 'ok']);
		const deleted = await scenario.run({ nodeType: 'action', label: 'delete', parameters: { resource: 'template', operation: 'delete', templateId: { __rl: true, mode: 'id', value: templateId } } });
		expect(deleted.outputs[0][0].json).toMatchObject({ deleted: true });

		const polled = await poll(scenario, receipts.outputs[0], ['done', 'done', 'done']);
		for (const item of polled.outputs[0]) expect(item.json).toMatchObject({ invoice_number: expect.stringMatching(/^DELETED-000\d$/) });

		const late = await scenario.run({ nodeType: 'action', label: 'late upload', parameters: { ...withTemplate, waitForResult: true }, input: pdfItems(documents.slice(3)), onError: ON_ERROR_CONTINUE });
		scenario.expectRoutes(late, 'action', ['error']);
		expect(late.outputs[0][0].json).toMatchObject({ error: `Item 1: The template "${templateId}" does not exist in this account`, error_code: 'SCANNER_NOT_FOUND', http_status: 404 });
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
	});
});
