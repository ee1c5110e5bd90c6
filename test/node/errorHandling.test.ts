/**
 * Both nodes under every "On Error" setting and "Retry On Fail", through n8n-core's own engine
 * (its error-output routing and its retry loop, not a fake of them), against nock: every input
 * item leaves exactly once, no paid-for result ID is lost, and no upload is sent twice.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryItem, runNode, type RunOptions, type RunResult } from '../harness/engine';
import { minimalPdf } from '../harness/documents';
import {
	BASE,
	answer,
	credential,
	doneResult,
	failedResult,
	fieldsItemOf,
	QUEUED_AT,
	multipartParts,
	pendingResult,
	resultId,
	trapAllRequests,
	uploadAccepted,
	useNock,
	type SeenRequest,
} from './actionNode.support';

useNock();

const extract = (parameters: INodeParameters = {}): INodeParameters => ({ resource: 'document', operation: 'extract', ...parameters });

/** What the fake service does with one file, known by its name. */
interface Document {
	id: string;
	/** Answers to the reads of its result, in turn; the last one repeats. */
	answers?: IDataObject[];
	/** The answer to its upload, when not 202 with `id`. */
	upload?: [number, IDataObject];
}

/** A fake service that accepts uploads by file name and answers result reads, counting both. */
function service(documents: Record<string, Document>) {
	const uploads: SeenRequest[] = [];
	const reads: SeenRequest[] = [];
	answer(nock(BASE).post('/api/v1/process').times(100), uploads, (request) => {
		const name = multipartParts(request)[0].filename as string;
		const document = documents[name];
		return document.upload ?? [202, uploadAccepted(document.id, { filename: name })];
	});
	for (const document of Object.values(documents)) {
		const answers = [...(document.answers ?? [doneResult(document.id)])];
		answer(nock(BASE).get(`/api/v1/results/${document.id}`).times(100), reads, () => [200, answers.length > 1 ? (answers.shift() as IDataObject) : answers[0]]);
	}
	const uploadsOf = (name: string) => uploads.filter((request) => multipartParts(request)[0].filename === name).length;
	return { uploads, reads, uploadsOf, unexpected: trapAllRequests() };
}

let pdf: Uint8Array | undefined;
async function pdfItem(fileName: string, json: IDataObject = {}): Promise<INodeExecutionData> {
	pdf ??= await minimalPdf();
	return binaryItem(pdf, fileName, 'application/pdf', 'data', json);
}

function run(options: Omit<RunOptions, 'nodeType'> & { nodeType?: RunOptions['nodeType'] }): Promise<RunResult> {
	return runNode({ nodeType: 'action', credential: credential(), ...options });
}

const descriptionOf = (result: RunResult) => (result.error as unknown as { description?: string } | undefined)?.description ?? '';
const contextOf = (result: RunResult) => (result.error as unknown as { context?: IDataObject } | undefined)?.context ?? {};
const pairedItems = (items: INodeExecutionData[]) => items.map((item) => (item.pairedItem as { item: number }).item);

const REJECTED = (id: string) => failedResult(id, 'rejected', 'NO_TEXT', 'No readable text in the file');


