import { NodeOperationError, type IExecuteFunctions, type INode } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { outputOptionsCollection, outputProperties, readOutputOptions } from '../../nodes/shared/output/descriptions';
import { doneResultToJson, markCharge, markPreparation } from '../../nodes/shared/output/mapping';
import { OutputMappingError, type OutputOptions } from '../../nodes/shared/output/options';
import { describeUnsuccessfulResult, unsuccessfulResultToJson } from '../../nodes/shared/output/unsuccessful';
import type { ExtractedField, Result } from '../../nodes/shared/schemas';

const RESULT_ID = '5b7c2a1e-4d3f-4e8a-9c1b-2f6d8e0a1b3c';

const lines = () => [
	{ description: 'Widget', qty: 2, unit_price: 10.5 },
	{ description: 'Gadget', qty: 1, unit_price: 99, note: 'backorder' },
];

function invoiceResult(fields?: ExtractedField[]): Result {
	return {
		success: true,
		result_id: RESULT_ID,
		status: 'done',
		scanner_id: 'scn_invoice',
		scanner_name: 'Invoice',
		filename: 'invoice-2024-001.pdf',
		file_type: 'pdf',
		tokens_used: '2',
		created_at: '2024-05-01T10:00:00Z',
		source_type: 'api',
		confidence: 0.87,
		extracted_data: {
			status: 'ok',
			scanner_name: 'Invoice',
			language: 'en',
			extracted_at: '2024-05-01T10:00:09Z',
			summary: { fields_with_values: 3, fields_null: 1 },
			doc_metadata: { num_paginas: 2, tipo_archivo: 'pdf', ocr_provider: 'ocr-x', idioma_detectado_ocr: 'en' },
			fields: fields ?? [
				{ name: 'invoice_number', label: 'Invoice Number', value_type: 'string', value: 'INV-001', confidence: 0.99, source_fragment: 'Invoice No. INV-001' },
				{ name: 'total', label: 'Total', value_type: 'currency', value: 1234.56, confidence: 0.72, source_fragment: 'Total due 1,234.56' },
				{ name: 'paid', value_type: 'boolean', value: false, confidence: 0.9 },
				{ name: 'due_date', value_type: 'date', value: null, confidence: null, required: true },
				{ name: 'po_number', value_type: 'string', value: null, confidence: null },
				{ name: 'lines', value_type: 'table', value: lines(), confidence: 0.81, source_fragment: 'Widget 2 10.50 ...' },
			],
			compliance: { vat_id_valid: true, issues: [] },
			balance_check: { ok: true },
			auto: { candidates: ['Invoice', 'Receipt'] },
			model_version: '2024-04',
		},
	};
}

const fieldsMode: OutputOptions = { mode: 'fields' };

