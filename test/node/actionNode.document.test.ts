/**
 * The action node's Document resource through n8n's engine against nock: the exact requests of
 * Extract, Extract with Template and Get Result (URL, key, multipart part), waiting and its
 * timeout, every output mode and option, results without data, and batches.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryItem, runNode, startNode } from '../harness/engine';
import { minimalPdf } from '../harness/documents';
import { pngWithText } from '../fixtures/images';
import {
	BASE,
	answer,
	credential,
	doneResult,
	expectPairedItems,
	failedResult,
	fieldsItemOf,
	NO_DUPLICATE_INVOICE,
	multipartParts,
	pendingResult,
	resultId,
	runAction,
	trapAllRequests,
	uploadAccepted,
	useNock,
	type SeenRequest,
} from './actionNode.support';

useNock();

const ID = resultId(1);

const extract = (parameters: INodeParameters = {}): INodeParameters => ({ resource: 'document', operation: 'extract', ...parameters });

async function pdfItem(fileName = 'invoice.pdf', mimeType = 'application/pdf', property = 'data') {
	const bytes = await minimalPdf();
	return { bytes, item: binaryItem(bytes, fileName, mimeType, property) };
}

/** nock for one upload to `path` answered 202, then result reads answered in turn by `results`. */
function serviceFor(path: string, results: IDataObject[], accepted = uploadAccepted(ID)) {
	const uploads: SeenRequest[] = [];
	const reads: SeenRequest[] = [];
	answer(nock(BASE).post(path), uploads, [202, accepted]);
	for (const result of results) answer(nock(BASE).get(`/api/v1/results/${String(result.result_id)}`), reads, [200, result]);
	return { uploads, reads, unexpected: trapAllRequests() };
}

/** What the Fields output must make of `doneResult`: typed keys, rows as objects, one metadata object. */
const FIELDS_ITEM = fieldsItemOf(ID);

