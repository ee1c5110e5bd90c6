import { describe, expect, it } from 'vitest';
import { leadingCount, readCell, readTable, rowsAddUp } from '../../../sandbox/src/extraction/tables';
import { LINE_ITEMS } from './test-documents';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { FieldDefinition } from '../../../sandbox/src/extraction/types';

const invoiceItems = LINE_ITEMS;

const receiptItems: FieldDefinition = {
	name: 'items',
	type: 'table',
	item_fields: [
		{ name: 'description', type: 'string' },
		{ name: 'quantity', type: 'number' },
		{ name: 'amount', type: 'currency' },
	],
};

/** A line with each cell starting at the given character column (as the layout rebuild keeps them). */
function at(stops: number[], ...cells: string[]): string {
	return cells.reduce((line, cell, index) => (cell === '' ? line : line.padEnd(stops[index]) + cell), '').trimEnd();
}

const COLUMNS = [2, 40, 55, 70];
const row = (...cells: string[]): string => at(COLUMNS, ...cells);

function read(field: FieldDefinition, lines: string[]) {
	return readTable(field, toLines([lines.join('\n')]), {});
}

describe('table cells read through OCR slips', () => {
	it('reads an s before the digits of an amount as the dollar sign', () => {
		expect(readCell('currency', 's2,100.00', {})?.value).toBe(2100);
		expect(readCell('currency', 'S65.00', {})?.value).toBe(65);
	});

	it('takes no number from a cell where a letter runs into its digits', () => {
		expect(readCell('currency', 'i000', {})).toBeUndefined();
		expect(readCell('number', "24'y000", {})).toBeUndefined();
		expect(readCell('number', '3hrs', {})?.value).toBe(3);
		expect(readCell('currency', 'EUR12.50', {})?.value).toBe(12.5);
	});

	it('restores the cents of an amount whose decimal point OCR lost when the row confirms it', () => {
		const table = read(invoiceItems, [
			row('Services', 'Quantity', 'Price', 'Amount'),
			row('Web hosting', '1', '$65.00', '$65.00'),
			row('Website design', '2', '$1,050.00', 's210000'),
		]);
		expect(table.rows).toHaveLength(2);
		expect(table.rows[1]).toMatchObject({ description: 'Website design', quantity: 2, amount: 2100 });
	});

	it('leaves empty an amount that lost its decimal point when nothing confirms where the cents were', () => {
		const table = read(invoiceItems, [
			row('Services', 'Quantity', 'Price', 'Amount'),
			row('Web hosting', '1', '$65.00', '$65.00'),
			row('Website design', 'p', 'i000', 's21000'),
		]);
		expect(table.rows).toHaveLength(2);
		expect(table.rows[1]).toMatchObject({ description: 'Website design', quantity: null, unit_price: null, amount: null });
	});

	it('leaves a bare number alone in a column without cents', () => {
		const table = read(invoiceItems, [row('Services', 'Quantity', 'Price', 'Amount'), row('Training', '1', '$2,500', '$2500')]);
		expect(table.rows[0].amount).toBe(2500);
	});
});

describe('where a table ends and how its rows run', () => {
	it('ends the table at a line whose amount lost the cents every row above had (a card or code line)', () => {
		const table = read(receiptItems, [
			at([2, 30, 40], 'ARTICLE', 'QTY', 'AMOUNT'),
			at([2, 30, 40], 'Unleaded 95', '1', '21.74'),
			at([2, 30, 40], 'Diesel', '1', '18.20'),
			at([2, 30, 40], 'Card authorisation', '', '140674'),
		]);
		expect(table.rows.map((item) => item.amount)).toEqual([21.74, 18.2]);
	});

	it('goes on past a blank line when the next row has at least its amount and a description', () => {
		const table = read(invoiceItems, [
			row('Services', 'Quantity', 'Price', 'Amount'),
			row('Web hosting', '1', '$65.00', '$65.00'),
			row('Down 35mb, Up 100mb'),
			'',
			row('Website design', 'p', 'xx', '$2,100.00'),
			row('Includes wireframes'),
		]);
		expect(table.rows).toHaveLength(2);
		expect(table.rows[0].description).toBe('Web hosting Down 35mb, Up 100mb');
		expect(table.rows[1]).toMatchObject({ description: 'Website design Includes wireframes', amount: 2100 });
	});
});