describe('On Error: Continue (using error output)', () => {
	it('the action node sends failed items to the error output with their data, and only data to the success output', async () => {
		service({ 'a.pdf': { id: resultId(1) }, 'b.pdf': { id: resultId(2), answers: [REJECTED(resultId(2))] } });
		const input = [await pdfItem('a.pdf', { subject: 'first' }), await pdfItem('b.pdf', { subject: 'second' }), binaryItem(new Uint8Array(0), 'c.pdf', 'application/pdf', 'data', { subject: 'third' })];
		const result = await run({ parameters: extract(), input, onError: 'continueErrorOutput' });
		expect(result.error).toBeUndefined();
		const [success, failed] = result.outputs;
		expect(pairedItems(success)).toEqual([0]);
		expect(success[0].json).toMatchObject({ invoice_number: 'INV-1' });
		expect(success[0].json).not.toHaveProperty('error');
		// In input order; n8n merges the input item's JSON (subject) under the error item's.
		expect(pairedItems(failed)).toEqual([1, 2]);
		expect(failed[0].json).toEqual({
			subject: 'second',
			message: 'Item 2: The document "scan.pdf" was rejected: no readable text was found in it (NO_TEXT)',
			error: expect.objectContaining({
				result_id: resultId(2),
				status: 'rejected',
				error_code: 'NO_TEXT',
				error_message: 'No readable text in the file',
				error: 'Item 2: The document "scan.pdf" was rejected: no readable text was found in it (NO_TEXT)',
				error_description: expect.stringContaining(`Result ID: ${resultId(2)}`),
			}),
		});
		expect(failed[1].json).toMatchObject({ subject: 'third', message: 'Item 3 (c.pdf): The file is empty (0 bytes)', error: { error: 'Item 3 (c.pdf): The file is empty (0 bytes)' } });
	});

	it('the Poller sends results it cannot read to n8n\'s error output (its 5th), and rejected documents to Rejected', async () => {
		// Before service(): its catch-all for unexpected requests would answer first.
		nock(BASE).get(`/api/v1/results/${resultId(3)}`).reply(404, { success: false, error_code: 'RESULT_NOT_FOUND', message: 'Result not found' });
		service({ x: { id: resultId(1) }, y: { id: resultId(2), answers: [REJECTED(resultId(2))] } });
		const receipt = (n: number) => ({ json: { result_id: resultId(n), tokens_required: 1, queued_at: '2026-01-01T00:00:00.000Z' } });
		const input = [receipt(1), receipt(2), receipt(3), { json: { result_id: 'not-an-id' } }];
		const result = await run({ nodeType: 'poller', parameters: { options: { timeout: 30 } }, input, onError: 'continueErrorOutput' });
		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(5);
		const [done, rejected, errored, still, errorOutput] = result.outputs;
		expect([pairedItems(done), pairedItems(rejected), pairedItems(errored), pairedItems(still), pairedItems(errorOutput)]).toEqual([[0], [1], [], [], [2, 3]]);
		expect(rejected[0].json).toMatchObject({ result_id: resultId(2), status: 'rejected', error_code: 'NO_TEXT' });
		expect(errorOutput[0].json).toMatchObject({
			result_id: resultId(3),
			message: `Item 3: No result with ID ${resultId(3)} exists in this account`,
			error: { result_id: resultId(3), error_code: 'RESULT_NOT_FOUND', http_status: 404 },
		});
		expect(errorOutput[1].json.message).toBe('Item 4: "not-an-id" is not a result ID');
	});

	it('under "Continue" failed items stay on the regular output, flat, in input order', async () => {
		service({ 'a.pdf': { id: resultId(1), answers: [pendingResult(resultId(1), 'processing'), doneResult(resultId(1))] }, 'b.pdf': { id: resultId(2), answers: [REJECTED(resultId(2))] } });
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), await pdfItem('b.pdf')], onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(1);
		// Item 2 finished first (item 1 was still processing at its first read): the output keeps input order.
		expect(pairedItems(result.outputs[0])).toEqual([0, 1]);
		expect(result.outputs[0][1].json).toMatchObject({ result_id: resultId(2), status: 'rejected', error_code: 'NO_TEXT', error: expect.stringMatching(/^Item 2: /) });
	});
});

