import { beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, SAMPLES, type FixtureName } from '../../fixtures';
import { pngWithText } from '../../fixtures/images';
import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import { autoBlock, averageConfidence, detectTemplate, extractData, readDocument, type ExtractedData, type ReadDocument, type TemplateLike } from '../../../sandbox/src/extraction/index';

const TEMPLATES: TemplateLike[] = READY_MADE_TEMPLATES.map((template, index) => ({ ...template, scanner_id: `ready-${index}` }));

function templateNamed(name: string): TemplateLike {
	const template = TEMPLATES.find((candidate) => candidate.name === name);
	if (!template) throw new Error(`no ready-made template ${name}`);
	return template;
}

const CONTENT_SAMPLES = (Object.keys(SAMPLES) as FixtureName[]).filter((name) => SAMPLES[name].expected !== undefined);

const documents = new Map<FixtureName, ReadDocument>();
async function read(name: FixtureName): Promise<ReadDocument> {
	let document = documents.get(name);
	if (!document) {
		document = await readDocument((await loadFixture(name)).bytes);
		documents.set(name, document);
	}
	return document;
}

async function extract(name: FixtureName): Promise<ExtractedData> {
	const spec = SAMPLES[name];
	const document = await read(name);
	return extractData(templateNamed(spec.template ?? ''), document, { fileName: spec.fileName, fileType: document.kind });
}

function fieldOf(data: ExtractedData, name: string) {
	const field = data.fields.find((candidate) => candidate.name === name);
	if (!field) throw new Error(`no field ${name}`);
	return field;
}

describe('extractData against each sample\'s ground truth', () => {
	it.each(CONTENT_SAMPLES)('%s: every field has its known value (null when not printed)', async (name) => {
		const data = await extract(name);
		const expected = SAMPLES[name].expected ?? {};
		const actual = Object.fromEntries(data.fields.map((field) => [field.name, field.value]));
		expect(actual).toEqual(expected);
	});

	it.each(CONTENT_SAMPLES)('%s: confidence, source and notes say how each value was found', async (name) => {
		const data = await extract(name);
		for (const field of data.fields) {
			if (field.value === null) {
				expect(field.confidence).toBe(0);
				continue;
			}
			expect(field.confidence).toBeGreaterThan(0.3);
			expect(field.confidence).toBeLessThanOrEqual(1);
			expect(field.source_fragment).not.toBe('');
			expect(field.normalization_notes).not.toBe('');
			if (field.value_type !== 'table' && field.value_type !== 'string') expect(field.raw_candidates.length).toBeGreaterThan(0);
		}
	});
});

