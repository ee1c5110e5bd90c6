import { appliesBalanceCheck, appliesCompliance, balanceCheck, invoiceCompliance } from './checks';
import { compactIdentifier, fallbackValue, ISSUER_VAT_FIELDS } from './fallbacks';
import { customerBlocks, inCustomerBlock } from './customer-block';
import { adjust, AMOUNT_NAMES, crossCheckAmounts, isIbanField, withAlternative } from './plausibility';
import { compactTaxId, fieldTypeOf, findIbans, guessDecimalSeparator, taxIdKind, type DocumentStyle } from './normalize';
import { findLabels } from './labels';
import { emptyResult, readScalarFields, type ScalarAlternative, type ScalarResult } from './scalar-fields';
import { labelledCurrency } from './currency';
import { checkLabelledSupplier } from './supplier';
import { readTable } from './tables';
import { fold, humanise, toLines, type TextLine } from './text-lines';
import { DIRECT_DEBIT_WORDS, NO_TAX_CHARGED, OTHER_TERM_START, PAYER_ACCOUNT_WORDS, PAYMENT_BLOCK_WORDS, PAYMENT_TERM_DAYS } from './vocabulary';
import type { ExtractedData, ExtractedField, FieldDefinition, OcrWordConfidence, ReadDocument, ScalarValue, TemplateLike } from './types';

/** Reported as `doc_metadata.ocr_provider`: the sandbox reads text layers and metadata, no OCR. */
export const OCR_PROVIDER = 'sandbox-text-layer';

function styleOf(doc: ReadDocument): DocumentStyle {
	// US documents write dates month first; English documents paying in dollars are read that way.
	// A US address (`Redmond, WA 98052`) says the same when the language guess fails on OCR text.
	const dollars = /\$\s?\d|\bUSD\b/.test(doc.text) || /\b[A-Z][a-z]+,?\s+[A-Z]{2},?\s+\d{5}(?:-\d{4})?\b/u.test(doc.text);
	const monthFirstDates = (doc.language === 'en' || doc.language === undefined) && dollars && !/[€£]/.test(doc.text);
	return { decimalSeparator: guessDecimalSeparator(doc.text), monthFirstDates };
}

function labelOf(field: FieldDefinition): string {
	if (field.label) return field.label;
	const words = humanise(field.name);
	return words.charAt(0).toUpperCase() + words.slice(1);
}

function toExtractedField(field: FieldDefinition, result: ScalarResult): ExtractedField {
	return {
		name: field.name,
		label: labelOf(field),
		value_type: fieldTypeOf(field),
		value: result.value,
		confidence: result.value === null ? 0 : result.confidence,
		source_fragment: result.source_fragment,
		raw_candidates: result.raw_candidates,
		normalization_notes: result.normalization_notes,
	};
}

function tableField(field: FieldDefinition, lines: TextLine[], style: DocumentStyle): { extracted: ExtractedField; usedLines: Set<number>; headerLines: Set<number> } {
	const table = readTable(field, lines, style);
	const found = table.rows.length > 0;
	const notes = found
		? [table.headers.length > 0 ? `${table.rows.length} row(s) under ${table.headers.length} header line(s)` : `${table.rows.length} row(s)`, ...new Set(table.notes)].join('; ')
		: table.headers.length > 0
			? 'header found but no rows under it'
			: 'no header line naming the columns found';
	return {
		extracted: {
			name: field.name,
			label: labelOf(field),
			value_type: 'table',
			value: found ? table.rows : null,
			confidence: found ? table.confidence : 0,
			source_fragment: table.headers[0]?.text.trim() ?? table.source ?? '',
			raw_candidates: table.headers.map((line) => line.text.trim()),
			normalization_notes: notes,
		},
		usedLines: table.usedLines,
		headerLines: new Set(table.headers.map((line) => line.index)),
	};
}