describe('doneResultToJson: fields', () => {
	it('gives one item with typed values, tables as row lists and one extraction object', () => {
		const items = doneResultToJson(invoiceResult(), fieldsMode);
		expect(items).toEqual([
			{
				invoice_number: 'INV-001',
				total: 1234.56,
				paid: false,
				due_date: null,
				po_number: null,
				lines: lines(),
				extraction: {
					result_id: RESULT_ID,
					status: 'done',
					template: { id: 'scn_invoice', name: 'Invoice' },
					file_name: 'invoice-2024-001.pdf',
					file_type: 'pdf',
					confidence: 0.87,
					pages_used: 2,
					reused: false,
					language: 'en',
					extracted_at: '2024-05-01T10:00:09Z',
					created_at: '2024-05-01T10:00:00Z',
					summary: { fields_with_values: 3, fields_null: 1 },
					// No doc_metadata: it repeats file type, pages and language under Spanish names.
					compliance: { vat_id_valid: true, issues: [] },
					balance_check: { ok: true },
					auto: { candidates: ['Invoice', 'Receipt'] },
					model_version: '2024-04',
				},
			},
		]);
	});

	it('keeps values as the service sent them: a numeric string stays a string, objects are never stringified', () => {
		const [item] = doneResultToJson(
			invoiceResult([
				{ name: 'total', value_type: 'currency', value: '1234.56' },
				{ name: 'amount', value_type: 'number', value: 7 },
				{ name: 'odd', value_type: 'string', value: { unexpected: ['shape'] } },
			]),
			fieldsMode,
		);
		expect(item.total).toBe('1234.56');
		expect(item.amount).toBe(7);
		expect(item.odd).toEqual({ unexpected: ['shape'] });
	});

	it.each([
		[3, 3],
		['3', 3],
		[' 12 ', 12],
		['n/a', 'n/a'],
		[null, null],
		[undefined, null],
	])('reports tokens_used %j as pages_used %j', (tokensUsed, pagesUsed) => {
		const [item] = doneResultToJson({ ...invoiceResult(), tokens_used: tokensUsed }, fieldsMode);
		expect((item.extraction as Record<string, unknown>).pages_used).toBe(pagesUsed);
	});

	it('copies: changing the output never changes the result', () => {
		const result = invoiceResult();
		const [item] = doneResultToJson(result, fieldsMode);
		(item.lines as Array<Record<string, unknown>>)[0].qty = 99;
		((item.extraction as Record<string, unknown>).compliance as Record<string, unknown>).vat_id_valid = false;
		expect((result.extracted_data?.fields[5].value as Array<Record<string, unknown>>)[0].qty).toBe(2);
		expect((result.extracted_data?.compliance as Record<string, unknown>).vat_id_valid).toBe(true);
	});

	it('adds field_confidence and field_source_text per field when asked', () => {
		const [item] = doneResultToJson(invoiceResult(), { mode: 'fields', includeConfidence: true, includeSourceFragments: true });
		expect(item.field_confidence).toEqual({ invoice_number: 0.99, total: 0.72, paid: 0.9, due_date: null, po_number: null, lines: 0.81 });
		expect(item.field_source_text).toEqual({
			invoice_number: 'Invoice No. INV-001',
			total: 'Total due 1,234.56',
			paid: null,
			due_date: null,
			po_number: null,
			lines: 'Widget 2 10.50 ...',
		});
	});

	it('lists fields below the review threshold and required fields left empty', () => {
		const [strict] = doneResultToJson(invoiceResult(), { mode: 'fields', reviewThreshold: 0.85 });
		expect(strict.needs_review).toEqual(['total', 'due_date', 'lines']);
		expect(strict.needs_review_count).toBe(3);

		const [lenient] = doneResultToJson(invoiceResult(), { mode: 'fields', reviewThreshold: 0.5 });
		expect(lenient.needs_review).toEqual(['due_date']);
		expect(lenient.needs_review_count).toBe(1);

		const [off] = doneResultToJson(invoiceResult(), fieldsMode);
		expect(off).not.toHaveProperty('needs_review');
		expect(off).not.toHaveProperty('needs_review_count');
		expect(off).not.toHaveProperty('field_confidence');
		expect(off).not.toHaveProperty('field_source_text');
	});

	it('gives the document metadata even when the service sent no fields', () => {
		const result: Result = { result_id: RESULT_ID, status: 'done' };
		expect(doneResultToJson(result, { mode: 'fields', reviewThreshold: 0.9 })).toEqual([
			{
				extraction: {
					result_id: RESULT_ID,
					status: 'done',
					template: { id: null, name: null },
					file_name: null,
					file_type: null,
					confidence: null,
					pages_used: null,
					reused: false,
					language: null,
					extracted_at: null,
					created_at: null,
					summary: null,
				},
				needs_review: [],
				needs_review_count: 0,
			},
		]);
	});
});

