import { describe, expect, it } from 'vitest';
import { fallbackValue } from '../../../sandbox/src/extraction/fallbacks';
import { confidenceOf, extractText, templateNamed, valueOf } from './test-documents';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { FieldDefinition } from '../../../sandbox/src/extraction/types';

const invoice = templateNamed('Invoice');
const extract = (text: string, language = 'en') => extractText(invoice, text, { language });
const value = valueOf;
const confidence = confidenceOf;

describe('the due date without a label', () => {
	it('takes the day of a direct debit as the due date when none is labelled', () => {
		const data = extract('Facture du 29/01/2021\nVous serez prélevé d’un montant de 1 479,85 €\nà partir du :    15/02/2021', 'fr');
		expect(value(data, 'due_date')).toBe('2021-02-15');
		expect(confidence(data, 'due_date')).toBeLessThan(0.8);
	});
});

describe('the currency without a label', () => {
	it('believes one currency printed again and again, not one seen once', () => {
		const euros = extract('Total HT   100,00 €\nTotal TTC   120,00 €');
		expect(value(euros, 'currency')).toBe('EUR');
		expect(confidence(euros, 'currency')).toBeGreaterThanOrEqual(0.8);
		const once = extract('Total   120,00 €');
		expect(confidence(once, 'currency')).toBeLessThan(0.8);
	});

	it('reads a bare $ as the dollar the document names, else of its addresses, else a guess', () => {
		const named = extract('Toronto, ON M5V 2T6\nAmount Due (USD):  $10.00\nAmount due (CAD):  $10.00\nTotal  $10.00');
		expect(value(named, 'currency')).toBe('CAD');
		expect(confidence(named, 'currency')).toBeLessThan(0.8);
		const us = extract('Albany, NY 12210\nSubtotal  $10.00\nTotal  $10.00');
		expect(value(us, 'currency')).toBe('USD');
		const canada = extract('Toronto, ON M5V 2T6\nSubtotal  $10.00\nTotal  $10.00');
		expect(value(canada, 'currency')).toBe('CAD');
		const guess = extract('Subtotal  $10.00\nTotal  $10.00');
		expect(value(guess, 'currency')).toBe('USD');
		expect(confidence(guess, 'currency')).toBeLessThan(0.8);
		const prefixed = extract('Subtotal  C$10.00\nTotal  C$10.00');
		expect(value(prefixed, 'currency')).toBe('CAD');
	});

	it('takes the supplier country when no currency is printed, believed when two kinds of clue agree', () => {
		const agreed = extract('Fabrikam GmbH\nUSt-IdNr. DE123456789\nIBAN DE89 3704 0044 0532 0130 00\nRechnungsbetrag  120,00');
		expect(value(agreed, 'currency')).toBe('EUR');
		expect(confidence(agreed, 'currency')).toBeGreaterThanOrEqual(0.8);
		const alone = extract('Fabrikam Ltd\nVAT No GB123456789\nTotal  120.00');
		expect(value(alone, 'currency')).toBe('GBP');
		expect(confidence(alone, 'currency')).toBeLessThan(0.8);
	});
});

describe('the IBAN without a label', () => {
	const iban = (text: string) => fallbackValue({ name: 'iban', type: 'string' } as FieldDefinition, toLines([text]));

	it('offers only an IBAN whose check digits hold (mod 97)', () => {
		expect(iban('Account  DE89 3704 0044 0532 0130 00')?.value).toBe('DE89370400440532013000');
		expect(iban('Account  DE89 3704 0044 0532 0130 01')).toBeUndefined();
		expect(iban('Ref  DE89 3704 0044 0532 0130 01\nAccount  GB82 WEST 1234 5698 7654 32')?.value).toBe('GB82WEST12345698765432');
	});
});

describe('a labelled supplier name weighed against the names found without a label', () => {
	it('holds a label contradicted by a name found two ways below the review threshold', () => {
		const disputed = extract('Fabrikam Ltd\nwww.fabrikam.com\nINVOICE\nSupplier: Harbour Tiling\nTotal  10.00\n\n\nFabrikam Ltd - Company No. 01234567');
		expect(value(disputed, 'supplier_name')).toBe('Harbour Tiling');
		expect(confidence(disputed, 'supplier_name')).toBeLessThanOrEqual(0.7);
		const alone = extract('INVOICE\nSupplier: Harbour Tiling\nTotal  10.00');
		expect(confidence(alone, 'supplier_name')).toBeGreaterThanOrEqual(0.8);
	});
});

describe('a labelled currency read as its ISO code', () => {
	it('turns a word or a sign into the code, and holds a value that is no currency below the review threshold', () => {
		const euro = extract('INVOICE\nCurrency: Euro\nTotal  10.00');
		expect(value(euro, 'currency')).toBe('EUR');
		expect(confidence(euro, 'currency')).toBeGreaterThanOrEqual(0.8);
		const notCurrency = extract('INVOICE\nCurrency: see page 2\nTotal  10.00');
		expect(value(notCurrency, 'currency') === null || confidence(notCurrency, 'currency') < 0.8).toBe(true);
	});
});
