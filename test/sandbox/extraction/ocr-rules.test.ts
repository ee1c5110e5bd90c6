import { describe, expect, it } from 'vitest';
import { fallbackValue } from '../../../sandbox/src/extraction/fallbacks';
import { findLabels } from '../../../sandbox/src/extraction/labels';
import { normalizeValue } from '../../../sandbox/src/extraction/normalize';
import { betterReading, emOfLine, joinSplitAmounts, type OcrPage, type OcrWord } from '../../../sandbox/src/extraction/ocr';
import { readTable } from '../../../sandbox/src/extraction/tables';
import { LINE_ITEMS } from './test-documents';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { FieldDefinition } from '../../../sandbox/src/extraction/types';

const items = LINE_ITEMS;

describe('OCR-tolerant rules (scans and photos)', () => {
	it('takes a line without descending glyphs for capitals: its font is taller than its box', () => {
		const bbox = { x0: 0, y0: 100, x1: 400, y1: 129 };
		expect(emOfLine({ text: 'VAT GB 123 4567 89', bbox })).toBeCloseTo(29 / 0.72);
		expect(emOfLine({ text: 'Shipping 12.00', bbox })).toBe(29);
	});

	it('reads a table whose header OCR garbled, printed on two lines, without a description column', () => {
		// Columns at 2, 20, 50, 62, 78 (as the layout rebuild keeps them).
		const row = (...cells: string[]): string => cells.reduce((line, cell, index) => line.padEnd([2, 20, 50, 62, 78][index]) + cell, '');
		const text = [
			row('NUMBER ITEM', 'BRAND', 'eUANTITY', 'LISTPFICE', 'AMOUNT'),
			row('OFCASES    UPC'),
			'',
			row('4    42630', 'MARL  REG  PROM', '24', '132 .20', '3,172 .80'),
			row('     lYX%%8', 'Less  Comp  Cigs', '', '', '1,269 .12-'),
			'',
			row('1    42660', 'MARL  LT  PROM', '6', '132 .20', '793 .20'),
		].join('\n');
		const table = readTable(items, toLines([text]), {});
		expect(table.rows).toHaveLength(3);
		expect(table.rows[0]).toMatchObject({ unit_price: 132.2, amount: 3172.8 });
		expect(table.rows[1]).toMatchObject({ amount: -1269.12 });
		expect(String(table.rows[1].description)).toContain('Less Comp Cigs');
		expect(table.rows[2]).toMatchObject({ amount: 793.2 });
	});

	it('does not take a header word two edits away from a label of 8 letters or fewer', () => {
		const text = ['Descr   Quanxxty   Amount', 'Widget   2   20.00'].join('\n');
		const table = readTable(items, toLines([text]), {});
		expect(table.headers).toHaveLength(0);
	});

	it('matches labels OCR ran together, with one stray letter, only for labels of 6 letters or more', () => {
		const fields = [{ name: 'total', type: 'currency' }, { name: 'subtotal', type: 'currency' }, { name: 'due_date', type: 'date' }, { name: 'invoice_number', type: 'string' }] as FieldDefinition[];
		const lines = toLines(['GROSSAMOUNT     4,759 .20\nSub-Totalv      $1098.99\nDueDate     26/02/2019\nINVO ICE      99']);
		const found = findLabels(fields, lines).map((match) => `${match.field.name}@${match.line.index}`);
		expect(found).toEqual(expect.arrayContaining(['total@0', 'subtotal@1', 'due_date@2']));
		expect(found).not.toContain('invoice_number@3');
	});

	it('reads an amount with a space OCR put before its decimals', () => {
		expect(normalizeValue('currency', '4,759 .20')?.value).toBe(4759.2);
		expect(normalizeValue('currency', '1,269 .12-')?.value).toBe(-1269.12);
	});

	it('joins an all-capitals letterhead name split by OCR and continued on the next line', () => {
		const lines = toLines(['          CHO       EUN\n       KOREAN RESTAURANT\n  2621 ORANGETHORPE AVE, FULLERTON\n(714) 879-3574']);
		const result = fallbackValue({ name: 'supplier_name', type: 'string' } as FieldDefinition, lines.filter((line) => line.cells.length > 0));
		expect(result?.value).toBe('CHOEUN KOREAN RESTAURANT');
		expect(result?.confidence).toBeLessThan(0.8);
	});

	it('takes a letterhead name garbled by OCR as the footer repeats it', () => {
		const body = ['    ¢lachan', '  34 Kingley Street', '  W1B 5QH', '  ZA177466-POS-03', '  Sylvia   26 Feb 2016', '  1 Meantime Pale   10.20', '  Food And Drink   10.20', '  20% VAT Net   8.50', '  20% VAT   1.70', '  Total   £10.20', '  Card   £10.20', '  Payment Receipt', '  Receipt no.  54/7500', '  Thank you for visiting', '      Clachan', '  TEL: 0207 494 0834'];
		const lines = toLines([body.join('\n')]);
		const result = fallbackValue({ name: 'supplier_name', type: 'string' } as FieldDefinition, lines);
		expect(result?.value).toBe('Clachan');
		expect(result?.confidence).toBeLessThan(0.8);
	});

	it('joins an amount OCR split where it lost the decimal point (touching boxes), and nothing else', () => {
		const word = (text: string, x0: number, x1: number) => ({ text, confidence: 90, bbox: { x0, y0: 0, x1, y1: 40 } });
		const join = (...words: ReturnType<typeof word>[]) => joinSplitAmounts(words, 40).map((joined) => joined.text);
		// Boxes that overlap, as Tesseract gives them for `$1203.39` read without its point.
		expect(join(word('Total', 0, 100), word('$1203', 300, 500), word('39', 450, 510))).toEqual(['Total', '$1203.39']);
		expect(join(word('1.203', 300, 400), word('39', 402, 430))).toEqual(['1.203,39']);
		// A real space between them, decimals already there, or not two digits: left alone.
		expect(join(word('1203', 300, 400), word('39', 420, 450))).toEqual(['1203', '39']);
		expect(join(word('12.50', 300, 400), word('39', 400, 430))).toEqual(['12.50', '39']);
		expect(join(word('1203', 300, 400), word('391', 400, 440))).toEqual(['1203', '391']);
		expect(join(word('Qty', 300, 400), word('39', 400, 430))).toEqual(['Qty', '39']);
	});

	it('keeps, of two readings of a page, the one with more confident words (the first on a tie)', () => {
		const reading = (confidences: number[]): OcrPage => {
			const words: OcrWord[] = confidences.map((confidence, index) => ({ text: `word${index}`, confidence, bbox: { x0: 0, y0: 0, x1: 1, y1: 1 }, line: 0 }));
			return { language: 'eng', binarisation: 'otsu', confidence: 0, words, lines: [], pieces: [], text: '', readable: true, ms: 0 };
		};
		const few = reading([95, 95, 40, 30]);
		const more = reading([80, 75, 71]);
		expect(betterReading(few, more)).toBe(more);
		expect(betterReading(more, reading([90, 90, 90]))).toBe(more);
	});
});