describe('doneResultToJson: one item per table row', () => {
	const rowsMode: OutputOptions = { mode: 'tableRows' };

	it('spreads the first table into flat rows: columns (union, missing = null), document fields, line_number, result_id', () => {
		expect(doneResultToJson(invoiceResult(), rowsMode)).toEqual([
			{
				line_number: 1,
				description: 'Widget',
				qty: 2,
				unit_price: 10.5,
				note: null,
				invoice_number: 'INV-001',
				total: 1234.56,
				paid: false,
				due_date: null,
				po_number: null,
				result_id: RESULT_ID,
			},
			{
				line_number: 2,
				description: 'Gadget',
				qty: 1,
				unit_price: 99,
				note: 'backorder',
				invoice_number: 'INV-001',
				total: 1234.56,
				paid: false,
				due_date: null,
				po_number: null,
				result_id: RESULT_ID,
			},
		]);
	});

	it('keeps every row with the same keys in the same order (a spreadsheet header)', () => {
		const rows = doneResultToJson(invoiceResult(), rowsMode);
		expect(Object.keys(rows[0])).toEqual(Object.keys(rows[1]));
	});

	it('prefixes a document field named like a column, and a column named like a row key', () => {
		const [row] = doneResultToJson(
			invoiceResult([
				{ name: 'description', value: 'March supplies' },
				{ name: 'items', value_type: 'table', value: [{ description: 'Bolt', line_number: 'A-7', result_id: 'x' }] },
			]),
			rowsMode,
		);
		expect(row).toEqual({
			line_number: 1,
			description: 'Bolt',
			column_line_number: 'A-7',
			column_result_id: 'x',
			document_description: 'March supplies',
			result_id: RESULT_ID,
		});
	});

	it('keeps a document field and a column named like the reuse marks apart from them (reused, first_extracted_at)', () => {
		const result = invoiceResult([
			{ name: 'reused', value: 'no' },
			{ name: 'items', value_type: 'table', value: [{ sku: 'A', first_extracted_at: '2024-01-01' }] },
		]);
		const [row] = markCharge(doneResultToJson(result, rowsMode), 'tableRows', undefined);
		expect(row).toEqual({
			line_number: 1,
			sku: 'A',
			column_first_extracted_at: '2024-01-01',
			document_reused: 'no',
			result_id: RESULT_ID,
			reused: false,
			first_extracted_at: null,
		});
	});

	it('keeps a row that is not an object whole, under line_value', () => {
		const [row] = doneResultToJson(invoiceResult([{ name: 'items', value_type: 'table', value: ['A-1', 'A-2'] }]), rowsMode);
		expect(row).toEqual({ line_number: 1, line_value: 'A-1', result_id: RESULT_ID });
	});

	it('turns an object or list inside a cell into JSON text (the only place the output stringifies)', () => {
		const [row] = doneResultToJson(invoiceResult([{ name: 'items', value: [{ sku: 'A', dims: { w: 1, h: 2 }, tags: ['x'] }] }]), rowsMode);
		expect(row).toEqual({ line_number: 1, sku: 'A', dims: '{"w":1,"h":2}', tags: '["x"]', result_id: RESULT_ID });
	});

	it('uses the table named in Table Field and leaves other tables out', () => {
		const result = invoiceResult([
			{ name: 'vendor', value: 'ACME' },
			{ name: 'lines', value_type: 'table', value: lines() },
			{ name: 'taxes', value_type: 'table', value: [{ rate: 0.2, amount: 20 }] },
		]);
		expect(doneResultToJson(result, { mode: 'tableRows', tableField: ' taxes ' })).toEqual([{ line_number: 1, rate: 0.2, amount: 20, vendor: 'ACME', result_id: RESULT_ID }]);
	});

	it('refuses a Table Field the result does not have, listing the tables it has', () => {
		const map = () => doneResultToJson(invoiceResult(), { mode: 'tableRows', tableField: 'line_items' });
		expect(map).toThrow(OutputMappingError);
		expect(map).toThrow('The result has no field named "line_items" (set in Table Field)');
		try {
			map();
		} catch (error) {
			expect((error as OutputMappingError).description).toMatch(/table fields: "lines"/);
		}
		expect(() => doneResultToJson(invoiceResult(), { mode: 'tableRows', tableField: 'total' })).toThrow('The field "total" (set in Table Field) is not a table');
	});

	it.each([
		['no table field', [{ name: 'vendor', value: 'ACME' }]],
		['an empty table', [{ name: 'vendor', value: 'ACME' }, { name: 'lines', value_type: 'table', value: [] }]],
		['a table the service left null', [{ name: 'vendor', value: 'ACME' }, { name: 'lines', value_type: 'table', value: null }]],
	])('gives ONE item with line_number null for %s, so the document is not lost', (_case, fields) => {
		expect(doneResultToJson(invoiceResult(fields), rowsMode)).toEqual([{ line_number: null, vendor: 'ACME', result_id: RESULT_ID }]);
	});

	it('adds the table confidence and the review list as flat values', () => {
		const rows = doneResultToJson(invoiceResult(), { mode: 'tableRows', includeConfidence: true, includeSourceFragments: true, reviewThreshold: 0.85 });
		expect(rows).toHaveLength(2);
		for (const row of rows) {
			expect(row.field_confidence).toBe(0.81);
			expect(row.needs_review).toBe('total, due_date, lines');
			expect(row.needs_review_count).toBe(3);
			expect(row).not.toHaveProperty('field_source_text');
			for (const value of Object.values(row)) expect(typeof value === 'object' && value !== null).toBe(false);
		}
	});

	it('maps a 5,000-row table completely and in order', () => {
		const rows = Array.from({ length: 5000 }, (_, i) => ({ line: i + 1, sku: `SKU-${i}`, amount: i * 1.5 }));
		const items = doneResultToJson(invoiceResult([{ name: 'statement', value: 'May' }, { name: 'entries', value_type: 'table', value: rows }]), rowsMode);
		expect(items).toHaveLength(5000);
		items.forEach((item, i) => {
			expect(item).toEqual({ line_number: i + 1, line: i + 1, sku: `SKU-${i}`, amount: i * 1.5, statement: 'May', result_id: RESULT_ID });
		});
	});
});

