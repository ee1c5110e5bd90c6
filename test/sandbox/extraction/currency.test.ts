import { describe, expect, it } from 'vitest';
import { addressCountries, currencySigns, documentCurrency, labelledCurrency, phoneCountries, vatCountries } from '../../../sandbox/src/extraction/currency';
import { toLines } from '../../../sandbox/src/extraction/text-lines';

const currencyOf = (text: string) => documentCurrency(toLines([text]));

describe('currency signs printed on a line', () => {
	it.each([
		['Total (EUR)   1.234,50', ['EUR']],
		['Amount in GBP', ['GBP']],
		['EUR 1.234,50', ['EUR']],
		['Total   1.234,50EUR', ['EUR']],
		['Total   1.234,50 Eur', ['EUR']],
		['Total   120,00 €', ['EUR']],
		['Total   £10.20', ['GBP']],
		['Total   ¥1,200', ['¥']],
		['Total   ₹ 1,200.00', ['INR']],
		['Total   ₩12,000', ['KRW']],
		['Итого   1 200 ₽', ['RUB']],
		['Razem   1 234,50 zł', ['PLN']],
		['Celkem   1 234,50 Kč', ['CZK']],
		['Összesen   12 500 Ft', ['HUF']],
		['Summa   1 234,50 kr', ['kr']],
		['Total   CHF 1\'234.50', ['CHF']],
		['Total   Fr. 1\'234.50', ['CHF']],
		['Total   R$ 1.234,50', ['BRL']],
		['Total   A$12.00   AU$12.00', ['AUD', 'AUD']],
		['Total   C$12.00   CA$12.00', ['CAD', 'CAD']],
		['Total   NZ$12.00   HK$12.00   S$12.00   US$12.00', ['USD', 'NZD', 'HKD', 'SGD']],
		['Total   $12.00', ['$']],
		['Total   Rs. 1,200.00', ['INR']],
		['Total   Rs 1,200', ['INR']],
		['Amount in words: twelve hundred rupees only', ['INR']],
		['Payable in euros', ['EUR']],
		['Amounts in pounds sterling', ['GBP']],
		['Twelve dollars', ['$']],
		['Paid in US dollars', ['USD']],
		['Total   PEN 120.00', ['PEN']],
		['Total   RM 12.50', ['MYR']],
		['Total   RUB 1200', ['RUB']],
	])('%s', (text, expected) => {
		expect(currencySigns(text)).toEqual(expected);
	});

	it.each([
		['OPEN 24 HOURS'],
		['DOLLARAMA STORE'],
		['EUROPE'],
		['Pen and paper'],
		['Try our new menu'],
		['Total   12,50e'],
		['NE<£Vfff'],
		['PROMOTION $fHd'],
		['Kr Meier, Street 3'],
		['Ft Lauderdale'],
		['HDMI cable 6 Ft'],
		['Fr. 12.03.2021'],
		['RM 204'],
		['DRY RUB WINGS'],
		['CASHIER: RON'],
	])('reads no currency in %s', (text) => {
		expect(currencySigns(text)).toEqual([]);
	});
});

describe('the supplier country clues', () => {
	it.each([
		['USt-IdNr.: DE123456789', ['DE']],
		['TVA intracom. FR 12 345678901', ['FR']],
		['BTW NL123456789B01', ['NL']],
		['VAT No: GB 123 4567 89', ['GB']],
		['MWST CHE-123.456.789 MWST', ['CH']],
		['Org.nr SE556677889901', ['SE']],
		['NIP PL1234567890', ['PL']],
		['GSTIN 27AAPFU0939F1ZV', ['IN']],
		['UID ATU12345678', ['AT']],
		['Ref DE12345', []],
	])('VAT ids: %s', (text, expected) => {
		expect(vatCountries(text)).toEqual(expected);
	});

	it.each([
		['Tel. +49 30 1234567', ['DE']],
		['Tél : +33 1 23 45 67 89', ['FR']],
		['T (+31) 20 123 4567', ['NL']],
		['Phone +44 20 7946 0000', ['GB']],
		['Mob +91 98765 43210', ['IN']],
		['Tel 0041 44 123 45 67', ['CH']],
		['Phone +1 212 555 0100', []],
		['IBAN DE89 3704 0044 0532 0130 00', []],
		['Discount  +49,00', []],
	])('phones: %s', (text, expected) => {
		expect(phoneCountries(text)).toEqual(expected);
	});

	it.each([
		['Hauptstr. 1, 10115 Berlin, Germany', ['DE']],
		['Musterweg 5  D-80331 München', ['DE']],
		['12 rue de la Paix  F-75002 Paris', ['FR']],
		['Damrak 1  1012 AB Amsterdam', ['NL']],
		['ul. Prosta 1  00-950 Warszawa', ['PL']],
		['10 Downing Street  London SW1A 2AA', ['GB']],
		['DEUTSCHLAND', ['DE']],
		['Suisse', ['CH']],
		['Albany, NY 12210', ['US']],
		['Toronto, ON M5V 2T6', ['CA']],
		['India Pale Ale   5.50', []],
		['Fabrikam AB', []],
	])('addresses: %s', (text, expected) => {
		expect(addressCountries(toLines([text])[0])).toEqual(expected);
	});
});

