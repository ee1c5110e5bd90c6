import { describe, expect, it } from 'vitest';
import { averageConfidence } from '../../../sandbox/src/extraction/extract';
import { parseDate } from '../../../sandbox/src/extraction/normalize';
import { crossCheckAmounts } from '../../../sandbox/src/extraction/plausibility';
import type { ScalarResult } from '../../../sandbox/src/extraction/scalar-fields';
import { extractText, fieldOf, templateNamed } from './test-documents';
import type { ReadDocument, TemplateLike } from '../../../sandbox/src/extraction/types';

const invoice = templateNamed('Invoice');
const receipt = templateNamed('Receipt');
/** The text as OCR of a photo gives it. */
const extract = (template: TemplateLike, text: string, extra: Partial<ReadDocument> = {}) => extractText(template, text, { kind: 'png', ...extra });
const field = fieldOf;

function result(value: number, confidence = 0.9, alternatives: number[] = []): ScalarResult {
	return {
		value,
		confidence,
		source_fragment: `x ${value}`,
		raw_candidates: [String(value)],
		normalization_notes: 'label',
		alternatives: alternatives.map((alternative) => ({ value: alternative, confidence: confidence - 0.1, source_fragment: `y ${alternative}`, notes: 'label' })),
	};
}

describe('cross-checks of total, subtotal and tax', () => {
	it('believes amounts that add up, and doubts amounts that do not', () => {
		const good = crossCheckAmounts({ total: result(119, 0.8), subtotal: result(100, 0.8), tax: result(19, 0.8) });
		expect([good.total?.confidence, good.subtotal?.confidence, good.tax?.confidence]).toEqual([0.95, 0.95, 0.95]);
		const bad = crossCheckAmounts({ total: result(14.5), subtotal: result(11.7), tax: result(1.17) });
		for (const checked of [bad.total, bad.subtotal, bad.tax]) expect(checked?.confidence).toBeLessThan(0.8);
	});

	it('takes the candidate that adds up over the nearest one (a total of 1 beside the real 319.00)', () => {
		const checked = crossCheckAmounts({ total: result(1, 0.9, [319]), subtotal: result(268.07), tax: result(50.93) });
		expect(checked.total?.value).toBe(319);
		expect(checked.total?.confidence).toBeGreaterThanOrEqual(0.9);
	});

	it('restores a decimal point OCR lost, and derives a missing tax only at a usual rate, below 0.8', () => {
		expect(crossCheckAmounts({ total: result(204.75), subtotal: result(195), tax: result(975) }).tax?.value).toBe(9.75);
		const derived = crossCheckAmounts({ total: result(119), subtotal: result(100) }).tax;
		expect(derived?.value).toBe(19);
		expect(derived?.confidence).toBeLessThan(0.8);
		expect(crossCheckAmounts({ total: result(150), subtotal: result(100) }).tax).toBeUndefined();
	});

	it('confirms through a derived value only the values read without doubt', () => {
		// `Total hors taxes : 100,00` read by the bare `Total` label: 100 - 20 = 80 is a usual rate of nothing printed.
		const doubtful = crossCheckAmounts({ total: result(100, 0.85), tax: result(20, 0.95) });
		expect(doubtful.subtotal?.value).toBe(80);
		expect(doubtful.total?.confidence).toBeLessThan(0.8);
		const clean = crossCheckAmounts({ total: result(119, 0.9), subtotal: result(100, 0.9) });
		expect(clean.total?.confidence).toBeGreaterThanOrEqual(0.9);
		expect(clean.subtotal?.confidence).toBeGreaterThanOrEqual(0.9);
	});

	it('checks the subtotal against the line items', () => {
		const checked = crossCheckAmounts({ subtotal: result(45, 0.75), lineAmounts: [20, 25] });
		expect(checked.subtotal?.confidence).toBe(0.95);
	});
});

describe('shape checks on labelled values', () => {
	it('does not take the digits of a VAT ID, a date or a phone number as an amount, nor a total of 0', () => {
		const data = extract(receipt, 'Total   0.00\nVAT 232 153 895\nTotal   10.20\n20% VAT   1.70');
		expect(field(data, 'total').value).toBe(10.2);
		expect(field(data, 'tax_amount').value).toBe(1.7);
		expect(field(data, 'merchant_vat_id').value).toBe('232153895');
	});

	it('an invoice number has digits and is not a date; "No.:" is not part of it', () => {
		const data = extract(invoice, 'Receipt # No.: 1234\nInvoice Number   Invoice Date\nInvoice #   No.: 4711\nInvoice Date  3/8/2014');
		expect(field(data, 'invoice_number').value).toBe('4711');
		const dated = extract(invoice, 'Invoice No.  29/01/2021');
		expect(field(dated, 'invoice_number').value).toBeNull();
	});

	it('keeps a value whose OCR words were doubtful below 0.8', () => {
		const text = 'Invoice Date:   2018-05-25\nInvoice Number:   14';
		const words = [
			{ text: '2018-05-25', confidence: 59 },
			{ text: '14', confidence: 95 },
		];
		const data = extract(invoice, text, { ocrWords: words });
		expect(field(data, 'invoice_date').confidence).toBeLessThan(0.8);
		expect(field(data, 'invoice_number').confidence).toBeGreaterThanOrEqual(0.8);
	});
});