describe('doneResultToJson: raw', () => {
	it('gives the result as the service sent it, as a copy', () => {
		const result = invoiceResult();
		const [item] = doneResultToJson(result, { mode: 'raw', includeConfidence: true, reviewThreshold: 0.9 });
		expect(item).toEqual(result);
		expect(item.extracted_data).toMatchObject({ doc_metadata: { num_paginas: 2, tipo_archivo: 'pdf' } });
		expect(item).not.toBe(result);
		expect(item.extracted_data).not.toBe(result.extracted_data);
	});
});

describe('keys from the service never reach a prototype', () => {
	/** Written as JSON text: in an object literal `__proto__:` would set the prototype, not a key. */
	const hostile = () =>
		JSON.parse(`{
			"result_id": "${RESULT_ID}",
			"status": "done",
			"extracted_data": {
				"fields": [
					{ "name": "__proto__", "value": { "polluted": "field" } },
					{ "name": "constructor", "value": "Bob the Builder Ltd" },
					{ "name": "prototype", "value": "v2" },
					{ "name": "extraction", "value": "a field with the metadata key name" },
					{ "name": "items", "value_type": "table", "value": [{ "__proto__": "cell", "sku": "A", "nested": { "__proto__": { "polluted": "nested" } } }] }
				],
				"__proto__": { "polluted": "block" }
			}
		}`) as Result;

	afterEach(() => {
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty('polluted');
	});

	it('the fixture really carries own __proto__ keys', () => {
		const result = hostile();
		expect(Object.hasOwn(result.extracted_data as object, '__proto__')).toBe(true);
		expect(Object.hasOwn((result.extracted_data?.fields[4].value as object[])[0], '__proto__')).toBe(true);
	});

	it('fields mode renames them with a trailing underscore and keeps their values', () => {
		const [item] = doneResultToJson(hostile(), { mode: 'fields', includeConfidence: true });
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
		expect(item.polluted).toBeUndefined();
		expect(item['__proto___']).toEqual({ polluted: 'field' });
		expect(item.constructor_).toBe('Bob the Builder Ltd');
		expect(item.prototype_).toBe('v2');
		expect(item.extraction_).toBe('a field with the metadata key name');
		expect((item.extraction as Record<string, unknown>).result_id).toBe(RESULT_ID);
		expect((item.extraction as Record<string, unknown>)['__proto___']).toEqual({ polluted: 'block' });
		expect(Object.keys(item.field_confidence as object)).toEqual(['__proto___', 'constructor_', 'prototype_', 'extraction_', 'items']);

		const row = (item.items as Array<Record<string, unknown>>)[0];
		expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
		expect(row['__proto___']).toBe('cell');
		expect(Object.getPrototypeOf(row.nested)).toBe(Object.prototype);
		expect((row.nested as Record<string, unknown>)['__proto___']).toEqual({ polluted: 'nested' });
	});

	it('table-rows mode renames them too, and prefixes the document field whose safe name a column took', () => {
		const [row] = doneResultToJson(hostile(), { mode: 'tableRows' });
		expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
		expect(row.polluted).toBeUndefined();
		expect(Object.keys(row)).toEqual(['line_number', '__proto___', 'sku', 'nested', 'document___proto__', 'constructor_', 'prototype_', 'extraction', 'result_id']);
		expect(row['__proto___']).toBe('cell');
		expect(row.nested).toBe('{"__proto__":{"polluted":"nested"}}');
		expect(row.document___proto__).toBe('{"polluted":"field"}');
		expect(row.constructor_).toBe('Bob the Builder Ltd');
	});

	it('raw mode keeps them as plain own data', () => {
		const [item] = doneResultToJson(hostile(), { mode: 'raw' });
		const data = item.extracted_data as Record<string, unknown>;
		expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
		expect(Object.hasOwn(data, '__proto__')).toBe(true);
		expect(data.polluted).toBeUndefined();
	});
});

