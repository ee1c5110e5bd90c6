/**
 * n8n's own error handling and hostile files (issue 12), through n8n's engine against the
 * sandbox: "On Error" = Stop, Continue and Continue (using error output), "Retry On Fail" run by
 * the engine's retry loop, options from expressions, crafted and encrypted PDFs. Every scenario
 * ends with `Scenario.finish()`: no file received twice, pages charged only for accepted uploads,
 * no key visible, and so on.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MAX_PDF_WORK, readPdfStructure } from '../../nodes/shared/preflight/pdf/structure';
import { binaryItem, type RunResult } from '../harness/engine';
import { minimalPdf } from '../harness/documents';
import { QPDF_AVAILABLE, QPDF_MISSING_MESSAGE, qpdfEncrypt } from '../harness/corpus';
import { skipNotice } from '../harness/skipNotice';
import { extractParameters, numberedPdf, pdfItems, Scenario, useSandbox, useShortBackoff, type Route } from './support';

const sandbox = useSandbox();
useShortBackoff();

const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
const itemOf = (items: INodeExecutionData[], index: number) => items.find((item) => pairedIndex(item) === index)?.json as IDataObject;
const contextOf = (run: RunResult) => (run.error as unknown as { context?: IDataObject } | undefined)?.context ?? {};

/** A PDF with no text at all: the sandbox rejects it (NO_TEXT) and gives its page back. */
let blank: Promise<Uint8Array> | undefined;
const blankPdf = () => (blank ??= minimalPdf([]));

async function documents(tag: string, count: number): Promise<Uint8Array[]> {
	return await Promise.all(Array.from({ length: count }, (_, n) => numberedPdf(tag, n + 1)));
}

/** Result ids the sandbox accepted for this scenario's account. */
function acceptedResultIds(scenario: Scenario): string[] {
	return scenario.sandbox
		.stats()
		.uploads.filter((upload) => upload.accountId === scenario.accountId && upload.resultId)
		.map((upload) => upload.resultId as string);
}

describe('On Error: Continue (using error output)', () => {
	it('action node: extracted documents on the success output, rejected and refused ones on the error output with their result IDs', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const [first, second] = await documents('erroroutput', 2);
		const input = [...pdfItems([first]), binaryItem(await blankPdf(), 'blank.pdf', 'application/pdf', 'data', { n: 2 }), binaryItem(new Uint8Array(0), 'empty.pdf', 'application/pdf', 'data', { n: 3 }), ...pdfItems([second], 'last')];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, onError: 'continueErrorOutput' });
		scenario.expectRoutes(run, 'action', ['ok', 'errorOutput', 'errorOutput', 'ok']);
		const [success, failed] = run.outputs;
		expect(success.map(pairedIndex)).toEqual([0, 3]);
		// The input's own fields (n) come along, merged by n8n under the error's.
		expect(itemOf(failed, 1)).toMatchObject({ n: 2, message: expect.stringMatching(/^Item 2: .* was rejected/), error: { status: 'rejected', error_code: 'NO_TEXT', result_id: expect.any(String) } });
		expect(itemOf(failed, 2)).toMatchObject({ n: 3, message: 'Item 3 (empty.pdf): The file is empty (0 bytes)' });
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
	});

	it('Poller: unreadable and malformed result IDs go to n8n\'s error output; rejected documents to Rejected', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const receipts = await scenario.run({
			nodeType: 'action',
			label: 'upload',
			parameters: extractParameters(false),
			input: [...pdfItems(await documents('poller-eo', 2)), binaryItem(await blankPdf(), 'blank.pdf', 'application/pdf')],
		});
		const unknown = { json: { result_id: '00000000-0000-4000-8000-000000000000' } };
		const input = [...receipts.outputs[0], unknown, { json: { result_id: 'not-an-id' } }];
		const run = await scenario.run({ nodeType: 'poller', parameters: { options: { timeout: 60 } }, input, onError: 'continueErrorOutput' });
		scenario.expectRoutes(run, 'poller', ['done', 'done', 'rejected', 'errorOutput', 'errorOutput']);
		expect(itemOf(run.outputs[4], 3)).toMatchObject({
			message: 'Item 4: No result with ID 00000000-0000-4000-8000-000000000000 exists in this account',
			error: { error_code: 'RESULT_NOT_FOUND', http_status: 404 },
		});
		await scenario.finish();
	});
});