describe('On Error: Stop, once documents are paid for', () => {
	it('checks every item before the first upload: a good PDF followed by an empty file uploads nothing', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) } });
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), binaryItem(new Uint8Array(0), 'b.pdf', 'application/pdf')] });
		expect(result.error?.message).toBe('Item 2 (b.pdf): The file is empty (0 bytes)');
		expect(fake.uploads).toHaveLength(0);
		expect(fake.unexpected).toEqual([]);
	});

	it('a rejected document among three: the others finish, and the error names the item and lists every result ID', async () => {
		const fake = service({
			'a.pdf': { id: resultId(1) },
			'b.pdf': { id: resultId(2), answers: [REJECTED(resultId(2))] },
			'c.pdf': { id: resultId(3), answers: [pendingResult(resultId(3), 'processing'), doneResult(resultId(3))] },
		});
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), await pdfItem('b.pdf'), await pdfItem('c.pdf')] });
		expect(result.error?.message).toBe('Item 2: The document "scan.pdf" was rejected: no readable text was found in it (NO_TEXT)');
		expect(fake.uploads).toHaveLength(3);
		// Item 3 was read until done (twice), not abandoned when item 2 failed.
		expect(fake.reads.filter((read) => read.path.endsWith(resultId(3)))).toHaveLength(2);
		const description = descriptionOf(result);
		expect(description).toContain(`Result ID: ${resultId(2)}`);
		expect(description).toMatch(
			/Documents uploaded in this run: their pages are already reserved\. Retry of this execution reads their results instead of uploading them again, when it runs in this n8n process within 7 days \(after n8n restarts, or on another queue-mode worker, it uploads them again and the items say "charged_again"\)/,
		);
		for (const [item, outcome] of [[1, 'done'], [2, 'failed'], [3, 'done']] as const) {
			expect(description).toContain(`- item ${item}: result ID ${resultId(item)} (${outcome})`);
		}
		expect(contextOf(result).documents).toEqual([
			{ item: 1, result_id: resultId(1), uploaded: true, reused: false, outcome: 'done' },
			{ item: 2, result_id: resultId(2), uploaded: true, reused: false, outcome: 'failed' },
			{ item: 3, result_id: resultId(3), uploaded: true, reused: false, outcome: 'done' },
		]);
	});

	it('an upload refused after two were accepted: the error names the item and lists the two result IDs', async () => {
		const quota = { success: false, error_code: 'INSUFFICIENT_TOKENS', message: 'No pages left', tokens_required: 1, tokens_available: 0, plan: 'free' };
		const fake = service({ 'a.pdf': { id: resultId(1) }, 'b.pdf': { id: resultId(2) }, 'c.pdf': { id: resultId(3), upload: [402, quota] } });
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), await pdfItem('b.pdf'), await pdfItem('c.pdf')] });
		expect(result.error?.message).toBe('Item 3: Not enough pages left in your quota: this document needs 1, 0 left on the free plan');
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe('402');
		expect(fake.uploads).toHaveLength(3);
		expect(descriptionOf(result)).toContain(`- item 1: result ID ${resultId(1)} (not finished yet)`);
		expect(descriptionOf(result)).toContain(`- item 2: result ID ${resultId(2)} (not finished yet)`);
	});

	it('the Poller with one unknown result ID reads the others, then stops naming the item and the ID, listing the Done ones', async () => {
		nock(BASE).get(`/api/v1/results/${resultId(2)}`).reply(404, { success: false, error_code: 'RESULT_NOT_FOUND', message: 'Result not found' });
		const fake = service({ x: { id: resultId(1) }, y: { id: resultId(3) } });
		const input = [1, 2, 3].map((n) => ({ json: { result_id: resultId(n), tokens_required: 1, queued_at: '2026-01-01T00:00:00.000Z' } }));
		const result = await run({ nodeType: 'poller', parameters: { options: { timeout: 30 } }, input });
		expect(result.error?.message).toBe(`Item 2: No result with ID ${resultId(2)} exists in this account`);
		expect(fake.reads).toHaveLength(2);
		expect(descriptionOf(result)).toMatch(/Results of this run, all kept in your account/);
		expect(contextOf(result).documents).toEqual([
			{ item: 1, result_id: resultId(1), uploaded: false, reused: false, outcome: 'done' },
			{ item: 2, result_id: resultId(2), uploaded: false, reused: false, outcome: 'failed' },
			{ item: 3, result_id: resultId(3), uploaded: false, reused: false, outcome: 'done' },
		]);
	});
});