describe('ExtractedData shape (spec 2.5 and 2.6)', () => {
	let data: ExtractedData;
	beforeAll(async () => {
		data = await extract('bankStatement');
	});

	it('carries status, names, summary and document metadata', () => {
		expect(data).toMatchObject({
			status: 'ok',
			scanner_name: 'Bank statement',
			language: 'en',
			doc_metadata: { num_paginas: 3, tipo_archivo: 'pdf', ocr_provider: 'sandbox-text-layer', idioma_detectado_ocr: 'en' },
		});
		expect(new Date(data.extracted_at).toISOString()).toBe(data.extracted_at);
		expect(data.summary.fields_with_values + data.summary.fields_null).toBe(data.fields.length);
		expect(data.summary.fields_with_values).toBe(data.fields.filter((field) => field.value !== null).length);
	});

	it('has one entry per template field, in template order, with every ExtractedField member', () => {
		expect(data.fields.map((field) => field.name)).toEqual(templateNamed('Bank statement').fields.map((field) => field.name));
		for (const field of data.fields) {
			expect(Object.keys(field).sort()).toEqual(['confidence', 'label', 'name', 'normalization_notes', 'raw_candidates', 'source_fragment', 'value', 'value_type']);
		}
	});

	it('reads a table across pages, each row keyed by the item field names with typed values', () => {
		const transactions = fieldOf(data, 'transactions');
		expect(transactions.value_type).toBe('table');
		const rows = transactions.value as Array<Record<string, unknown>>;
		expect(rows).toHaveLength(72);
		expect(Object.keys(rows[0]).sort()).toEqual(['balance', 'credit', 'date', 'debit', 'description']);
		expect(rows[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		expect(transactions.raw_candidates).toHaveLength(3);
	});

	it('averages the confidence of the fields found', () => {
		const found = data.fields.filter((field) => field.value !== null);
		expect(averageConfidence(data)).toBeCloseTo(found.reduce((sum, field) => sum + field.confidence, 0) / found.length, 2);
	});
});

describe('invoice compliance block', () => {
	it('passes a consistent invoice in every language', async () => {
		for (const name of ['invoiceEn', 'invoiceDe', 'invoiceEs', 'invoiceFr'] as const) {
			const compliance = (await extract(name)).compliance;
			expect(compliance, name).toMatchObject({ compliant: true, issues: [], missing_required_fields: [] });
		}
	});

	it('flags the wrong line amount, the lines not adding up to the subtotal and the wrong total', async () => {
		const compliance = (await extract('invoiceInconsistent')).compliance as { compliant: boolean; checks: Array<{ id: string; passed: boolean | null }>; issues: string[] };
		expect(compliance.compliant).toBe(false);
		const failed = compliance.checks.filter((check) => check.passed === false).map((check) => check.id);
		expect(failed.sort()).toEqual(['line_amounts', 'lines_match_subtotal', 'totals_add_up']);
		expect(compliance.issues.join('\n')).toContain('1243.56');
	});

	it('lists missing required fields and skips checks whose values are absent', async () => {
		const document = await readDocument(pngWithText([{ type: 'tEXt', keyword: 'Comment', text: 'INVOICE\nVAT ID: XX1\nTotal:  100.00' }]));
		const data = extractData(templateNamed('Invoice'), document, { fileName: 'x.png', fileType: 'png' });
		const compliance = data.compliance as { compliant: boolean; missing_required_fields: string[]; checks: Array<{ id: string; passed: boolean | null }> };
		expect(compliance.compliant).toBe(false);
		expect(compliance.missing_required_fields).toEqual(['invoice_number', 'invoice_date', 'supplier_name']);
		expect(compliance.checks.find((check) => check.id === 'totals_add_up')?.passed).toBeNull();
		expect(compliance.checks.find((check) => check.id === 'supplier_vat_id_format')?.passed).toBe(false);
	});

	it('is added only to templates with invoice fields', async () => {
		expect((await extract('receiptPng')).compliance).toBeUndefined();
		expect((await extract('bankStatement')).compliance).toBeUndefined();
	});
});

describe('bank statement balance_check block', () => {
	it('balances a 3-page statement: opening + credits - debits = closing', async () => {
		const data = await extract('bankStatement');
		const rows = fieldOf(data, 'transactions').value as Array<{ debit: number | null; credit: number | null }>;
		const credits = rows.reduce((sum, row) => sum + (row.credit ?? 0), 0);
		const debits = rows.reduce((sum, row) => sum + (row.debit ?? 0), 0);
		expect(data.balance_check).toMatchObject({ balanced: true, difference: 0, opening_balance: 12450, transactions_count: 72 });
		expect(data.balance_check?.total_credits).toBeCloseTo(credits, 2);
		expect(data.balance_check?.total_debits).toBeCloseTo(debits, 2);
	});

	it('reports the difference of an unbalanced statement', async () => {
		const data = await extract('bankStatementUnbalanced');
		expect(data.balance_check).toMatchObject({ balanced: false, difference: 100 });
		expect((data.balance_check?.issues as string[]).join()).toContain('100');
	});

	it('reads all 1,200 transactions of the 40-page statement and balances them', async () => {
		const data = await extract('bankStatementLong');
		expect(data.doc_metadata.num_paginas).toBe(40);
		expect(data.balance_check).toMatchObject({ balanced: true, transactions_count: 1200 });
	});
});

describe('detectTemplate and autoBlock', () => {
	it.each(CONTENT_SAMPLES)('picks the right ready-made template for %s', async (name) => {
		const detection = detectTemplate(TEMPLATES, await read(name));
		expect(detection.template.name).toBe(SAMPLES[name].template);
		expect(detection.candidates).toHaveLength(TEMPLATES.length);
		expect(detection.candidates[0]).toMatchObject({ scanner_id: detection.template.scanner_id, score: detection.score });
		expect(detection.score).toBeGreaterThan(detection.candidates[1].score);
	});

	it('picks a user-created template when the document is of its kind', async () => {
		const timesheet: TemplateLike = {
			scanner_id: 'custom-1',
			name: 'Timesheet',
			description: 'Weekly timesheets',
			fields: [
				{ name: 'employee', label: 'Employee' },
				{ name: 'week', label: 'Week' },
				{ name: 'hours', label: 'Total hours', type: 'number' },
			],
		};
		const document = await readDocument(pngWithText([{ type: 'tEXt', keyword: 'Comment', text: 'TIMESHEET\nEmployee:  A. Sample\nWeek:  2026-W10\nTotal hours:  38.5' }]));
		const detection = detectTemplate([...TEMPLATES, timesheet], document);
		expect(detection.template.scanner_id).toBe('custom-1');
		expect(detection.score).toBe(1);
		expect(autoBlock(detection)).toEqual({
			mode: 'automatic',
			chosen_scanner_id: 'custom-1',
			chosen_scanner_name: 'Timesheet',
			score: 1,
			candidates: detection.candidates,
		});
		expect(extractData(timesheet, document, { fileName: 't.png', fileType: 'png' }).fields.map((field) => field.value)).toEqual(['A. Sample', '2026-W10', 38.5]);
	});
});

describe('user-created templates', () => {
	it('fill arbitrary fields from their labels or humanised names, and null what is not there', async () => {
		const template: TemplateLike = {
			scanner_id: 'custom-2',
			name: 'Payments',
			description: '',
			fields: [
				{ name: 'paymentTerms', type: 'string' },
				{ name: 'iban_number', label: 'IBAN', value_type: 'string' },
				{ name: 'amount_due', label: 'Total due', type: 'number' },
				{ name: 'issued', label: 'Invoice date', type: 'date' },
				{ name: 'loyalty_card', label: 'Loyalty card', type: 'boolean' },
			],
		};
		const data = extractData(template, await read('invoiceEn'), { fileName: 'invoice-en.pdf', fileType: 'pdf' });
		expect(Object.fromEntries(data.fields.map((field) => [field.name, field.value]))).toEqual({
			paymentTerms: '30 days net',
			iban_number: 'GB29 NWBK 6016 1331 9268 19',
			amount_due: 1234.56,
			issued: '2026-03-05',
			loyalty_card: null,
		});
		expect(fieldOf(data, 'paymentTerms').label).toBe('Payment terms');
		expect(fieldOf(data, 'paymentTerms').confidence).toBeLessThan(fieldOf(data, 'amount_due').confidence);
		expect(data.compliance).toBeUndefined();
	});

	it('reads a table of a user template by its column labels', async () => {
		const template: TemplateLike = {
			scanner_id: 'custom-3',
			name: 'Lines',
			description: '',
			fields: [{ name: 'positions', type: 'table', item_fields: [{ name: 'what', label: 'Bezeichnung' }, { name: 'how_many', label: 'Menge', type: 'number' }] }],
		};
		const data = extractData(template, await read('invoiceDe'), { fileName: 'r.pdf', fileType: 'pdf' });
		expect(data.fields[0].value).toEqual([
			{ what: 'Schreibtisch Eiche', how_many: 2 },
			{ what: 'Bürostuhl ergonomisch', how_many: 1 },
			{ what: 'Montage (Std.)', how_many: 3 },
		]);
	});

	it('lower the confidence of an ambiguous date', async () => {
		const document = await readDocument(pngWithText([{ type: 'tEXt', keyword: 'Comment', text: 'Order date:  03/05/2026\nShip date:  13/05/2026' }]));
		const template: TemplateLike = { scanner_id: 'c', name: 'Dates', description: '', fields: [{ name: 'order_date', type: 'date' }, { name: 'ship_date', type: 'date' }] };
		const [order, ship] = extractData(template, document, { fileName: 'd.png', fileType: 'png' }).fields;
		expect(order.value).toBe('2026-05-03');
		expect(order.normalization_notes).toContain('ambiguous');
		expect(order.confidence).toBeLessThan(ship.confidence);
	});
});

describe('a label is never a value', () => {
	it('refuses the next label as the value of any text field (`Zahlungsbedingungen:  Zahlungsmittel:`)', () => {
		const text = ['RECHNUNG', 'Rechnungsnummer:   12345', 'Zahlungsbedingungen:     Zahlungsmittel:', 'Gesamtsumme   117,81'].join('\n');
		const data = extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'de' }, { fileName: 'x.pdf', fileType: 'pdf' });
		expect(fieldOf(data, 'payment_terms').value).toBeNull();
		expect(fieldOf(data, 'invoice_number').value).toBe('12345');
	});

	it('refuses the rest of a heading as the value (`Payment terms & bank details`, `Customer name / company`)', () => {
		const text = ['INVOICE', 'Invoice number:   12345', 'Customer name / company', 'Musterkunde GmbH', 'Payment terms & bank details', 'IBAN: DE89 3704 0044 0532 0130 00', 'Total   117.81'].join('\n');
		const data = extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'en' }, { fileName: 'x.pdf', fileType: 'pdf' });
		expect(fieldOf(data, 'payment_terms').value).toBeNull();
		expect(fieldOf(data, 'customer_name').value).not.toBe('/ company');
	});
});