/** Tesseract word confidence (0-100) under which a value read from the word is doubted. */
export const OCR_WORD_CONFIDENCE = 80;
/** The most a value holding a doubtful OCR word keeps (below the suggested review threshold 0.8). */
const OCR_DOUBT_CAP = 0.7;

/** A value whose words OCR read with low confidence is not believed unless a cross-check confirms it. */
function ocrDoubt(result: ScalarResult, words: OcrWordConfidence[] | undefined): ScalarResult {
	if (!words || result.value === null || !result.raw) return result;
	const confidenceOf = new Map<string, number>();
	for (const word of words) confidenceOf.set(word.text, Math.max(word.confidence, confidenceOf.get(word.text) ?? 0));
	const doubtful = result.raw
		.split(/\s+/u)
		.filter((token) => (confidenceOf.get(token) ?? 100) < OCR_WORD_CONFIDENCE)
		.map((token) => `'${token}' (${confidenceOf.get(token)})`);
	if (doubtful.length === 0 || result.confidence <= OCR_DOUBT_CAP) return result;
	const note = `OCR was unsure of ${doubtful.join(', ')}`;
	return { ...result, confidence: OCR_DOUBT_CAP, normalization_notes: result.normalization_notes ? `${result.normalization_notes}; ${note}` : note };
}

/** Share of a template's fields found from which the document's confidence is not lowered. */
export const FULL_COVERAGE_SHARE = 0.5;

/**
 * The document's confidence (spec 2.4 `confidence`): the average confidence of the fields that
 * have a value, lowered in proportion when fewer than half of the template's fields (required
 * fields count double) were found, so that a document with 1 of 10 fields found is flagged for
 * review instead of scoring as well as its one field.
 */
export function averageConfidence(data: ExtractedData, template?: TemplateLike): number {
	const found = data.fields.filter((field) => field.value !== null);
	if (found.length === 0) return 0;
	const average = found.reduce((sum, field) => sum + field.confidence, 0) / found.length;
	const required = new Set((template?.fields ?? []).filter((field) => field.required).map((field) => field.name));
	const weight = (name: string) => (required.has(name) ? 2 : 1);
	const expected = data.fields.reduce((sum, field) => sum + weight(field.name), 0);
	const got = found.reduce((sum, field) => sum + weight(field.name), 0);
	const coverage = expected === 0 ? 1 : Math.min(1, got / expected / FULL_COVERAGE_SHARE);
	return Math.round(average * coverage * 100) / 100;
}

function resultNamed(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>, names: string[]): FieldDefinition | undefined {
	return names.map((name) => fields.find((field) => field.name === name)).find((field) => field !== undefined && results.has(field));
}

/** Cross-checks between fields (plausibility.ts): total, subtotal and tax against each other and the line items. */
function crossCheck(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>, tables: ExtractedField[], lines: TextLine[]): void {
	const totalField = resultNamed(fields, results, AMOUNT_NAMES.total);
	const subtotalField = resultNamed(fields, results, AMOUNT_NAMES.subtotal);
	const taxField = resultNamed(fields, results, AMOUNT_NAMES.tax);
	// The statement that no tax is charged (`TVA non applicable, art. 293 B du CGI`) holds no tax amount.
	if (taxField && NO_TAX_CHARGED.test(fold(results.get(taxField)?.source_fragment ?? ''))) results.set(taxField, emptyResult());
	if (!totalField && !subtotalField) return;
	const rows = tables.find((table) => Array.isArray(table.value) && table.value.some((row) => typeof row.amount === 'number'))?.value;
	const lineAmounts = Array.isArray(rows) ? rows.map((row) => row.amount).filter((amount): amount is number => typeof amount === 'number') : undefined;
	const checked = crossCheckAmounts({
		total: totalField && results.get(totalField),
		subtotal: subtotalField && results.get(subtotalField),
		tax: taxField && results.get(taxField),
		lineAmounts,
		noTaxStatement: lines.find((line) => NO_TAX_CHARGED.test(line.folded))?.text.trim(),
	});
	if (totalField && checked.total) results.set(totalField, checked.total);
	if (subtotalField && checked.subtotal) results.set(subtotalField, checked.subtotal);
	if (taxField && checked.tax) results.set(taxField, checked.tax);
}