describe('Retry On Fail', () => {
	it('a batch whose third document is rejected, with 2 tries: each file is uploaded once, not twice', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) }, 'b.pdf': { id: resultId(2) }, 'c.pdf': { id: resultId(3), answers: [REJECTED(resultId(3))] } });
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), await pdfItem('b.pdf'), await pdfItem('c.pdf')], retry: { maxTries: 2, waitBetweenTries: 0 } });
		expect(result.error?.message).toMatch(/^Item 3: /);
		expect(fake.uploads).toHaveLength(3);
		// The engine did run the node twice: the second try read the three results again.
		expect(fake.reads).toHaveLength(6);
	});

	it('"Continue" makes n8n re-run a node whose first item is an error item: the re-run uploads nothing again', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1), answers: [REJECTED(resultId(1))] }, 'b.pdf': { id: resultId(2) } });
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), await pdfItem('b.pdf')], onError: 'continueRegularOutput', retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(result.error).toBeUndefined();
		expect(fake.reads.length).toBeGreaterThan(2);
		expect(fake.uploads).toHaveLength(2);
		expect(pairedItems(result.outputs[0])).toEqual([0, 1]);
	});

	it('an upload that got no clear answer (a 500) is not sent again by the retries; the item says why', async () => {
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process').times(10), uploads, (request) =>
			multipartParts(request)[0].filename === 'b.pdf' ? [500, { success: false, error_code: 'INTERNAL_ERROR', message: 'boom' }] : [202, uploadAccepted(resultId(1))],
		);
		const unexpected = trapAllRequests();
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf'), await pdfItem('b.pdf')], retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(uploads.map((request) => multipartParts(request)[0].filename), 'neither file is sent again by the two retries').toEqual(['a.pdf', 'b.pdf']);
		expect(result.error?.message).toBe('Item 2: an earlier try of this execution sent this document and got no clear answer');
		expect(descriptionOf(result)).toMatch(/^The earlier try ended with: The service had an internal error\. The upload was not sent again: the service may have accepted it, and a second upload would be charged twice/);
		expect(descriptionOf(result)).toContain(`- item 1: result ID ${resultId(1)} (not finished yet)`);
		expect(unexpected).toEqual([]);
	});
});

/**
 * n8n's Retry of a failed execution (Executions list -> Retry) is a new execution, mode "retry",
 * that runs the failed node again with the same input; a second "Execute step" in the editor is a
 * new manual execution. Neither may pay again for a document the service accepted.
 */