describe('labels in more languages and places', () => {
	it('finds a label followed by a colon inside a run of text, its value ending at the next label', () => {
		const data = extract(invoice, 'Date: 12.01.2020 Invoice No: 123-A Due date: 11.02.2020');
		expect([field(data, 'invoice_date').value, field(data, 'invoice_number').value, field(data, 'due_date').value]).toEqual(['2020-01-12', '123-A', '2020-02-11']);
	});

	it('reads Dutch, Italian and Portuguese labels', () => {
		const nl = extract(invoice, 'Factuurnummer:  2024-017\nFactuurdatum:  3 augustus 2014\nSubtotaal   100,00\nBTW 21%   21,00\nTotaal   121,00');
		expect([field(nl, 'invoice_number').value, field(nl, 'invoice_date').value, field(nl, 'total').value]).toEqual(['2024-017', '2014-08-03', 121]);
		const it = extract(invoice, 'Numero fattura:  A-55\nData fattura:  3 agosto 2014\nImponibile   100,00\nIVA 22%   22,00\nTotale documento   122,00');
		expect([field(it, 'invoice_number').value, field(it, 'invoice_date').value, field(it, 'subtotal').value, field(it, 'total').value]).toEqual(['A-55', '2014-08-03', 100, 122]);
		const pt = extract(invoice, 'Fatura nº  FT 2014/88\nData de emissão:  03/08/2014\nTotal a pagar   123,00');
		expect([field(pt, 'invoice_number').value, field(pt, 'invoice_date').value, field(pt, 'total').value]).toEqual(['FT 2014/88', '2014-08-03', 123]);
	});
});

describe('dates real invoices print', () => {
	it.each([
		['August 3 , 2014', '2014-08-03'],
		['3 Aug 2014', '2014-08-03'],
		['03.08.2014', '2014-08-03'],
		['2014-08-03', '2014-08-03'],
		['3/8/14', '2014-08-03'],
		['26-Feb-16', '2016-02-26'],
		['3 augustus 2014', '2014-08-03'],
		['3 agosto 2014', '2014-08-03'],
		['3 de agosto de 2014', '2014-08-03'],
		['12 mei 2020', '2020-05-12'],
		['10 pcs 2020, 3 Aug 2014', '2014-08-03'],
	])('%s', (raw, expected) => {
		expect(parseDate(raw)?.value).toBe(expected);
	});
});

describe('the supplier without a label', () => {
	it('is never a title or the customer block; a legal name wins over the first line', () => {
		const data = extract(invoice, 'PAYMENT RECEIPT\nBill To\nJane Customer Ltd\n\nfrom the team at\nAcme Trading GmbH\nTotal  10.00');
		expect(field(data, 'supplier_name').value).toBe('Acme Trading GmbH');
		expect(field(data, 'supplier_name').confidence).toBeLessThan(0.8);
	});

	it('reads the legal name out of a footer line, and not a lower-case word that looks like a company form', () => {
		const footer = extract(invoice, 'Pour régler sa facture\nTotal  10.00\n\nFree SAS au capital de 3 441 812 € - RCS Paris');
		expect(field(footer, 'supplier_name').value).toBe('Free SAS');
	});

	it('joins a company form printed alone to the name above it', () => {
		const data = extract(invoice, 'PHILIP MORRIS\nINCORPORATED\nTotal  10.00');
		expect(field(data, 'supplier_name').value).toBe('PHILIP MORRIS INCORPORATED');
	});
});

describe('line items without a header (till receipts)', () => {
	it('reads the lines above the subtotal that end with an amount', () => {
		const data = extract(receipt, 'CHOEUN KOREAN RESTAURANT\nBIBIM.OCTOPU   T1   $13.99\nPORK DUMPLIN   T1    $8.99\n   2.00xITEMS\nSUBTOTAL   $22.98\nTAX   $1.84\nTOTAL   $24.82');
		const rows = field(data, 'items').value as Array<Record<string, unknown>>;
		expect(rows.map((row) => row.amount)).toEqual([13.99, 8.99]);
		expect(field(data, 'total').confidence).toBeGreaterThanOrEqual(0.9);
	});
});

