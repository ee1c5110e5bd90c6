import { describe, expect, it } from 'vitest';
import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import { extractData } from '../../../sandbox/src/extraction/extract';
import { joinWrappedHeadings } from '../../../sandbox/src/extraction/heading-rows';
import { headingRole, summaryTables } from '../../../sandbox/src/extraction/summary-table';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { ExtractedData, TemplateLike } from '../../../sandbox/src/extraction/types';

const invoice = { ...READY_MADE_TEMPLATES.find((template) => template.name === 'Invoice'), scanner_id: 'ready-invoice' } as TemplateLike;

function extract(text: string): ExtractedData {
	return extractData(invoice, { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'en' }, { fileName: 'x.pdf', fileType: 'pdf' });
}

function read(data: ExtractedData, name: string): [unknown, number] {
	const field = data.fields.find((candidate) => candidate.name === name);
	return [field?.value ?? null, field?.confidence ?? 0];
}

const amounts = (data: ExtractedData) => ['subtotal', 'tax_amount', 'total'].map((name) => read(data, name)[0]);
const lowest = (data: ExtractedData) => Math.min(...['subtotal', 'tax_amount', 'total'].map((name) => read(data, name)[1]));

describe('headings of a summary table of amounts', () => {
	it.each([
		['Net', 'subtotal'],
		['Total excl. VAT', 'subtotal'],
		['Nettobetrag', 'subtotal'],
		['Montant HT', 'subtotal'],
		['Totaal excl. BTW', 'subtotal'],
		['Imponibile', 'subtotal'],
		['VAT', 'tax'],
		['VAT 21%', 'tax'],
		['USt. 19 %', 'tax'],
		['TVA 20,0 %', 'tax'],
		['BTW', 'tax'],
		['IVA', 'tax'],
		['VAT %', 'rate'],
		['MwSt.-Satz', 'rate'],
		['Gross', 'total'],
		['Total incl. VAT', 'total'],
		['Bruttobetrag', 'total'],
		['Montant TTC', 'total'],
		['Totale', 'total'],
		['Total (EUR)', 'total'],
		['Description', undefined],
		['Net 30 days', undefined],
		['Gross weight', undefined],
	])('%s names the %s', (text, role) => {
		expect(headingRole(text)).toBe(role);
	});

	it('needs every cell of the row to be a heading, two of them amounts', () => {
		const style = { decimalSeparator: '.' as const };
		expect(summaryTables(toLines(['Description   Qty   VAT   Gross\nChair         2     4.00  24.00']), style)).toHaveLength(0);
		expect(summaryTables(toLines(['VAT %    VAT\n20 %     4.00']), style)).toHaveLength(0);
		expect(summaryTables(toLines(['Net      VAT\n20.00    4.00']), style)).toHaveLength(1);
	});
});

