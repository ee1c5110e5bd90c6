/**
 * Values found without a label, for fields whose values are recognisable by their shape or their
 * place: an e-mail address, an IBAN, a web address, the currency of the amounts, the sender's
 * name in the letterhead. They come with a lower confidence than labelled values.
 */
import { findCurrencies, fieldTypeOf, parseDate, parseEmail, type DocumentStyle } from './normalize';
import type { ScalarResult } from './scalar-fields';
import { editDistance, fold, overlap, type TextLine } from './text-lines';
import type { FieldDefinition } from './types';
import { DIRECT_DEBIT_WORDS, DOCUMENT_KEYWORDS } from './vocabulary';

const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b/u;
const WEBSITE = /\b(?:https?:\/\/)?www\.[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?:\/\S*)?/u;
/** Fields whose name says the sender's name heads the document. */
const LETTERHEAD_FIELDS = new Set(['supplier_name', 'merchant_name', 'bank_name', 'full_name']);
const TITLE_WORDS = Object.values(DOCUMENT_KEYWORDS).flat().map(fold);

function found(value: string, line: TextLine, confidence: number, note: string): ScalarResult {
	return { value, confidence, source_fragment: line.text.trim(), raw_candidates: [value], normalization_notes: note };
}

function firstMatch(lines: TextLine[], pattern: RegExp): { text: string; line: TextLine } | undefined {
	for (const line of lines) {
		const match = pattern.exec(line.text);
		if (match) return { text: match[0], line };
	}
	return undefined;
}

