import { describe, expect, it } from 'vitest';
import { termDays } from '../../../sandbox/src/extraction/extract';
import { findLabels } from '../../../sandbox/src/extraction/labels';
import { confidenceOf, extractText, fieldOf, templateNamed, valueOf } from './test-documents';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { FieldDefinition, TemplateLike } from '../../../sandbox/src/extraction/types';

const invoice = templateNamed('Invoice');
const receipt = templateNamed('Receipt');
const extract = (template: TemplateLike, text: string, language = 'en') => extractText(template, text, { language });
const value = valueOf;
const confidence = confidenceOf;

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

	it('reads the number whose title stands in the cell before it, a compound title and its type code too', () => {
		expect(value(extract(invoice, '         Facture      n° :   20221100001\n         Dossier     n° :    000003', 'fr'), 'invoice_number')).toBe('20221100001');
		expect(value(extract(invoice, '   Handelsrechnung (380)  Nr. TX-471102  vom  15.11.2024', 'de'), 'invoice_number')).toBe('TX-471102');
		expect(value(extract(invoice, '   Dossier     n° :    000003', 'fr'), 'invoice_number')).toBeNull();
	});

	it('reads the date after the number as the document\'s date (`Rechnung Nr. 4711 vom 01.02.2021`), not a later date in a remark', () => {
		const german = extract(invoice, 'Rechnung Nr. 4711 vom 01.02.2021', 'de');
		expect([value(german, 'invoice_number'), value(german, 'invoice_date')]).toEqual(['4711', '2021-02-01']);
		const apart = extract(invoice, '   Handelsrechnung (380)  Nr. TX-471102  vom  15.11.2024\n   Bemerkung       Rechnung gemäß Taxifahrt vom 14.11.2024', 'de');
		expect(value(apart, 'invoice_date')).toBe('2024-11-15');
		expect(confidence(apart, 'invoice_date')).toBeGreaterThanOrEqual(0.8);
	});

	it('reads a number touching its sign `N°` under the title', () => {
		expect(value(extract(invoice, '                  FACTURE\n              N°F-20240000014\nTotal TTC  12,00 €', 'fr'), 'invoice_number')).toBe('F-20240000014');
		// `No` and a word is no sign: `November`, `Nombre`.
		expect(value(extract(invoice, 'FACTURE\nNovember 2024', 'fr'), 'invoice_number')).toBeNull();
	});

	it('takes no number sign followed by words, nor one under another text', () => {
		expect(value(extract(invoice, 'INVOICE\nNumber of items: 5'), 'invoice_number')).toBeNull();
		expect(value(extract(invoice, 'Détail de votre facture du 29/01/2021 n° 10123590373', 'fr'), 'invoice_number')).toBeNull();
		expect(value(extract(invoice, '   Votre contrat\n   n° 1234567890', 'fr'), 'invoice_number')).toBeNull();
	});
});

describe('an e-invoice summary in English', () => {
	it('reads `Net Total Amount`, `Value Added Tax (19.00% of €121.50)` and `Gross Total Amount`, checked by their sum', () => {
		const pad = (label: string, amount: string) => `        ${label.padEnd(100 - amount.length)}${amount}`;
		const text = ['INVOICE', 'Invoice Number:   DOC-12345', pad('Line Total Amount', '€135.00'), pad('Allowance (Tax: 19.00%): Discount', '- €13.50'), pad('Net Total Amount', '€121.50'), pad('Value Added Tax (19.00% of €121.50)', '€23.09'), pad('Gross Total Amount', '€144.59')].join('\n');
		const data = extract(invoice, text);
		expect([value(data, 'subtotal'), value(data, 'tax_amount'), value(data, 'total')]).toEqual([121.5, 23.09, 144.59]);
		expect(confidence(data, 'total')).toBeGreaterThanOrEqual(0.8);
	});
});