describe('totals printed as a small table', () => {
	it.each([
		['Net | VAT % | VAT | Gross', 'Net            VAT %     VAT          Gross\n100.00         20 %      20.00        120.00', [100, 20, 120]],
		['Total excl. VAT | VAT 21% | Total incl. VAT', 'Total excl. VAT     VAT 21%      Total incl. VAT\n1.000,00            210,00       1.210,00', [1000, 210, 1210]],
		['Nettobetrag | USt. 19 % | Bruttobetrag', 'Nettobetrag     USt. 19 %      Bruttobetrag\n1.000,00        190,00         1.190,00', [1000, 190, 1190]],
		['Montant HT | TVA | Montant TTC', 'Montant HT      TVA        Montant TTC\n1 000,00        200,00     1 200,00', [1000, 200, 1200]],
		['Totaal excl. BTW | BTW | Totaal incl. BTW', 'Totaal excl. BTW   BTW      Totaal incl. BTW\n100,00             21,00    121,00', [100, 21, 121]],
		['Imponibile | IVA | Totale', 'Imponibile     IVA       Totale\n100,00         22,00     122,00', [100, 22, 122]],
		['values right-aligned past their headings', 'Net        VAT        Gross\n     100.00      20.00      120.00', [100, 20, 120]],
	])('reads %s, believed when the row adds up', (_name, table, expected) => {
		const data = extract(`Invoice No. 12345\n\n${table}`);
		expect(amounts(data)).toEqual(expected);
		expect(lowest(data)).toBeGreaterThanOrEqual(0.8);
	});

	it('takes the sum row under several VAT-rate rows, never a rate row', () => {
		const german = extract('Rechnungsnr. 12345\n\nMwSt.-Satz   Netto        MwSt.       Brutto\n19 %         100,00       19,00       119,00\n7 %          50,00        3,50        53,50\nSumme        150,00       22,50       172,50');
		expect(amounts(german)).toEqual([150, 22.5, 172.5]);
		expect(lowest(german)).toBeGreaterThanOrEqual(0.8);
		const english = extract('Invoice No. 12345\n\nVAT rate   Net         VAT        Gross\n20%        100.00      20.00      120.00\n5%         40.00       2.00       42.00\nTotal      140.00      22.00      162.00');
		expect(amounts(english)).toEqual([140, 22, 162]);
	});

	it('gives no totals from rate rows without a sum row', () => {
		const tables = summaryTables(toLines(['VAT rate   Net         VAT        Gross\n20%        100.00      20.00      120.00\n5%         40.00       2.00       42.00']), { decimalSeparator: '.' });
		expect(tables).toHaveLength(0);
	});

	it('never takes a value from a neighbouring column', () => {
		const data = extract('Invoice No. 12345\n\nNet          VAT          Gross\n100.00                    100.00');
		expect(read(data, 'tax_amount')[0]).not.toBe(100);
		expect(read(data, 'subtotal')[0]).toBe(100);
	});

	it('doubts a row that does not add up', () => {
		const data = extract('Invoice No. 12345\n\nNet            VAT          Gross\n100.00         20.00        150.00');
		expect(lowest(data)).toBeLessThan(0.8);
	});
});

describe('rows of header headings with the values beneath', () => {
	it.each([
		['English', 'Invoice number     Invoice date     Customer number     Order number\nINV-2024-001       12.03.2024       K-55501             PO-777', 'INV-2024-001', 'PO-777'],
		['German', 'Rechnungsnr.    Datum         Kundennr.\n2024-117        01.02.2024    40021', '2024-117', null],
		['French', 'N° facture    Date          N° client\nF-2024-88     01/02/2024    C4402', 'F-2024-88', null],
		['Dutch', 'Factuurnummer    Factuurdatum    Klantnummer\n2024-0042        01-02-2024      100234', '2024-0042', null],
		['wrapped', 'Invoice        Invoice        Customer\nnumber         date           number\n20240042       01/02/2024     C-9981', '20240042', null],
		['wrapped with a hyphen', 'Kunden-        Rechnungs-     Datum\nnummer         nummer\n40021          2024-117       01.02.2024', '2024-117', null],
	])('reads the %s box', (_name, box, invoiceNumber, orderNumber) => {
		const data = extract(`INVOICE\n\n${box}\n\nTotal  100.00`);
		expect(read(data, 'invoice_number')[0]).toBe(invoiceNumber);
		expect(read(data, 'invoice_number')[1]).toBeGreaterThanOrEqual(0.8);
		expect(read(data, 'order_number')[0]).toBe(orderNumber);
		expect(read(data, 'invoice_date')[0]).not.toBeNull();
	});

	it('never takes a customer or account number for the invoice or order number', () => {
		const customer = extract('Invoice\n\nCustomer number     Invoice date\n55501               12.03.2024');
		expect(read(customer, 'invoice_number')[0]).toBeNull();
		const account = extract('Invoice\n\nAccount number   Invoice date   Order number\n88812            01/02/2024     4500012');
		expect([read(account, 'invoice_number')[0], read(account, 'order_number')[0]]).toEqual([null, '4500012']);
	});

	it('joins only words wrapping under headings, not rows of labels and values', () => {
		const fields = invoice.fields;
		const wrapped = joinWrappedHeadings(fields, toLines(['Kunden-        Rechnungs-     Datum\nnummer         nummer\n40021']));
		expect(wrapped.map((line) => line.text)).toEqual(['Kundennummer   Rechnungsnummer  Datum', '', '40021']);
		const pairs = toLines(['Valid until:   1 April 2026\nCustomer:      Mr J. Sample']);
		expect(joinWrappedHeadings(fields, pairs)).toEqual(pairs);
		const address = toLines(['Acme GmbH       Invoice\nMain Street     Berlin']);
		expect(joinWrappedHeadings(fields, address).map((line) => line.text)).toEqual(['Acme GmbH       Invoice', 'Main Street     Berlin']);
	});
});