describe('document confidence', () => {
	it('is low when most fields are missing, not the average of the one found', () => {
		const data = extract(invoice, 'Invoice Number:  INV-1');
		expect(field(data, 'invoice_number').confidence).toBeGreaterThan(0.8);
		expect(averageConfidence(data, invoice)).toBeLessThan(0.3);
	});
});

describe('values read beside a document title or an unconfirmed total', () => {
	it('believes a number right after the title word, and doubts one further off or of another shape', () => {
		const after = extract(invoice, 'INVOICE INV-2024-17\nDate: 2024-03-01');
		expect(field(after, 'invoice_number').value).toBe('INV-2024-17');
		expect(field(after, 'invoice_number').confidence).toBeGreaterThanOrEqual(0.8);
		const words = extract(invoice, 'Invoice  Order 17\nDate: 2024-03-01');
		expect(field(words, 'invoice_number').value).toBe('Order 17');
		expect(field(words, 'invoice_number').confidence).toBeLessThan(0.8);
	});

	it('keeps a lone total under a plain `Total` below 0.8, but believes `Amount due` when it is the largest', () => {
		const plain = crossCheckAmounts({ total: { ...result(250), normalization_notes: "label 'total' (label), value next to the label" } });
		expect(plain.total?.confidence).toBeLessThan(0.8);
		const due = crossCheckAmounts({ total: { ...result(250), normalization_notes: "label 'amount due' (synonym), value next to the label" } });
		expect(due.total?.confidence).toBe(0.9);
		const smaller = crossCheckAmounts({ total: { ...result(250, 0.9), normalization_notes: "label 'amount due' (synonym), value next to the label", alternatives: [{ value: 300, confidence: 0.5, source_fragment: 'y 300', notes: "label 'total'" }] } });
		expect(smaller.total?.confidence).toBeLessThan(0.8);
	});
});

describe('line items with several money columns', () => {
	const header = 'Description      Qty    Unit price    Amount      VAT      Total';
	it('takes the last money column as the amount', () => {
		const data = extract(invoice, 'Description      Qty    Amount      Tax      Line total\nWidget           2      10.00       2.00     22.00\nTotal  22.00');
		const rows = field(data, 'line_items').value as Array<Record<string, unknown>>;
		expect(rows[0]).toMatchObject({ quantity: 2, amount: 22 });
	});

	it('prefers the pair of amounts for which quantity x unit price = amount', () => {
		const data = extract(invoice, `${header}\nWidget           2          10.00     20.00     4.00      24.00\nTotal  24.00`);
		const rows = field(data, 'line_items').value as Array<Record<string, unknown>>;
		expect(rows[0]).toMatchObject({ quantity: 2, unit_price: 10, amount: 20 });
	});
});

describe('identifiers read beside their labels', () => {
	it.each([
		['Facture n°FA-2021-0042', 'FA-2021-0042'],
		['Invoice No.4711', '4711'],
		['Rechnung Nr. 4711 vom 01.02.2021', '4711'],
		['Invoice no. INV-7 dated 12/01/2020', 'INV-7'],
		['Invoice no. NO12345', 'NO12345'],
	])('%j -> %s', (text, expected) => {
		expect(field(extract(invoice, text), 'invoice_number').value).toBe(expected);
	});

	it('doubts a labelled IBAN whose check digits fail', () => {
		const wrong = field(extract(invoice, 'IBAN: DE89 3704 0044 0532 0130 01'), 'iban');
		expect(wrong.value).toBe('DE89370400440532013001');
		expect(wrong.confidence).toBeLessThan(0.8);
		const right = field(extract(invoice, 'IBAN: DE89 3704 0044 0532 0130 00'), 'iban');
		expect(right.confidence).toBeGreaterThanOrEqual(0.9);
	});
});