describe('the currency of a document', () => {
	it.each([
		['one sign seen twice', 'Net   100,00 €\nTotal   120,00 €', 'EUR', 0.85, 1],
		['one sign seen once', 'Total   120,00 €', 'EUR', 0.5, 0.79],
		['one sign seen once, the supplier country agreeing', 'USt-IdNr. DE123456789\nTotal   120,00 €', 'EUR', 0.8, 0.85],
		['a conversion note beside the total currency', 'Net   EUR 100,00\nVAT   EUR 20,00\nTotal   EUR 120,00\n(approx. USD 130.00)', 'EUR', 0.8, 0.85],
		['two currencies beside totals', 'Total (EUR)   120,00\nTotal (USD)   130,00', 'EUR', 0, 0.79],
		['a VAT id alone', 'Fabrikam GmbH\nUSt-IdNr. DE123456789\nTotal   120,00', 'EUR', 0.5, 0.79],
		['a VAT id and an IBAN of one country', 'Fabrikam GmbH\nUSt-IdNr. DE123456789\nIBAN DE89 3704 0044 0532 0130 00\nTotal   120,00', 'EUR', 0.8, 0.85],
		['a UK VAT id and phone', 'Fabrikam Ltd\nVAT No GB123456789\nTel +44 20 7946 0000\nTotal   120.00', 'GBP', 0.8, 0.85],
		['a GSTIN', 'Fabrikam Pvt Ltd\nGSTIN 27AAPFU0939F1ZV\nTotal   1,200.00', 'INR', 0.5, 0.79],
		['kr of a Swedish supplier', 'Fabrikam AB\nMomsreg.nr SE556677889901\nSumma   1 234,50 kr', 'SEK', 0.8, 0.85],
		['kr of a Danish supplier', 'Fabrikam ApS\nCVR DK12345678\nI alt   1.234,50 kr.', 'DKK', 0.8, 0.85],
		['¥ of a Chinese supplier', 'Shanghai, China\nTotal   ¥1,200.00', 'CNY', 0.8, 0.85],
		['¥ alone', 'Total   ¥1,200', 'JPY', 0.5, 0.79],
		['one sign against two agreeing country clues', 'USt-IdNr. DE123456789\nIBAN DE89 3704 0044 0532 0130 00\nTotal   USD 120.00', 'USD', 0, 0.6],
		['$ of a Mexican supplier', 'Tel +52 55 1234 5678\nTotal   $1,200.00', 'MXN', 0.8, 0.85],
	])('%s', (_, text, code, low, high) => {
		const result = currencyOf(text);
		expect(result?.value).toBe(code);
		expect(result?.confidence).toBeGreaterThanOrEqual(low);
		expect(result?.confidence).toBeLessThanOrEqual(high);
	});

	it('reads the supplier country outside the customer block', () => {
		const text = 'Fabrikam Ltd\nVAT No GB123456789\n\nBill to:\nMüller GmbH\nUSt-IdNr. DE123456789\nTel +49 30 1234567\n\nTotal   120.00';
		expect(currencyOf(text)?.value).toBe('GBP');
	});

	it('reads a bare $ as the supplier\'s dollar, not the customer\'s', () => {
		const result = currencyOf('Fabrikam Inc.\nAlbany, NY 12210\n\nBill to:\nContoso Ltd\nToronto, ON M5V 2T6\n\nTotal   $120.00');
		expect(result?.value).toBe('USD');
		expect(result?.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('holds clues that disagree low', () => {
		const result = currencyOf('Fabrikam\nVAT No GB123456789\nIBAN DE89 3704 0044 0532 0130 00\nTotal   120.00');
		expect(result?.confidence).toBeLessThan(0.5);
	});

	it('gives nothing for kr without a country, nor without any clue', () => {
		expect(currencyOf('Summa   1 234,50 kr')).toBeUndefined();
		expect(currencyOf('Total   120.00')).toBeUndefined();
	});
});

describe('a labelled currency', () => {
	const labelled = (value: string, text = 'Total   12.00') => labelledCurrency({ value, confidence: 0.95, source_fragment: `Currency: ${value}`, raw_candidates: [value], normalization_notes: '' }, toLines([text]));

	it.each([
		['EUR', 'EUR'],
		['Euro', 'EUR'],
		['euros', 'EUR'],
		['€', 'EUR'],
		['Pounds Sterling', 'GBP'],
		['zł', 'PLN'],
		['US$', 'USD'],
		['$', 'USD'],
	])('reads %s as %s', (value, code) => {
		const result = labelled(value);
		expect(result.value).toBe(code);
		expect(result.confidence).toBe(0.95);
	});

	it('reads a shared sign through the document, and holds a value that is no currency low', () => {
		expect(labelled('$', 'Toronto, ON M5V 2T6\nTotal   $12.00').value).toBe('CAD');
		expect(labelled('see below').confidence).toBeLessThan(0.8);
	});
});
