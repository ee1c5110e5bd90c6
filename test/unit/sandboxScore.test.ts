import { describe, expect, it } from 'vitest';

import { modeFigures, scoreDocument } from '../bench/sandboxScore/report';
import type { BenchDocument } from '../bench/sandboxScore/parts';
import {
	compareField,
	partyKey,
	resultFieldFor,
	sameDescription,
	sameParty,
	scoreLineItems,
	toAmount,
} from '../bench/sandboxScore/score';
import type { ExtractedData } from '../../sandbox/src/extraction';

describe('bench:sandbox scoring: one field', () => {
	it('is missing when nothing was found, right or wrong otherwise', () => {
		expect(compareField('invoice_number', 'INV-100', null)).toBe('missing');
		expect(compareField('invoice_number', 'INV-100', '')).toBe('missing');
		expect(compareField('invoice_number', 'INV-100', '  ')).toBe('missing');
		expect(compareField('invoice_number', 'INV-100', undefined)).toBe('missing');
		expect(compareField('invoice_number', 'INV-100', 'inv-100')).toBe('right');
		expect(compareField('invoice_number', 'INV-100', 'INV-101')).toBe('wrong');
	});

	it('compares amounts within a cent, from numbers or text', () => {
		expect(compareField('total', 4759.2, 4759.2)).toBe('right');
		expect(compareField('total', 4759.2, 4759.21)).toBe('right');
		expect(compareField('total', 4759.2, 4759.19)).toBe('right');
		expect(compareField('total', 4759.2, 4759.22)).toBe('wrong');
		expect(compareField('total', 1203.39, '1,203.39')).toBe('right');
		expect(compareField('total', 1203.39, '1.203,39')).toBe('right');
		expect(compareField('subtotal', 0, 0)).toBe('right');
		expect(compareField('tax_amount', 8.68, 'eight')).toBe('wrong');
		expect(toAmount('€ 4.904,94')).toBe(4904.94);
		expect(toAmount('-1,269.12')).toBe(-1269.12);
		expect(toAmount('319')).toBe(319);
	});

	it('compares dates exactly', () => {
		expect(compareField('invoice_date', '2019-06-10', '2019-06-10')).toBe('right');
		expect(compareField('invoice_date', '2019-06-10', '2019-10-06')).toBe('wrong');
		expect(compareField('due_date', '2015-07-05', '05/07/2015')).toBe('wrong');
	});

	it('compares identifiers without spaces, case or a leading #', () => {
		expect(compareField('invoice_number', '#BLR_WFLD20151000982590', 'BLR_WFLD20151000982590')).toBe('right');
		expect(compareField('invoice_number', '#BLR_WFLD20151000982590', '# BLR_WFLD2015 1000982590')).toBe('right');
		expect(compareField('invoice_number', '8765', 'No.: 8765')).toBe('wrong');
		expect(compareField('order_number', '12572103', 12572103)).toBe('right');
	});

	it('compares VAT ids and IBANs without spaces or dots; a country prefix may be missing on one side only', () => {
		expect(compareField('supplier_vat_id', 'DE 232 446 240', 'DE232446240')).toBe('right');
		expect(compareField('supplier_vat_id', '232153895', 'GB 232 1538 95')).toBe('right');
		expect(compareField('supplier_vat_id', 'FR60421938861', 'DE60421938861')).toBe('wrong');
		expect(compareField('iban', 'NL50INGB0683251309', 'NL50 INGB 0683 2513 09')).toBe('right');
	});

	it('compares other text case-insensitively, trimmed', () => {
		expect(compareField('currency', 'EUR', ' eur ')).toBe('right');
		expect(compareField('currency', 'EUR', 'USD')).toBe('wrong');
	});
});

describe('bench:sandbox scoring: supplier names', () => {
	it('drops case, punctuation and legal forms', () => {
		expect(partyKey('e-Luscious Nederland B.V.')).toBe('e luscious nederland');
		expect(partyKey('WS Retail Services Pvt. Ltd.')).toBe('ws retail services');
		expect(partyKey('PHILIP MORRIS INCORPORATED')).toBe('philip morris');
		expect(partyKey('Amazon Web Services, Inc.')).toBe('amazon web services');
	});

	it('accepts one name inside the other, as whole words', () => {
		expect(sameParty('Amazon Web Services, Inc.', 'Amazon Web Services')).toBe(true);
		expect(sameParty('Contoso', 'CONTOSO LTD.')).toBe(true);
		expect(sameParty('Free', 'Free SAS')).toBe(true);
		expect(sameParty('Sammy Maystone - For Lines testing', 'Sammy Maystone')).toBe(true);
		expect(sameParty('EDF', 'FICTIOCORP')).toBe(false);
		expect(sameParty('EDF', 'MEDFORD')).toBe(false);
		expect(sameParty('Coolblue B.V.', 'B.V.')).toBe(false);
	});

	it('takes the values a file also accepts', () => {
		expect(compareField('supplier_name', 'Flipkart', 'WS Retail Services Pvt. Ltd.')).toBe('wrong');
		expect(compareField('supplier_name', 'Flipkart', 'WS Retail Services Pvt. Ltd.', ['WS Retail Services Pvt. Ltd.'])).toBe('right');
	});
});