describe('On Error: Stop', () => {
	it('a rejected document in a batch of 4: the others finish, and the error names it and lists every uploaded result ID', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const files = await documents('stop-batch', 3);
		const input = [...pdfItems(files.slice(0, 2)), binaryItem(await blankPdf(), 'blank.pdf', 'application/pdf'), ...pdfItems(files.slice(2), 'last')];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input });
		expect(run.error?.message).toMatch(/^Item 3: The document "blank\.pdf" was rejected: no readable text was found in it \(NO_TEXT\)$/);
		const listed = (contextOf(run).documents as IDataObject[]).map((document) => document.result_id);
		expect(listed.sort()).toEqual(acceptedResultIds(scenario).sort());
		expect((contextOf(run).documents as IDataObject[]).map((document) => document.outcome)).toEqual(['done', 'done', 'failed', 'done']);
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(4);
	});

	it('a good PDF followed by an empty file: stopped before the first upload, nothing charged', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'free' });
		const [good] = await documents('stop-first', 1);
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input: [...pdfItems([good]), binaryItem(new Uint8Array(0), 'empty.pdf', 'application/pdf')] });
		expect(run.error?.message).toBe('Item 2 (empty.pdf): The file is empty (0 bytes)');
		const stats = await scenario.finish({ refusedBeforehand: [good] });
		expect(stats.uploads).toHaveLength(0);
	});

	it('Poller: one unknown result ID among 3 stops the node only after the others are read, naming the ID and listing them', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const receipts = await scenario.run({ nodeType: 'action', label: 'upload', parameters: extractParameters(false), input: pdfItems(await documents('stop-poller', 2)) });
		const unknown = '00000000-0000-4000-8000-00000000abcd';
		const input = [receipts.outputs[0][0], { json: { result_id: unknown } }, receipts.outputs[0][1]];
		const run = await scenario.run({ nodeType: 'poller', parameters: { options: { timeout: 60 } }, input });
		expect(run.error?.message).toBe(`Item 2: No result with ID ${unknown} exists in this account`);
		expect(contextOf(run).documents).toEqual([
			expect.objectContaining({ item: 1, outcome: 'done' }),
			{ item: 2, result_id: unknown, uploaded: false, reused: false, outcome: 'failed' },
			expect.objectContaining({ item: 3, outcome: 'done' }),
		]);
		const stats = await scenario.finish();
		expect(stats.requests.getResult).toBe(3);
	});
});

describe('Retry On Fail', () => {
	it('3 tries of a batch with a rejected document: every file is received once; each try reads the results again', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const input = [...pdfItems(await documents('retry', 2)), binaryItem(await blankPdf(), 'blank.pdf', 'application/pdf')];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(run.error?.message).toMatch(/^Item 3: .* was rejected/);
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
		expect(stats.requests.getResult).toBeGreaterThanOrEqual(9);
	});

	it('"Continue" with Retry On Fail: n8n re-runs the node while its first item is an error item; nothing is uploaded again', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const input = [binaryItem(await blankPdf(), 'blank.pdf', 'application/pdf'), ...pdfItems(await documents('retry-continue', 2))];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, onError: 'continueRegularOutput', retry: { maxTries: 2, waitBetweenTries: 0 } });
		scenario.expectRoutes(run, 'action', ['error', 'ok', 'ok']);
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
		expect(stats.requests.getResult, 'the engine ran the node twice').toBeGreaterThanOrEqual(6);
	});

	it("n8n's Retry of the failed execution (a new execution, mode retry): no file is received twice, the results are read", async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const input = [...pdfItems(await documents('execution-retry', 2)), binaryItem(await blankPdf(), 'blank.pdf', 'application/pdf')];
		const workflowId = `wf-retry-${scenario.accountId}`;
		const failed = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, workflowId });
		expect(failed.error?.message).toMatch(/^Item 3: .* was rejected/);
		const retried = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, workflowId, mode: 'retry' });
		expect(retried.error?.message).toMatch(/^Item 3: .* was rejected/);
		// The same documents and outcomes; each one now an earlier upload's result, not charged again.
		const asReused = (documents: unknown) => (documents as IDataObject[]).map((document) => ({ ...document, uploaded: false, reused: true }));
		expect(contextOf(retried).documents).toEqual(asReused(contextOf(failed).documents));
		expect((contextOf(failed).documents as IDataObject[]).every((document) => document.uploaded === true)).toBe(true);
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(3);
	});

	it('Template Create of 3 where the plan has room for 2, Retry On Fail then n8n\'s Retry: each template is created once', async (context) => {
		const scenario = Scenario.open(sandbox(), context);
		const parameters = { resource: 'template', operation: 'create', name: '={{ $json.name }}', fieldsUi: { field: [{ name: 'total', type: 'currency' }] } };
		const input = ['Supplier A', 'Supplier B', 'Supplier C'].map((name) => ({ json: { name } }));
		const workflowId = `wf-templates-${scenario.accountId}`;
		const first = await scenario.run({ nodeType: 'action', parameters, input, workflowId, retry: { maxTries: 3, waitBetweenTries: 0 } });
		expect(first.error?.message).toMatch(/^Item 3: Template limit reached/);
		expect(String((first.error as unknown as { description?: string }).description)).toContain('- item 1: created template "Supplier A"\n- item 2: created template "Supplier B"');
		await scenario.run({ nodeType: 'action', parameters, input, workflowId, mode: 'retry' });
		const stats = await scenario.finish();
		// Item 3 is refused on each of the 3 tries and on the Retry; A and B are sent once.
		expect(stats.requests.createScanner).toBe(2 + 3 + 1);
		const listed = (await (await fetch(`${scenario.sandbox.baseUrl}/api/v1/scanners`, { headers: { 'x-api-key': scenario.key } })).json()) as { scanners: Array<{ name: string }> };
		expect(listed.scanners.map((template) => template.name).filter((name) => name.startsWith('Supplier')).sort()).toEqual(['Supplier A', 'Supplier B']);
	});

	it('an upload accepted but never answered (connection dropped) is not sent again by the retries; the item says why', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		scenario.sandbox.faults.enqueue('process', 'dropAfterBody');
		const input = pdfItems(await documents('retry-drop', 2));
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, onError: 'continueRegularOutput', retry: { maxTries: 3, waitBetweenTries: 0 } });
		scenario.expectRoutes(run, 'action', ['error', 'ok']);
		expect(itemOf(run.outputs[0], 0)).toMatchObject({
			error: 'Item 1: an earlier try of this execution sent this document and got no clear answer',
			error_description: expect.stringMatching(/^The earlier try ended with: Could not reach the service.*The upload was not sent again: the service may have accepted it, and a second upload would be charged twice/),
		});
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(2);
		expect(stats.droppedConnections).toBe(1);
	});
});

