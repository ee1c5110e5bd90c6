import { describe, expect, it } from 'vitest';
import { vatCheckDigitsHold, findCurrencies, findIbans, guessDecimalSeparator, isValidAbn, isValidIban, isValidVatId, normalizeValue, parseBoolean, parseDate, parseEmail, parseMoney, parseNumber, parsePhone, taxIdKind } from '../../../sandbox/src/extraction/normalize';

describe('parseNumber', () => {
	it.each([
		['1,234.56', 1234.56],
		['1.234,56', 1234.56],
		['1 234,56', 1234.56],
		['1\u00a0234,56', 1234.56],
		["1'234.56", 1234.56],
		['12,5', 12.5],
		['0.73', 0.73],
		['1.234.567', 1234567],
		['-12.50', -12.5],
		['(12.50)', -12.5],
		['12,50-', -12.5],
		['EUR 978,00', 978],
		['19', 19],
		// A group has three digits, no more: four decimals (XRechnung's quantities).
		['1.0000', 1],
		['2,5000', 2.5],
	])('reads %s as %d', (raw, value) => {
		expect(parseNumber(raw)?.value).toBe(value);
	});

	it('lets the document style decide an ambiguous group of three', () => {
		expect(parseNumber('1.234')?.value).toBe(1234);
		expect(parseNumber('1,234', ',')?.value).toBe(1.234);
		expect(parseNumber('1.234', '.')?.value).toBe(1.234);
		expect(parseNumber('1.234')?.notes.join()).toContain('ambiguous');
	});

	it('finds no number in text without digits', () => {
		expect(parseNumber('Total')).toBeUndefined();
	});
});

describe('parseMoney', () => {
	it.each([
		['£1,234.56', 1234.56, 'GBP'],
		['1.633,75 €', 1633.75, 'EUR'],
		['EUR 2.722,50', 2722.5, 'EUR'],
		['$ 99.90', 99.9, 'USD'],
		['1 842,00 CHF', 1842, 'CHF'],
	])('reads %s', (raw, value, currency) => {
		const money = parseMoney(raw);
		expect(money?.value).toBe(value);
		expect(money?.currency).toBe(currency);
		expect(money?.notes.join()).toContain(currency);
	});

	it('leaves the currency out when none is printed', () => {
		expect(parseMoney('260,85')?.currency).toBeUndefined();
	});

	it("reads a dollar sign with its country's letters as that country's dollar", () => {
		expect(parseMoney('C$ 12.00')?.currency).toBe('CAD');
		expect(parseMoney('AU$12.00')?.currency).toBe('AUD');
		expect(parseMoney('US$ 12.00')?.currency).toBe('USD');
		expect(parseMoney('C $12.00')?.currency).toBe('CAD');
		expect(parseMoney('R$ 1.234,50')?.currency).toBe('BRL');
	});

	it('reads the signs of the document-level table beside one amount', () => {
		expect(parseMoney('1 234,50 zł')?.currency).toBe('PLN');
		expect(parseMoney('Rs. 1,200.00')?.currency).toBe('INR');
		expect(parseMoney('12,00EUR')?.currency).toBe('EUR');
		expect(parseMoney('¥1,200')?.currency).toBe('JPY');
	});

	it('leaves out a sign without one usual currency, and a sign that is no currency here', () => {
		expect(parseMoney('1 234,50 kr')?.currency).toBeUndefined();
		expect(parseMoney('Fr. 12.03.2021')?.currency).toBeUndefined();
	});
});

describe('findCurrencies', () => {
	it('lists every code and sign in order, a bare $ apart from a prefixed one', () => {
		expect(findCurrencies('Amount Due (USD): $2,608.20, C$ 5, 4 € or EUR 4').map((found) => `${found.text}=${found.code}`)).toEqual(['USD=USD', '$=USD', 'C$=CAD', '€=EUR', 'EUR=EUR']);
		expect(findCurrencies('ABC 12.00')).toEqual([]);
		expect(findCurrencies('OPEN 7 DAYS, 10 DOLLARS')).toEqual([]);
	});
});

describe('guessDecimalSeparator', () => {
	it('tells comma-decimal documents from dot-decimal ones, and ignores dates', () => {
		expect(guessDecimalSeparator('Netto 1.372,90\nMwSt 260,85\nDatum 12.03.2026')).toBe(',');
		expect(guessDecimalSeparator('Subtotal 1,028.80\nVAT 205.76')).toBe('.');
		expect(guessDecimalSeparator('Date 12.03.2026')).toBeUndefined();
	});
});