/** Company forms that end a legal name (`Contoso, Ltd.`, `ACME GmbH`, `Foo B.V.`, `Bar S.p.A.`). */
const COMPANY_FORM = /(?:^|[\s,])(?:ltd|limited|inc|incorporated|llc|llp|plc|corp|corporation|co|company|gmbh|ag|kg|ohg|ug|e\.\s?k|bv|b\.\s?v|nv|n\.\s?v|vof|sarl|s\.a\.r\.l|sas|sasu|sa|s\.a|eurl|spa|s\.p\.a|srl|s\.r\.l|snc|lda|ltda|sl|s\.l|slu|pty|oy|aps)\.?(?=$|[\s,)])/iu;
/** Labels of the customer's or delivery block: the names under them are not the supplier's. */
const CUSTOMER_BLOCK = /^(?:bill(?:ed)?\s*to|invoice\s*(?:to|for)|sold\s*to|ship(?:ped)?\s*to|deliver(?:y|ed)?\s*(?:to|address)|customer|client|kunde|rechnungs(?:adresse|empfanger|empfaenger)|liefer(?:adresse|anschrift)|empfanger|factuuradres|afleveradres|leveringsadres|klant|facture\s*a|adresse\s*de\s*(?:livraison|facturation)|destinataire|destinatario|cliente|facturar\s*a|enviar\s*a|spett\.?(?:le)?|intestatario)\b/iu;
const STREET_WORDS = /\b(?:street|st\.|road|rd\.|avenue|ave|boulevard|blvd|lane|drive|way|suite|strasse|straße|str\.|weg|platz|allee|rue|avenue|chemin|boulevard|via|viale|piazza|calle|avenida|rua|straat|laan|plein|gracht|p\.?o\.? box|postfach|cedex)\b/iu;
/** Characters a printed name is made of; anything else is OCR noise (`Contos?`, `¢lachan`). */
const NAME_CHARS = /^[\p{L}\p{N}\s&'’.,()\-/+]+$/u;

function isTitle(text: string): boolean {
	const folded = fold(text).replace(/[^\p{L}\s]/gu, ' ').trim();
	const words = folded.split(/\s+/u);
	// `PAYMENT RECEIPT`, `Retail Invoices/Bill`, `Tax Invoice`: short cells holding a title word.
	return TITLE_WORDS.some((word) => folded === word || folded.startsWith(`${word} `) || (words.length <= 4 && words.some((token) => token === word || token === `${word}s`)));
}

/** Whether a cell may be a name: letters, not a title, a label, an address line or OCR noise. */
function nameLike(text: string): boolean {
	const trimmed = text.trim();
	const letters = trimmed.match(/\p{L}/gu)?.length ?? 0;
	if (letters < 3 || letters / trimmed.replace(/\s/g, '').length < 0.7) return false;
	if (!NAME_CHARS.test(trimmed) || /\d{3,}/.test(trimmed) || trimmed.includes(':') || /[@]|www\.|https?:/iu.test(trimmed)) return false;
	if (CUSTOMER_BLOCK.test(fold(trimmed))) return false;
	// An address line (`34 Kingley Street`) or OCR noise mixing letters and digits (`RRRDai15`).
	if (/^\d/u.test(trimmed) || STREET_WORDS.test(fold(trimmed)) || /\p{L}\d|\d\p{L}/u.test(trimmed)) return false;
	return !isTitle(trimmed);
}

/** Short company forms written in capitals only (`SA`, `AG`, `BV`): in lower case they are words. */
const CAPITAL_FORMS = new Set(['sa', 'sas', 'sasu', 'ag', 'kg', 'bv', 'nv', 'sl', 'slu', 'spa', 'srl', 'snc', 'ug', 'co', 'oy', 'aps', 'vof', 'ohg', 'eurl']);

/**
 * The legal name a cell holds: its text up to the company form (`Free SAS au capital de ...` ->
 * `Free SAS`), after any separator or copyright before it, if it reads as a name of at most 6 words.
 */
function legalName(text: string): string | undefined {
	const form = new RegExp(COMPANY_FORM.source, 'giu');
	for (const match of text.matchAll(form)) {
		const word = match[0].replace(/^[\s,]+/u, '').replace(/\.$/u, '');
		const bare = word.toLowerCase().replace(/[\s.]/gu, '');
		if (CAPITAL_FORMS.has(bare) && word !== word.toUpperCase() && bare !== 'co') continue;
		if (bare === 'co' && !/^co\.?$/iu.test(word) && word !== 'CO') continue;
		const upTo = text.slice(0, match.index + match[0].length);
		const segment = (upTo.split(/\s[|•·–—;-]\s|[|•·;]/u).pop() ?? '').replace(/^\s*(?:©|\(c\)|copyright)?\s*(?:\d{4}(?:\s*-\s*\d{4})?)?\s*/iu, '').trim();
		if (segment.split(/\s+/u).length <= 6 && nameLike(segment)) return segment;
	}
	return undefined;
}

/** Lines inside a customer or delivery block: from its label to the next blank line. */
function customerBlockLines(lines: TextLine[]): Set<number> {
	const inside = new Set<number>();
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index];
		const labelCell = line.cells.find((cell) => CUSTOMER_BLOCK.test(fold(cell.text)));
		if (!labelCell) continue;
		inside.add(line.index);
		// Up to the next blank line (the lines given are the non-empty ones: a gap in their indexes).
		for (let next = index + 1; next < lines.length && lines[next].index === lines[next - 1].index + 1 && next <= index + 6; next++) {
			// Only the block's column: a letterhead beside it stays.
			const below = lines[next];
			if (below.cells.some((cell) => overlap(cell, { start: labelCell.start, end: labelCell.start + 40 }) > 0 && cell.start >= labelCell.start - 4)) inside.add(below.index);
		}
	}
	return inside;
}

/**
 * The sender's name without a label: a legal name (with its company form) in the letterhead or
 * the footer, else the first name-like line of the letterhead. Titles (`INVOICE`, `PAYMENT
 * RECEIPT`) and the customer's or delivery block (`Bill to`, `Factuuradres`, `Lieferadresse`) are
 * never taken. Unlabelled, so below the review threshold.
 */
