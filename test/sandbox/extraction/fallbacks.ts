/**
 * Values found without a label, for fields whose values are recognisable by their shape or their
 * place: an e-mail address, an IBAN, a web address, the currency of the amounts, the sender's
 * name in the letterhead. They come with a lower confidence than labelled values.
 */
import { findCurrency, fieldTypeOf, parseEmail } from './normalize';
import type { ScalarResult } from './scalar-fields';
import { fold, type TextLine } from './text-lines';
import type { FieldDefinition } from './types';
import { DOCUMENT_KEYWORDS } from './vocabulary';

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

function isTitle(text: string): boolean {
	const folded = fold(text);
	return TITLE_WORDS.some((word) => folded === word || folded.startsWith(`${word} `));
}

/** The first line that is not the document's title, unless it looks like a value or a label. */
function letterhead(lines: TextLine[]): ScalarResult | undefined {
	const heading = lines.filter((line) => line.page === 0 && line.cells.length > 0).slice(0, 2);
	const line = heading.find((candidate) => !isTitle(candidate.cells[0].text));
	const cell = line?.cells[0];
	if (!line || !cell || /\d{3,}/.test(cell.text) || cell.text.includes(':')) return undefined;
	return found(cell.text, line, 0.5, 'no label; read from the letterhead (first line)');
}

function currencyOfAmounts(lines: TextLine[]): ScalarResult | undefined {
	const counts = new Map<string, { count: number; line: TextLine }>();
	for (const line of lines) {
		const currency = findCurrency(line.text);
		if (!currency) continue;
		const entry = counts.get(currency.code) ?? { count: 0, line };
		entry.count++;
		counts.set(currency.code, entry);
	}
	const [best] = [...counts.entries()].sort((a, b) => b[1].count - a[1].count);
	if (!best) return undefined;
	const [code, { line }] = best;
	return found(code, line, counts.size === 1 ? 0.75 : 0.55, `no label; the currency printed with the amounts (${code})`);
}

/** A value for `field` from its shape or place, or undefined. */
export function fallbackValue(field: FieldDefinition, lines: TextLine[]): ScalarResult | undefined {
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
