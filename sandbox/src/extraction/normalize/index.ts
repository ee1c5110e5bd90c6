import { parseBoolean, parseEmail, parsePhone } from './contact';
import { parseDate } from './dates';
import { parseMoney, parseNumber, type DecimalSeparator } from './numbers';
import type { ScalarValue } from '../types';

export { parseBoolean, parseEmail, parsePhone } from './contact';
export { parseDate, type ParsedDate } from './dates';
export { compactIban, compactTaxId, findIbans, isValidAbn, isValidIban, isValidVatId, taxIdKind, vatCheckDigitsHold, type FoundIban } from './identifiers';
export { findCurrencies, findCurrency, guessDecimalSeparator, parseMoney, parseNumber, roundMoney, type DecimalSeparator } from './numbers';

/** How the document writes numbers and dates; guessed once per document. */
export interface DocumentStyle {
	decimalSeparator?: DecimalSeparator;
	monthFirstDates?: boolean;
}

export interface NormalizedValue {
	value: ScalarValue;
	/** The part of the raw text the value was read from. */
	text: string;
	notes: string[];
	/** Set for currency values: the ISO code seen next to the amount. */
	currency?: string;
}

/** The field types of spec 2.2; anything else (or nothing) reads as a string. */
export function fieldTypeOf(field: { type?: string; value_type?: string }): string {
	return (field.type ?? field.value_type ?? 'string').toLowerCase();
}

/**
 * Reads `raw` as a value of `type`, or undefined when it does not hold one (so a labelled
 * candidate of the wrong shape is rejected, not forced into the field).
 */
export function normalizeValue(type: string, raw: string, style: DocumentStyle = {}): NormalizedValue | undefined {
	const trimmed = raw.trim();
	if (trimmed === '') return undefined;
	switch (type) {
		case 'number': {
			const parsed = parseNumber(trimmed, style.decimalSeparator);
			return parsed && { value: parsed.value, text: parsed.text, notes: parsed.notes };
		}
		case 'currency': {
			// A space OCR put before the decimals of a grouped amount (`4,759 .20`, `1,269 .12-`).
			const joined = /^[$€£]?-?\d{1,3}(?:[.,]\d{3})*\s[.,]\d{2}-?$/u.test(trimmed) ? trimmed.replace(/\s(?=[.,]\d{2}-?$)/u, '') : trimmed;
			const parsed = parseMoney(joined, style.decimalSeparator);
			return parsed && { value: parsed.value, text: parsed.text, notes: parsed.notes, currency: parsed.currency };
		}
		case 'date': {
			const parsed = parseDate(trimmed, { monthFirst: style.monthFirstDates, digitsOnly: true });
			return parsed && { value: parsed.value, text: parsed.text, notes: parsed.notes };
		}
		case 'boolean':
			return parseBoolean(trimmed);
		case 'email':
			return parseEmail(trimmed);
		case 'phone':
			return parsePhone(trimmed);
		default:
			return { value: trimmed, text: trimmed, notes: [] };
	}
}