describe('running the node again on the same files: charged once', () => {
	const failingBatch = async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) }, 'b.pdf': { id: resultId(2), answers: [REJECTED(resultId(2))] } });
		return { fake, input: [await pdfItem('a.pdf'), await pdfItem('b.pdf')] };
	};

	it("n8n's Retry of a failed execution uploads nothing the failed run had accepted: it reads the results", async () => {
		const { fake, input } = await failingBatch();
		// The Retry runs with the same credential: the same account.
		const cred = credential();
		const failed = await run({ parameters: extract(), input, workflowId: 'wf-retry', executionId: 'exec-failed', credential: cred });
		expect(failed.error?.message).toMatch(/^Item 2: The document "scan.pdf" was rejected/);
		expect(descriptionOf(failed)).toContain('Retry of this execution reads their results instead of uploading them again');
		expect(fake.uploads).toHaveLength(2);

		const retried = await run({ parameters: extract(), input, workflowId: 'wf-retry', executionId: 'exec-retry', mode: 'retry', credential: cred });
		expect(fake.uploads, 'the Retry sent no upload').toHaveLength(2);
		expect(retried.error?.message).toMatch(/^Item 2: The document "scan.pdf" was rejected/);
		expect(contextOf(retried).documents).toEqual([
			{ item: 1, result_id: resultId(1), uploaded: false, reused: true, outcome: 'done' },
			{ item: 2, result_id: resultId(2), uploaded: false, reused: true, outcome: 'failed' },
		]);
		expect(descriptionOf(retried)).toContain(`- item 1: result ID ${resultId(1)} (done; an earlier upload of the same file, not charged again)`);
		expect(fake.unexpected).toEqual([]);
	});

	it('a second "Execute step" on the same file reads the earlier result; another file, name, template or workflow is uploaded', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) }, 'b.pdf': { id: resultId(2) } });
		const a = await pdfItem('a.pdf');
		// Both "Execute step" runs with the same credential, as in the editor.
		const cred = credential();
		const first = await run({ parameters: extract(), input: [a], workflowId: 'wf-again', credential: cred });
		const second = await run({ parameters: extract(), input: [a], workflowId: 'wf-again', credential: cred });
		expect(fake.uploads).toHaveLength(1);
		// Each run read result 1 once (it is done at the first read) and output it.
		expect(fake.reads.map((read) => read.path)).toEqual([`/api/v1/results/${resultId(1)}`, `/api/v1/results/${resultId(1)}`]);
		expect(first.outputs).toEqual([[{ json: fieldsItemOf(resultId(1)), pairedItem: { item: 0 } }]]);
		expect(second.outputs).toEqual([[{ json: fieldsItemOf(resultId(1), { firstExtractedAt: QUEUED_AT }), pairedItem: { item: 0 } }]]);
		expect(first.hints).toEqual([]);
		expect(second.hints).toEqual(['1 document was uploaded earlier by this node: the earlier upload\'s result was read, nothing was charged again. Turn off "Reuse Earlier Uploads" for a fresh extraction.']);

		await run({ parameters: extract(), input: [await pdfItem('b.pdf')], workflowId: 'wf-again', credential: cred });
		expect(fake.uploadsOf('b.pdf'), 'the same bytes under another name').toBe(1);
		await run({ parameters: extract(), input: [a], workflowId: 'wf-other', credential: cred });
		expect(fake.uploadsOf('a.pdf'), 'another workflow').toBe(2);
		const other = binaryItem(await minimalPdf(['Invoice Number: INV-2']), 'a.pdf', 'application/pdf');
		await run({ parameters: extract({ waitForResult: false }), input: [other], workflowId: 'wf-again', credential: cred });
		expect(fake.uploadsOf('a.pdf'), 'another file under the same name').toBe(3);
		expect(fake.unexpected).toEqual([]);
	});

	it('"Reuse Earlier Uploads" off uploads again in a new execution, but Retry On Fail still never twice', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) }, 'b.pdf': { id: resultId(2), answers: [REJECTED(resultId(2))] } });
		const input = [await pdfItem('a.pdf'), await pdfItem('b.pdf')];
		const noReuse = extract({ options: { reuseUploads: false } });
		const cred = credential();
		await run({ parameters: noReuse, input, workflowId: 'wf-fresh', retry: { maxTries: 3, waitBetweenTries: 0 }, credential: cred });
		expect(fake.uploads, 'three tries, each file once').toHaveLength(2);
		await run({ parameters: extract(), input, workflowId: 'wf-fresh', mode: 'retry', credential: cred });
		expect(fake.uploads, 'with reuse on, the same account reads the earlier results').toHaveLength(2);
		await run({ parameters: noReuse, input, workflowId: 'wf-fresh', mode: 'retry', credential: cred });
		expect(fake.uploads, 'a new execution with reuse off').toHaveLength(4);
	});

	it('a document whose processing failed (status error) is uploaded again by the next run', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1), answers: [failedResult(resultId(1), 'error', 'EXTRACTION_FAILED', 'The model failed')] } });
		const input = [await pdfItem('a.pdf')];
		const cred = credential();
		const failed = await run({ parameters: extract(), input, workflowId: 'wf-error', credential: cred });
		expect(failed.error?.message).toMatch(/^Item 1: /);
		await run({ parameters: extract(), input, workflowId: 'wf-error', mode: 'retry', credential: cred });
		expect(fake.uploads).toHaveLength(2);
	});

	it('the same file twice in one run is uploaded once, and both items get its result', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) } });
		const result = await run({ parameters: extract(), input: [await pdfItem('a.pdf', { n: 1 }), await pdfItem('a.pdf', { n: 2 })] });
		expect(fake.uploads).toHaveLength(1);
		// One result, read once for both items; each item gets all of it (the Fields output does not
		// carry the input item's JSON).
		expect(fake.reads.map((read) => read.path)).toEqual([`/api/v1/results/${resultId(1)}`]);
		expect(result.outputs).toEqual([
			[
				{ json: fieldsItemOf(resultId(1)), pairedItem: { item: 0 } },
				// The second item's data is the first one's upload: no page counted twice.
				{ json: fieldsItemOf(resultId(1), { firstExtractedAt: QUEUED_AT }), pairedItem: { item: 1 } },
			],
		]);
	});
});