describe('results without data', () => {
	const rejected: Result = {
		result_id: RESULT_ID,
		status: 'rejected',
		scanner_id: 'auto',
		scanner_name: 'Detecting template…',
		filename: 'blurry.jpg',
		file_type: 'jpeg',
		tokens_used: 0,
		created_at: '2024-05-01T10:00:00Z',
		error_code: 'NO_TEXT',
		error_message: 'No text could be read from the document',
	};

	it('unsuccessfulResultToJson gives the id, status, error and file', () => {
		expect(unsuccessfulResultToJson(rejected)).toEqual({
			result_id: RESULT_ID,
			status: 'rejected',
			error_code: 'NO_TEXT',
			error_message: 'No text could be read from the document',
			file_name: 'blurry.jpg',
			file_type: 'jpeg',
			template: { id: 'auto', name: 'Detecting template…' },
			pages_used: 0,
			created_at: '2024-05-01T10:00:00Z',
		});
	});

	it('unsuccessfulResultToJson explains a status it does not know', () => {
		const item = unsuccessfulResultToJson({ result_id: RESULT_ID, status: 'archived' });
		expect(item.status).toBe('archived');
		expect(item).toMatchObject({ error_code: null, error_message: 'The document has a status this node does not know: "archived"' });
	});

	it('describes NO_TEXT: what it means, what to do, and that no page was used', () => {
		const { message, description } = describeUnsuccessfulResult(rejected);
		expect(message).toBe('The document "blurry.jpg" was rejected: no readable text was found in it (NO_TEXT)');
		expect(description).toMatch(/higher quality/);
		expect(description).toMatch(/text layer/);
		expect(description).toMatch(/The service said: "No text could be read from the document"/);
		expect(description).toMatch(/No pages of your quota were used/);
		expect(description).toContain(RESULT_ID);
	});

	it('describes a failed result with an unknown code by quoting the service', () => {
		const { message, description } = describeUnsuccessfulResult({ result_id: RESULT_ID, status: 'error', error_code: 'MODEL_TIMEOUT', error_message: 'Timed out' });
		expect(message).toBe('The document could not be processed (MODEL_TIMEOUT)');
		expect(description).toBe(`The service said: "Timed out". Result ID: ${RESULT_ID}`);
	});

	it('describes DOCUMENT_TOO_LONG and INTERNAL_ERROR with their fixes', () => {
		expect(describeUnsuccessfulResult({ result_id: RESULT_ID, status: 'error', error_code: 'DOCUMENT_TOO_LONG' }).description).toMatch(/^Split the PDF/);
		expect(describeUnsuccessfulResult({ result_id: RESULT_ID, status: 'error', error_code: 'INTERNAL_ERROR' }).description).toMatch(/^Try again later/);
	});

	it('describes unknown states', () => {
		expect(describeUnsuccessfulResult({ result_id: RESULT_ID, status: 'archived' }).description).toMatch(/newer version/);
	});
});