describe('bench:sandbox scoring: line items', () => {
	const expected = [
		{ description: 'Beeswax XL\nAcme beeswax', quantity: 1, amount: 42 },
		{ description: 'Office Chair', amount: 70 },
		{ description: 'Olive Oil', amount: 0.9 },
		{ description: 'Luxury Truffles', amount: 150 },
	];

	it('matches descriptions loosely: the printed first line, spaces and punctuation aside', () => {
		expect(sameDescription('Beeswax XL\nAcme beeswax', '[17589684] Beeswax XL Acme beeswax')).toBe(true);
		expect(sameDescription('BIBIM.OCTOPUT1', 'BIBIM. OCTOPU T1')).toBe(true);
		expect(sameDescription('Small Business QualityExchange 2010\nGrundgebühr pro Einheit', 'Grundgebuhr pro Einheit')).toBe(true);
		expect(sameDescription('Office Chair', 'Olive Oil')).toBe(false);
		expect(sameDescription('Office Chair', '1')).toBe(false);
	});

	it('finds a table when it has rows and at least half the expected rows match, one found row per expected row', () => {
		const rows = [{ description: '[17589684] Beeswax XL', amount: 42 }, { description: 'Office Chair', amount: 7 }, { description: 'Subtotal' }];
		expect(scoreLineItems(expected, rows)).toEqual({ expectedRows: 4, foundRows: 3, matchedRows: 2, amountsRight: 1, amountsExpected: 2, found: true });
		expect(scoreLineItems(expected, rows.slice(0, 1)).found).toBe(false);
		expect(scoreLineItems(expected, null).found).toBe(false);
		expect(scoreLineItems(expected, []).foundRows).toBe(0);
		// Two expected rows with one description need two found rows.
		const twice = [{ description: 'Less Comp Cigs' }, { description: 'Less Comp Cigs' }];
		expect(scoreLineItems(twice, [{ description: 'Less Comp Cigs' }]).matchedRows).toBe(1);
	});
});

describe('bench:sandbox scoring: a result', () => {
	const field = (name: string, value: ExtractedData['fields'][number]['value'], confidence: number) => ({
		name,
		label: name,
		value_type: 'string',
		value,
		confidence,
		source_fragment: '',
		raw_candidates: [],
		normalization_notes: '',
	});
	const data = (fields: ExtractedData['fields']): ExtractedData => ({
		status: 'ok',
		scanner_name: 'Receipt',
		language: 'en',
		extracted_at: '2000-01-01T00:00:00.000Z',
		summary: { fields_with_values: 0, fields_null: 0 },
		doc_metadata: { num_paginas: 1, tipo_archivo: 'image/jpeg', ocr_provider: 'x', idioma_detectado_ocr: 'en' },
		fields,
	});
	const doc: BenchDocument = {
		name: 'dev-invoices/files/receipt.jpg',
		path: '',
		documentType: 'receipt',
		scored: true,
		fields: { invoice_number: '54/7500', invoice_date: '2016-02-26', total: 10.2, supplier_name: 'Clachan', due_date: '2016-03-01' },
		alsoAccepted: {},
		lineItems: [{ description: 'Meantime Pale', amount: 10.2 }],
	};

	it("reads the Receipt template's names for the invoice's fields", () => {
		const fields = [{ name: 'receipt_number', value: '1', confidence: 1 }];
		expect(resultFieldFor('invoice_number', fields)?.name).toBe('receipt_number');
		expect(resultFieldFor('due_date', fields)).toBeUndefined();
	});

	it('scores every expected field, counts sure right and wrong fields, and line items', () => {
		const result = data([
			field('merchant_name', 'The Clachan', 0.9),
			field('receipt_number', '54/7500', 0.5),
			field('purchase_date', '2016-02-27', 0.85),
			field('total', null, 0),
			field('items', [{ description: 'Meantime Pale', quantity: 2, amount: 10.2 }], 0.7),
		]);
		const score = scoreDocument(doc, 'template', { data: result, templateName: 'Receipt', isImage: true, pages: 1, ms: 100 });
		expect(Object.fromEntries(score.fields.map((item) => [item.name, item.verdict]))).toEqual({
			invoice_number: 'right',
			invoice_date: 'wrong',
			total: 'missing',
			supplier_name: 'right',
			due_date: 'missing',
		});
		expect(score.lineItems?.found).toBe(true);
		const refused = scoreDocument({ ...doc, name: 'other.jpg' }, 'template', { refusal: 'NO_TEXT', isImage: true, pages: 1, ms: 50 });
		expect(refused.fields.every((item) => item.verdict === 'missing')).toBe(true);
		const figures = modeFigures('template', [score, refused]);
		expect(figures.total).toEqual({ right: 2, wrong: 1, missing: 7, wrongAtSure: 1, rightAtSure: 1, expected: 10, rightPercent: 20 });
		// Per field kind too: the supplier right and sure, the date wrong and sure, the number right but not sure.
		expect(figures.byField.supplier_name).toMatchObject({ right: 1, rightAtSure: 1, wrongAtSure: 0 });
		expect(figures.byField.invoice_date).toMatchObject({ wrong: 1, wrongAtSure: 1 });
		expect(figures.byField.invoice_number).toMatchObject({ right: 1, rightAtSure: 0 });
		expect(figures.confidence).toMatchObject({ wrongAtSure: 1, rightAtSure: 1, right: 2, wrong: 1 });
		expect(figures.images).toEqual({ read: 1, of: 2, notRead: ['other.jpg'] });
		expect(figures.lineItems).toMatchObject({ tablesFound: 1, tablesExpected: 2 });
		expect(figures.timePerPageMs).toMatchObject({ median: 75, max: 100, imagesMedian: 75 });
	});
});