describe('confidence that means what it says (issue 44)', () => {
	it('takes no check from a tax of 0: the subtotal and the total are one amount read twice', () => {
		const zero = crossCheckAmounts({ total: result(42.28, 0.75, [24919.99]), subtotal: result(42.28, 0.9, [24877.71]), tax: result(0, 0.9, [42.28]) });
		// The net + tax = gross the document prints wins over 42.28 + 0 = 42.28.
		expect([zero.total?.value, zero.subtotal?.value, zero.tax?.value]).toEqual([24919.99, 24877.71, 42.28]);
		const only = crossCheckAmounts({ total: result(14.9, 0.75), subtotal: result(14.9, 0.75), tax: result(0, 0.75) });
		expect(only.total?.confidence).toBe(0.75);
		expect(only.total?.normalization_notes).toMatch(/checks nothing/);
	});

	it('takes no check from a tax of another sign than the net (a correction line)', () => {
		const mixed = crossCheckAmounts({ total: result(210, 0.9, [8410]), subtotal: result(400, 0.9, [7900]), tax: result(-190, 0.9, [510]) });
		expect([mixed.total?.value, mixed.subtotal?.value, mixed.tax?.value]).toEqual([8410, 7900, 510]);
		const credit = crossCheckAmounts({ total: result(-119), subtotal: result(-100), tax: result(-19) });
		expect(credit.total?.confidence).toBeGreaterThanOrEqual(0.95);
	});

	it('checks a total and its tax when the total less the tax is printed as another total', () => {
		const pair = crossCheckAmounts({ total: result(99, 0.85, [117.81]), tax: result(18.81, 0.85) });
		expect(pair.total?.value).toBe(117.81);
		expect(pair.subtotal?.value).toBe(99);
		expect(pair.subtotal?.confidence).toBeLessThan(0.8);
	});

	it('doubts an issuer VAT id when another well-formed VAT id is printed outside the customer block', () => {
		const two = extract(invoice, 'Hôtel du Pacano                         Securibox SARL\n                                        TVA : FR38500003710\n\nTotal TTC   12,00 €\n\nSASU au capital de 200000€ - TVA FR40123456824', { kind: 'pdf', language: 'fr' });
		expect(field(two, 'supplier_vat_id').confidence).toBeLessThan(0.8);
		expect(field(two, 'supplier_vat_id').normalization_notes).toMatch(/another VAT ID/);
		// An id of no known shape right after the VAT word in the footer (`N°TVA IUGBU98YFG6`) is another id too.
		const footer = extract(invoice, 'Auto entrepreneur Abderraouf                   VILLE DE TOULON\n                                               TVA : FR92218301372\n\nTOTAL TTC   12,00 €\n\nN°TVA IUGBU98YFG6 - RCS Toulon', { kind: 'pdf', language: 'fr' });
		expect(field(footer, 'supplier_vat_id').confidence).toBeLessThan(0.8);
		const customer = extract(invoice, 'ACME Ltd\nVAT Reg. No. GB123456789\nUSt-IdNr. Kunde:   IE9876543W\n\nTotal  12.00', { kind: 'pdf' });
		expect(field(customer, 'supplier_vat_id').value).toBe('GB123456789');
		expect(field(customer, 'supplier_vat_id').confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('doubts a date under a label qualified by other words (a delivery or service date)', () => {
		const delivery = extract(invoice, 'Liefer- und Leistungsdatum:      14.11.2024\nRechnungsnummer: 4711', { kind: 'pdf', language: 'de' });
		expect(field(delivery, 'invoice_date').confidence).toBeLessThan(0.8);
		expect(field(delivery, 'invoice_date').normalization_notes).toMatch(/qualified by 'liefer- und'/);
	});

	it('weighs a total a headerless table took for a row: the gross the net and tax add up to, not the first `Gesamtsumme`', () => {
		const pad = (label: string, amount: string) => ` ${label.padEnd(120 - amount.length)}${amount}`;
		const rows = ['Rechnungsnummer:   12345', 'Gesamtbeträge der Rechnung', pad('Summe aller Positionen', '99,00'), pad('Summe Nachlässe', '0,00'), pad('Summe Zuschläge', '0,00'), pad('Gesamtsumme', '99,00'), pad('Summe Umsatzsteuer in Abrechnungswährung', '18,81'), pad('Gesamtsumme', '117,81'), pad('Gezahlter Betrag', '0,00'), pad('Summe Fremdforderungen', '0,00'), pad('Fälliger Betrag', '117,81')];
		const data = extract(invoice, rows.join('\n'), { kind: 'pdf', language: 'de' });
		expect(field(data, 'total').value).toBe(117.81);
		expect(field(data, 'subtotal').value).toBe(99);
		expect(field(data, 'subtotal').confidence).toBeLessThan(0.8);
		// Summary lines (`Gesamtsumme`, `Gezahlter Betrag`) are no items, so they cannot "check" the total.
		expect(field(data, 'line_items').value ?? []).toEqual([]);
		expect(field(data, 'total').normalization_notes).not.toMatch(/line items add up/);
	});

	it('reads totals printed in the item columns as totals: the items end above them', () => {
		const rows = ['Pos.   Produkt                    Menge    Einzelpreis    Gesamtpreis', '1      Screws                      5 kg        18,00 €        90,00 €', '2      Brackets                    9 kg        15,00 €        45,00 €', '       Gesamtbetrag Netto                                     135,00 €', '       Gesamtbetrag Brutto                                    160,65 €'];
		const data = extract(invoice, rows.join('\n'), { kind: 'pdf', language: 'de' });
		expect([field(data, 'subtotal').value, field(data, 'total').value]).toEqual([135, 160.65]);
		expect((field(data, 'line_items').value as Array<{ description: string }>).map((item) => item.description)).toEqual(['Screws', 'Brackets']);
	});
});