describe('output parameters', () => {
	const node: INode = { id: '1', name: 'Document Extraction', type: 'documentExtraction', typeVersion: 1, position: [0, 0], parameters: {} };
	const contextWith = (parameters: Record<string, unknown>) =>
		({
			getNode: () => node,
			getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => (name in parameters ? parameters[name] : fallback),
		}) as unknown as IExecuteFunctions;

	it('reads the defaults as the fields output with nothing added', () => {
		expect(readOutputOptions(contextWith({}), 0)).toEqual({ mode: 'fields', includeConfidence: false, includeSourceFragments: false, duplicateInvoices: { compareTotal: true } });
	});

	it('reads every option under its stable name; a threshold of 0 is off', () => {
		const ctx = contextWith({
			output: 'tableRows',
			tableField: ' lines ',
			'options.includeConfidence': true,
			'options.includeSourceFragments': true,
			'options.reviewThreshold': 0.8,
			'options.duplicateInvoiceCompareTotal': false,
		});
		expect(readOutputOptions(ctx, 0)).toEqual({
			mode: 'tableRows',
			tableField: 'lines',
			includeConfidence: true,
			includeSourceFragments: true,
			reviewThreshold: 0.8,
			duplicateInvoices: { compareTotal: false },
		});
		expect(readOutputOptions(contextWith({ 'options.flagDuplicateInvoices': false }), 0)).not.toHaveProperty('duplicateInvoices');
		expect(readOutputOptions(contextWith({ 'options.reviewThreshold': 0 }), 0)).not.toHaveProperty('reviewThreshold');
		expect(readOutputOptions(contextWith({ output: 'fields', tableField: 'lines' }), 0)).not.toHaveProperty('tableField');
	});

	it('refuses an unknown output and a threshold outside 0..1 (expressions can give anything)', () => {
		expect(() => readOutputOptions(contextWith({ output: 'csv' }), 0)).toThrow(NodeOperationError);
		expect(() => readOutputOptions(contextWith({ 'options.reviewThreshold': 80 }), 0)).toThrow(/^Item 1: "Review Threshold" must be a number from 0 to 1, not 80$/);
		expect(() => readOutputOptions(contextWith({ 'options.reviewThreshold': 'high' }), 0)).toThrow(/not "high"/);
		expect(() => readOutputOptions(contextWith({ 'options.includeConfidence': 'yes' }), 0)).toThrow(/"Include Confidence" must be true or false, not "yes"/);
	});

	it('reads numbers and booleans an expression gives as text: "false" is false, " 0.8 " is 0.8', () => {
		const ctx = contextWith({ 'options.includeConfidence': 'false', 'options.includeSourceFragments': 'TRUE', 'options.reviewThreshold': ' 0.8 ', 'options.flagDuplicateInvoices': 'false' });
		expect(readOutputOptions(ctx, 0)).toEqual({ mode: 'fields', includeConfidence: false, includeSourceFragments: true, reviewThreshold: 0.8 });
	});

	it('shows Table Field only for table rows, inside the caller display options', () => {
		const [output, tableField] = outputProperties({ show: { operation: ['getResult'] } });
		expect(output.name).toBe('output');
		expect(output.displayOptions).toEqual({ show: { operation: ['getResult'] } });
		expect(tableField.displayOptions).toEqual({ show: { operation: ['getResult'], output: ['tableRows'] } });
	});

	it('gives the Options items with both the caller conditions and their own', () => {
		const items = outputOptionsCollection({ show: { '/waitForResult': [true] } });
		expect(items.map((item) => item.name)).toEqual(['includeConfidence', 'includeSourceFragments', 'reviewThreshold']);
		expect(items[1].displayOptions).toEqual({ show: { '/waitForResult': [true], '/output': ['fields'] } });
		expect(items[0].displayOptions).toEqual({ show: { '/waitForResult': [true] }, hide: { '/output': ['raw'] } });
	});
});

describe('markPreparation: what was done to a document before its upload (Split PDFs, Shrink Large Photos)', () => {
	const facts = { source_file_name: 'scan.pdf', source_pages: '3-4' };

	it('is in `extraction` (fields), on every table row, and in an `extraction` of its own for Raw, beside what is there', () => {
		const [fields] = markPreparation(doneResultToJson(invoiceResult(), fieldsMode), 'fields', facts);
		expect(fields.extraction).toMatchObject({ result_id: RESULT_ID, ...facts });
		const rows = markPreparation(doneResultToJson(invoiceResult([{ name: 'items', value: [{ sku: 'A' }, { sku: 'B' }] }]), { mode: 'tableRows' }), 'tableRows', facts);
		expect(rows.map((row) => [row.sku, row.source_pages])).toEqual([
			['A', '3-4'],
			['B', '3-4'],
		]);
		const [raw] = markPreparation(markCharge(doneResultToJson(invoiceResult(), { mode: 'raw' }), 'raw', { reused: true, firstExtractedAt: null }), 'raw', facts);
		expect(raw.extraction).toEqual({ reused: true, first_extracted_at: null, pages_used: 0, ...facts });
	});

	it('adds nothing to a document that was neither split nor shrunk', () => {
		const [raw] = markPreparation(doneResultToJson(invoiceResult(), { mode: 'raw' }), 'raw', undefined);
		expect(raw).not.toHaveProperty('extraction');
	});
});
