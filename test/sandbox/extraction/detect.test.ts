/**
 * The automatic template choice (detect.ts) on small constructed documents: the words and shapes
 * of each kind of document, in several languages, and how sure the choice says it is.
 */
import { describe, expect, it } from 'vitest';
import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import { autoBlock, detectTemplate, isAmountCell, kindEvidence, templateKind } from '../../../sandbox/src/extraction/detect';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { ReadDocument, TemplateLike } from '../../../sandbox/src/extraction/types';

const TEMPLATES: TemplateLike[] = READY_MADE_TEMPLATES.map((template, index) => ({ scanner_id: `t${index}`, ...structuredClone(template) }));

const doc = (...lines: string[]): ReadDocument => {
	const text = lines.join('\n');
	return { kind: 'jpeg', pages: 1, text, pageTexts: [text] };
};
const chosen = (document: ReadDocument) => detectTemplate(TEMPLATES, document).template.name;

/** A till receipt without the word "receipt": its items, its time of day and its cashier tell. */
const TILL_RECEIPT = doc(
	'      CORNER CAFE',
	'   12 High Street',
	'06/10/2019 13:59',
	'Cashier: Paul',
	'1 Cappuccino          $2.20',
	'1 Bacon & eggs        $9.50',
	'1 Orange juice        $3.10',
	'Sub-Total            $14.80',
	'Tax                   $1.48',
	'TOTAL                $16.28',
	'Card                 $16.28',
	'Thank you, come again',
);

describe('detectTemplate: the evidence of each kind of document', () => {
	it('takes a till receipt for a Receipt, from its cashier, items with prices and time of day', () => {
		const detection = detectTemplate(TEMPLATES, TILL_RECEIPT);
		expect(detection.template.name).toBe('Receipt');
		expect(detection.evidence).toEqual(expect.arrayContaining(['word "cashier"', expect.stringMatching(/^\d+ item lines with a price$/), '1 date with time of day']));
		expect(detection.score).toBeGreaterThan(detection.candidates[1].score + 0.2);
	});

	it('takes a German till receipt for a Receipt (Kassenbon words)', () => {
		expect(chosen(doc('BÄCKEREI MÜLLER', 'Brötchen        0,45', 'Kaffee          2,10', 'SUMME EUR       2,55', 'Gegeben BAR     5,00', 'Rückgeld        2,45', 'Vielen Dank'))).toBe('Receipt');
	});

	it('takes an invoice for an Invoice, from its number, dates, bill-to and VAT id', () => {
		const detection = detectTemplate(TEMPLATES, doc('ACME Ltd', 'Invoice number:  2024-17', 'Invoice date:  01/02/2024', 'Due date:  01/03/2024', 'Bill to:  Example GmbH', 'VAT ID: GB123456789', 'Consulting   2   100.00   200.00', 'Total   240.00'));
		expect(detection.template.name).toBe('Invoice');
		expect(detection.weak).toBeUndefined();
	});

	it('takes a French invoice for an Invoice (échéance, hors TVA, net à payer)', () => {
		expect(chosen(doc('SOCIETE EXEMPLE', 'Facture n° 1234', "Date d'échéance : 15/02/2021", 'Montant hors TVA   1 241,03 €', 'Net à payer   1 479,85 €'))).toBe('Invoice');
	});

	it('takes a document titled an invoice in its heading for an Invoice, though it reads like a till receipt', () => {
		const detection = detectTemplate(TEMPLATES, doc('SHOP.EXAMPLE', 'TAX INVOICE', 'Order date 2024-01-05 14:33', 'Thank you for your order', 'Headphones        $59.00', 'Cable              $9.00', 'Visa              $68.00'));
		expect(detection.template.name).toBe('Invoice');
		expect(detection.evidence).toContain('title in the heading');
	});

	it('does not take an invoice that quotes its purchase order for a Purchase order', () => {
		expect(chosen(doc('Sample Invoice', 'Purchase order #: 4711', 'Customer number 99', 'Terms: net 30', 'Amount   100.00'))).toBe('Invoice');
	});

	it('takes a bank statement for a Bank statement, from its balances and dated transaction lines', () => {
		const transactions = ['03.01.2024  Rent           -850,00', '05.01.2024  Salary       2.400,00', '09.01.2024  Groceries      -64,20', '12.01.2024  Insurance      -39,90', '20.01.2024  Transfer      -100,00'];
		const detection = detectTemplate(TEMPLATES, doc('Example Bank', 'IBAN DE00 0000 0000 0000 0000 00', 'Opening balance   1.000,00', ...transactions, 'Closing balance   2.345,90'));
		expect(detection.template.name).toBe('Bank statement');
		expect(detection.evidence).toEqual(expect.arrayContaining(['word "opening balance"', '5 dated transaction lines']));
	});

	it('takes a Spanish quote for a Quote (presupuesto, válido hasta)', () => {
		expect(chosen(doc('TALLER EJEMPLO', 'Presupuesto nº 88', 'Válido hasta: 30/06/2024', 'Cambio de aceite   45,00', 'Total   54,45'))).toBe('Quote');
	});

	it('does not count the phone and e-mail of a long document as a business card', () => {
		const long = Array.from({ length: 30 }, (_, index) => `Line ${index}   ${index}.00`);
		expect(kindEvidence('business card', toLines([['Tel 123', 'email a@b.c', 'www.example.com', ...long].join('\n')])).strength).toBe(0);
		expect(kindEvidence('business card', toLines(['Jane Doe\nTel 123\nemail a@b.c\nwww.example.com'])).strength).toBeGreaterThan(0);
	});
});

describe('detectTemplate: how sure the choice is', () => {
	it('says when a choice rests on weak evidence, and not when it does not', () => {
		const weak = detectTemplate(TEMPLATES, doc('Hello world', 'Some text 12'));
		expect(weak.weak).toMatch(/low score/);
		expect(autoBlock(weak)).toMatchObject({ mode: 'automatic', low_confidence: expect.stringMatching(/low score/) });
		const strong = detectTemplate(TEMPLATES, TILL_RECEIPT);
		expect(strong.weak).toBeUndefined();
		expect(autoBlock(strong)).not.toHaveProperty('low_confidence');
	});

	it('knows the kind of a template by its name or a translation, not a user-made one', () => {
		expect(templateKind({ scanner_id: 'a', name: 'Rechnung', description: '', fields: [] })).toBe('invoice');
		expect(templateKind({ scanner_id: 'b', name: 'Bank statement', description: '', fields: [] })).toBe('bank statement');
		expect(templateKind({ scanner_id: 'c', name: 'Timesheet', description: '', fields: [] })).toBeUndefined();
	});
});

describe('isAmountCell', () => {
	it.each(['$13.99', '3.99 B', '1.20-', '€ 21.74', '1.234,56', 'EUR 5.00', '17.99 T1'])('reads %s as an amount', (text) => {
		expect(isAmountCell(text)).toBe(true);
	});
	it.each(['2024', '13:59', 'Total', '12', '4.5%', 'Tax 1.17'])('does not read %s as an amount', (text) => {
		expect(isAmountCell(text)).toBe(false);
	});
});