function letterhead(lines: TextLine[]): ScalarResult | undefined {
	const firstPage = lines.filter((line) => line.page === 0 && line.cells.length > 0);
	const customer = customerBlockLines(firstPage);
	const heading = firstPage.slice(0, 12);
	const footer = firstPage.slice(-8);
	for (const line of [...heading, ...footer]) {
		if (customer.has(line.index)) continue;
		for (const cell of line.cells) {
			let name = legalName(cell.text);
			if (!name) continue;
			// `PHILIP MORRIS` over `INCORPORATED`: a company form alone continues the line above.
			if (fold(name).replace(COMPANY_FORM, '').replace(/[^\p{L}]/gu, '') === '') {
				const above = firstPage[firstPage.indexOf(line) - 1];
				const aboveCell = above?.cells.find((candidate) => nameLike(candidate.text));
				if (!aboveCell) continue;
				name = `${aboveCell.text.trim()} ${name}`;
			}
			return found(name, line, 0.65, 'no label; a legal name (company form) in the letterhead or footer');
		}
	}
	for (const line of heading.slice(0, 5)) {
		if (customer.has(line.index)) continue;
		const confirmed = footerConfirms(line, footer, heading);
		if (confirmed) return confirmed;
		const cell = line.cells.find((candidate) => nameLike(candidate.text));
		if (cell && line.cells.indexOf(cell) === 0) return found(capitalName(line, heading), line, 0.5, 'no label; read from the letterhead (first name-like line)');
		if (line.cells.some((candidate) => /\d{3,}|:/.test(candidate.text))) break;
	}
	return undefined;
}

const isCapitals = (text: string): boolean => /\p{Lu}/u.test(text) && text === text.toUpperCase();

/**
 * The name on a letterhead's first name-like line. OCR split an all-capitals word across a wide
 * gap (`CHO     EUN`): cells of 2-4 capitals only are one word. An all-capitals name printed on two
 * lines (`CHOEUN` over `KOREAN RESTAURANT`) takes the next line when it is a short capitals name
 * too (not an address, phone, date or title: nameLike).
 */
function capitalName(line: TextLine, heading: TextLine[]): string {
	const first = line.cells[0].text.trim();
	let name = line.cells.length > 1 && line.cells.every((cell) => /^\p{Lu}{2,4}$/u.test(cell.text.trim())) ? line.cells.map((cell) => cell.text.trim()).join('') : first;
	const next = heading[heading.indexOf(line) + 1];
	if (isCapitals(name) && next && next.index === line.index + 1 && next.cells.length === 1) {
		const below = next.cells[0].text.trim();
		if (isCapitals(below) && nameLike(below) && below.split(/\s+/u).length <= 4) name = `${name} ${below}`;
	}
	return name;
}

/**
 * A letterhead name OCR garbled with a stray sign (`¢lachan`, `Contos?`), printed again in the
 * footer (`Clachan`): the footer's spelling, when its letters are within one edit of the heading's.
 */
function footerConfirms(line: TextLine, footer: TextLine[], heading: TextLine[]): ScalarResult | undefined {
	const first = line.cells[0]?.text.trim() ?? '';
	if (line.cells.length !== 1 || NAME_CHARS.test(first)) return undefined;
	const core = fold(first).replace(/[^\p{L}]/gu, '');
	if (core.length < 5 || core.length < first.replace(/\s/gu, '').length - 1) return undefined;
	for (const candidate of footer) {
		if (heading.includes(candidate) || candidate.cells.length !== 1) continue;
		const text = candidate.cells[0].text.trim();
		if (!nameLike(text)) continue;
		const letters = fold(text).replace(/[^\p{L}]/gu, '');
		if (Math.abs(letters.length - core.length) <= 1 && editDistance(letters, core) <= 1) {
			return found(text, candidate, 0.6, 'no label; the letterhead name (garbled by OCR) as the footer repeats it');
		}
	}
	return undefined;
}

/** Date fields a document's first date usually is: the day it was issued. */
const ISSUE_DATE_FIELDS = new Set(['invoice_date', 'purchase_date', 'quote_date', 'order_date']);
/** Dates on lines with these words are some other date (due, delivery, period, birth...). */
const OTHER_DATE_WORDS = /\b(due|payable|until|bis|from|to|period|periode|période|au|tot|vencimiento|scadenza|vencimento|échéance|echeance|fällig|faellig|vervaldatum|delivery|lieferung|livraison|levering|expir|valid|gültig|born|geboren)\b/iu;