describe('a table header with columns the template does not ask for', () => {
	const linesOf = (rows: string[]) => {
		const text = ['RECHNUNG', 'Rechnungsnummer:   12345', ...rows, 'Rechnungsbetrag   3,90'].join('\n');
		const data = extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'de' }, { fileName: 'x.pdf', fileType: 'pdf' });
		return fieldOf(data, 'line_items').value;
	};

	it('is found by its compound headings (`Nettopreis`, `Nettobetrag`), other columns (`Pos`, `Einheit`, `Steuersatz`) neither for nor against', () => {
		expect(
			linesOf([
				'  Pos            Referenzen     Beschreibung           Nettopreis       Menge Einheit               Steuersatz  Nettobetrag',
				'  1                             Grundpreis (Pauschale)     3,90             1 Stk                       7%            3,90',
			]),
		).toEqual([{ description: 'Grundpreis (Pauschale)', quantity: 1, unit_price: 3.9, amount: 3.9 }]);
	});

	it('reads an item printed around its money line: the text above is its description; article and EAN numbers, a zero charge are no items', () => {
		expect(
			linesOf([
				'   #     Line item description                                           Quantity  Unit  Unit price  VAT [%]   Net       Gross',
				'         GWDSTG-DIN976-A-4.8-(A2K)-M10X1000            0595810 25',
				'      1                                                                   25,00    pcs      2,06     19,00      51,50      61,29',
				'         GWDSTG-DIN976-A-4.8-(A2K)-M10X1000            7711231873598',
				'         MUELLSACK-EXTRASTARK-BLAU-700X1100X0,07       05899800555 150',
				'      2                                                                  150,00   pcs     49,29     19,00   7.393,50   8.798,27',
				'         MUELLSACK-EXTRASTARK-BLAU-700X1100X0,07       7748539263943',
				'                                                                 Surcharge/charge:                               0,00 €',
			]),
		).toEqual([
			{ description: 'GWDSTG-DIN976-A-4.8-(A2K)-M10X1000', quantity: 25, unit_price: 2.06, amount: 51.5 },
			{ description: 'MUELLSACK-EXTRASTARK-BLAU-700X1100X0,07', quantity: 150, unit_price: 49.29, amount: 7393.5 },
		]);
	});

	it('reads items printed as blocks of labelled values (XRechnung\'s standard rendering), one item per price block', () => {
		const block = (quantity: string, price: string, amount: string, name: string) => [
			'  Preiseinzelheiten',
			`  Menge                                                  ${quantity}`,
			'  Einheit                                                 LTR',
			`  Preis pro Einheit (netto)                              ${price}`,
			`  Gesamtpreis (netto)                                ${amount}`,
			'  Artikelinformationen',
			`  Bezeichnung:       ${name}                              Artikelnummer:    456`,
			'  Beschreibung:      Beschreibung Artikel',
		];
		expect(linesOf(['   Positionen', ...block('10.00', '1.000,00', '10.000,00', 'Bezeichnung Artikel'), ...block('2', '1,95', '3,90', 'Zweiter Artikel'), '  Summe aller Positionen        netto        10.003,90'])).toEqual([
			{ description: 'Bezeichnung Artikel', quantity: 10, unit_price: 1000, amount: 10000 },
			{ description: 'Zweiter Artikel', quantity: 2, unit_price: 1.95, amount: 3.9 },
		]);
	});

	it('is found by the short German headings (`Menge  ME  Bezeichnung  EP  GP`)', () => {
		expect(
			linesOf([
				'Pos.   Menge      ME        Art-Nr.               Bezeichnung                                EP            GP',
				'1      1,00       Stk       12345                 Toller Artikel                          3,90          3,90',
			]),
		).toEqual([expect.objectContaining({ description: 'Toller Artikel', quantity: 1, unit_price: 3.9, amount: 3.9 })]);
	});
});