describe('parseDate', () => {
	it.each([
		['12.03.2026', '2026-03-12'],
		['5.3.26', '2026-03-05'],
		['14/03/2026', '2026-03-14'],
		['2026-03-05', '2026-03-05'],
		['2026/03/05', '2026-03-05'],
		['5 March 2026', '2026-03-05'],
		['March 5, 2026', '2026-03-05'],
		['1st April 2026', '2026-04-01'],
		['02 Mar 2026', '2026-03-02'],
		['5. März 2026', '2026-03-05'],
		['18 de marzo de 2026', '2026-03-18'],
		['19 avril 2026', '2026-04-19'],
		['1er février 2026', '2026-02-01'],
	])('reads %s as %s', (raw, iso) => {
		expect(parseDate(raw)?.value).toBe(iso);
	});

	it('reads day first unless told the document is month first, and says it is ambiguous', () => {
		expect(parseDate('03/05/2026')).toMatchObject({ value: '2026-05-03', ambiguous: true });
		expect(parseDate('03/05/2026', { monthFirst: true })?.value).toBe('2026-03-05');
		expect(parseDate('12/31/2026')?.value).toBe('2026-12-31');
		expect(parseDate('31/12/2026', { monthFirst: true })?.value).toBe('2026-12-31');
	});

	it('reads a date OCR ran into the time after it', () => {
		expect(parseDate('6/10/201913:59', { monthFirst: true })?.value).toBe('2019-06-10');
		expect(parseDate('26.02.201615:20')?.value).toBe('2016-02-26');
	});

	it('rejects impossible dates and text without a date', () => {
		expect(parseDate('31.02.2026')).toBeUndefined();
		expect(parseDate('Invoice INV-2026-0042')).toBeUndefined();
	});
});

describe('parsePhone', () => {
	it.each([
		['+49 (0)30 1234567', '+49301234567'],
		['0049 30 1234567', '+49301234567'],
		['+34 910 000 123', '+34910000123'],
		['+1 (555) 010-0199', '+15550100199'],
		['030 / 123 45 67', '0301234567'],
	])('reads %s as %s', (raw, value) => {
		expect(parsePhone(raw)?.value).toBe(value);
	});

	it('says when no country code was given, and rejects too few digits', () => {
		expect(parsePhone('030 1234567')?.notes.join()).toContain('no country code');
		expect(parsePhone('12 34')).toBeUndefined();
	});
});

describe('parseEmail and parseBoolean', () => {
	it('reads e-mail addresses in lower case', () => {
		expect(parseEmail('E-mail: Ana.Ejemplo@Example.com')?.value).toBe('ana.ejemplo@example.com');
		expect(parseEmail('no address here')).toBeUndefined();
	});

	it.each([
		['Yes', true],
		['ja', true],
		['sí', true],
		['oui', true],
		['x', true],
		['No', false],
		['nein', false],
		['non', false],
	])('reads %s as %s', (raw, value) => {
		expect(parseBoolean(raw)?.value).toBe(value);
	});
});

describe('normalizeValue', () => {
	it('rejects a value of the wrong shape instead of forcing it into the type', () => {
		expect(normalizeValue('date', 'Kundennummer')).toBeUndefined();
		expect(normalizeValue('number', 'n/a')).toBeUndefined();
		expect(normalizeValue('email', 'Card')).toBeUndefined();
	});

	it('reads a labelled date printed as digits only, year first (20260815), but no other run of eight digits', () => {
		expect(normalizeValue('date', '20260815')).toMatchObject({ value: '2026-08-15', notes: ['read as year-month-day (digits only)'] });
		expect(normalizeValue('date', '20261315')).toBeUndefined();
		expect(normalizeValue('date', '12345678')).toBeUndefined();
		expect(normalizeValue('date', '202608151')).toBeUndefined();
		expect(parseDate('Order 20260815')).toBeUndefined();
	});

	it('uses the document style and keeps strings as printed', () => {
		expect(normalizeValue('currency', '1.234', { decimalSeparator: ',' })?.value).toBe(1234);
		expect(normalizeValue('currency', '1,234', { decimalSeparator: ',' })?.value).toBe(1.234);
		expect(normalizeValue('date', '03/05/2026', { monthFirstDates: true })?.value).toBe('2026-03-05');
		expect(normalizeValue('string', '  Northwind Traders plc ')?.value).toBe('Northwind Traders plc');
		expect(normalizeValue('currency', '£12.40')).toMatchObject({ value: 12.4, currency: 'GBP' });
	});
});