/** The first date on the first page not said to be another date: the issue date, unlabelled. */
function firstDate(lines: TextLine[], style: DocumentStyle): ScalarResult | undefined {
	for (const line of lines) {
		if (line.page !== 0) break;
		if (OTHER_DATE_WORDS.test(line.folded)) continue;
		// Cells first; then the line, for a date split by wide spaces (`26 Feb  2016`).
		for (const cell of [...line.cells, { text: line.text.trim().replace(/\s+/gu, ' ') }]) {
			const date = parseDate(cell.text, { monthFirst: style.monthFirstDates });
			if (!date) continue;
			const notes = ['no label; the first date of the document', ...date.notes].join('; ');
			return { ...found(date.value, line, date.ambiguous ? 0.4 : 0.55, notes), raw: cell.text, raw_candidates: [cell.text] };
		}
	}
	return undefined;
}

/**
 * The day a direct debit takes the amount (`Vous serez prélevé ... à partir du : 15/02/2021`,
 * `will be debited on 1/02/2020`): the date on the line that says so or on the next one. That day
 * is when the invoice is paid, so its due date; unlabelled, so below the review threshold.
 */
function directDebitDate(lines: TextLine[], style: DocumentStyle): ScalarResult | undefined {
	const filled = lines.filter((line) => line.cells.length > 0);
	for (const [index, line] of filled.entries()) {
		if (!DIRECT_DEBIT_WORDS.test(line.folded)) continue;
		for (const candidate of filled.slice(index, index + 2)) {
			if (candidate.page !== line.page) break;
			const date = parseDate(candidate.text, { monthFirst: style.monthFirstDates });
			if (!date) continue;
			const notes = ['no label; the day the direct debit takes the amount', ...date.notes].join('; ');
			return { ...found(date.value, candidate, date.ambiguous ? 0.45 : 0.6, notes), raw: date.text, raw_candidates: [candidate.text.trim()] };
		}
	}
	return undefined;
}