/**
 * A due date read without a label's certainty that falls before the invoice date (`26/02/2019`
 * beside `11/02/2019` = 2 November: OCR misread the day) is not believed: left empty, kept among
 * the raw candidates. A labelled due date at 0.8 or more stays (the compliance check reports it).
 */
function dropDueBeforeIssue(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>): void {
	const due = fields.find((field) => field.name === 'due_date');
	const issued = fields.find((field) => field.name === 'invoice_date');
	const dueResult = due && results.get(due);
	const issuedValue = issued && results.get(issued)?.value;
	if (!due || !dueResult || typeof dueResult.value !== 'string' || typeof issuedValue !== 'string') return;
	if (dueResult.value >= issuedValue || dueResult.confidence >= 0.8) return;
	results.set(due, { ...emptyResult(), raw_candidates: [...dueResult.raw_candidates, dueResult.source_fragment].filter((text) => text !== ''), normalization_notes: `due date ${dueResult.value} before the invoice date ${issuedValue}: not believed` });
}

/** The days after the invoice date the payment terms give (`Payment is due within 15 days`: 15), if any. */
export function termDays(lines: TextLine[]): { days: number; line: TextLine } | undefined {
	for (const line of lines) {
		if (OTHER_TERM_START.test(line.folded)) continue;
		for (const pattern of PAYMENT_TERM_DAYS) {
			const days = Number(pattern.exec(line.folded)?.[1]);
			if (days > 0 && days <= MAX_TERM_DAYS) return { days, line };
		}
	}
	return undefined;
}

const MAX_TERM_DAYS = 180;
/** The most a due date computed from the terms keeps: the terms may count from another day. */
const TERM_DUE_CAP = 0.7;

function addDays(isoDate: string, days: number): string {
	const date = new Date(`${isoDate}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() + days);
	return date.toISOString().slice(0, 10);
}

/**
 * Payment terms in days (`Net 30`) cross-check the due date against the invoice date: a printed
 * due date that agrees is believed, one that does not is doubted, and a missing one is the invoice
 * date plus the days (no surer than the invoice date, and below the review threshold).
 */
function dueFromTerms(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>, lines: TextLine[]): void {
	const due = fields.find((field) => field.name === 'due_date');
	const issued = fields.find((field) => field.name === 'invoice_date');
	const issuedResult = issued && results.get(issued);
	const terms = termDays(lines);
	if (!due || !terms || !issuedResult || typeof issuedResult.value !== 'string') return;
	const expected = addDays(issuedResult.value, terms.days);
	const termsText = terms.line.text.trim();
	const dueResult = results.get(due) ?? emptyResult();
	if (typeof dueResult.value === 'string') {
		const agrees = dueResult.value === expected;
		const confidence = agrees ? Math.max(dueResult.confidence, Math.min(0.9, issuedResult.confidence + 0.05)) : Math.min(dueResult.confidence, TERM_DUE_CAP);
		const note = agrees ? `checked: the invoice date + ${terms.days} days ('${termsText}')` : `doubtful: the terms ('${termsText}') give ${expected}`;
		results.set(due, { ...dueResult, confidence, normalization_notes: [dueResult.normalization_notes, note].filter((text) => text !== '').join('; ') });
		return;
	}
	const note = `from the terms: the invoice date ${issuedResult.value} + ${terms.days} days ('${termsText}')`;
	results.set(due, { value: expected, confidence: Math.min(issuedResult.confidence, TERM_DUE_CAP), source_fragment: termsText, raw_candidates: [...dueResult.raw_candidates, termsText], normalization_notes: note });
}

/** Fields holding the VAT id of the document's issuer, never the customer's. */
/** The most a VAT id moved from the issuer's field to the customer's keeps: the block was guessed from its heading. */
const MOVED_VAT_CAP = 0.75;

/**
 * A VAT id read in the customer's block (`Bill to` ... `USt-IdNr.: DE...`) is the customer's: the
 * issuer's field takes another labelled one outside the block, or none; the customer's field, if
 * the template has one and it is empty, takes the moved id.
 */
function issuerVatOutsideCustomerBlock(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>, lines: TextLine[]): void {
	const blocks = customerBlocks(lines);
	const inBlock = (at: ScalarResult['at']) => at !== undefined && inCustomerBlock(blocks, at.line, at.column);
	const customerField = fields.find((field) => field.name === 'customer_vat_id');
	for (const field of fields.filter((candidate) => ISSUER_VAT_FIELDS.has(candidate.name))) {
		const result = results.get(field);
		if (!result || result.value === null) continue;
		const note = (id: ScalarValue) => `${String(id)} stands in the customer's block`;
		let customerId: ScalarResult | undefined;
		if (inBlock(result.at)) {
			const outside = (result.alternatives ?? []).find((alternative) => alternative.value !== null && !inBlock(alternative.at));
			results.set(field, outside ? adjust(withAlternative(result, outside), outside.confidence, `${note(result.value)}: the other id taken`) : { ...emptyResult(result.raw_candidates), normalization_notes: `${note(result.value)}: the customer's, not the issuer's` });
			customerId = { ...result, alternatives: undefined };
		} else {
			results.set(field, rivalsInCustomerBlock(result, inBlock));
			const rival = (result.alternatives ?? []).find((alternative) => inBlock(alternative.at));
			customerId = rival && { value: rival.value, confidence: rival.confidence, source_fragment: rival.source_fragment, raw_candidates: [rival.source_fragment], normalization_notes: rival.notes, at: rival.at };
		}
		const customer = customerField && results.get(customerField);
		if (customerField && customerId && (!customer || customer.value === null)) {
			results.set(customerField, adjust(customerId, Math.min(customerId.confidence, MOVED_VAT_CAP), `read as ${field.name}, but ${note(customerId.value)}`));
		}
	}
}