describe('a colon aligned apart from its label', () => {
	const fieldsOf = (text: string, language: string) => extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language }, { fileName: 'x.pdf', fileType: 'pdf' });

	it('still joins the label to its value, and is no part of the value (`Date d\'échéance        :  05-08-2022`, `N° intracom  : FR20123589444`)', () => {
		const data = fieldsOf(["FACTURE", "Date d'échéance        :  05-08-2022", 'N° intracom  : FR20123589444'].join('\n'), 'fr');
		expect(fieldOf(data, 'due_date').value).toBe('2022-08-05');
		expect(fieldOf(data, 'supplier_vat_id').value).toBe('FR20123589444');
	});
});

describe('a section heading naming a party', () => {
	it('is the label over its sub-labels (`Informationen zum Verkäufer` over `Firmenname:  M. Meier Handwerk GbR`), never a name itself', () => {
		const text = ['RECHNUNG', '   Informationen zum Verkäufer', '', '  Firmenname:        M. Meier Handwerk GbR                           Ländercode:       DE', '', '   Informationen zum Käufer', '', '  Firmenname:        Muster Einkauf GmbH                Ländercode:       DE'].join('\n');
		const data = extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'de' }, { fileName: 'x.pdf', fileType: 'pdf' });
		expect([fieldOf(data, 'supplier_name').value, fieldOf(data, 'customer_name').value]).toEqual(['M. Meier Handwerk GbR', 'Muster Einkauf GmbH']);
	});
});