describe('items printed on several lines (e-invoice renderings)', () => {
	const stops = [2, 8, 44, 56, 70, 88];

	it('keeps the lines under an item that carry neither a quantity nor an amount with that item', () => {
		const table = read(invoiceItems, [
			at(stops, 'Pos.', 'Product', 'Quantity', 'Unit price', 'Allowances /', 'Amount'),
			at(stops, '', '', '', '', 'Charges'),
			at(stops, '1', 'Steel bolts M8 (1', '5 kg', '20.00 €', 'Volume discount:', '90.00 €'),
			at(stops, '', 'kg box)', '', '- 1.00 €', '- 6.00 €'),
			at(stops, '', '', '', '= 19.00 €'),
			at(stops, '', 'Product identification:', '', 'GTIN 12345678'),
			at(stops, '', 'Line note:', '', 'shipped in bulk'),
			at(stops, '2', 'Filter cartridges', '2 kg', '15.00 €', '', '45.00 €'),
		]);
		expect(table.rows).toEqual([
			{ description: 'Steel bolts M8 (1 kg box)', quantity: 5, unit_price: 20, amount: 90 },
			{ description: 'Filter cartridges', quantity: 2, unit_price: 15, amount: 45 },
		]);
	});

	it('ends the items at a summary line printed in the description column', () => {
		const table = read(invoiceItems, [
			at(stops, 'Pos.', 'Product', 'Quantity', 'Unit price', '', 'Amount'),
			at(stops, '1', 'Steel bolts', '5', '18.00 €', '', '90.00 €'),
			at(stops, '2', 'Filter cartridges', '2', '22.50 €', '', '45.00 €'),
			at(stops, '', 'Line total amount', '', '', '', '135.00 €'),
			at(stops, '', 'Allowance (tax 19%): discount', '', '', '', '- 13.50 €'),
			at(stops, '', 'Gesamtbetrag Netto', '', '', '', '121.50 €'),
		]);
		expect(table.rows.map((item) => item.description)).toEqual(['Steel bolts', 'Filter cartridges']);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('reads a header whose cell is split into sub-headings on the line below (`Tax` over `Rate  Amount`)', () => {
		const columns = [2, 5, 56, 67, 82, 90, 102];
		const table = read(invoiceItems, [
			at(columns, '#', 'Description', 'Qty Unit', 'Price', 'Tax', '', 'Amount'),
			at(columns, '', '', '', '', 'Rate', 'Amount'),
			at(columns, '1', 'Design', '120 h', '85.00 €', '0 %', '0.00 €', '10,200.00 €'),
			at(columns, '2', 'Printer paper', '2 pcs', '7.62 €', '19 %', '2.90 €', '15.24 €'),
			at(columns, 'Subtotal', '', '', '', '', '2.90 €', '10,215.24 €'),
		]);
		expect(table.rows).toEqual([
			{ description: 'Design', quantity: 120, unit_price: 85, amount: 10200 },
			{ description: 'Printer paper', quantity: 2, unit_price: 7.62, amount: 15.24 },
		]);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});
});

describe('descriptions on several lines', () => {
	it('continues the description with a line of words that runs under the number columns', () => {
		const table = read(invoiceItems, [
			row('Services', 'Quantity', 'Price', 'Amount'),
			row('Website design', '1', '$2,100.00', '$2,100.00'),
			'  Includes basic wireframes                and responsive templates',
			row('Mobile designs', '1', '$250.00', '$250.00'),
		]);
		expect(table.rows.map((item) => item.description)).toEqual(['Website design Includes basic wireframes and responsive templates', 'Mobile designs']);
	});

	it('continues the description taken from unnamed columns when no column is headed as the description', () => {
		const table = read(invoiceItems, [
			row('p——', 'Quantity', 'Price', 'Amount'),
			row('Web hosting', '1', '$65.00', '$65.00'),
			row('Down 35mb, Up 100mb'),
			row('Mobile designs', '1', '$250.00', '$250.00'),
		]);
		expect(table.rows.map((item) => item.description)).toEqual(['Web hosting Down 35mb, Up 100mb', 'Mobile designs']);
	});

	it('does not take a line with a number under a number column as a continuation', () => {
		const table = read(invoiceItems, [row('Services', 'Quantity', 'Price', 'Amount'), row('Website design', '1', '$2,100.00', '$2,100.00'), row('Hosting', '12')]);
		expect(table.rows).toHaveLength(2);
		expect(table.rows[0].description).toBe('Website design');
	});
});

describe('columns found by arithmetic', () => {
	it('takes an unnamed column of numbers as the quantity when times the unit price they give the amount', () => {
		const table = read(invoiceItems, [row('ary', 'DESCRIPTION', 'UNIT PRICE', 'AMOUNT'), row('1', 'Brake cables', '100.00', '100.00'), row('2', 'Pedal arms', '25.00', '50.00')]);
		expect(table.rows.map((item) => item.quantity)).toEqual([1, 2]);
	});

	it('does not take a column of position numbers that do not multiply as the quantity', () => {
		const table = read(invoiceItems, [row('Pos', 'DESCRIPTION', 'UNIT PRICE', 'AMOUNT'), row('1', 'Brake cables', '100.00', '300.00'), row('2', 'Pedal arms', '25.00', '75.00')]);
		expect(table.rows.map((item) => item.quantity)).toEqual([null, null]);
	});

	it('takes the line amount from the column that is quantity x unit price among several money columns', () => {
		const stops = [2, 24, 32, 44, 56, 68];
		const table = read(invoiceItems, [
			at(stops, 'Description', 'Qty', 'Price', 'Excl.', 'VAT', 'Incl.'),
			at(stops, 'Widget', '2', '10.00', '20.00', '4.00', '24.00'),
			at(stops, 'Gadget', '3', '5.00', '15.00', '3.00', '18.00'),
		]);
		expect(table.rows.map((item) => item.amount)).toEqual([20, 15]);
	});

	it('takes the line amount from the money column that sums to the printed subtotal', () => {
		const stops = [2, 24, 40, 52, 64];
		const table = read(invoiceItems, [
			at(stops, 'Description', 'Unit price', 'Net', 'VAT', 'Total'),
			at(stops, 'Widget', '10.00', '20.00', '4.00', '24.00'),
			at(stops, 'Gadget', '5.00', '15.00', '3.00', '18.00'),
			at(stops, '', '', 'Subtotal', '', '35.00'),
		]);
		expect(table.rows.map((item) => item.amount)).toEqual([20, 15]);
	});

	it('keeps the amount column the header names when it sums to the total', () => {
		const stops = [2, 24, 40, 52, 64];
		const table = read(invoiceItems, [
			at(stops, 'Description', 'Unit price', 'Net', 'VAT', 'Total'),
			at(stops, 'Widget', '10.00', '20.00', '4.00', '24.00'),
			at(stops, 'Gadget', '5.00', '15.00', '3.00', '18.00'),
			at(stops, '', '', 'Total', '', '42.00'),
		]);
		expect(table.rows.map((item) => item.amount)).toEqual([24, 18]);
	});
});

describe('table confidence', () => {
	const fields = invoiceItems.item_fields ?? [];

	it('tells rows that add up from rows that do not', () => {
		const rows = [
			{ description: 'a', quantity: 2, unit_price: 10, amount: 20 },
			{ description: 'b', quantity: null, unit_price: null, amount: 5 },
		];
		expect(rowsAddUp(rows, fields, [25])).toBe(true);
		expect(rowsAddUp(rows, fields, [30])).toBe(false);
		expect(rowsAddUp([rows[0]], fields, [])).toBe(true);
		// Quantity x unit price is not the amount: something in the row is misread, whatever the sum.
		expect(rowsAddUp([{ description: 'c', quantity: 1, unit_price: 1, amount: 100 }], fields, [100])).toBe(false);
	});

	it('believes a statement whose balances follow from its debits and credits', () => {
		const fields: FieldDefinition[] = [
			{ name: 'description', type: 'string' },
			{ name: 'debit', type: 'currency' },
			{ name: 'credit', type: 'currency' },
			{ name: 'balance', type: 'currency' },
		];
		const rows = [
			{ description: 'Opening', debit: null, credit: null, balance: 100 },
			{ description: 'Rent', debit: -40, credit: null, balance: 60 },
			{ description: 'Salary', debit: null, credit: 20, balance: 80 },
		];
		expect(rowsAddUp(rows, fields, [])).toBe(true);
		expect(rowsAddUp([...rows, { description: 'Fee', debit: 5, credit: null, balance: 80 }], fields, [])).toBe(false);
	});

	it('keeps the header evidence of a table without money columns (nothing to add up)', () => {
		const note: FieldDefinition = { name: 'items', type: 'table', item_fields: [{ name: 'description', type: 'string' }, { name: 'quantity', type: 'number' }, { name: 'unit', type: 'string' }] };
		const table = read(note, [row('Description', 'Quantity', 'Unit'), row('Pallet of bricks', '2', 'pcs')]);
		expect(table.rows).toHaveLength(1);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('believes a table whose amounts sum to the subtotal printed under it (amounts without cents)', () => {
		const stops = [2, 16, 40, 52, 64];
		const table = read(invoiceItems, [
			at(stops, 'Training Date', 'Description', 'Price', 'Discount', 'Line Total'),
			at(stops, '10/12/2020', 'Leadership Training', '$750', '10%', '$675'),
			at(stops, '10/13/2020', 'Leadership Training', '$750', '10%', '$675'),
			'',
			at(stops, '', '', '', 'Subtotal', '$1,350'),
		]);
		expect(table.rows).toHaveLength(2);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('keeps a table below the review threshold when its rows cannot be checked', () => {
		const table = read(invoiceItems, [
			row('Description', 'Quantity', 'Unit price', 'Amount'),
			row('Widget', '2', '10.00', '20.00'),
			row('Gadget', '', '', '15.00'),
			'',
			row('', '', 'Total', '99.00'),
		]);
		expect(table.rows).toHaveLength(2);
		expect(table.confidence).toBeLessThan(0.8);
	});
});

describe('items of a receipt without a header', () => {
	it('reads a count OCR took for a letter at the start of an item line', () => {
		expect(leadingCount('Z     Meantime Pale')).toEqual({ count: 2, rest: 'Meantime Pale' });
		expect(leadingCount('3 Coffee')).toEqual({ count: 3, rest: 'Coffee' });
		expect(leadingCount('Zebra cake')).toBeUndefined();
		expect(leadingCount('A     Coffee')).toBeUndefined();
	});

	it('ends the items at a summary heading and takes a single item whose amount is the total', () => {
		const table = read(receiptItems, [
			'Acc No: 1532',
			'Z     Meantime Pale         10.20',
			'',
			'Product Group Summary',
			'Food And Drink              10.20',
			'20% VAT Net                  8.50',
			'Total                      £10.20',
		]);
		expect(table.rows).toEqual([{ description: 'Meantime Pale', quantity: 2, amount: 10.2 }]);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('does not take a single line as the items when its amount is no total printed below', () => {
		const table = read(receiptItems, ['Acc No: 1532', 'Meantime Pale         10.20', '', 'Product Group Summary', 'Total       £12.40']);
		expect(table.rows).toEqual([]);
	});

	it('reads quantity and unit price standing between the description and the amount', () => {
		const table = read(invoiceItems, ['Widget      2      10.00      20.00', 'Gadget      3       5.00      15.00', 'Subtotal                    35.00']);
		expect(table.rows).toEqual([
			{ description: 'Widget', quantity: 2, unit_price: 10, amount: 20 },
			{ description: 'Gadget', quantity: 3, unit_price: 5, amount: 15 },
		]);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('takes a lone small whole number before the amount as the count, not a three-digit size', () => {
		const table = read(receiptItems, ['Coffee       2       7.00', 'Water      330       2.50', 'Subtotal             9.50']);
		expect(table.rows).toEqual([
			{ description: 'Coffee', quantity: 2, amount: 7 },
			{ description: 'Water 330', quantity: null, amount: 2.5 },
		]);
	});

	it('joins a line of words under an item to its description, across a blank line between items', () => {
		const table = read(invoiceItems, [
			'Amount Due:                 95.00',
			'Web hosting                 65.00',
			'Down 35mb, Up 100mb',
			'',
			'Mobile designs              30.00',
			'',
			'Total                       95.00',
		]);
		expect(table.rows.map((item) => item.description)).toEqual(['Web hosting Down 35mb, Up 100mb', 'Mobile designs']);
		expect(table.confidence).toBeGreaterThanOrEqual(0.8);
	});

	it('keeps rows that do not add up to a printed total below the review threshold', () => {
		const table = read(receiptItems, ['BIBIM OCTOPU    T1     $13.99', 'PORK DUMPLIN    T1      $8.99', 'SUBTOTAL               $30.00']);
		expect(table.rows).toHaveLength(2);
		expect(table.confidence).toBeLessThan(0.8);
	});
});