/** A word that says a VAT id follows on its line. */
const VAT_WORD = /\b(?:vat|tva|btw|iva|ust|mwst|umsatzsteuer|moms|alv|dph|pdv|afm)\b/u;
/** A token with a country prefix and digits: a VAT id when its country's shape holds. */
const VAT_TOKEN = /\b[A-Z]{2}[0-9][0-9A-Z]{6,12}\b/gu;
/** An id printed right after a VAT word (`N°TVA IUGBU98YFG6`, `VAT: 123456789`). */
const ID_AFTER_VAT_WORD = /\b(?:VAT|TVA|BTW|IVA|USt|MwSt)(?:[\s.-]*(?:ID|Id|Nr|No|n°))?[\s.:°-]*([A-Z0-9]{8,15})\b/gu;
/** The most an issuer's VAT id keeps when another VAT id, not the customer's, is printed too. */
const OTHER_VAT_CAP = 0.75;

/**
 * The issuer's VAT id is believed (0.8 or more) only when no other well-formed VAT id is printed
 * beside a VAT word outside the customer's block (a buyer's id in a block without a heading, the
 * seller's in the footer): which one is the issuer's is then a guess.
 */
function otherVatIdPrinted(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>, lines: TextLine[]): void {
	// The customer's blocks are looked for only when another id is printed (cheap documents stay cheap).
	let blocks: ReturnType<typeof customerBlocks> | undefined;
	const inBlock = (index: number, column: number) => inCustomerBlock((blocks ??= customerBlocks(lines)), index, column);
	const customerIds = new Set<string>();
	for (const field of fields.filter((candidate) => candidate.name === 'customer_vat_id')) {
		const result = results.get(field);
		for (const value of [result?.value, ...(result?.alternatives ?? []).map((alternative) => alternative.value)]) if (typeof value === 'string') customerIds.add(compactTaxId(value));
	}
	for (const field of fields.filter((candidate) => ISSUER_VAT_FIELDS.has(candidate.name))) {
		const result = results.get(field);
		if (!result || typeof result.value !== 'string' || result.confidence < OTHER_VAT_CAP) continue;
		const own = compactTaxId(result.value);
		for (const line of lines) {
			if (!VAT_WORD.test(line.text.toLowerCase())) continue;
			const shaped = [...line.text.matchAll(VAT_TOKEN)].filter((token) => {
				const kind = taxIdKind(compactTaxId(token[0]));
				return kind !== undefined && kind !== 'wrong shape';
			});
			// `N°TVA IUGBU98YFG6`: an id of no known shape right after the VAT word is another id too.
			const right = [...line.text.matchAll(ID_AFTER_VAT_WORD)].map((match) => Object.assign([match[1]], { index: match.index + match[0].length - match[1].length }));
			const other = [...shaped, ...right].find((token) => {
				const id = compactTaxId(token[0]);
				return id !== own && !customerIds.has(id) && /\d/u.test(id) && !inBlock(line.index, token.index ?? 0);
			});
			if (other) {
				results.set(field, adjust(result, Math.min(result.confidence, OTHER_VAT_CAP), `another VAT ID is printed too (${other[0]}): which is the issuer's is a guess`));
				break;
			}
		}
	}
}

