/**
 * Values found without a label, for fields whose values are recognisable by their shape or their
 * place: an e-mail address, an IBAN, a web address, the currency of the amounts, the sender's
 * name (supplier.ts). They come with a lower confidence than labelled values.
 */
import { findCurrencies, fieldTypeOf, findIbans, parseDate, parseEmail, type DocumentStyle } from './normalize';
import type { ScalarResult } from './scalar-fields';
import { supplierName } from './supplier';
import type { TextLine } from './text-lines';
import type { FieldDefinition } from './types';
import { DIRECT_DEBIT_WORDS } from './vocabulary';

const WEBSITE = /\b(?:https?:\/\/)?www\.[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?:\/\S*)?/u;
/** Fields whose name says the sender's name heads the document. */
const LETTERHEAD_FIELDS = new Set(['supplier_name', 'merchant_name', 'bank_name', 'full_name']);

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

/** The first IBAN whose check digits hold: without a label only mod 97 tells an IBAN from another long code. */
function firstValidIban(lines: TextLine[]): ScalarResult | undefined {
	for (const line of lines) {
		const iban = findIbans(line.text).find((candidate) => candidate.valid);
		if (iban) return found(iban.value, line, 0.65, 'no label; an IBAN whose check digits hold (mod 97); removed spaces');
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
		return firstValidIban(lines);
	}
	if (field.name === 'website') {
		const match = firstMatch(lines, WEBSITE);
		return match ? found(match.text, match.line, 0.6, 'no label; a web address in the document') : undefined;
	}
	if (field.name === 'currency') return currencyOfAmounts(lines);
	if (ISSUE_DATE_FIELDS.has(field.name) && type === 'date') return firstDate(lines, style);
	if (field.name === 'due_date' && type === 'date') return directDebitDate(lines, style);
	if (LETTERHEAD_FIELDS.has(field.name)) return supplierName(lines);
	return undefined;
}

/** Identifiers are written with spaces for reading (`DE89 3704 0044`); their value has none. */
const COMPACT_IDENTIFIERS = /^(iban|bic|.*vat_id)$/;

export function compactIdentifier(field: FieldDefinition, result: ScalarResult): ScalarResult {
	if (!COMPACT_IDENTIFIERS.test(field.name) || typeof result.value !== 'string' || !/\s/.test(result.value)) return result;
	const notes = result.normalization_notes ? `${result.normalization_notes}; removed spaces` : 'removed spaces';
	return { ...result, value: result.value.replace(/\s+/g, ''), normalization_notes: notes };
}
