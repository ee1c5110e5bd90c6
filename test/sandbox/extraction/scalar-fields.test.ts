import { describe, expect, it } from 'vitest';
import { READY_MADE_TEMPLATES } from '../templates';
import { extractData, termDays } from './extract';
import { findLabels } from './labels';
import { toLines } from './text-lines';
import type { ExtractedData, FieldDefinition, TemplateLike } from './types';

const TEMPLATES: TemplateLike[] = READY_MADE_TEMPLATES.map((template, index) => ({ ...template, scanner_id: `ready-${index}` }));
const invoice = TEMPLATES.find((template) => template.name === 'Invoice') as TemplateLike;
const receipt = TEMPLATES.find((template) => template.name === 'Receipt') as TemplateLike;

function extract(template: TemplateLike, text: string, language = 'en'): ExtractedData {
	return extractData(template, { kind: 'pdf', pages: 1, text, pageTexts: [text], language }, { fileName: 'x.pdf', fileType: 'pdf' });
}

function field(data: ExtractedData, name: string) {
	const found = data.fields.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`no field ${name}`);
	return found;
}

const value = (data: ExtractedData, name: string) => field(data, name).value;
const confidence = (data: ExtractedData, name: string) => field(data, name).confidence;

describe('the invoice number under another document title', () => {
	it('reads a statement or receipt number, believed at 0.8, but never an account or customer number', () => {
		const statement = extract(invoice, 'Project Statement\nReceipt # No.: 1234\nAccount number: 99881\nNuméro client : 5566');
		expect(value(statement, 'invoice_number')).toBe('1234');
		expect(confidence(statement, 'invoice_number')).toBe(0.8);
		const other = extract(invoice, 'Statement #  4471');
		expect(value(other, 'invoice_number')).toBe('4471');
		const account = extract(invoice, 'Account number: 99881\nNuméro client : 5566\nDate: 2024-01-02');
		expect(value(account, 'invoice_number')).toBeNull();
	});

	it('prefers an invoice label over a related one', () => {
		const both = extract(invoice, 'Invoice No.  INV-77\nReceipt #  R-12');
		expect(value(both, 'invoice_number')).toBe('INV-77');
		expect(confidence(both, 'invoice_number')).toBeGreaterThanOrEqual(0.8);
	});

	it('leaves related labels out of template detection', () => {
		const fields: FieldDefinition[] = [{ name: 'invoice_number', type: 'string' }];
		const lines = toLines(['Receipt #  R-12']);
		expect(findLabels(fields, lines)).toHaveLength(0);
		expect(findLabels(fields, lines, { related: true })).toHaveLength(1);
	});

	it('reads the number after a title and its date, on the same line or the line under it', () => {
		const inline = extract(invoice, 'Facture du 29/01/2021 n° 1234567890\nTotal TTC  12,00 €', 'fr');
		expect([value(inline, 'invoice_number'), value(inline, 'invoice_date')]).toEqual(['1234567890', '2021-01-29']);
		const below = extract(invoice, '   Facture du 29/01/2021\nUrgence\n   n° 1234567890      Electricité', 'fr');
		expect(value(below, 'invoice_number')).toBe('1234567890');
		const german = extract(invoice, 'Rechnung vom 01.02.2021 Nr. 4711', 'de');
		expect(value(german, 'invoice_number')).toBe('4711');
	});

	it('takes no number sign followed by words, nor one under another text', () => {
		expect(value(extract(invoice, 'INVOICE\nNumber of items: 5'), 'invoice_number')).toBeNull();
		expect(value(extract(invoice, 'Détail de votre facture du 29/01/2021 n° 10123590373', 'fr'), 'invoice_number')).toBeNull();
		expect(value(extract(invoice, '   Votre contrat\n   n° 1234567890', 'fr'), 'invoice_number')).toBeNull();
	});
});

