import { describe, expect, it } from 'vitest';
import { findCurrencies, guessDecimalSeparator, normalizeValue, parseBoolean, parseDate, parseEmail, parseMoney, parseNumber, parsePhone } from './normalize';

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

	it('uses the document style and keeps strings as printed', () => {
		expect(normalizeValue('currency', '1.234', { decimalSeparator: ',' })?.value).toBe(1234);
		expect(normalizeValue('currency', '1,234', { decimalSeparator: ',' })?.value).toBe(1.234);
		expect(normalizeValue('date', '03/05/2026', { monthFirstDates: true })?.value).toBe('2026-03-05');
		expect(normalizeValue('string', '  Northwind Traders plc ')?.value).toBe('Northwind Traders plc');
		expect(normalizeValue('currency', '£12.40')).toMatchObject({ value: 12.4, currency: 'GBP' });
	});
});