/** A value doubted for rivals that all stand in the customer's block: those are the customer's, no rivals. */
function rivalsInCustomerBlock(result: ScalarResult, inBlock: (at: ScalarResult['at']) => boolean): ScalarResult {
	const rivals = (result.alternatives ?? []).filter((alternative) => alternative.value !== result.value);
	if (result.uncontested === undefined || rivals.length === 0 || !rivals.every((rival) => inBlock(rival.at))) return result;
	return adjust(result, result.uncontested, 'the other ids stand in the customer\'s block');
}

/** How far above an IBAN a heading of the payment block (`Bankverbindung`, `Please pay to`) may stand. */
const PAYMENT_LINES_ABOVE = 3;
/** Lines at the end of a page that hold the footer (the issuer's bank details). */
const FOOTER_LINES = 8;
/** A valid IBAN the payment block or the footer holds is the one to pay into. */
const PAYEE_IBAN_CONFIDENCE = 0.9;
/** A valid IBAN printed elsewhere, with nothing saying whose it is. */
const LONE_IBAN_CONFIDENCE = 0.75;
/** The most an IBAN whose check digits fail keeps. */
const INVALID_IBAN_CAP = 0.6;

/** The last lines of each page long enough to have a footer apart from its body. */
function footerLines(filled: TextLine[]): Set<number> {
	const pages = new Map<number, TextLine[]>();
	for (const line of filled) pages.set(line.page, [...(pages.get(line.page) ?? []), line]);
	const long = [...pages.values()].filter((page) => page.length > 2 * FOOTER_LINES);
	return new Set(long.flatMap((page) => page.slice(-FOOTER_LINES).map((line) => line.index)));
}

interface IbanSeen {
	value: string;
	valid: boolean;
	line: TextLine;
	payer: boolean;
	payee: boolean;
}

/** Words of a payment block other than the bare `IBAN` (printed before the payer's account too). */
function payeeWords(text: string): boolean {
	return PAYMENT_BLOCK_WORDS.test(text.replace(/\biban\b/gu, ' '));
}