describe('options from expressions are checked before anything is sent', () => {
	it.each([
		[{ options: { waitTimeout: '={{ "5 minutes" }}' } }, 'Item 1: "Wait Timeout (Seconds)" must be a number greater than 0, not "5 minutes"'],
		[{ options: { waitTimeout: '={{ 0 }}' } }, 'Item 1: "Wait Timeout (Seconds)" must be a number greater than 0, not 0'],
		[{ options: { onTimeout: '={{ "later" }}' } }, 'Item 1: "On Timeout" must be one of "fail", "emitPending", not "later"'],
		[{ waitForResult: '={{ "no" }}' }, 'Item 1: "Wait for Result" must be true or false, not "no"'],
		[{ options: { includeBinary: '={{ [] }}' } }, 'Item 1: "Include Input Binary" must be true or false, not a list'],
		[{ output: '={{ "csv" }}' }, 'Item 1: "Output" must be one of "fields", "tableRows", "raw", not "csv"'],
	])('%j is refused with a clear error and no request', async (parameters, message) => {
		const fake = service({ 'a.pdf': { id: resultId(1) } });
		const result = await run({ parameters: extract(parameters as INodeParameters), input: [await pdfItem('a.pdf')] });
		expect(result.error?.message).toBe(message);
		expect(descriptionOf(result)).toMatch(/Nothing was sent to the service\.$/);
		expect(fake.uploads).toHaveLength(0);
	});

	it('"false" from an expression is false: Wait for Result off outputs the receipt without reading', async () => {
		const fake = service({ 'a.pdf': { id: resultId(1) } });
		const result = await run({ parameters: extract({ waitForResult: '={{ "false" }}', options: { includeBinary: '={{ "false" }}' } }), input: [await pdfItem('a.pdf')] });
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json).toMatchObject({ result_id: resultId(1), status: 'queued' });
		expect(result.outputs[0][0].binary).toBeUndefined();
		expect(fake.reads).toHaveLength(0);
	});

	it('the Poller refuses a timeout that is not a number of seconds, before reading', async () => {
		const unexpected = trapAllRequests();
		const result = await run({ nodeType: 'poller', parameters: { options: { timeout: '={{ "soon" }}' } }, input: [{ json: { result_id: resultId(1) } }] });
		expect(result.error?.message).toBe('Item 1: "Wait Timeout (Seconds)" must be a number greater than 0, not "soon"');
		expect(unexpected).toEqual([]);
	});
});

/**
 * Template Create, Update and Delete write, item by item. Retry On Fail runs the node again after
 * a failed item, and n8n's Retry of a failed execution runs it again in a new execution: neither
 * may repeat a change the service applied, and the error says what was and was not sent.
 */
