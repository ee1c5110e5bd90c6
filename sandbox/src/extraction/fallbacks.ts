/**
 * Values found without a label, for fields whose values are recognisable by their shape or their
 * place: an e-mail address, an IBAN, a web address, the currency of the amounts, the sender's
 * name (supplier.ts). They come with a lower confidence than labelled values.
 */
import { documentCurrency } from './currency';
import { compactTaxId, fieldTypeOf, findIbans, parseDate, parseEmail, vatCheckDigitsHold, type DocumentStyle } from './normalize';
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

/** Fields that hold the issuer's VAT id. */
export const ISSUER_VAT_FIELDS = new Set(['supplier_vat_id', 'merchant_vat_id', 'vendor_vat_id', 'seller_vat_id']);
/** A VAT id with spaces or dots for reading (`FR 74 397 480 930`). */
const SPACED_VAT_ID = /\b[A-Z]{2}(?:[\s.]?\d){9,11}\b/gu;

/**
 * Without a label, a VAT id only where its own check digits hold (France, Belgium), the last one
 * printed: the legal mentions close the page, the customer's block opens it. Below 0.8, as no
 * label says whose id it is.
 */
function lastCheckedVatId(lines: TextLine[]): ScalarResult | undefined {
	for (const line of [...lines].reverse()) {
		const ids = [...line.text.matchAll(SPACED_VAT_ID)].map((match) => compactTaxId(match[0])).filter((id) => vatCheckDigitsHold(id) === true);
		if (ids.length > 0) return found(ids[ids.length - 1], line, 0.6, 'no label; a VAT id whose check digits hold, the last printed');
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
	if (field.name === 'currency') return documentCurrency(lines);
	if (ISSUE_DATE_FIELDS.has(field.name) && type === 'date') return firstDate(lines, style);
	if (field.name === 'due_date' && type === 'date') return directDebitDate(lines, style);
	if (LETTERHEAD_FIELDS.has(field.name)) return supplierName(lines);
	if (ISSUER_VAT_FIELDS.has(field.name)) return lastCheckedVatId(lines);
	return undefined;
}

/** Identifiers are written with spaces for reading (`DE89 3704 0044`); their value has none. */
const COMPACT_IDENTIFIERS = /^(iban|bic|.*vat_id)$/;

export function compactIdentifier(field: FieldDefinition, result: ScalarResult): ScalarResult {
	if (!COMPACT_IDENTIFIERS.test(field.name) || typeof result.value !== 'string' || !/\s/.test(result.value)) return result;
	const notes = result.normalization_notes ? `${result.normalization_notes}; removed spaces` : 'removed spaces';
	return { ...result, value: result.value.replace(/\s+/g, ''), normalization_notes: notes };
}