/** Every IBAN printed, with what its place says about whose account it is. */
function ibansSeen(lines: TextLine[], payerAware: boolean): IbanSeen[] {
	const filled = lines.filter((line) => line.cells.length > 0);
	const blocks = customerBlocks(lines);
	const footers = footerLines(filled);
	return filled.flatMap((line, position) => {
		const near = filled.slice(Math.max(0, position - PAYMENT_LINES_ABOVE), position + 1).filter((other) => other.page === line.page);
		const debit = (text: string) => DIRECT_DEBIT_WORDS.test(text) || PAYER_ACCOUNT_WORDS.test(text);
		return findIbans(line.text).map((iban) => {
			const before = line.folded.slice(0, iban.index);
			// `prélevé sur le compte :` over `IBAN FR14...` is the payer's; `Payable à : IBAN ...` under it is not.
			const payer = payerAware && (debit(before) || (debit(filled[position - 1]?.folded ?? '') && !payeeWords(before)) || inCustomerBlock(blocks, line.index, iban.index));
			const payee = payeeWords(before) || /\biban\b/u.test(before) || near.some((other) => other !== line && PAYMENT_BLOCK_WORDS.test(other.folded)) || footers.has(line.index);
			return { value: iban.value, valid: iban.valid, line, payer, payee };
		});
	});
}

/**
 * The IBAN to pay into, believed by its check digits (ISO 13616 mod 97): a valid IBAN in the
 * payment block or the footer reaches 0.9; one in a direct-debit sentence or the customer's block
 * is the payer's and is not taken (bank statements excepted: their IBAN is the account's own); a
 * value whose check digits fail gives way to a valid one, or stays below the review threshold.
 */
function checkedIban(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>, lines: TextLine[]): void {
	const payerAware = !appliesBalanceCheck(fields);
	const ibanFields = fields.filter(isIbanField);
	const seen = ibanFields.length > 0 ? ibansSeen(lines, payerAware) : [];
	for (const field of ibanFields) {
		const result = results.get(field) ?? emptyResult();
		const valid = seen.filter((iban) => iban.valid && !iban.payer);
		const best = valid.find((iban) => iban.payee) ?? valid[0];
		const current = typeof result.value === 'string' ? result.value.replace(/\s+/gu, '').toUpperCase() : undefined;
		if (best) {
			const confidence = best.payee ? PAYEE_IBAN_CONFIDENCE : LONE_IBAN_CONFIDENCE;
			const where = best.payee ? 'in the payment block or footer' : 'nothing says whose account it is';
			const notes = [`IBAN check digits hold (mod 97); ${where}`, ...(current !== undefined && current !== best.value ? [`${String(result.value)} not taken`] : [])];
			results.set(field, { value: best.value, confidence, source_fragment: best.line.text.trim(), raw_candidates: [...new Set([...result.raw_candidates, best.line.text.trim()])], normalization_notes: [result.normalization_notes, ...notes].filter((note) => note !== '').join('; ') });
			continue;
		}
		const payer = seen.find((iban) => iban.valid && iban.payer);
		if (payer && (current === undefined || current === payer.value)) {
			results.set(field, { ...emptyResult([...result.raw_candidates, payer.line.text.trim()]), normalization_notes: `${payer.value}: the payer's account (direct debit or customer block), not the one to pay into` });
		} else if (result.value !== null) {
			results.set(field, shapedIban(result, seen));
		}
	}
}

/**
 * Without a valid IBAN, the value read must at least have an IBAN's shape: cut where the IBAN ends
 * (`DE37...6789,SWIFT/BIC: ...`), else one printed in the payment block, else none (`1234567`, an
 * account number, is no IBAN). Its check digits fail, so it stays below the review threshold.
 */
function shapedIban(result: ScalarResult, seen: IbanSeen[]): ScalarResult {
	const read = String(result.value);
	const printed = findIbans(read).find((iban) => iban.index === 0);
	const unchecked = 'no IBAN with valid check digits (mod 97) found';
	if (printed) {
		const cut = printed.value === read.replace(/\s+/gu, '').toUpperCase() ? result : { ...result, value: printed.value, normalization_notes: [result.normalization_notes, `cut to the IBAN's shape (read ${read})`].filter((note) => note !== '').join('; ') };
		return cut.confidence > INVALID_IBAN_CAP ? adjust(cut, INVALID_IBAN_CAP, unchecked) : cut;
	}
	const inBlock = seen.find((iban) => iban.payee && !iban.payer);
	if (!inBlock) return { ...emptyResult(result.raw_candidates), normalization_notes: `${read}: not shaped like an IBAN` };
	return {
		value: inBlock.value,
		confidence: INVALID_IBAN_CAP,
		source_fragment: inBlock.line.text.trim(),
		raw_candidates: [...new Set([...result.raw_candidates, inBlock.line.text.trim()])],
		normalization_notes: `${read}: not shaped like an IBAN; the IBAN in the payment block taken; ${unchecked}`,
	};
}