describe('the upload request', () => {
	it('sends the file as multipart part "file" with its name, its bytes and its content type to /process, with the key', async () => {
		const cred = credential();
		const { bytes, item } = await pdfItem('invoice.pdf', 'application/octet-stream');
		const service = serviceFor('/api/v1/process', []);
		const { outputs, error } = await runAction(extract({ waitForResult: false }), [item], { cred });
		expect(error).toBeUndefined();
		expect(service.uploads).toHaveLength(1);
		expect(service.uploads[0].headers['x-api-key']).toBe(cred.apiKey);
		expect(service.uploads[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		const parts = service.uploads[0] && multipartParts(service.uploads[0]);
		expect(parts.map(({ name, filename, contentType }) => ({ name, filename, contentType }))).toEqual([
			{ name: 'file', filename: 'invoice.pdf', contentType: 'application/pdf' },
		]);
		expect(parts[0].data.equals(Buffer.from(bytes))).toBe(true);
		expect(service.unexpected).toEqual([]);
		expect(outputs[0]).toHaveLength(1);
		expect(outputs[0][0]).toEqual({ json: { ...uploadAccepted(ID), document_key: expect.stringMatching(/^[0-9a-f]{64}$/) }, pairedItem: { item: 0 } });
	});

	it('takes the content type from the bytes when the binary data says otherwise, and fixes the extension', async () => {
		const png = pngWithText([{ type: 'tEXt', keyword: 'Comment', text: 'Total 10.00' }]);
		const service = serviceFor('/api/v1/process', []);
		const { error } = await runAction(extract({ waitForResult: false }), [binaryItem(png, 'scan.pdf', 'application/pdf')]);
		expect(error).toBeUndefined();
		const [part] = multipartParts(service.uploads[0]);
		expect(part).toMatchObject({ name: 'file', filename: 'scan.png', contentType: 'image/png' });
		expect(part.data.equals(png)).toBe(true);
	});

	it('reads the file from the binary property named in Input Binary Field', async () => {
		const { bytes, item } = await pdfItem('mail.pdf', 'application/pdf', 'attachment_0');
		const service = serviceFor('/api/v1/process', []);
		const { error } = await runAction(extract({ waitForResult: false, binaryPropertyName: 'attachment_0' }), [item]);
		expect(error).toBeUndefined();
		const [part] = multipartParts(service.uploads[0]);
		expect(part.filename).toBe('mail.pdf');
		expect(part.data.equals(Buffer.from(bytes))).toBe(true);
	});

	it('a file without a name is sent as document-<item>.<type>', async () => {
		const { item } = await pdfItem();
		delete item.binary?.data.fileName;
		const service = serviceFor('/api/v1/process', []);
		await runAction(extract({ waitForResult: false }), [item]);
		expect(multipartParts(service.uploads[0])[0].filename).toBe('document-1.pdf');
	});

	it.each([
		['supplier-42.pdf', 'supplier-42.pdf'],
		['March invoice', 'March invoice.pdf'],
		['  ', 'invoice.pdf'],
		// Quotes escaped as the WHATWG FormData escapes them; UTF-8 kept.
		['Factura "Nº 7"', 'Factura %22Nº 7%22.pdf'],
	])('File Name option "%s" is sent as "%s"', async (fileName, sent) => {
		const { item } = await pdfItem('invoice.pdf');
		const service = serviceFor('/api/v1/process', []);
		const { error } = await runAction(extract({ waitForResult: false, options: { fileName } }), [item]);
		expect(error).toBeUndefined();
		expect(multipartParts(service.uploads[0])[0].filename).toBe(sent);
	});

	it.each(['list', 'id'])('Extract with Template uploads to /scanners/{id}/upload with the template chosen in mode "%s"', async (mode) => {
		const { item } = await pdfItem();
		const service = serviceFor('/api/v1/scanners/scn_invoice/upload', [doneResult(ID)], uploadAccepted(ID, { scanner_id: 'scn_invoice', scanner_name: 'Invoice' }));
		const { outputs, error } = await runAction(
			{ resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode, value: 'scn_invoice' } },
			[item],
		);
		expect(error).toBeUndefined();
		expect(service.uploads).toHaveLength(1);
		expect(multipartParts(service.uploads[0]).map((part) => part.name)).toEqual(['file']);
		expect(outputs[0].map((out) => out.json)).toEqual([FIELDS_ITEM]);
		expect(service.unexpected).toEqual([]);
	});

	it('refuses an empty template choice before any request', async () => {
		const { item } = await pdfItem();
		const unexpected = trapAllRequests();
		// An expression mapping a missing value gives the empty choice n8n's own check cannot see.
		const templateId = { __rl: true, mode: 'id', value: '={{ $json.template_id }}' };
		const { error } = await runAction({ resource: 'document', operation: 'extractWithTemplate', templateId }, [item]);
		expect(error?.message).toBe('Item 1: No template was chosen');
		expect(unexpected).toEqual([]);
	});
});

describe('waiting for the result', () => {
	it('reads the result with the key, no faster than every 2 s, until it is done, then outputs the mapped fields', async () => {
		const cred = credential();
		const { item } = await pdfItem();
		const service = serviceFor('/api/v1/process', [pendingResult(ID, 'queued'), doneResult(ID)]);
		const { outputs, error } = await runAction(extract(), [item], { cred });
		expect(error).toBeUndefined();
		expect(service.reads.map((read) => read.headers['x-api-key'])).toEqual([cred.apiKey, cred.apiKey]);
		expect(service.reads[1].at - service.reads[0].at).toBeGreaterThanOrEqual(2000);
		expect(outputs[0]).toEqual([{ json: FIELDS_ITEM, pairedItem: { item: 0 } }]);
		expect(service.unexpected).toEqual([]);
	});

	it('without waiting outputs the upload receipt and reads nothing', async () => {
		const { item } = await pdfItem();
		const service = serviceFor('/api/v1/process', []);
		const { outputs, error } = await runAction(extract({ waitForResult: false, output: 'raw' }), [item]);
		expect(error).toBeUndefined();
		expect(outputs[0].map((out) => out.json)).toEqual([{ ...uploadAccepted(ID), document_key: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
		expect(outputs[0][0].json).toMatchObject({ tokens_required: 1, tokens_remaining: 19 });
		expect(service.unexpected).toEqual([]);
	});

	/** The result stays in processing for longer than the 1 s wait. */
	function neverDone() {
		const uploads: SeenRequest[] = [];
		const reads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(ID)]);
		answer(nock(BASE).get(`/api/v1/results/${ID}`).times(5), reads, [200, pendingResult(ID, 'processing')]);
		return { uploads, reads };
	}

	it('on timeout with "fail" fails the item, naming the result id, without uploading again', async () => {
		const { item } = await pdfItem();
		const service = neverDone();
		const { error } = await runAction(extract({ options: { waitTimeout: 1, onTimeout: 'fail' } }), [item]);
		expect(error?.message).toBe('Item 1: the document was not processed within 1 second (status "processing")');
		expect((error as unknown as { description: string }).description).toContain(`Result ID ${ID}`);
		expect(service.uploads).toHaveLength(1);
		expect(service.reads.length).toBeGreaterThanOrEqual(1);
	});

	it('on timeout with "fail" under continueOnFail gives an error item with the result id and status', async () => {
		const { item } = await pdfItem();
		neverDone();
		const { outputs, error } = await runAction(extract({ options: { waitTimeout: 1 } }), [item], { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expect(outputs[0][0].json).toMatchObject({ result_id: ID, status: 'processing', error: expect.stringContaining('not processed within 1 second') });
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('on timeout with "emitPending" outputs the pending result for a later Get Result', async () => {
		const { item } = await pdfItem();
		neverDone();
		const { outputs, error } = await runAction(extract({ options: { waitTimeout: 1, onTimeout: 'emitPending' } }), [item]);
		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([{ json: { result_id: ID, status: 'processing', pending: true }, pairedItem: { item: 0 } }]);
	});

	it.each<[string, INodeParameters, number]>([
		['waiting, fields', { output: 'fields' }, 1],
		['waiting, one item per row', { output: 'tableRows' }, 2],
		['not waiting', { waitForResult: false }, 1],
	])('Include Input Binary passes the file through once per document, with its first item (%s)', async (_name, parameters, count) => {
		const { item } = await pdfItem();
		serviceFor('/api/v1/process', parameters.waitForResult === false ? [] : [doneResult(ID)]);
		const { outputs, error } = await runAction(extract({ ...parameters, options: { includeBinary: true } }), [item]);
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(count);
		// One Item per Table Row: the file goes with row 1 only, not a copy on every row.
		outputs[0].forEach((out, index) => expect(out.binary).toEqual(index === 0 ? item.binary : undefined));
	});

	it.each([
		['rejected', failedResult(ID, 'rejected', 'NO_TEXT', 'No readable text')],
		['timed out', pendingResult(ID, 'processing')],
	])('Include Input Binary keeps the file on a failed item too (%s), for whoever reviews it', async (_name, result) => {
		const { item } = await pdfItem();
		nock(BASE).get(`/api/v1/results/${ID}`).times(6).reply(200, result);
		for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
			nock(BASE).post('/api/v1/process').reply(202, uploadAccepted(ID));
			const { outputs, error } = await runNode({
				nodeType: 'action',
				parameters: extract({ options: { includeBinary: true, waitTimeout: 1 } }),
				credential: credential(),
				input: [item],
				onError,
			});
			expect(error).toBeUndefined();
			const failed = onError === 'continueErrorOutput' ? outputs[1] : outputs[0];
			expect(failed).toHaveLength(1);
			expect(failed[0].binary).toEqual(item.binary);
		}
	});

	it('stops reading at once when the execution is cancelled', async () => {
		const { item } = await pdfItem();
		const reads: SeenRequest[] = [];
		nock(BASE).post('/api/v1/process').reply(202, uploadAccepted(ID));
		answer(nock(BASE).get(`/api/v1/results/${ID}`).times(5), reads, [200, pendingResult(ID, 'processing')]);
		const running = startNode({ nodeType: 'action', parameters: extract(), credential: credential(), input: [item] });
		while (reads.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
		const cancelledAt = Date.now();
		running.cancel();
		const { outputs } = await running.result;
		expect(Date.now() - cancelledAt).toBeLessThan(1000);
		expect(outputs).toEqual([]);
		// The next read would have been due 2 s after the first one.
		await new Promise((resolve) => setTimeout(resolve, 2200));
		expect(reads).toHaveLength(1);
	});

	it('without Include Input Binary the output carries no file', async () => {
		const { item } = await pdfItem();
		serviceFor('/api/v1/process', [doneResult(ID)]);
		const { outputs } = await runAction(extract(), [item]);
		expect(outputs[0][0].binary).toBeUndefined();
	});
});

/** The template of `doneResult` (spec 2.1), as Get Template reads it for the review of required fields. */
const INVOICE_TEMPLATE = {
	success: true,
	scanner_id: 'scn_invoice',
	name: 'Invoice',
	fields: [
		{ name: 'invoice_number', type: 'string', required: true },
		{ name: 'total', type: 'currency', required: true },
		{ name: 'due_date', type: 'date' },
	],
};

describe('output of a done result', () => {
	const extractDone = async (parameters: INodeParameters) => {
		const { item } = await pdfItem();
		nock(BASE).get('/api/v1/scanners/scn_invoice').reply(200, INVOICE_TEMPLATE);
		serviceFor('/api/v1/process', [doneResult(ID)]);
		const { outputs, error } = await runAction(extract(parameters), [item]);
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], outputs[0].map(() => 0));
		return outputs[0].map((out) => out.json);
	};

	it('Fields with confidence, source text and a review threshold', async () => {
		const [json] = await extractDone({ output: 'fields', options: { includeConfidence: true, includeSourceFragments: true, reviewThreshold: 0.7 } });
		expect(json).toEqual({
			...FIELDS_ITEM,
			field_confidence: { invoice_number: 0.98, total: 0.6, paid: 0.9, due_date: 0, line_items: 0.8, taxes: 0.7 },
			field_source_text: {
				invoice_number: 'Invoice No. INV-1',
				total: 'Total due 1,234.56',
				paid: 'Unpaid',
				due_date: '',
				line_items: 'Design 1 750.00 / Hosting 12 238.80',
				taxes: 'VAT 20% 205.76',
			},
			needs_review: ['total', 'due_date'],
			needs_review_count: 2,
		});
	});

	it('One Item per Table Row: the first table by default, document fields on every row', async () => {
		const rows = await extractDone({ output: 'tableRows', options: { includeConfidence: true, reviewThreshold: 0.7 } });
		const document = { invoice_number: 'INV-1', total: 1234.56, paid: false, due_date: null, result_id: ID, field_confidence: 0.8, needs_review: 'total, due_date', needs_review_count: 2, reused: false, first_extracted_at: null, ...NO_DUPLICATE_INVOICE };
		expect(rows).toEqual([
			{ line_number: 1, description: 'Design', quantity: 1, amount: 750, ...document },
			{ line_number: 2, description: 'Hosting', quantity: 12, amount: 238.8, ...document },
		]);
	});

	it('One Item per Table Row with Table Field set', async () => {
		const rows = await extractDone({ output: 'tableRows', tableField: 'taxes' });
		expect(rows).toEqual([{ line_number: 1, rate: 20, amount: 205.76, invoice_number: 'INV-1', total: 1234.56, paid: false, due_date: null, result_id: ID, reused: false, first_extracted_at: null, ...NO_DUPLICATE_INVOICE }]);
	});

	it('Raw: the result exactly as the service sent it', async () => {
		expect(await extractDone({ output: 'raw' })).toEqual([doneResult(ID)]);
	});

	it('Review Threshold lists required fields left empty, as the template defines them (extracted fields carry no "required")', async () => {
		const bytes = await minimalPdf();
		const fields = [
			{ name: 'invoice_number', value_type: 'string', value: null, confidence: 0.95 },
			{ name: 'total', value_type: 'currency', value: 10, confidence: 0.95 },
			{ name: 'due_date', value_type: 'date', value: null, confidence: 0.95 },
		];
		const templateReads: SeenRequest[] = [];
		for (const n of [1, 2]) {
			nock(BASE).post('/api/v1/process').reply(202, uploadAccepted(resultId(n)));
			nock(BASE).get(`/api/v1/results/${resultId(n)}`).reply(200, doneResult(resultId(n), { extracted_data: { status: 'ok', fields } }));
		}
		answer(nock(BASE).get('/api/v1/scanners/scn_invoice'), templateReads, [200, INVOICE_TEMPLATE]);
		const unexpected = trapAllRequests();
		const input = [binaryItem(bytes, 'a.pdf', 'application/pdf'), binaryItem(bytes, 'b.pdf', 'application/pdf')];
		const { outputs, error } = await runAction(extract({ options: { reviewThreshold: 0.8 } }), input);
		expect(error).toBeUndefined();
		// invoice_number is required and empty; due_date is empty but optional; all are above 0.8.
		for (const out of outputs[0]) expect(out.json).toMatchObject({ needs_review: ['invoice_number'], needs_review_count: 1 });
		expect(templateReads, 'the template is read once per run, not per document').toHaveLength(1);
		expect(unexpected).toEqual([]);
	});

	it('when the template cannot be read, the review lists fields below the threshold and says so on the node', async () => {
		const { item } = await pdfItem();
		nock(BASE).get('/api/v1/scanners/scn_invoice').reply(404, { success: false, error_code: 'SCANNER_NOT_FOUND', message: 'Scanner not found' });
		serviceFor('/api/v1/process', [doneResult(ID)]);
		const { outputs, error, hints } = await runAction(extract({ options: { reviewThreshold: 0.7 } }), [item]);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toMatchObject({ needs_review: ['total', 'due_date'] });
		expect(hints).toEqual([expect.stringMatching(/^Review Threshold: the template "Invoice" could not be read, so required fields left empty are not listed/)]);
	});

	it('an output setting that cannot be applied fails its item before the upload, so no page is spent', async () => {
		const pdf = await minimalPdf();
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(ID)]);
		nock(BASE).get(`/api/v1/results/${ID}`).reply(200, doneResult(ID));
		nock(BASE).get('/api/v1/scanners/scn_invoice').reply(200, INVOICE_TEMPLATE);
		const unexpected = trapAllRequests();
		const input = [binaryItem(pdf, 'a.pdf', 'application/pdf', 'data', { threshold: 2 }), binaryItem(pdf, 'b.pdf', 'application/pdf', 'data', { threshold: 0.5 })];
		const { outputs, error } = await runAction(extract({ options: { reviewThreshold: '={{ $json.threshold }}' } }), input, { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(multipartParts(uploads[0])[0].filename).toBe('b.pdf');
		expect(outputs[0]).toEqual([
			{ json: expect.objectContaining({ error: 'Item 1: "Review Threshold" must be a number from 0 to 1, not 2' }), pairedItem: { item: 0 } },
			{ json: expect.objectContaining({ invoice_number: 'INV-1', needs_review: ['due_date'] }), pairedItem: { item: 1 } },
		]);
		expect(unexpected).toEqual([]);
	});

	it('a result in a state the spec does not list fails the item instead of waiting for ever', async () => {
		const { item } = await pdfItem();
		serviceFor('/api/v1/process', [{ ...pendingResult(ID, 'queued'), status: 'archived' }]);
		const { error } = await runAction(extract(), [item]);
		expect(error?.message).toBe('Item 1: The document "invoice.pdf" has a status this node does not know: "archived"');
	});

	it('a Table Field the result does not have fails the item and names the tables it has', async () => {
		const { item } = await pdfItem();
		serviceFor('/api/v1/process', [doneResult(ID)]);
		const { error } = await runAction(extract({ output: 'tableRows', tableField: 'lines' }), [item]);
		expect(error?.message).toBe('Item 1: The result has no field named "lines" (set in Table Field)');
		expect((error as unknown as { description: string }).description).toContain('"line_items", "taxes"');
	});
});

describe('results without data', () => {
	const rejected = failedResult(ID, 'rejected', 'NO_TEXT', 'No readable text in the file');
	const errored = failedResult(ID, 'error', 'INTERNAL_ERROR', 'Extraction failed');

	it.each([
		[rejected, 'Item 1: The document "scan.pdf" was rejected: no readable text was found in it (NO_TEXT)', /No readable text in the file.*No pages of your quota were used/],
		[errored, 'Item 1: The document "scan.pdf" could not be processed: the service failed while processing it (INTERNAL_ERROR)', /Extraction failed/],
	])('a $status result fails the item with the service\'s code and message', async (result, message, description) => {
		const { item } = await pdfItem();
		serviceFor('/api/v1/process', [result]);
		const { error, outputs } = await runAction(extract(), [item]);
		expect(error?.message).toBe(message);
		expect((error as unknown as { description: string }).description).toMatch(description);
		expect(outputs).toEqual([]);
	});

	it.each([rejected, errored])('a $status result under continueOnFail is an item with status and error', async (result) => {
		const { item } = await pdfItem();
		serviceFor('/api/v1/process', [result]);
		const { error, outputs } = await runAction(extract(), [item], { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
		expect(outputs[0][0].json).toMatchObject({
			result_id: ID,
			status: result.status,
			error: expect.stringContaining(`(${String(result.error_code)})`),
			error_description: expect.stringContaining(String(result.error_message)),
			file_name: 'scan.pdf',
		});
	});
});

describe('several items', () => {
	it('uploads every item first, then waits for all results together; each output pairs with its input', async () => {
		const events: string[] = [];
		const upload = (n: number) =>
			nock(BASE)
				.post('/api/v1/process')
				.reply(() => {
					events.push(`upload ${n}`);
					return [202, uploadAccepted(resultId(n), { filename: `invoice-${n}.pdf` })];
				});
		const read = (n: number) =>
			nock(BASE)
				.get(`/api/v1/results/${resultId(n)}`)
				.reply(() => {
					events.push(`read ${n}`);
					const fields = [{ name: 'invoice_number', value_type: 'string', value: `INV-${n}`, confidence: 0.9 }];
					return [200, doneResult(resultId(n), { filename: `invoice-${n}.pdf`, extracted_data: { status: 'ok', fields } })];
				});
		for (const n of [1, 2, 3]) {
			upload(n);
			read(n);
		}
		const unexpected = trapAllRequests();
		const bytes = await minimalPdf();
		const input = [1, 2, 3].map((n) => binaryItem(bytes, `invoice-${n}.pdf`, 'application/pdf'));
		const { outputs, error } = await runAction(extract(), input);
		expect(error).toBeUndefined();
		expect(events.slice(0, 3)).toEqual(['upload 1', 'upload 2', 'upload 3']);
		expect([...events.slice(3)].sort()).toEqual(['read 1', 'read 2', 'read 3']);
		expectPairedItems(outputs[0], [0, 1, 2]);
		for (const out of outputs[0]) {
			expect(out.json.invoice_number).toBe(`INV-${(out.pairedItem as { item: number }).item + 1}`);
		}
		expect(unexpected).toEqual([]);
	});

	it('under continueOnFail every input item leaves exactly once, whatever happened to it', async () => {
		// Item 1: done. Item 2: empty file (preflight). Item 3: rejected. Item 4: quota exhausted at upload.
		nock(BASE).post('/api/v1/process').reply(202, uploadAccepted(resultId(1)));
		nock(BASE).post('/api/v1/process').reply(202, uploadAccepted(resultId(3)));
		nock(BASE).post('/api/v1/process').reply(402, {
			success: false,
			error_code: 'INSUFFICIENT_TOKENS',
			message: 'No pages left',
			tokens_required: 1,
			tokens_available: 0,
			plan: 'free',
		});
		nock(BASE).get(`/api/v1/results/${resultId(1)}`).reply(200, doneResult(resultId(1)));
		nock(BASE).get(`/api/v1/results/${resultId(3)}`).reply(200, failedResult(resultId(3), 'rejected', 'NO_TEXT', 'No text'));
		const unexpected = trapAllRequests();
		const pdf = await minimalPdf();
		const input = [
			binaryItem(pdf, 'a.pdf', 'application/pdf'),
			binaryItem(new Uint8Array(0), 'b.pdf', 'application/pdf'),
			binaryItem(pdf, 'c.pdf', 'application/pdf'),
			binaryItem(pdf, 'd.pdf', 'application/pdf'),
		];
		const { outputs, error } = await runAction(extract(), input, { continueOnFail: true });
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 1, 2, 3]);
		const byItem = new Map(outputs[0].map((out) => [(out.pairedItem as { item: number }).item, out.json]));
		expect(byItem.get(0)).toMatchObject({ invoice_number: 'INV-1' });
		expect(byItem.get(1)).toMatchObject({ error: 'Item 2 (b.pdf): The file is empty (0 bytes)' });
		expect(byItem.get(2)).toMatchObject({ status: 'rejected', error: expect.stringContaining('NO_TEXT') });
		expect(byItem.get(3)).toMatchObject({ error_code: 'INSUFFICIENT_TOKENS', http_status: 402, error: expect.stringContaining('needs 1, 0 left on the free plan') });
		expect(unexpected).toEqual([]);
	});
});

describe('Get Result', () => {
	const getResult = (parameters: INodeParameters = {}): INodeParameters => ({ resource: 'document', operation: 'getResult', resultId: ID, ...parameters });

	it('reads the result once with the key and maps a done result', async () => {
		const cred = credential();
		const reads: SeenRequest[] = [];
		answer(nock(BASE).get(`/api/v1/results/${ID}`), reads, [200, doneResult(ID)]);
		const unexpected = trapAllRequests();
		const { outputs, error } = await runAction(getResult(), [{ json: {} }], { cred });
		expect(error).toBeUndefined();
		expect(reads.map((read) => read.headers['x-api-key'])).toEqual([cred.apiKey]);
		// Get Result runs no duplicate-invoice check (docs/duplicate-invoices.md): none of its keys.
		const extraction = Object.fromEntries(Object.entries(FIELDS_ITEM.extraction as IDataObject).filter(([key]) => !(key in NO_DUPLICATE_INVOICE)));
		expect(outputs[0]).toEqual([{ json: { ...FIELDS_ITEM, extraction }, pairedItem: { item: 0 } }]);
		expect(unexpected).toEqual([]);
	});

	it('takes the result id from the input item by default ({{ $json.result_id }})', async () => {
		const scope = nock(BASE).get(`/api/v1/results/${ID}`).reply(200, doneResult(ID));
		const { outputs, error } = await runAction({ resource: 'document', operation: 'getResult', output: 'raw' }, [{ json: { result_id: ID } }]);
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(outputs[0][0].json).toEqual(doneResult(ID));
	});

	it.each(['queued', 'processing'] as const)('a %s result is output as pending, once', async (status) => {
		nock(BASE).get(`/api/v1/results/${ID}`).reply(200, pendingResult(ID, status));
		const unexpected = trapAllRequests();
		const { outputs, error } = await runAction(getResult(), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([{ json: { result_id: ID, status, pending: true }, pairedItem: { item: 0 } }]);
		expect(unexpected).toEqual([]);
	});

	it.each([
		[failedResult(ID, 'rejected', 'NO_TEXT', 'No text'), /The document "scan\.pdf" was rejected: no readable text was found in it \(NO_TEXT\)/],
		[failedResult(ID, 'error', 'UPLOAD_PARSE_ERROR', 'Unreadable'), /The document "scan\.pdf" could not be processed: the service could not read the uploaded file \(UPLOAD_PARSE_ERROR\)/],
	])('a $status result fails the item; under continueOnFail it is an item with status and error', async (result, message) => {
		nock(BASE).get(`/api/v1/results/${ID}`).twice().reply(200, result);
		const failed = await runAction(getResult(), [{ json: {} }]);
		expect(failed.error?.message).toMatch(new RegExp(`^Item 1: ${message.source}`));
		const continued = await runAction(getResult(), [{ json: {} }], { continueOnFail: true });
		expect(continued.outputs[0]).toHaveLength(1);
		expect(continued.outputs[0][0].json).toMatchObject({
			result_id: ID,
			status: result.status,
			error: expect.stringMatching(message),
			error_description: expect.stringContaining(String(result.error_message)),
		});
		expect(continued.outputs[0][0].pairedItem).toEqual({ item: 0 });
	});

	it.each([
		['not-a-uuid', '"not-a-uuid" is not a result ID'],
		['../scanners', '"../scanners" is not a result ID'],
		['..%2Fscanners', '"..%2Fscanners" is not a result ID'],
		[`${ID}/../../scanners`, `"${ID}/../../scanners" is not a result ID`],
		[`${ID}%2F..%2Fscanners`, `"${ID}%2F..%2Fscanners" is not a result ID`],
		[`${ID}?status=done`, `"${ID}?status=done" is not a result ID`],
		[`${ID}#done`, `"${ID}#done" is not a result ID`],
		// The default {{ $json.result_id }} on an item without one.
		['={{ $json.result_id }}', 'The result ID is empty'],
	])('refuses %j before any request', async (value, message) => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(getResult({ resultId: value }), [{ json: {} }]);
		expect(error?.message).toBe(`Item 1: ${message}`);
		expect((error as unknown as { description: string }).description).toContain('Nothing was sent to the service.');
		expect(unexpected).toEqual([]);
	});

	it.each([
		[[resultId(1), resultId(2), resultId(3)], 'The result ID is a list of 3 values, not one ID', /split the list into items first/],
		[{ result_id: resultId(1), status: 'queued' }, 'The result ID is an object (with "result_id", "status"), not an ID', /Map the field that holds the ID/],
		[true, 'The result ID is true, not an ID', /Map the result_id field/],
	])('an expression giving %j is named for what it is, not called empty', async (value, message, advice) => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(getResult({ resultId: '={{ $json.value }}' }), [{ json: { value } as IDataObject }]);
		expect(error?.message).toBe(`Item 1: ${message}`);
		expect((error as unknown as { description: string }).description).toMatch(advice);
		expect(unexpected).toEqual([]);
	});

	it('under continueOnFail a bad id fails only its own item', async () => {
		nock(BASE).get(`/api/v1/results/${ID}`).reply(200, doneResult(ID));
		const unexpected = trapAllRequests();
		const { outputs, error } = await runAction({ resource: 'document', operation: 'getResult', output: 'raw' }, [{ json: { result_id: '../scanners' } }, { json: { result_id: ID } }], {
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([
			{ json: expect.objectContaining({ error: 'Item 1: "../scanners" is not a result ID' }), pairedItem: { item: 0 } },
			{ json: doneResult(ID), pairedItem: { item: 1 } },
		]);
		expect(unexpected).toEqual([]);
	});
});