/** Currencies whose amounts print a bare `$`. */
const DOLLAR_CODES = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN', 'ARS', 'COP', 'CLP']);
const US_STATES = 'AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC';
/** The dollar of a country, told by the way its addresses end (`Albany, NY 12210`, `Toronto, ON M5V 2T6`). */
const ADDRESS_COUNTRIES: Array<{ code: string; pattern: RegExp }> = [
	{ code: 'USD', pattern: new RegExp(`\\b\\p{L}+,?\\s+(?:${US_STATES}),?\\s+\\d{5}(?:-\\d{4})?\\b|\\b(?:USA|U\\.S\\.A\\.|United States)\\b`, 'u') },
	{ code: 'CAD', pattern: /\b\p{L}+,?\s+(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE|YT|NT|NU)\b(?!\s*\d{5})|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\bCanada\b/u },
	{ code: 'AUD', pattern: /\b(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\b(?!\d)|\bAustralia\b/u },
];

/** The countries whose dollar the document's addresses point to. */
export function addressDollars(lines: TextLine[]): Set<string> {
	const codes = new Set<string>();
	for (const line of lines) for (const { code, pattern } of ADDRESS_COUNTRIES) if (pattern.test(line.text)) codes.add(code);
	return codes;
}

/** One currency, printed with an unmistakable sign or code. */
const SURE_CURRENCY = 0.85;
/** A bare `$` read as the dollar of the addresses: the sign is shared by many countries. */
const ADDRESS_DOLLAR = 0.8;
const GUESSED_DOLLAR = 0.6;
const SEEN_ONCE = 0.7;
const MIXED_CURRENCIES = 0.55;

/** Which dollar a bare `$` is: the one the document names, else the one of its addresses, else USD. */
function dollarOf(named: string[], countries: string[]): { code: string; why: string; confidence: number } {
	const country = countries.length === 1 ? countries[0] : undefined;
	if (named.length === 1) return { code: named[0], why: 'the dollar the document names', confidence: countries.every((code) => code === named[0]) ? SURE_CURRENCY : GUESSED_DOLLAR };
	if (country && (named.length === 0 || named.includes(country))) return { code: country, why: 'the dollar of the addresses', confidence: ADDRESS_DOLLAR };
	return { code: named[0] ?? 'USD', why: 'a guess', confidence: GUESSED_DOLLAR };
}

/**
 * The currency of the amounts: codes and symbols counted over the document. A bare `$` is the
 * dollar a code on the document names (`Amount due (CAD)`), else the dollar of the country of
 * its addresses (US, Canada, Australia), else the US dollar as a guess. One currency printed with
 * an unmistakable sign or code is believed; mixed currencies and guesses are not.
 */
function currencyOfAmounts(lines: TextLine[]): ScalarResult | undefined {
	const counts = new Map<string, { count: number; line: TextLine }>();
	let bareDollars = 0;
	let dollarLine: TextLine | undefined;
	for (const line of lines) {
		for (const currency of findCurrencies(line.text)) {
			if (currency.text === '$') {
				bareDollars++;
				dollarLine ??= line;
				continue;
			}
			const entry = counts.get(currency.code) ?? { count: 0, line };
			entry.count++;
			counts.set(currency.code, entry);
		}
	}
	const notes: string[] = [];
	// A sign seen once may be OCR noise; one currency seen again and again is the document's.
	let confidence = counts.size === 1 ? ([...counts.values()][0].count > 1 ? SURE_CURRENCY : SEEN_ONCE) : MIXED_CURRENCIES;
	if (bareDollars > 0 && dollarLine) {
		const dollar = dollarOf([...counts.keys()].filter((code) => DOLLAR_CODES.has(code)), [...addressDollars(lines)]);
		notes.push(`'$' read as ${dollar.code}, ${dollar.why}`);
		const entry = counts.get(dollar.code) ?? { count: 0, line: dollarLine };
		entry.count += bareDollars;
		counts.set(dollar.code, entry);
		confidence = counts.size === 1 ? dollar.confidence : MIXED_CURRENCIES;
	}
	const [best] = [...counts.entries()].sort((a, b) => b[1].count - a[1].count);
	if (!best) return undefined;
	const [code, { line }] = best;
	return found(code, line, confidence, [`no label; the currency printed with the amounts (${code})`, ...notes].join('; '));
}

/** A value for `field` from its shape or place, or undefined. */
export function fallbackValue(field: FieldDefinition, lines: TextLine[], style: DocumentStyle = {}): ScalarResult | undefined {
	const type = fieldTypeOf(field);
	if (type === 'email') {
		const match = firstMatch(lines, /[\w.%+-]+@[\w.-]+\.\p{L}{2,}/u);
		const email = match && parseEmail(match.text);
		return match && email ? found(email.value, match.line, 0.6, 'no label; the e-mail address in the document') : undefined;
	}
	if (field.name === 'iban') {
		const match = firstMatch(lines, IBAN);
		return match ? found(match.text.replace(/\s/g, ''), match.line, 0.65, 'no label; an IBAN-shaped value; removed spaces') : undefined;
	}
	if (field.name === 'website') {
		const match = firstMatch(lines, WEBSITE);
		return match ? found(match.text, match.line, 0.6, 'no label; a web address in the document') : undefined;
	}
	if (field.name === 'currency') return currencyOfAmounts(lines);
	if (ISSUE_DATE_FIELDS.has(field.name) && type === 'date') return firstDate(lines, style);
	if (field.name === 'due_date' && type === 'date') return directDebitDate(lines, style);
	if (LETTERHEAD_FIELDS.has(field.name)) return letterhead(lines);
	return undefined;
}

/** Identifiers are written with spaces for reading (`DE89 3704 0044`); their value has none. */
const COMPACT_IDENTIFIERS = /^(iban|bic|.*vat_id)$/;

export function compactIdentifier(field: FieldDefinition, result: ScalarResult): ScalarResult {
	if (!COMPACT_IDENTIFIERS.test(field.name) || typeof result.value !== 'string' || !/\s/.test(result.value)) return result;
	const notes = result.normalization_notes ? `${result.normalization_notes}; removed spaces` : 'removed spaces';
	return { ...result, value: result.value.replace(/\s+/g, ''), normalization_notes: notes };
}