describe('a date label', () => {
	it('reads German due-date wordings: `Zahlungsziel: 1. Februar 2024`, `zahlbar zum 25.02.2025` in a sentence', () => {
		const dueOf = (line: string) => {
			const text = ['RECHNUNG', 'Rechnungsnummer:   12345', line].join('\n');
			return fieldOf(extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'de' }, { fileName: 'x.pdf', fileType: 'pdf' }), 'due_date').value;
		};
		expect([dueOf('Zahlungsziel:   1. Februar 2024'), dueOf('Die Rechnung ist zahlbar zum 25.02.2025 rein netto ohne Abzug.'), dueOf('Zahlungsziel: 30 Tage netto')]).toEqual(['2024-02-01', '2025-02-25', null]);
	});


	it('is read inside a cell and touching its date (`Service date: 01.01.2026 - Due date16.09.2026`)', () => {
		const text = ['INVOICE', 'Invoice number:   12345', 'Invoice date:   01.09.2026', 'Service date: 01.01.2026 - Due date16.09.2026', 'Total   117.81'].join('\n');
		const data = extractData(templateNamed('Invoice'), { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'en' }, { fileName: 'x.pdf', fileType: 'pdf' });
		expect(fieldOf(data, 'due_date').value).toBe('2026-09-16');
	});
});