describe('IBAN check digits (ISO 13616 mod 97)', () => {
	it.each([
		['DE89 3704 0044 0532 0130 00', true],
		['DE89370400440532013000', true],
		['GB29 NWBK 6016 1331 9268 19', true],
		['FR76 3000 6000 0112 3456 7890 189', true],
		['FR14 2004 1010 0505 0001 3M02 606', true],
		['NL91 ABNA 0417 1643 00', true],
		['BE68 5390 0754 7034', true],
		['ES91 2100 0418 4502 0005 1332', true],
		['IT60 X054 2811 1010 0000 0123 456', true],
		['PT50 0002 0123 1234 5678 9015 4', true],
		['de89 3704 0044 0532 0130 00', true],
		['DE89 3704 0044 0532 0130 01', false],
		['DE88 3704 0044 0532 0130 00', false],
		['DE89 3704 0044 0532 0130 0', false],
		['XX89 3704 0044 0532 0130 00', false],
		['NL91 ABNA 0417 1643 0', false],
	])('%s: valid %s', (raw, valid) => {
		expect(isValidIban(raw)).toBe(valid);
	});

	it('finds IBANs across the spaces print and OCR put anywhere, not across a wide gap', () => {
		expect(findIbans('IBAN: DE8937 0400 44053 2013000 BIC COBADEFFXXX')).toEqual([{ value: 'DE89370400440532013000', text: 'DE8937 0400 44053 2013000', index: 6, valid: true }]);
		expect(findIbans('IBAN DE89370400440532013000').map((iban) => iban.valid)).toEqual([true]);
		// Too short, glued to more characters, or cut by a wide gap: found, not valid.
		expect(findIbans('IBAN DE89 3704 0044 0532 0130').map((iban) => iban.valid)).toEqual([false]);
		expect(findIbans('IBAN DE8937040044053201300012').map((iban) => iban.valid)).toEqual([false]);
		expect(findIbans('IBAN DE89 3704 0044 0532      0130 00').map((iban) => iban.valid)).toEqual([false]);
		// Shorter than any IBAN (a VAT id, the start of an IBAN cut by a wide gap): not found.
		expect(findIbans('IBAN DE89 3704 0044      0532 0130 00')).toEqual([]);
		expect(findIbans('Invoice INV-2019 of 12/01/2020, VAT DE123456789')).toEqual([]);
	});
});

describe('VAT id check digits: the French key and the Belgian mod 97, nothing said of other countries', () => {
	it.each([
		['FR 74 397 480 930', true],
		['FR40123456824', true],
		['FR41123456824', false],
		['BE0123456749', true],
		['BE0123456748', false],
		['DE123456789', undefined],
	])('%s -> %s', (raw, holds) => {
		expect(vatCheckDigitsHold(raw)).toBe(holds);
	});
});

describe('VAT and tax ids by their national shape', () => {
	it.each([
		['DE123456789', 'DE VAT ID'],
		['DE 123 456 789', 'DE VAT ID'],
		['FR40303265045', 'FR VAT ID'],
		['FR 4X 303265045', 'FR VAT ID'],
		['NL123456789B01', 'NL VAT ID'],
		['BE0123456789', 'BE VAT ID'],
		['IT12345678901', 'IT VAT ID'],
		['ESB12345678', 'ES VAT ID'],
		['ESX1234567L', 'ES VAT ID'],
		['GB123456789', 'GB VAT ID'],
		['GB123456789012', 'GB VAT ID'],
		['ATU12345678', 'AT VAT ID'],
		['PT123456789', 'PT VAT ID'],
		['CHE-123.456.789 MWST', 'CH VAT ID'],
		['29ABCDE1234F1Z5', 'GSTIN'],
		['51 824 753 556', 'ABN'],
		['DE12345678', 'wrong shape'],
		['NL123456789', 'wrong shape'],
		['IT1234567890', 'wrong shape'],
		['123456789', undefined],
		['PT', 'wrong shape'],
	])('%s is %s', (raw, kind) => {
		expect(taxIdKind(raw)).toBe(kind);
	});

	it('checks an ABN by its weighted sum, and says which VAT ids are well-formed', () => {
		expect(isValidAbn('51 824 753 556')).toBe(true);
		expect(isValidAbn('51 824 753 557')).toBe(false);
		expect(isValidVatId('DE123456789')).toBe(true);
		expect(isValidVatId('DE12345678')).toBe(false);
		expect(isValidVatId('27AAPFU0939F1ZV')).toBe(true);
		expect(isValidVatId('NO123456789MVA')).toBe(true);
	});
});