describe('a tax line with its rate between label and amount', () => {
	it.each([
		['zzgl. 19% MwSt.', 'Nettobetrag  500,00\nzzgl. 19% MwSt.  95,00\nGesamtbetrag  595,00', 95],
		['a rate and its base', 'Subtotal  100.00\nVAT 20% on 100.00  20.00\nTotal  120.00', 20],
		['TVA 20,0 %', 'Total HT  83,33\nTVA 20,0 %  16,67\nTotal TTC  100,00', 16.67],
		['BTW 21% over a base', 'Subtotaal  € 100,00\nBTW 21% over € 100,00  € 21,00\nTotaal  € 121,00', 21],
		['IVA 22%', 'Imponibile  100,00\nIVA 22%  22,00\nTotale  122,00', 22],
		['plus 20% VAT', 'Net amount  50.00\nplus 20% VAT  10.00\nTotal due  60.00', 10],
	])('reads %s: the amount, never the rate or the base', (_name, text, tax) => {
		const data = extract(text);
		expect(read(data, 'tax_amount')).toEqual([tax, 0.95]);
	});
});

describe('a total printed beside a currency code', () => {
	it.each([
		['Total EUR 1.234,50'],
		['Gesamtbetrag EUR 1.234,50'],
		['Total (EUR) 1,234.50'],
		['Amount Due (USD): $1,234.50'],
		['Total EUR   1.234,50'],
	])('%s: the amount, not the code', (line) => {
		expect(read(extract(`Invoice 123\n${line}`), 'total')[0]).toBe(1234.5);
	});
});

describe('a value under a row of headings', () => {
	it('belongs to the heading it stands under most, not to a neighbour it touches', () => {
		const data = extract('INVOICE\n\nInvoice No.      Order number\n          4500012399-2024\n\nTotal  100.00');
		expect(read(data, 'invoice_number')[0]).toBeNull();
		expect(read(data, 'order_number')[0]).toBe('4500012399-2024');
	});
});

describe('a totals row read by its own arithmetic', () => {
	const style = { decimalSeparator: '.' as const };
	const taxTable = [
		'TAX:               % Base amount:                      Tax amount:                     Total:                           Curr.:',
		'     VAT      21.00                          522.31                           109.69                          632.00 EUR',
	].join('\n');

	it('takes net, tax and gross from a row that adds up and whose rate gives the tax, over the rate beside a VAT label', () => {
		const data = extract(`INVOICE I/00000\nDas Company\n\n${taxTable}`);
		expect(amounts(data)).toEqual([522.31, 109.69, 632]);
		expect(lowest(data)).toBeGreaterThanOrEqual(0.8);
	});

	it('needs the rate as well as the sum, and one such row only', () => {
		expect(summaryTables(toLines(['Amounts   522.31   109.69   632.00']), style)).toHaveLength(0);
		const perRate = ['VAT   19 %   100.00   19.00   119.00', 'VAT    7 %    50.00    3.50    53.50'].join('\n');
		expect(summaryTables(toLines([perRate]), style)).toHaveLength(0);
		expect(summaryTables(toLines([`${perRate.split('\n')[0]}\nTotal   19 %   100.00   19.00   119.00`]), style)).toHaveLength(1);
	});

	it('judges a hostile line of thousands of amounts in linear time', () => {
		// No two of them add up to a third, so a cubic search would try every triple.
		const line = Array.from({ length: 1000 }, (_, i) => `${(i * 1000 + 0.01).toFixed(2)}`).join('   ');
		const started = performance.now();
		expect(summaryTables(toLines([line]), style)).toHaveLength(0);
		expect(performance.now() - started).toBeLessThan(2000);
	});

	it('under one row per VAT rate, takes the row of their sums', () => {
		const text = ['VAT   19 %   100.00   19.00   119.00', 'VAT    7 %    50.00    3.50    53.50', '             150.00   22.50   172.50 EUR'].join('\n');
		const [table] = summaryTables(toLines([text]), style);
		expect([table.values.subtotal?.value, table.values.tax?.value, table.values.total?.value]).toEqual([150, 22.5, 172.5]);
		expect(summaryTables(toLines([text.replace('172.50', '173.50')]), style)).toHaveLength(0);
	});
});