describe('template changes: every item checked first, each change sent once', () => {
	const createFrom = (name: string) => ({ resource: 'template', operation: 'create', name, fieldsUi: { field: [{ name: 'total', type: 'currency' }] } });
	const scanner = (id: string, name: string) => ({ success: true, scanner_id: id, name, fields: [{ name: 'total', type: 'currency' }], created_at: '2026-01-01T00:00:00.000Z' });
	const LIMIT = { success: false, error_code: 'SCANNER_LIMIT', message: 'Template limit reached', limit: 10 };

	/** The service's create: each name in `refuse` is refused with `LIMIT`, the others created. */
	function templates(refuse: string[] = [], status = 403) {
		const creates: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/scanners').times(20), creates, (request) => {
			const { name } = JSON.parse(String(request.body)) as { name: string };
			return refuse.includes(name) ? [status, LIMIT] : [201, scanner(`scn_${name}`, name)];
		});
		return { creates, names: () => creates.map((request) => (JSON.parse(String(request.body)) as { name: string }).name), unexpected: trapAllRequests() };
	}
	const items = (...names: string[]) => names.map((name) => ({ json: { name } }));

	it('an item that fails its check stops the node before anything is written, whatever Retry On Fail does', async () => {
		const fake = templates();
		const result = await run({ parameters: createFrom('={{ $json.name }}'), input: items('A', ''), retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(result.error?.message).toMatch(/^Item 2: /);
		expect(descriptionOf(result)).toMatch(/Nothing was sent to the service\.$/);
		expect(fake.creates).toHaveLength(0);
		expect(fake.unexpected).toEqual([]);
	});

	it('Create with a second item the service refuses, 3 tries: template A is created once, and the error says so', async () => {
		const fake = templates(['B']);
		const result = await run({ parameters: createFrom('={{ $json.name }}'), input: items('A', 'B', 'C'), retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(result.error?.message).toBe('Item 2: Template limit reached (10 templates)');
		expect(fake.names()).toEqual(['A', 'B', 'B', 'B']);
		const description = descriptionOf(result);
		expect(description).toContain('Applied before this error (Retry On Fail, and n8n\'s Retry of this execution in this n8n process within 7 days, do not send them again):\n- item 1: created template "A"');
		expect(description).toMatch(/Not sent: item 3\.$/);
		expect(fake.unexpected).toEqual([]);
	});

	it("n8n's Retry of the failed execution does not create A again; a new run of the workflow does", async () => {
		const fake = templates(['B']);
		const input = items('A', 'B');
		const cred = credential();
		await run({ parameters: createFrom('={{ $json.name }}'), input, workflowId: 'wf-templates', executionId: 'exec-t1', credential: cred });
		const retried = await run({ parameters: createFrom('={{ $json.name }}'), input, workflowId: 'wf-templates', executionId: 'exec-t2', mode: 'retry', credential: cred });
		expect(fake.names()).toEqual(['A', 'B', 'B']);
		expect(descriptionOf(retried)).toContain('- item 1: created template "A"');
		await run({ parameters: createFrom('={{ $json.name }}'), input: items('A'), workflowId: 'wf-templates', executionId: 'exec-t3', credential: cred });
		expect(fake.names(), 'a new manual run is a new change').toEqual(['A', 'B', 'B', 'A']);
	});

	it("another execution's successful run of the same change does not take away what the failed one kept for its Retry", async () => {
		const fake = templates(['B']);
		const cred = credential();
		const parameters = createFrom('={{ $json.name }}');
		await run({ parameters, input: items('A', 'B'), workflowId: 'wf-templates-apart', executionId: 'exec-a1', mode: 'webhook', credential: cred });
		// Meanwhile the next scheduled execution creates A and ends well.
		const next = await run({ parameters, input: items('A'), workflowId: 'wf-templates-apart', executionId: 'exec-a2', mode: 'webhook', credential: cred });
		expect(next.error).toBeUndefined();
		expect(fake.names()).toEqual(['A', 'B', 'A']);
		// The user retries the failed execution: A was created by it, and is not created a third time.
		const retried = await run({ parameters, input: items('A', 'B'), workflowId: 'wf-templates-apart', executionId: 'exec-a3', mode: 'retry', credential: cred });
		expect(fake.names()).toEqual(['A', 'B', 'A', 'B']);
		expect(descriptionOf(retried)).toContain('- item 1: created template "A"');
	});

	it('Delete under Retry On Fail: a template deleted by the first try is not deleted again', async () => {
		const deletes: SeenRequest[] = [];
		answer(nock(BASE).delete(/\/api\/v1\/scanners\/.+/).times(10), deletes, (request) =>
			request.path.endsWith('scn_gone') ? [404, { success: false, error_code: 'SCANNER_NOT_FOUND', message: 'not found' }] : [200, { success: true, scanner_id: 'scn_a', deleted: true }],
		);
		const unexpected = trapAllRequests();
		const parameters = { resource: 'template', operation: 'delete', templateId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } };
		const result = await run({ parameters, input: [{ json: { id: 'scn_a' } }, { json: { id: 'scn_gone' } }], retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(result.error?.message).toBe('Item 2: The template "scn_gone" does not exist in this account');
		expect(deletes.map((request) => request.path)).toEqual(['/api/v1/scanners/scn_a', '/api/v1/scanners/scn_gone', '/api/v1/scanners/scn_gone', '/api/v1/scanners/scn_gone']);
		expect(descriptionOf(result)).toContain('- item 1: deleted template scn_a');
		expect(unexpected).toEqual([]);
	});

	it('a create that got no clear answer (500) is not sent again by the retries, and the error says why', async () => {
		const fake = templates(['A'], 500);
		const result = await run({ parameters: createFrom('A'), input: items('A'), retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(fake.names()).toEqual(['A']);
		expect(result.error?.message).toBe('Item 1: an earlier try of this execution sent this change and got no clear answer');
		expect(descriptionOf(result)).toMatch(/The change was not sent again: check the template with Get Template or Get Many\.$/);
	});

	it('under Continue, every item leaves once: written, refused or not valid', async () => {
		const fake = templates(['B']);
		const result = await run({ parameters: createFrom('={{ $json.name }}'), input: items('A', 'B', ''), onError: 'continueRegularOutput' });
		expect(fake.names()).toEqual(['A', 'B']);
		expect(pairedItems(result.outputs[0])).toEqual([0, 1, 2]);
		expect(result.outputs[0].map((item) => item.json.scanner_id ?? item.json.error)).toEqual(['scn_A', 'Item 2: Template limit reached (10 templates)', expect.stringMatching(/^Item 3: /)]);
	});
});