describe('options from expressions', () => {
	it('a Wait Timeout of "5 minutes", a threshold of "high" and a Limit of -1 are refused before anything is sent; "false" is false', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'free' });
		const [file] = await documents('expr', 1);
		const refused: Array<[INodeParameters, string]> = [
			[extractParameters(true, { options: { waitTimeout: '={{ "5 minutes" }}' } }), 'Item 1: "Wait Timeout (Seconds)" must be a number greater than 0, not "5 minutes"'],
			[extractParameters(true, { options: { reviewThreshold: '={{ "high" }}' } }), 'Item 1: "Review Threshold" must be a number from 0 to 1, not "high"'],
			[{ resource: 'template', operation: 'getMany', returnAll: false, limit: -1 }, 'Item 1: "Limit" must be a whole number of at least 1, not -1'],
		];
		for (const [parameters, message] of refused) {
			const run = await scenario.run({ nodeType: 'action', label: String(parameters.operation), parameters, input: pdfItems([file]) });
			expect(run.error?.message).toBe(message);
		}
		expect(scenario.sandbox.stats().uploads).toHaveLength(0);
		const receipt = await scenario.run({ nodeType: 'action', label: 'waitForResult "false"', parameters: extractParameters(true, { waitForResult: '={{ "false" }}' }), input: pdfItems([file]) });
		scenario.expectRoutes(receipt, 'action', ['ok']);
		expect(receipt.outputs[0][0].json).toMatchObject({ status: 'queued', tokens_required: 1 });
		const stats = await scenario.finish();
		expect(stats.requests.getResult, '"false" did not wait').toBe(0);
	});
});

describe('hostile and protected PDFs', () => {
	const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
	const crafted = {
		'object headers without endobj': () => latin1(`%PDF-1.7\n${'1 0 obj\n'.repeat(537_000)}trailer<</Root 1 0 R>>\n%%EOF\n`),
		'a cyclic page tree': () => {
			const chain = Array.from({ length: 70_000 }, (_, i) => `${i + 2} 0 obj<</Type/Pages/Count 1/Kids[${i + 3 > 70_001 ? 2 : i + 3} 0 R]>>endobj\n`).join('');
			return latin1(`%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n${chain}trailer<</Root 1 0 R>>\n%%EOF\n`);
		},
	};

	it('4.3 MB crafted PDFs: the preflight reads each within its work limit and lets the service decide', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const files = Object.values(crafted).map((make) => make());
		for (const file of files) {
			const structure = await readPdfStructure(file);
			expect(structure.work).toBeLessThanOrEqual(6 * file.length);
			expect(structure.work).toBeLessThan(MAX_PDF_WORK);
			expect(structure.pages).toBeNull();
		}
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(false), input: files.map((file, n) => binaryItem(file, `crafted-${n + 1}.pdf`, 'application/pdf')) });
		scenario.expectRoutes(run, 'action', ['ok', 'ok']);
		const stats = await scenario.finish();
		expect(stats.uploads).toHaveLength(2);
	});

	it.skipIf(!QPDF_AVAILABLE)('encrypted PDFs: one that opens without a password is extracted; one that needs a password is refused before sending', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const source = await minimalPdf(['Invoice Number: ENC-0001', 'Total: 42.00 EUR']);
		const ownerOnly = qpdfEncrypt(source, '', 'owner-secret', ['256']);
		const locked = qpdfEncrypt(source, 'user-secret', 'owner-secret', ['256']);
		const input = [binaryItem(ownerOnly, 'print-protected.pdf', 'application/pdf'), binaryItem(locked, 'locked.pdf', 'application/pdf')];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, onError: 'continueRegularOutput' });
		const routes: Route[] = ['ok', 'error'];
		scenario.expectRoutes(run, 'action', routes);
		expect(itemOf(run.outputs[0], 1).error).toMatch(/^Item 2 \(locked\.pdf\): The PDF is protected by a password that is needed to open it/);
		const stats = await scenario.finish({ refusedBeforehand: [locked] });
		expect(stats.uploads.map((upload) => upload.filename)).toEqual(['print-protected.pdf']);
	});

	if (!QPDF_AVAILABLE) skipNotice(QPDF_MISSING_MESSAGE);
});
