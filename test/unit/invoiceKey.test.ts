/** Issue 43: the business key of an invoice, on variants of the sandbox's ready-made Invoice template fields. */
import { describe, expect, it } from 'vitest';

import { invoiceFacts, invoiceKeys, lookups, normalizeAmount, normalizeInvoiceNumber, normalizeSupplierName, supplierOf } from '../../nodes/shared/duplicates/invoiceKey';

const portalPdf = {
	invoice_number: 'INV-2026-0042',
	invoice_date: '2026-03-05',
	supplier_name: 'Brightline Studio Ltd',
	supplier_vat_id: 'GB123456789',
	iban: 'GB29NWBK60161331926819',
	currency: 'GBP',
	total: 1190.4,
};

describe('invoice numbers', () => {
	it.each([
		['INV-2026-0042', 'INV202642', ''],
		['inv 2026/042', 'INV202642', ''],
		['INV.2026_0042', 'INV202642', ''],
		['INV-2026-0042-R', 'INV202642', 'R'],
		['INV-2026-0042/COPY', 'INV202642', 'COPY'],
		['INV-2026-0042 (2)', 'INV202642', '2'],
		['INV-2026-0042-1', 'INV202642', '1'],
		['INV-2026-0042-R (2)', 'INV202642', 'R/2'],
		['RE-2026-17', 'RE202617', ''],
		['00042', '42', ''],
	])('%s -> %s (suffix "%s")', (raw, number, suffix) => {
		expect(normalizeInvoiceNumber(raw)).toEqual({ number, suffix });
	});

	it('a number that is only a mark or empty is no number', () => {
		expect(normalizeInvoiceNumber('')).toBeNull();
		expect(normalizeInvoiceNumber(null)).toBeNull();
		expect(normalizeInvoiceNumber(' - ')).toBeNull();
	});
});

describe('suppliers', () => {
	it('the VAT id first, then the IBAN, then the name', () => {
		expect(supplierOf(portalPdf)).toBe('vat:GB123456789');
		expect(supplierOf({ ...portalPdf, supplier_vat_id: 'gb 123 456 789' })).toBe('vat:GB123456789');
		expect(supplierOf({ ...portalPdf, supplier_vat_id: null })).toBe('iban:GB29NWBK60161331926819');
		expect(supplierOf({ ...portalPdf, supplier_vat_id: null, iban: 'GB29 NWBK 6016 1331 9268 19' })).toBe('iban:GB29NWBK60161331926819');
		expect(supplierOf({ supplier_name: 'Brightline Studio Ltd.' })).toBe('name:brightline studio');
		expect(supplierOf({})).toBeNull();
	});

	it.each([
		['Brightline Studio Ltd', 'brightline studio'],
		['BRIGHTLINE STUDIO LIMITED', 'brightline studio'],
		['Möbelhaus Schmidt GmbH & Co. KG', 'mobelhaus schmidt'],
		['Papeterie Dubois S.A.R.L.', 'papeterie dubois'],
		['Acme, Inc.', 'acme'],
		['Limited', 'limited'],
	])('%s -> %s', (raw, name) => {
		expect(normalizeSupplierName(raw)).toBe(name);
	});
});

describe('amounts', () => {
	it.each([
		[1190.4, '119040'],
		['1,190.40', '119040'],
		['1.190,40 €', '119040'],
		['£1 190.40', '119040'],
		['1,234', '123400'],
		['12,5', '1250'],
	])('%s -> %s cents', (raw, cents) => {
		expect(normalizeAmount(raw)).toBe(cents);
	});
});

describe('what is looked up', () => {
	const facts = (fields: Record<string, unknown>) => invoiceFacts(fields)!;
	const compare = { compareTotal: true };

	it('only results with an invoice_number field are invoices', () => {
		expect(invoiceFacts({ merchant_name: 'Corner Shop', total: 4.5 })).toBeUndefined();
		expect(invoiceFacts({ ...portalPdf, invoice_number: null })).toMatchObject({ number: null });
	});

	it('a reminder PDF of the same invoice has the same exact key; a resubmission mark only the same number key', () => {
		const first = invoiceKeys(facts(portalPdf));
		const reminder = invoiceKeys(facts({ ...portalPdf, invoice_number: 'inv 2026 042', total: '1,190.40', supplier_name: 'BRIGHTLINE STUDIO LIMITED' }));
		expect(reminder.exact).toBe(first.exact);
		const resubmitted = invoiceKeys(facts({ ...portalPdf, invoice_number: 'INV-2026-0042-R' }));
		expect(resubmitted.exact).not.toBe(first.exact);
		expect(resubmitted.number).toBe(first.number);
	});

	it('another total is not the exact key; with Compare Total off the likely key leaves the total out', () => {
		const otherTotal = invoiceKeys(facts({ ...portalPdf, total: 99 }));
		expect(otherTotal.exact).not.toBe(invoiceKeys(facts(portalPdf)).exact);
		expect(otherTotal.exactNumber).toBe(invoiceKeys(facts(portalPdf)).exactNumber);
		expect(lookups(facts(portalPdf), { compareTotal: false }).map(({ kind, level }) => [kind, level])).toEqual([
			['exactNumber', 'likely'],
			['number', 'possible'],
		]);
	});

	it('an invoice whose number was not read looks for the supplier, total and date; one with a number for such an invoice', () => {
		const numberless = facts({ ...portalPdf, invoice_number: null });
		expect(lookups(numberless, compare).map(({ kind, level }) => [kind, level])).toEqual([['amount', 'possible']]);
		expect(invoiceKeys(numberless).numberless).toBeDefined();
		const numbered = lookups(facts(portalPdf), compare);
		expect(numbered.map(({ kind, level }) => [kind, level])).toEqual([
			['exact', 'likely'],
			['number', 'possible'],
			['numberless', 'possible'],
		]);
		expect(numbered[2].key).toBe(invoiceKeys(numberless).numberless);
	});

	it('without a supplier there is no key: a number alone would match other suppliers\' invoices', () => {
		expect(invoiceKeys(facts({ invoice_number: '42', total: 10 }))).toEqual({});
	});
});