describe('values in boxes and groups', () => {
	it('reads an amount right-aligned past the end of its heading in a row of headings', () => {
		const text = 'Invoice Number     Invoice Date     Charges          VAT ID\n\n34278587           6/18/2017              $56,651.49  PT';
		const data = extract(invoice, text);
		expect(value(data, 'total')).toBe(56651.49);
		// `Charges` may name part of the amount: not believed without a check.
		expect(confidence(data, 'total')).toBeLessThan(0.8);
		expect(value(data, 'supplier_vat_id')).toBe('PT');
	});

	it('joins a VAT ID printed in digit groups split into cells, and doubts it when another one disagrees', () => {
		const one = extract(receipt, 'Clachan\nTotal   £10.20\nVAT 232  153 895');
		expect(value(one, 'merchant_vat_id')).toBe('232153895');
		const two = extract(receipt, 'Clachan\nTotal   £10.20\nVAT 232  153 895\nThank you\nVAT 232  153 836');
		expect(value(two, 'merchant_vat_id')).toBe('232153895');
		expect(confidence(two, 'merchant_vat_id')).toBeLessThan(0.8);
	});

	it('reads numbered tax lines and a `VAT Net` line of a till receipt', () => {
		const data = extract(receipt, 'SUBTOTAL   $55.96\nTAX1   $4.48\nTOTAL   $60.44');
		expect(value(data, 'tax_amount')).toBe(4.48);
		expect(confidence(data, 'tax_amount')).toBeGreaterThanOrEqual(0.8);
		const uk = extract(receipt, '20% VAT Net      8.50\n20% VAT          1.70\nTotal    £10.20');
		expect([value(uk, 'subtotal'), value(uk, 'tax_amount'), value(uk, 'total')]).toEqual([8.5, 1.7, 10.2]);
		expect(confidence(uk, 'subtotal')).toBeGreaterThanOrEqual(0.8);
	});
});

describe('the tax of a line with its rate and base', () => {
	it('takes the amount that is the rate of the base, not the base', () => {
		const data = extract(invoice, 'VAT 20%   1,000.00   200.00\nTotal   1,200.00');
		expect(value(data, 'tax_amount')).toBe(200);
		expect(value(data, 'tax_rate')).toBe(20);
		const worded = extract(invoice, 'Subtotal  100.00\nVAT 19% on 100.00   19.00');
		expect(value(worded, 'tax_amount')).toBe(19);
		expect(confidence(worded, 'tax_amount')).toBeGreaterThanOrEqual(0.8);
	});

	it('keeps the first amount when none is the rate of another', () => {
		const data = extract(invoice, 'VAT 20%   30.00   45.00');
		expect(value(data, 'tax_amount')).toBe(30);
	});
});

describe('totals several labels agree on', () => {
	it('believes a total under `Total` that `Amount due` gives too, and not a lone `Total`', () => {
		const both = extract(invoice, 'Amount Due (USD):   $2,608.20\nServices   1   $65.00\nTotal:   $2,608.20');
		expect(value(both, 'total')).toBe(2608.2);
		expect(confidence(both, 'total')).toBeGreaterThanOrEqual(0.8);
		const alone = extract(invoice, 'Services   1   $65.00\nTotal:   $2,608.20');
		expect(confidence(alone, 'total')).toBeLessThan(0.8);
	});
});

describe('due dates', () => {
	it('reads labels with a typographic apostrophe', () => {
		const data = extract(invoice, 'Date : 15/02/2021\nDate d’échéance : 15/03/2021', 'fr');
		expect([value(data, 'invoice_date'), value(data, 'due_date')]).toEqual(['2021-02-15', '2021-03-15']);
	});

	it('finds the days of the payment terms in several languages, not from delivery or amounts', () => {
		const days = (text: string) => termDays(toLines([text]))?.days;
		expect(days('Payment is due within 15 days')).toBe(15);
		expect(days('Terms: Net 30')).toBe(30);
		expect(days('Payment terms: 14 days')).toBe(14);
		expect(days('Zahlbar innerhalb von 14 Tagen ohne Abzug')).toBe(14);
		expect(days('Paiement à 30 jours')).toBe(30);
		expect(days('Net 8,50')).toBeUndefined();
		expect(days('Payable within 30 days of delivery')).toBeUndefined();
	});

	it('computes a missing due date from the terms, below 0.8, and checks a printed one against them', () => {
		const missing = extract(invoice, 'Invoice date: 2021-03-01\nPayment is due within 15 days');
		expect(value(missing, 'due_date')).toBe('2021-03-16');
		expect(confidence(missing, 'due_date')).toBeLessThan(0.8);
		const agrees = extract(invoice, 'Invoice date: 2021-03-01\nDue: 2021-03-31\nTerms: Net 30');
		expect(value(agrees, 'due_date')).toBe('2021-03-31');
		expect(confidence(agrees, 'due_date')).toBeGreaterThanOrEqual(0.8);
		const disagrees = extract(invoice, 'Invoice date: 2021-03-01\nDue date: 2021-05-31\nTerms: Net 30');
		expect(value(disagrees, 'due_date')).toBe('2021-05-31');
		expect(confidence(disagrees, 'due_date')).toBeLessThan(0.8);
	});
});