describe('the IBAN to pay into', () => {
	const invoiceTemplate = templateNamed('Invoice');
	const ibanOf = (text: string, template = invoiceTemplate) => {
		const data = extractData(template, { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'en' }, { fileName: 'x.pdf', fileType: 'pdf' });
		const field = fieldOf(data, 'iban');
		return { value: field.value, confidence: field.confidence };
	};
	const filler = Array.from({ length: 20 }, (_, index) => `Line ${index + 1}`).join('\n');

	it.each([
		['IBAN: DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
		['IBAN\nDE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
		['Bank details                 IBAN  DE89370400440532013000', 'DE89370400440532013000'],
		['Bankverbindung: Commerzbank  IBAN DE89370400440532013000  BIC COBADEFFXXX', 'DE89370400440532013000'],
		['Coordonnées bancaires\nBanque X\nFR76 3000 6000 0112 3456 7890 189', 'FR7630006000011234567890189'],
		['Rekeningnummer: NL91 ABNA 0417 1643 00', 'NL91ABNA0417164300'],
		['Please pay to: GB29 NWBK 6016 1331 9268 19', 'GB29NWBK60161331926819'],
		['IBAN DE8937 0400 44053 2013000', 'DE89370400440532013000'],
		[`${filler}\nACME GmbH · Hauptstr. 1 · DE89 3704 0044 0532 0130 00`, 'DE89370400440532013000'],
	])('%j -> %s at 0.9', (text, expected) => {
		expect(ibanOf(text)).toEqual({ value: expected, confidence: 0.9 });
	});

	it('takes a valid IBAN over one whose check digits fail, and doubts a lone invalid one', () => {
		expect(ibanOf('IBAN: DE89 3704 0044 0532 0130 01\nBank: GB29 NWBK 6016 1331 9268 19')).toEqual({ value: 'GB29NWBK60161331926819', confidence: 0.9 });
		expect(ibanOf('IBAN: DE89 3704 0044 0532 0130 01').confidence).toBeLessThan(0.8);
	});

	it('returns only an IBAN\'s shape: cut where it ends, an IBAN of the payment block over an account number, else none', () => {
		// Check digits that fail (test data, a misprint): the value is kept below 0.8, but never with what follows it.
		const glued = ibanOf('Bank: IBAN: DE370800400123456789,SWIFT/BIC:DRESDEFF370(Commerzbank)');
		expect(glued.value).toBe('DE370800400123456789');
		expect(glued.confidence).toBeLessThan(0.8);
		expect(ibanOf('Kontonummer: 1234567').value).toBeNull();
		const account = ibanOf('Konto: 1234567\nBankverbindung\nIBAN GB99 NWBK 6016 1312 3456 78');
		expect(account.value).toBe('GB99NWBK60161312345678');
		expect(account.confidence).toBeLessThan(0.8);
	});

	it("does not take the payer's account a direct debit draws on", () => {
		expect(ibanOf('Le montant sera prélevé sur votre compte IBAN FR14 2004 1010 0505 0001 3M02 606').value).toBeNull();
		expect(ibanOf('Wird von Ihrem Konto abgebucht:\nIBAN DE89 3704 0044 0532 0130 00').value).toBeNull();
		const both = ibanOf('Le montant sera prélevé sur votre compte IBAN FR14 2004 1010 0505 0001 3M02 606\nPayable à : IBAN FR76 3000 6000 0112 3456 7890 189');
		expect(both).toEqual({ value: 'FR7630006000011234567890189', confidence: 0.9 });
	});

	it('keeps a valid IBAN nothing places below 0.8, and reads the account of a bank statement as its own', () => {
		const lone = ibanOf('Reference DE89 3704 0044 0532 0130 00');
		expect(lone.value).toBe('DE89370400440532013000');
		expect(lone.confidence).toBeLessThan(0.8);
		expect(ibanOf('Direct debit from account\nIBAN: DE89 3704 0044 0532 0130 00\nOpening balance  10.00', templateNamed('Bank statement')).value).toBe('DE89370400440532013000');
	});
});