/** The most an order number equal to the invoice number keeps: one of the two labels read the other's value. */
const ORDER_IS_INVOICE_CAP = 0.6;

/** An order number is never the invoice's own number. */
function orderNotInvoice(fields: FieldDefinition[], results: Map<FieldDefinition, ScalarResult>): void {
	const order = fields.find((field) => field.name === 'order_number');
	const invoice = fields.find((field) => field.name === 'invoice_number');
	const orderResult = order && results.get(order);
	const invoiceValue = invoice && results.get(invoice)?.value;
	if (!order || !orderResult || orderResult.value === null || orderResult.value !== invoiceValue || orderResult.confidence <= ORDER_IS_INVOICE_CAP) return;
	results.set(order, adjust(orderResult, ORDER_IS_INVOICE_CAP, 'the same as the invoice number'));
}

/** The most a total, subtotal or tax read among the rows a table took keeps, unless the arithmetic checks it. */
const AMONG_ROWS_CAP = 0.75;

/**
 * Totals printed inside the line-item table's rows (`Gesamtbetrag Netto ... 135,00 €` under the
 * last item): a total, subtotal or tax no free line gave is read again on all the lines, below
 * the review threshold until the cross-checks confirm it.
 */
function amountsAmongRows(fields: FieldDefinition[], scalars: Map<FieldDefinition, ScalarResult>, lines: TextLine[], freeLines: TextLine[], style: DocumentStyle): void {
	if (freeLines.length >= lines.length) return;
	const amountNames = new Set([...AMOUNT_NAMES.total, ...AMOUNT_NAMES.subtotal, ...AMOUNT_NAMES.tax]);
	const amounts = fields.filter((field) => amountNames.has(field.name));
	if (amounts.length === 0) return;
	// Read again only when a row the table took starts with a total's, subtotal's or tax's label (cheap documents stay cheap).
	const free = new Set(freeLines.map((line) => line.index));
	const rows = lines.filter((line) => !free.has(line.index) && line.cells.length > 0);
	if (!findLabels(amounts, rows).some((match) => (match.offset ?? 0) === 0)) return;
	const again = readScalarFields(amounts, lines, style);
	const note = 'read among the rows of the line-item table';
	for (const field of amounts) {
		const result = again.get(field);
		if (!result || result.value === null) continue;
		const found = scalars.get(field);
		if (!found || found.value === null) {
			scalars.set(field, adjust(result, Math.min(result.confidence, AMONG_ROWS_CAP), note));
			continue;
		}
		// Values only the table's rows hold (`Gesamtsumme 117,81` taken for a row) join the alternatives the cross-checks weigh.
		const known = new Set([found.value, ...(found.alternatives ?? []).map((alternative) => alternative.value)]);
		const read: ScalarAlternative[] = [{ value: result.value, confidence: result.confidence, source_fragment: result.source_fragment, notes: result.normalization_notes, currency: result.currency, raw: result.raw, labels: result.labels, at: result.at }, ...(result.alternatives ?? [])];
		const added = read.filter((alternative) => !known.has(alternative.value)).map((alternative) => ({ ...alternative, confidence: Math.min(alternative.confidence, AMONG_ROWS_CAP), notes: `${alternative.notes}; ${note}` }));
		if (added.length > 0) scalars.set(field, { ...found, alternatives: [...(found.alternatives ?? []), ...added] });
	}
}

/** Fields holding the supplier's name, which supplier.ts finds along routes other than a label. */
const SUPPLIER_NAME_FIELDS = new Set(['supplier_name', 'merchant_name']);