describe('values in boxes and groups', () => {
	it('reads an amount right-aligned past the end of its heading in a row of headings', () => {
		const text = 'Invoice Number     Invoice Date     Charges          VAT ID\n\n34278587           6/18/2017              $56,651.49  PT';
		const data = extract(invoice, text);
		expect(value(data, 'total')).toBe(56651.49);
		// `Charges` may name part of the amount: not believed without a check.
		expect(confidence(data, 'total')).toBeLessThan(0.8);
		// `PT` under `VAT ID` has no digits: no VAT id's shape, not taken (issue 44).
		expect(value(data, 'supplier_vat_id')).toBeNull();
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

	it('reads two labelled dates on one line, each printed as digits only (Factur-X format 102)', () => {
		const data = extract(invoice, 'FACTURE\nN° FA-2026-0001\nDate : 20260815 · Échéance : 20260914', 'fr');
		expect([value(data, 'invoice_date'), value(data, 'due_date')]).toEqual(['2026-08-15', '2026-09-14']);
	});

	it('reads the due date under a `Fälligkeit` heading in a row of headings', () => {
		const data = extract(invoice, 'Rechnung Nr. TX-471102 vom 15.11.2024\n\nZahlungsbedingungen\nBeschreibung                            Fälligkeit                              Teilzahlung\n                                        15.12.2024', 'de');
		expect(value(data, 'due_date')).toBe('2024-12-15');
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

/** Extracts with the invoice template and returns one field's value and confidence. */
function read(text: string, name: string, language = 'en'): { value: unknown; confidence: number } {
	const data = extract(invoice, text, language);
	return { value: value(data, name), confidence: confidence(data, name) };
}

describe('order numbers in seven languages and several layouts', () => {
	it.each([
		['Order number: PO-4711/22', 'PO-4711/22'],
		['Order No. 4500012345', '4500012345'],
		['Order #  A-778', 'A-778'],
		['Order ID: 112-5551234-7788123', '112-5551234-7788123'],
		['PO #: 7781', '7781'],
		['PO#4711', '4711'],
		['Order #A-778', 'A-778'],
		['P.O. No. 45-889', '45-889'],
		['Purchase Order No.: PO-2231', 'PO-2231'],
		['PurchaseOrderNo:PO-5512', 'PO-5512'],
		['Bestellnummer: 4500012345', '4500012345'],
		['Bestell-Nr.  BN/2021/7', 'BN/2021/7'],
		['Auftragsnummer  A-2021-889', 'A-2021-889'],
		['Ihre Bestellung Nr. 77812 vom 01.02.2021', '77812'],
		['Ihre Bestellnr.: 4711', '4711'],
		['N° de commande : CMD-3342', 'CMD-3342'],
		['Numéro de commande  88123', '88123'],
		['Bon de commande n° BC/2020/15', 'BC/2020/15'],
		['Votre commande n° 33421 du 12/01/2021', '33421'],
		['Número de pedido: 2020-PED-11', '2020-PED-11'],
		['Pedido nº 44521', '44521'],
		['Su pedido: 7781-B', '7781-B'],
		['Bestelnummer: 99812', '99812'],
		['Ordernummer  ORD-1234', 'ORD-1234'],
		['Uw bestelling: 4451', '4451'],
		['Numero ordine: 5512/A', '5512/A'],
		['Ordine n. 7788', '7788'],
		['Rif. ordine: 8812', '8812'],
		['Número da encomenda: ENC-2020-01', 'ENC-2020-01'],
		['Encomenda nº 1234', '1234'],
		['Order No.\n  4500099', '4500099'],
		['Invoice Number     Order Number     Date\nINV-12             PO-991           12/01/2020', 'PO-991'],
		['Invoice No: 2019-11   Order No: A-778', 'A-778'],
		['Kundennummer: 10021\nBestellnummer: 4500011', '4500011'],
	])('%j -> %s', (text, expected) => {
		const { value: read_, confidence: sure } = read(text, 'order_number');
		expect(read_).toBe(expected);
		expect(sure).toBeGreaterThanOrEqual(0.8);
	});

	it.each([
		['Order date: 12/01/2020'],
		['Order number: 12/01/2020'],
		['Customer number: 55112'],
		['Account no. 4455-12'],
		['Invoice No. 2019-11'],
	])('%j gives no order number', (text) => {
		expect(read(text, 'order_number').value).toBeNull();
	});

	it('reads "your reference" as the order number, believed less than its own labels', () => {
		const reference = read('Your reference: 4500-12', 'order_number');
		expect(reference.value).toBe('4500-12');
		const both = read('Your reference: 4500-12\nOrder no.: PO-77', 'order_number');
		expect(both.value).toBe('PO-77');
		expect(read('Your reference: John Smith', 'order_number').value).toBeNull();
	});

	it('doubts an order number that is the invoice number', () => {
		const same = read('Invoice No.: 2021-0042\nOrder No.: 2021-0042', 'order_number');
		expect(same.value).toBe('2021-0042');
		expect(same.confidence).toBeLessThan(0.8);
	});
});

describe('invoice number labels in seven languages', () => {
	it.each([
		['Factuurnummer: 2021-0042', '2021-0042'],
		['Factuurnr. 20210042', '20210042'],
		['Rechnungs-Nr.: RE-2021-17', 'RE-2021-17'],
		['Rechnungsnummer  4711', '4711'],
		['Invoice No: INV-001', 'INV-001'],
		['Invoice #12345', '12345'],
		['Invoice # 12345', '12345'],
		['InvoiceNo:7788', '7788'],
		['Bill No. 5521', '5521'],
		['Facture N° F2021-118', 'F2021-118'],
		['Facture n°FA-2021-0042', 'FA-2021-0042'],
		['N° facture : 2021/118', '2021/118'],
		['Numero fattura: 12/2021', '12/2021'],
		['Fattura n. 45/A', '45/A'],
		['Nº da fatura: FT 2021/45', 'FT 2021/45'],
		['Número de factura: A-2021-0007', 'A-2021-0007'],
		['INVOICE 2019-0042', '2019-0042'],
		['Tax Invoice #INV-12', 'INV-12'],
		['Invoice #INV-12', 'INV-12'],
		['Statement date 12/01/2020   Invoice #INV-12', 'INV-12'],
		['TAX INVOICE   No. 8812', '8812'],
		['INVOICE NO.\n2019-0042', '2019-0042'],
		['Invoice Date     Invoice No.\n12/01/2020       INV-881', 'INV-881'],
	])('%j -> %s', (text, expected) => {
		const { value: read_, confidence: sure } = read(text, 'invoice_number');
		expect(read_).toBe(expected);
		expect(sure).toBeGreaterThanOrEqual(0.8);
	});

	it('takes no date, and believes no number under a bare title', () => {
		expect(read('Invoice number: 12/01/2020', 'invoice_number').value).toBeNull();
		const underTitle = read('Invoice              Date\nINV-881              12/01/2020', 'invoice_number');
		expect(underTitle.confidence).toBeLessThan(0.8);
	});
});

describe('no tax charged', () => {
	it.each([
		['Gesamtbetrag Netto  14,90 €\nGesamtbetrag Brutto  14,90 €\nUmsatzsteuerbefreit nach §19 UStG', 'de'],
		['Summe Waren  9,90\nRechnungssumme  9,90\nIm ausgewiesenen Rechnungsbetrag ist gemäß § 19 UStG keine Umsatzsteuer enthalten.', 'de'],
		['Total HT  100,00 €\nTotal TTC  100,00 €\nTVA non applicable, art. 293 B du CGI', 'fr'],
		['Net amount  250.00\nTotal  250.00\nReverse charge: the customer accounts for the VAT', 'en'],
	])('%j: a tax of 0, stated and checked by net = gross', (text, language) => {
		const data = extract(invoice, text, language);
		expect(value(data, 'tax_amount')).toBe(0);
		expect(confidence(data, 'tax_amount')).toBeGreaterThanOrEqual(0.8);
		expect(String(fieldOf(data, 'tax_amount').normalization_notes)).toMatch(/no tax charged/);
	});

	it('takes no tax of 0 without the statement, nor where the net is not the gross', () => {
		expect(value(extract(invoice, 'Subtotal  14.90\nTotal  14.90'), 'tax_amount')).toBeNull();
		expect(value(extract(invoice, 'Net amount  100.00\nTotal  119.00\nReverse charge'), 'tax_amount')).not.toBe(0);
	});
});

describe('net amounts (subtotals) in seven languages', () => {
	it.each([
		['Subtotal  100.00\nVAT 20%  20.00\nTotal  120.00', 100],
		['Sub-total: 100.00\nVAT: 20.00\nTotal: 120.00', 100],
		['Net amount  £80.00\nVAT  £16.00\nTotal  £96.00', 80],
		['Total excl. VAT  80.00\nVAT 20%  16.00\nTotal incl. VAT  96.00', 80],
		['Total before tax  $90.00\nSales tax  $7.20\nTotal  $97.20', 90],
		['Nettobetrag  1.000,00 €\nUmsatzsteuer 19 %  190,00 €\nRechnungsbetrag  1.190,00 €', 1000],
		['Summe netto  500,00\nMwSt. 19%  95,00\nGesamtbetrag  595,00', 500],
		['Zwischensumme  200,00\nMwSt 19%  38,00\nGesamt  238,00', 200],
		['Netto  84,03\nMwSt 19%  15,97\nBrutto  100,00\nZu zahlen  100,00', 84.03],
		['Total HT  1 000,00 €\nTVA 20 %  200,00 €\nTotal TTC  1 200,00 €', 1000],
		['Montant HT : 50,00 €\nMontant TVA : 10,00 €\nNet à payer : 60,00 €', 50],
		['Total hors taxes : 100,00 €\nTVA : 20,00 €\nTotal TTC : 120,00 €', 100],
		['Sous-total  100,00\nTVA  20,00\nTotal TTC  120,00', 100],
		['Base imponible  300,00 €\nIVA 21%  63,00 €\nTotal factura  363,00 €', 300],
		['Subtotal sin IVA: 300,00\nIVA (21%): 63,00\nTotal: 363,00', 300],
		['Subtotaal  € 100,00\nBTW 21%  € 21,00\nTotaal  € 121,00', 100],
		['Totaal excl. BTW  € 100,00\nBTW  € 21,00\nTotaal incl. BTW  € 121,00', 100],
		['Bedrag excl. BTW: 250,00\nBTW 21%: 52,50\nTe betalen: 302,50', 250],
		['Imponibile  1.000,00\nIVA 22%  220,00\nTotale documento  1.220,00', 1000],
		['Totale imponibile € 100,00\nTotale IVA € 22,00\nTotale fattura € 122,00', 100],
		['Valor sem IVA: 100,00 €\nIVA 23%: 23,00 €\nTotal a pagar: 123,00 €', 100],
		['Base tributável  100,00\nIVA 23%  23,00\nTotal  123,00', 100],
		['Total HT          Total TVA         Total TTC\n1 000,00 €        200,00 €          1 200,00 €', 1000],
		['SUBTOTAL$100.00\nTAX$8.00\nTOTAL$108.00', 100],
		['Montant total net  135,00 €\nTaxe sur la valeur ajoutée (19,00 %)  25,65 €\nMontant total brut  160,65 €', 135],
		['Montant net  100,00 €\nMontant de la TVA  20,00 €\nMontant brut  120,00 €', 100],
		['MONTANT TOTAL HT  1.000,00 €\nRemise pourcentage  - 100,00 €\nBase de TVA  900,00 €\nMontant TVA  185,40 €\nTotal T.T.C.  1.085,40 €', 900],
		['Importe neto  100,00 €\nImpuesto sobre el valor añadido (21 %)  21,00 €\nImporte bruto  121,00 €', 100],
		['Totale netto  100,00 €\nImposta sul valore aggiunto (22 %)  22,00 €\nTotale lordo  122,00 €', 100],
	])('%j -> %d, all three believed once they add up', (text, expected) => {
		const data = extract(invoice, text);
		expect(value(data, 'subtotal')).toBe(expected);
		for (const name of ['subtotal', 'tax_amount', 'total']) expect(confidence(data, name)).toBeGreaterThanOrEqual(0.9);
	});

	it('doubts a subtotal above the total', () => {
		const data = extract(invoice, 'Subtotal  150.00\nTotal  120.00');
		expect(confidence(data, 'subtotal')).toBeLessThan(0.8);
		expect(confidence(data, 'total')).toBeLessThan(0.8);
	});
});

describe('an issuer VAT id printed without a label', () => {
	const legal = (id: string) => `Facture n° 11608848301659\nMontant TTC  12,99 €\nBOUYGUES TELECOM - Société Anonyme au capital de 712 588 399,56 € - 397 480 930 R.C.S. PARIS - ${id}`;

	it('is read where its check digits hold (the French key of the SIREN), below 0.8', () => {
		const data = extract(invoice, legal('FR 74 397 480 930'), 'fr');
		expect(value(data, 'supplier_vat_id')).toBe('FR74397480930');
		expect(confidence(data, 'supplier_vat_id')).toBeLessThan(0.8);
	});

	it('is not read where they do not', () => {
		expect(value(extract(invoice, legal('FR 75 397 480 930'), 'fr'), 'supplier_vat_id')).toBeNull();
	});
});

describe('the supplier VAT id, not the customer one', () => {
	it.each([
		['VAT ID: DE123456789', 'DE123456789'],
		['USt-IdNr.: DE 123 456 789', 'DE123456789'],
		['Umsatzsteuer-Identifikationsnummer: DE123456789', 'DE123456789'],
		['TVA intracommunautaire : FR 40 303 265 045', 'FR40303265045'],
		['N° TVA intracommunautaire : FR40303265045', 'FR40303265045'],
		['BTW-nummer: NL123456789B01', 'NL123456789B01'],
		['BTW nr.  BE0123456789', 'BE0123456789'],
		['Partita IVA: IT12345678901', 'IT12345678901'],
		['P.IVA 12345678901', '12345678901'],
		['NIF/CIF: ESB12345678', 'ESB12345678'],
		['VAT Reg No: GB 123 4567 89', 'GB123456789'],
		['GSTIN: 29ABCDE1234F1Z5', '29ABCDE1234F1Z5'],
		['GST No: 27AAPFU0939F1ZV', '27AAPFU0939F1ZV'],
		['ABN: 51 824 753 556', '51824753556'],
		['VAT No.\nGB123456789', 'GB123456789'],
	])('%j -> %s', (text, expected) => {
		const { value: read_, confidence: sure } = read(text, 'supplier_vat_id');
		expect(read_).toBe(expected);
		expect(sure).toBeGreaterThanOrEqual(0.8);
	});

	it('doubts an id whose country prefix says another length', () => {
		const short = read('USt-IdNr.: DE12345678', 'supplier_vat_id');
		expect(short.value).toBe('DE12345678');
		expect(short.confidence).toBeLessThan(0.8);
	});

	it('leaves an id in the customer block or after a customer label to the customer', () => {
		const billTo = extract(invoice, 'Bill to:\nKunde GmbH\nMusterstraße 1\nUSt-IdNr.: DE999999999');
		expect(value(billTo, 'supplier_vat_id')).toBeNull();
		expect(value(billTo, 'customer_vat_id')).toBe('DE999999999');
		expect(confidence(billTo, 'customer_vat_id')).toBeLessThan(0.8);
		const both = extract(invoice, 'ACME GmbH                               Client :\nVAT ID: DE123456789                     Dupont SA\n                                        VAT ID: FR40303265045\n\nTotal  12.00');
		expect(value(both, 'supplier_vat_id')).toBe('DE123456789');
		expect(confidence(both, 'supplier_vat_id')).toBeGreaterThanOrEqual(0.8);
		expect(value(both, 'customer_vat_id')).toBe('FR40303265045');
		const labelled = extract(invoice, 'Customer VAT: DE999999999\nTVA client : FR12345678901');
		expect(value(labelled, 'supplier_vat_id')).toBeNull();
		expect(value(labelled, 'customer_vat_id')).toBe('DE999999999');
	});
});

describe('labels are never values (issue 44)', () => {
	it('takes no label word, legal form alone, number, bank heading or sentence as the supplier', () => {
		// A heading over sub-labels: the value beside `Name:`, not the sub-label.
		const heading = extract(invoice, 'Verkäufer\nName:                  Taxiunternehmen TX GmbH\nAnschrift:             Lieferantenstraße 20\n\nKäufer\nName:                  Taxi-Gast AG', 'de');
		expect(value(heading, 'supplier_name')).toBe('Taxiunternehmen TX GmbH');
		// `Lieferant` is the company's name here, not a label before `GmbH & Co. KG`.
		const form = extract(invoice, 'Lieferant GmbH & Co. KG\nTeststraße 1\n\nRechnungsnummer: 4711', 'de');
		expect(value(form, 'supplier_name')).toBe('Lieferant GmbH & Co. KG');
		const store = extract(receipt, 'STORE #1089\nCalgary\nTOTAL  12.00');
		expect(value(store, 'merchant_name')).not.toBe('1089');
		const sentence = extract(invoice, 'Blue Harbour Studio\nInvoice No. 77\nLes biens livrés demeurent la propriété du\nvendeur jusqu’au paiement intégral de la facture.', 'fr');
		expect(value(sentence, 'supplier_name')).toBe('Blue Harbour Studio');
	});

	it('takes no bank-detail heading above an IBAN as the supplier', () => {
		const lines = ['Rechnung 12345', 'Rechnungsdatum: 15.05.2019', '', 'Zahlungsdaten', 'Überweisung', 'IBAN:              DE02120300000000202051'];
		const found = extract(invoice, lines.join('\n'), 'de');
		expect(value(found, 'supplier_name')).not.toBe('Überweisung');
	});

	it('takes no words as a VAT id, stops an id where its shape ends, and doubts a national tax number', () => {
		expect(read('VAT ID:N/A', 'supplier_vat_id').value).toBeNull();
		expect(read('TVA: FI TVA Intra', 'supplier_vat_id').value).toBeNull();
		const tail = read('USt-IdNr.: DE123456789 Amtsgericht Berlin HRB 1234', 'supplier_vat_id');
		expect(tail.value).toBe('DE123456789');
		expect(tail.confidence).toBeGreaterThanOrEqual(0.8);
		const national = read('USt.-Id:88888/00072', 'supplier_vat_id');
		expect(national.confidence).toBeLessThan(0.8);
	});

	it('reads the VAT id from a list of ids under `Tax ID(s):`, not the national number above it', () => {
		const list = extract(invoice, ' From:                    To:\n Das Company              Steel, Laura\n Tax ID(s):               Tax ID(s):\n FC: 201/113/40209        Not applicable\n VA: BE0123456789\n\nTotal  12.00');
		expect(value(list, 'supplier_vat_id')).toBe('BE0123456789');
	});

	it('takes no word or sentence under a currency label: the amounts\' currency instead', () => {
		const word = extract(invoice, 'Währung:        Abrechnungszeitraum\nGesamtbetrag:   12,00 €', 'de');
		expect(value(word, 'currency')).toBe('EUR');
		expect(value(word, 'currency')).not.toBe('Abrechnungszeitraum');
	});

	it('reads a French payment deadline as the due date, not the invoice date', () => {
		const deadline = extract(invoice, 'FACTURE n° 2023-6013\n20/09/2023\nDate limite de règlement : 19/10/2023', 'fr');
		expect(value(deadline, 'due_date')).toBe('2023-10-19');
		expect(value(deadline, 'invoice_date')).not.toBe('2023-10-19');
	});

	it('reads German and English net, tax and gross totals by their full labels', () => {
		const totals = extract(invoice, 'Gesamtbetrag Netto:     554,55 €\nGesamtbetrag Steuer:    100,83 €\nGesamtbetrag Brutto:    655,38 €', 'de');
		expect([value(totals, 'subtotal'), value(totals, 'tax_amount'), value(totals, 'total')]).toEqual([554.55, 100.83, 655.38]);
		const english = extract(invoice, 'Total amount (net):    20.549,00 €\nTotal tax amount:       3.904,31 €\nTotal amount (gross):  24.453,31 €');
		expect([value(english, 'subtotal'), value(english, 'tax_amount'), value(english, 'total')]).toEqual([20549, 3904.31, 24453.31]);
	});
});
