import { describe, expect, it } from 'vitest';
import { FIXTURE_NAMES, loadFixture, SAMPLES, type FixtureName } from '../../fixtures';
import { heicLike, jpegWithComment, minimalWebp, pngWithText } from '../../fixtures/images';
import { readDocument, sniffType } from '../../../sandbox/src/extraction/index';
import { guessLanguage } from '../../../sandbox/src/extraction/language';
import { layoutLines } from '../../../sandbox/src/extraction/layout';
import { insertByPosition } from '../../../sandbox/src/extraction/read-document';

/** The 40 MB file is only sniffed: reading it through pdfjs would cost seconds and prove nothing new. */
const READABLE = FIXTURE_NAMES.filter((name) => name !== 'huge');

describe('sniffType', () => {
	it.each(FIXTURE_NAMES)('tells the kind of %s from its bytes', async (name) => {
		const fixture = await loadFixture(name);
		expect(sniffType(fixture.bytes)).toBe(SAMPLES[name].kind);
	});

	it('ignores the name: a text file called .pdf is unknown, an empty file too', () => {
		expect(sniffType(Buffer.from('%PD'))).toBe('unknown');
		expect(sniffType(new Uint8Array(0))).toBe('unknown');
		expect(sniffType(Buffer.from('hello.pdf'))).toBe('unknown');
	});

	it('recognises every image signature', () => {
		expect(sniffType(pngWithText([]))).toBe('png');
		expect(sniffType(jpegWithComment('x'))).toBe('jpeg');
		expect(sniffType(minimalWebp())).toBe('webp');
		expect(sniffType(heicLike())).toBe('heic');
		expect(sniffType(Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom0000')]))).toBe('unknown');
	});
});

describe('readDocument', () => {
	it.each(READABLE)('reads %s: page count and problem', async (name: FixtureName) => {
		const spec = SAMPLES[name];
		const document = await readDocument((await loadFixture(name)).bytes);
		expect(document.kind).toBe(spec.kind);
		expect(document.problem).toBe(spec.problem);
		if (spec.pages !== undefined) expect(document.pages).toBe(spec.pages);
		expect(document.pages).toBeGreaterThanOrEqual(1);
		if (spec.problem) expect(document.text).toBe('');
		else expect(document.text.length).toBeGreaterThan(20);
	});

	it('keeps one text per page, in order', async () => {
		const document = await readDocument((await loadFixture('bankStatement')).bytes);
		expect(document.pageTexts).toHaveLength(3);
		expect(document.pageTexts[0]).toContain('Opening balance');
		expect(document.pageTexts[2]).toContain('Closing balance');
		expect(document.pageTexts[2]).toContain('Page 3 of 3');
	});

	it('rebuilds lines so that labels and values stay on one line, columns apart', async () => {
		const document = await readDocument((await loadFixture('invoiceEn')).bytes);
		expect(document.text).toMatch(/Invoice No\.: {2,}INV-2026-0042/);
		expect(document.text).toMatch(/Hosting \(12 months\) {2,}12 {2,}19\.90 {2,}238\.80/);
	});

	it.each([
		['invoiceEn', 'en'],
		['invoiceDe', 'de'],
		['invoiceEs', 'es'],
		['invoiceFr', 'fr'],
		['receiptJpeg', 'es'],
		['bankStatementLong', 'de'],
	] as const)('guesses the language of %s', async (name, language) => {
		expect((await readDocument((await loadFixture(name)).bytes)).language).toBe(language);
	});

	it('reads text from PNG tEXt and iTXt chunks and from a JPEG comment, nothing from other metadata', async () => {
		const png = await readDocument(pngWithText([{ type: 'tEXt', keyword: 'Comment', text: 'Total 12.40' }]));
		expect(png).toMatchObject({ kind: 'png', pages: 1, text: 'Total 12.40' });
		const utf8 = await readDocument(pngWithText([{ type: 'iTXt', keyword: 'Description', text: 'Größe 5 €' }]));
		expect(utf8.text).toBe('Größe 5 €');
		const jpeg = await readDocument(jpegWithComment('Ticket nº 5'));
		expect(jpeg).toMatchObject({ kind: 'jpeg', text: 'Ticket nº 5' });
		const software = await readDocument(pngWithText([{ type: 'tEXt', keyword: 'Software', text: 'Example Paint 1.0' }]));
		expect(software).toMatchObject({ kind: 'png', pages: 1, text: '', problem: 'no_text' });
		expect((await readDocument(jpegWithComment(''))).problem).toBe('no_text');
	});
});

describe('layoutLines', () => {
	const piece = (text: string, x: number, y: number, width = text.length * 5) => ({ text, x, y, width, fontSize: 10 });

	it('groups pieces by baseline, sorts them by x and keeps wide gaps as two or more spaces', () => {
		const lines = layoutLines([piece('1,000.00', 400, 700), piece('Total', 50, 700), piece('Subtotal', 50, 714), piece('900.00', 400, 714.5)]);
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/^Subtotal {2,}900\.00$/);
		expect(lines[1]).toMatch(/^Total {2,}1,000\.00$/);
	});

	it('aligns columns by x position and marks large vertical gaps with a blank line', () => {
		const lines = layoutLines([piece('Qty', 200, 700), piece('2', 200, 686), piece('Notes', 0, 600)]);
		expect(lines[0].indexOf('Qty')).toBe(lines[1].indexOf('2'));
		expect(lines[2]).toBe('');
		expect(lines[3]).toBe('Notes');
	});

	it('joins pieces of one word and puts one space between close words', () => {
		expect(layoutLines([piece('Inv', 0, 10, 15), piece('oice', 15, 10, 20), piece('No.', 38, 10, 15)])).toEqual(['Invoice No.']);
	});

	it('keeps whole words (OCR) apart by a space however close their boxes', () => {
		const ocrWord = (text: string, x: number, width: number) => ({ ...piece(text, x, 10, width), word: true });
		expect(layoutLines([ocrWord('6/10/2019', 0, 45), ocrWord('13:59', 45.5, 25)])).toEqual(['6/10/2019 13:59']);
	});

	it('judges the gap between OCR words by the font size the glyphs show, not by a line of capitals\' short box', () => {
		// `VAT GB 123`: the line's box is the capitals' height (7.2 for a font of 10); a word space of 5.
		const capitals = (text: string, x: number, width: number) => ({ ...piece(text, x, 10, width), fontSize: 7.2, em: 10, word: true });
		expect(layoutLines([capitals('VAT', 0, 20), capitals('GB', 25, 14), capitals('123', 44, 18)])).toEqual(['VAT GB 123']);
	});
});

describe('guessLanguage', () => {
	it.each([
		['Factuur  Datum  Totaal bedrag  BTW  Bedankt voor uw betaling', 'nl'],
		['Fattura  Data  Totale  Importo  Grazie  Scadenza del pagamento', 'it'],
		['Fatura  Data de vencimento  Valor  Obrigado  Pagamento do cliente', 'pt'],
		['Rechnung  Datum  Summe  Betrag zahlbar bis', 'de'],
	])('reads %s as %s', (text, language) => {
		expect(guessLanguage(text)).toBe(language);
	});

	it('is not swayed by OCR noise of one or two shared letters: an English receipt stays English', () => {
		expect(guessLanguage('el la y e o Sales Associate Street Sub-Total Tax Tip Total')).toBe('en');
	});
});

describe('insertByPosition', () => {
	const page = { x0: 0, y0: 0, x1: 600, y1: 800 };
	const body = 'Invoice No.  1\nDate  2024-01-01\nTotal  10.00';

	it('puts the text of an image at the top of the page before the lines, at the bottom after them', () => {
		expect(insertByPosition(body, 'ACME Ltd', { x0: 50, y0: 740, x1: 300, y1: 790 }, page)).toBe(`ACME Ltd\n\n${body}`);
		expect(insertByPosition(body, 'IBAN DE00', { x0: 50, y0: 10, x1: 550, y1: 40 }, page)).toBe(`${body}\n\nIBAN DE00`);
	});

	it('puts the text of an image in the middle of the page among the lines, as a block of its own', () => {
		expect(insertByPosition(body, 'Stamp', { x0: 50, y0: 300, x1: 200, y1: 400 }, page).split('\n')).toEqual(['Invoice No.  1', 'Date  2024-01-01', '', 'Stamp', '', 'Total  10.00']);
	});
});