/**
 * Fills every field of the template from the document's text (spec 2.5 / 2.6): tables first,
 * then labelled values outside the tables, then values recognisable without a label.
 */
export function extractData(template: TemplateLike, doc: ReadDocument, ctx: { fileName: string; fileType: string }): ExtractedData {
	const style = styleOf(doc);
	const lines = toLines(doc.pageTexts.length > 0 ? doc.pageTexts : [doc.text]);
	const byName = new Map<FieldDefinition, ExtractedField>();
	const usedLines = new Set<number>();
	const headerLines = new Set<number>();
	for (const field of template.fields.filter((candidate) => fieldTypeOf(candidate) === 'table')) {
		const table = tableField(field, lines, style);
		byName.set(field, table.extracted);
		table.usedLines.forEach((index) => usedLines.add(index));
		table.headerLines.forEach((index) => headerLines.add(index));
	}
	const freeLines = lines.filter((line) => !usedLines.has(line.index));
	const scalarFields = template.fields.filter((field) => fieldTypeOf(field) !== 'table');
	const scalars = readScalarFields(scalarFields, freeLines, style);
	// A table's header names its columns (`Subtotal:  VAT:  Total:`): the rows' amounts, not the document's.
	amountsAmongRows(scalarFields, scalars, lines.filter((line) => !headerLines.has(line.index)), freeLines, style);
	const results = new Map<FieldDefinition, ScalarResult>();
	for (const field of scalarFields) {
		let result = scalars.get(field) ?? emptyResult();
		if (result.value === null) {
			// The amounts' currency is printed in the tables too.
			const fallback = fallbackValue(field, field.name === 'currency' ? lines : freeLines, style);
			if (fallback) result = { ...fallback, raw_candidates: [...result.raw_candidates, ...fallback.raw_candidates] };
		} else if (SUPPLIER_NAME_FIELDS.has(field.name)) {
			// A labelled name is weighed against the names found without a label.
			result = checkLabelledSupplier(result, freeLines);
		} else if (field.name === 'currency') {
			// A labelled currency as its code (`Currency: Euro` -> EUR, `$` -> the document's dollar).
			result = labelledCurrency(result, freeLines);
		}
		results.set(field, ocrDoubt(compactIdentifier(field, result), doc.ocrWords));
	}
	issuerVatOutsideCustomerBlock(scalarFields, results, freeLines);
	// All lines: a table may have taken the footer that prints the other id.
	otherVatIdPrinted(scalarFields, results, lines);
	checkedIban(scalarFields, results, freeLines);
	orderNotInvoice(scalarFields, results);
	crossCheck(scalarFields, results, [...byName.values()], lines);
	dropDueBeforeIssue(scalarFields, results);
	dueFromTerms(scalarFields, results, freeLines);
	for (const field of scalarFields) byName.set(field, toExtractedField(field, results.get(field) ?? emptyResult()));
	const fields = template.fields.map((field) => byName.get(field) ?? toExtractedField(field, emptyResult()));
	const withValues = fields.filter((field) => field.value !== null).length;
	const language = doc.language ?? 'unknown';
	const data: ExtractedData = {
		status: 'ok',
		scanner_name: template.name,
		language,
		extracted_at: new Date().toISOString(),
		summary: { fields_with_values: withValues, fields_null: fields.length - withValues },
		doc_metadata: {
			num_paginas: doc.pages,
			tipo_archivo: doc.kind === 'unknown' ? ctx.fileType : doc.kind,
			ocr_provider: OCR_PROVIDER,
			idioma_detectado_ocr: language,
			nombre_archivo: ctx.fileName,
			decimal_separator: style.decimalSeparator ?? null,
		},
		fields,
	};
	const values = new Map(fields.map((field) => [field.name, field]));
	if (appliesCompliance(template.fields)) data.compliance = invoiceCompliance(template.fields, values);
	if (appliesBalanceCheck(template.fields)) data.balance_check = balanceCheck(values);
	return data;
}
