/**
 * Whether a value read beside a label is believable, and how much: shape checks on each candidate
 * (an invoice number has digits and is not a date or a phone number; an amount is not the digits
 * of a VAT ID, a date or a phone number; a total is not 0) and, once every field has its
 * candidates, cross-checks between fields (subtotal + tax = total; the line items add up to the
 * subtotal or total). A value that passes a cross-check is believed (confidence >= 0.9); one that
 * fails it, or that could not be checked while the document gave reasons for doubt, is kept below
 * the review threshold the node suggests (0.8).
 */
import { fieldTypeOf, isValidIban, parseDate, roundMoney, taxIdKind, type DocumentStyle, type NormalizedValue } from './normalize';
import type { LabelSource } from './labels';
import { fold } from './text-lines';
import { TITLE_DATE_WORDS } from './vocabulary';
import type { ScalarAlternative, ScalarResult } from './scalar-fields';
import type { FieldDefinition, ScalarValue } from './types';

export interface CandidateCheck {
	/** Why the candidate is no value for the field at all. */
	reject?: string;
	/** Confidence taken off for a doubtful but possible value. */
	cost: number;
	notes: string[];
	/** A corrected reading (an identifier without its `No.:`). */
	normalized?: NormalizedValue;
	/** Look at the label's other values too (amounts: `Total  1  319.00`). */
	keepLooking: boolean;
}

/** The review threshold the node suggests; unchecked guesses stay below it. */
export const REVIEW_THRESHOLD = 0.8;
/** Fields holding a document's reference: invoice, order, receipt number... */
const IDENTIFIER_FIELD = /(^|_)(number|no|nr)$/;
const NOT_IDENTIFIER_FIELD = /(phone|mobile|fax|vat|iban|account|tax_id|package|count)/;
const ID_PREFIX = /^(?:(?:no|nr|n[o°º]|num|number|nummer|numero|número)(?:\s*[.:#]\s*|\s+)|#\s*|:\s*)+/iu;
/** A number sign glued to the number (`n°FA-2021-0042`, `No.4711`): only signs with a dot or a degree sign. */
const GLUED_SIGN = /^(?:n[°º]|n\.[°º]|no\.|nr\.)(?=[\p{L}\d-]*\d)/iu;
/** A date after the number (`77812 vom 01.02.2021`, `4711 du 12/01/2021`): the number ends before it. */
const DATE_TAIL = new RegExp(`^(\\S+)\\s+(?:(?:${TITLE_DATE_WORDS.map((word) => word.replace(/\./gu, '\\.')).join('|')})\\s+)?(.+)$`, 'u');
const DATE_LIKE = /(?<!\d)\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?!\d)/u;
const TIME_LIKE = /(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)/u;
const PHONE_LIKE = /^(?:\+|00\d|\(\d{2,5}\)|tel|phone|fax)/iu;
const IBAN_LIKE = /\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b/u;
const VAT_LIKE = /\b[A-Z]{2}\s?(?:\d[\s.]?){8,12}\b|\b[A-Z]{2}\d{2,}[A-Z]\d{2}\b/u;
const CURRENCY_WORDS = /^(?:[A-Z]{3}\b|[€$£¥₹]|-|cr\b|dr\b|ht\b|ttc\b)/iu;
const TOTAL_FIELDS = new Set(['total', 'subtotal', 'amount_due', 'total_amount']);

export function isIdentifierField(field: FieldDefinition): boolean {
	return fieldTypeOf(field) === 'string' && IDENTIFIER_FIELD.test(field.name) && !NOT_IDENTIFIER_FIELD.test(field.name);
}

/** The number without a date printed after it, if the rest is nothing but that date. */
function withoutDateTail(value: string): string {
	const match = DATE_TAIL.exec(value);
	if (!match || !/\d/u.test(match[1])) return value;
	const date = parseDate(match[2]);
	return date !== undefined && match[2].replace(date.text, '').trim() === '' ? match[1] : value;
}

function checkIdentifier(raw: string, normalized: NormalizedValue): CandidateCheck {
	const value = withoutDateTail(String(normalized.value).replace(ID_PREFIX, '').replace(GLUED_SIGN, '').trim());
	const result: CandidateCheck = { cost: 0, notes: [], keepLooking: false };
	if (!/\d/.test(value)) return { ...result, reject: 'an identifier has digits' };
	// `PO Number:`: another label, its value elsewhere.
	if (/:\s*$/u.test(value) || /\b(?:number|nummer|numero|número)\b/iu.test(value)) return { ...result, reject: 'a label, not an identifier' };
	if (value.length > 30) return { ...result, reject: 'too long for an identifier' };
	if (!/\d/.test(value.replace(new RegExp(DATE_LIKE, 'gu'), ' ').replace(new RegExp(TIME_LIKE, 'gu'), ' '))) return { ...result, reject: 'a date, not an identifier' };
	if (PHONE_LIKE.test(raw.trim())) return { ...result, reject: 'a phone number, not an identifier' };
	if (IBAN_LIKE.test(value.replace(/\s/g, ''))) return { ...result, reject: 'an IBAN, not an identifier' };
	if (value !== normalized.value) {
		const original = String(normalized.value);
		result.normalized = { ...normalized, value, notes: [...normalized.notes, `removed '${original.replace(value, '…').trim()}'`] };
	}
	// Several words with spaces: perhaps a label and its value run together.
	if (/\s/.test(value) && value.split(/\s+/).length > 2) {
		result.cost += 0.15;
		result.notes.push('several words read as one identifier');
	}
	return result;
}

function checkAmount(field: FieldDefinition, printed: string, normalized: NormalizedValue, style: DocumentStyle): CandidateCheck {
	const result: CandidateCheck = { cost: 0, notes: [], keepLooking: true };
	// The amount as normalised, when OCR put a space before its decimals (`4,759 .20`).
	const raw = printed.includes(normalized.text) ? printed : printed.replace(/(\d)\s(?=[.,]\d{2}-?(?!\d))/gu, '$1');
	const text = normalized.text;
	const at = raw.indexOf(text);
	const value = typeof normalized.value === 'number' ? normalized.value : Number.NaN;
	if (at >= 0) {
		const before = raw.slice(0, at);
		const after = raw.slice(at + text.length);
		// Digits glued to letters (`20S`, `B3G2F`) are a code, not an amount.
		if (/\p{L}$/u.test(before) && !/(?:[A-Z]{3}|[€$£¥₹])$/u.test(before)) return { ...result, reject: 'digits inside a word' };
		if (/^\p{L}/u.test(after) && !CURRENCY_WORDS.test(after)) return { ...result, reject: 'digits inside a word' };
		for (const pattern of [DATE_LIKE, TIME_LIKE]) {
			const match = pattern.exec(raw);
			if (match && match.index <= at + text.length && at <= match.index + match[0].length) return { ...result, reject: 'part of a date or time' };
		}
	}
	// Other digits beside the amount (`2 5 S`, `1 2 02`): which of them is the amount is a guess.
	const rest = at >= 0 ? `${raw.slice(0, at)} ${raw.slice(at + text.length)}` : raw;
	if (/\d/.test(rest.replace(/\d+(?:[.,]\d+)?\s*%/gu, ''))) return { ...result, reject: 'other digits beside the amount' };
	if (/\p{L}{3,}/u.test(rest.replace(/\b[A-Z]{3}\b/gu, '').replace(/\b(?:ht|ttc|incl|excl|net|brut|gross)\b\.?/giu, ''))) {
		result.cost += 0.1;
		result.notes.push('words beside the amount');
	}
	if (VAT_LIKE.test(raw) || IBAN_LIKE.test(raw.replace(/\s/g, ''))) return { ...result, reject: 'part of a VAT ID or IBAN' };
	if (PHONE_LIKE.test(raw.trim()) && !/^[-+]?\s*[€$£]/u.test(raw.trim())) return { ...result, reject: 'a phone number' };
	const hasDecimals = /[.,]\d{1,2}(?!\d)/u.test(text);
	const digits = text.replace(/\D/g, '').length;
	if (!hasDecimals && digits >= 7) return { ...result, reject: 'a long number without decimals: an identifier' };
	if (TOTAL_FIELDS.has(field.name) && value === 0) return { ...result, reject: 'a total of 0' };
	if (!hasDecimals && style.decimalSeparator !== undefined) {
		result.cost += 0.15;
		result.notes.push("no decimals where the document's amounts have them");
	}
	return result;
}

/** A national tax number printed with slashes (`201/113/40209`, `88888/00072`): no VAT id's shape. */
const SLASHED_NUMBER = /^\d+(?:\/\d+)+$/u;
/** What a national tax number keeps, labelled as a VAT id: below the review threshold. */
const NATIONAL_NUMBER_COST = 0.4;

/**
 * The VAT id at the start of `text`, when words follow it (`FR40123456824 - RCS Paris`,
 * `DE123456789 Amtsgericht`): the fewest leading tokens with a country's VAT shape.
 */
function vatIdAtStart(text: string): string | undefined {
	const tokens = text.trim().split(/\s+/u);
	for (let count = 1; count < tokens.length; count++) {
		const kind = taxIdKind(tokens.slice(0, count).join(''));
		if (kind !== undefined && kind !== 'wrong shape') return tokens.slice(0, count).join(' ');
	}
	return undefined;
}

/**
 * A VAT or tax ID: a country prefix and/or at least 7 digits (`GB 232 153 895`, `DE123456789`,
 * `B12345678`). Words without digits (`(s):`, `N/A`, `TVA Intra`) are no id; an id stops where its
 * shape ends; a slashed national tax number is doubted.
 */
function checkTaxId(normalized: NormalizedValue, labelText: string): CandidateCheck {
	const result: CandidateCheck = { cost: 0, notes: [], keepLooking: false };
	const labelled = String(normalized.value).trim();
	if (!/\d/u.test(labelled)) return { ...result, reject: 'no digits: a label or words, not a VAT ID' };
	// A scheme's short name before the id (`VA: BE123456789`, `FC: 201/113/40209`) is no part of it.
	const printed = labelled.replace(/^[A-Z]{1,3}\s*:\s*(?=\S)/u, '');
	if (printed !== labelled) {
		const kept = checkTaxId({ ...normalized, value: printed }, labelText);
		return { ...kept, normalized: kept.normalized ?? { ...normalized, value: printed } };
	}
	const cut = vatIdAtStart(printed);
	if (cut !== undefined) {
		const kept = checkTaxId({ ...normalized, value: cut }, labelText);
		return { ...kept, normalized: { ...normalized, value: cut, notes: [...normalized.notes, `stopped where the VAT ID ends ('${printed.slice(cut.length).trim()}' dropped)`] } };
	}
	const words = printed.split(/\s+/u).filter((token) => /\p{L}{3}/u.test(token)).length;
	if (words >= 3 || printed.replace(/\s/gu, '').length > 24) return { ...result, reject: 'words or a sentence, not a VAT ID' };
	const compact = String(normalized.value).replace(/[\s.\-/]/gu, '').toUpperCase();
	const digits = compact.replace(/\D/gu, '').length;
	const kind = taxIdKind(compact);
	// A known country prefix with the wrong number of characters: OCR lost or added one.
	if (kind === 'wrong shape') return { ...result, cost: WRONG_SHAPE_COST, notes: [`not shaped like a ${compact.slice(0, 2)} VAT ID`] };
	if (kind !== undefined) return { ...result, notes: [`${kind} shape`] };
	if (SLASHED_NUMBER.test(printed.replace(/\s/gu, ''))) return { ...result, cost: NATIONAL_NUMBER_COST, notes: ['a national tax number (slashes, no country prefix), not shaped like a VAT ID'], keepLooking: true };
	if (digits >= 7 && /^[A-Z0-9]{7,16}$/u.test(compact)) return result;
	// `VAT 19%: 190.00`: the word that also labels the tax amount names an ID only when one follows.
	if (TAX_WORDS.has(labelText)) return { ...result, reject: 'not shaped like a VAT ID' };
	// A labelled ID of the wrong shape is kept (the compliance block reports it), but doubted.
	return { ...result, cost: 0.3, notes: ['not shaped like a VAT ID'], keepLooking: true };
}
/** A VAT id whose country prefix says another length: below the review threshold. */
const WRONG_SHAPE_COST = 0.25;

/** An IBAN whose check digits fail (ISO 13616 mod 97) was misread or is no IBAN: kept, doubted. */
function checkIban(normalized: NormalizedValue): CandidateCheck {
	const result: CandidateCheck = { cost: 0, notes: [], keepLooking: true };
	if (isValidIban(String(normalized.value))) return { ...result, notes: ['IBAN check digits hold'] };
	return { ...result, cost: INVALID_IBAN_COST, notes: ['IBAN check digits (mod 97) or length do not hold'] };
}

const INVALID_IBAN_COST = 0.3;

/** Fields holding an IBAN (`iban`, `supplier_iban`). */
export function isIbanField(field: FieldDefinition): boolean {
	return /(?:^|_)iban$/u.test(field.name) && fieldTypeOf(field) === 'string';
}

/** Words that label both a tax amount and a VAT ID. */
const TAX_WORDS = new Set(['vat', 'tva', 'btw', 'gst', 'iva', 'mwst', 'ust']);

function checkDate(normalized: NormalizedValue): CandidateCheck {
	const result: CandidateCheck = { cost: 0, notes: [], keepLooking: false };
	const year = Number(String(normalized.value).slice(0, 4));
	const now = new Date().getUTCFullYear();
	if (year < 1980 || year > now + 10) {
		result.cost += 0.3;
		result.notes.push(`unlikely year ${year}`);
	}
	return result;
}

/** Fields holding an organisation's or a person's name. */
const NAME_FIELD = /(?:^|_)name$/u;
/** A legal form alone (`GmbH & Co. KG`, `S.A.`): the name was the label's word (`Lieferant GmbH`). */
const FORM_ONLY = /^(?:[\s,&.]*(?:gmbh|ag|kg|co|ltd|limited|inc|llc|plc|sarl|sas|sasu|sa|bv|nv|srl|spa|ug|ohg|e\.?\s?k))+[\s.]*$/iu;
/** Bank-detail and payment words that head a payment block (`Überweisung`, `Bankverbindung`, `Virement`). */
const PAYMENT_HEAD = /^(?:uberweisung|bankverbindung(?:en)?|kontoverbindung|bankdaten|zahlungsdaten|zahlungsinformationen|bank(?:\s+details|\s+account|\s+name)?|banking\s+details|payment(?:\s+details|\s+information)?|wire\s+transfer|virement(?:\s+bancaire)?|coordonnees\s+bancaires|rib|iban|bic|swift|transferencia(?:\s+bancaria)?|datos\s+bancarios|bonifico(?:\s+bancario)?|coordinate\s+bancarie|bankgegevens|overschrijving|dados\s+bancarios)$/u;

/**
 * Why a name read under a label is no name, if it is not: a label word (`Name:`), a legal form
 * alone, digits (`#1089`), a bank-detail heading, or a sentence.
 */
export function notAName(text: string): string | undefined {
	const trimmed = text.trim();
	const folded = fold(trimmed).replace(/[:\s]+$/u, '');
	if (/:\s*$/u.test(trimmed)) return 'a label (ends with a colon), not a name';
	if ((trimmed.match(/\p{L}/gu)?.length ?? 0) < 2) return 'no letters: not a name';
	if (FORM_ONLY.test(trimmed)) return 'a legal form alone, not a name';
	if (isPaymentHeading(folded)) return 'a bank-detail heading, not a name';
	if (isSentence(trimmed)) return 'a sentence, not a name';
	return undefined;
}

/** A bank-detail or payment heading (`Überweisung`, `Bank details`, `Virement bancaire`), folded text. */
export function isPaymentHeading(folded: string): boolean {
	return PAYMENT_HEAD.test(folded.replace(/[:\s]+$/u, '').trim());
}

/**
 * Words that make a sentence (`jusqu'au paiement intégral de la facture.`), not a name: 4 words or
 * more, lower case first, or a full stop last after 3 lower-case words (`Polska Firma sp. z o.o.` is a name).
 */
export function isSentence(text: string): boolean {
	const trimmed = text.trim();
	const words = trimmed.split(/\s+/u);
	const lowerWords = words.filter((word) => /^\p{Ll}{3}/u.test(word)).length;
	return words.length >= 4 && (/^\p{Ll}/u.test(trimmed) || (/[.!?]$/u.test(trimmed) && lowerWords >= 3));
}

/** Shape checks on one labelled candidate. */
export function checkCandidate(field: FieldDefinition, source: LabelSource, raw: string, normalized: NormalizedValue, style: DocumentStyle, labelText = ''): CandidateCheck {
	const type = fieldTypeOf(field);
	if (source === 'percent') return { cost: 0, notes: [], keepLooking: false };
	// `Zahlungsbedingungen:  Zahlungsmittel:` — the next label, not the value, whatever the field.
	if (type === 'string' && /^[^\d]*:\s*$/u.test(raw.trim())) return { cost: 0, notes: [], keepLooking: false, reject: 'a label (ends with a colon), not a value' };
	// `Payment terms & bank details`, `Customer name / company`: the heading goes on, no value follows.
	if (type === 'string' && /^[&/+]\s*\p{L}[^\d]*$/u.test(raw.trim())) return { cost: 0, notes: [], keepLooking: false, reject: 'the rest of a heading, not a value' };
	if (type === 'currency' || (type === 'number' && /amount|total|tax|price/.test(field.name))) return checkAmount(field, raw, normalized, style);
	if (type === 'date') return checkDate(normalized);
	if (isIdentifierField(field)) return checkIdentifier(raw, normalized);
	if (/vat_id$|tax_id$/.test(field.name) && fieldTypeOf(field) === 'string') return checkTaxId(normalized, labelText);
	if (isIbanField(field)) return checkIban(normalized);
	if (type === 'string' && NAME_FIELD.test(field.name)) {
		const reject = notAName(String(normalized.value));
		if (reject) return { cost: 0, notes: [], keepLooking: false, reject };
	}
	return { cost: 0, notes: [], keepLooking: false };
}

// ---------------------------------------------------------------------------------------------
// Cross-checks between fields

interface Option {
	value: number | undefined;
	confidence: number;
	alternative?: ScalarAlternative;
}

/** A subtotal and a tax of opposite signs (`400` and `-190`): not one invoice's net and tax. */
function oppositeSigns(a: number, b: number): boolean {
	return (a > 0 && b < 0) || (a < 0 && b > 0);
}

function agrees(a: number, b: number): boolean {
	return Math.abs(roundMoney(a - b)) <= 0.01;
}

function optionsOf(result: ScalarResult | undefined): Option[] {
	const options: Option[] = [{ value: undefined, confidence: 0 }];
	if (!result || typeof result.value !== 'number') return options;
	options.push({ value: result.value, confidence: result.confidence });
	for (const alternative of result.alternatives ?? []) {
		if (typeof alternative.value === 'number') options.push({ value: alternative.value, confidence: alternative.confidence, alternative });
	}
	return options;
}

function setValue(result: ScalarResult, option: Option): ScalarResult {
	if (!option.alternative) return result;
	const { alternative } = option;
	const others = [{ value: result.value, confidence: result.confidence, source_fragment: result.source_fragment, notes: result.normalization_notes, currency: result.currency, raw: result.raw, labels: result.labels, at: result.at }, ...(result.alternatives ?? [])].filter((entry) => entry.value !== alternative.value);
	return {
		...result,
		value: alternative.value,
		confidence: alternative.confidence,
		source_fragment: alternative.source_fragment,
		normalization_notes: alternative.notes,
		raw: alternative.raw,
		currency: alternative.currency ?? result.currency,
		alternatives: others,
		labels: alternative.labels,
		at: alternative.at,
	};
}

/** `result` with one of its alternatives as the value, the value it had among the alternatives. */
export function withAlternative(result: ScalarResult, alternative: ScalarAlternative): ScalarResult {
	return setValue(result, { value: undefined, confidence: alternative.confidence, alternative });
}

export function adjust(result: ScalarResult, confidence: number, note: string): ScalarResult {
	return { ...result, confidence: Math.round(confidence * 100) / 100, normalization_notes: result.normalization_notes ? `${result.normalization_notes}; ${note}` : note };
}

function derived(value: number, confidence: number, note: string): ScalarResult {
	return { value: roundMoney(value), confidence, source_fragment: '', raw_candidates: [], normalization_notes: note };
}

/** VAT and sales-tax rates in use in Europe and North America, in percent. */
const COMMON_RATES = [2.1, 2.5, 3, 4, 5, 5.5, 6, 7, 7.7, 8, 8.1, 8.5, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27];

function isCommonRate(tax: number, net: number): boolean {
	if (net <= 0 || tax <= 0) return false;
	const rate = (tax / net) * 100;
	return COMMON_RATES.some((common) => Math.abs(common - rate) <= 0.06 || agrees((net * common) / 100, tax));
}

/** The confidence of a value read under a label with nothing to doubt in it. */
const CLEAN_READ = 0.9;

/** The highest usual rate (27 %) is 21 % of a gross total; a larger "tax" is something else. */
const MAX_TAX_SHARE = 0.25;

/** `975` read where `9.75` was printed: OCR lost the decimal point. */
function sameDigits(a: number, b: number): boolean {
	const digits = (value: number) => value.toFixed(2).replace(/\D/g, '').replace(/^0+/, '').replace(/0+$/, '');
	return digits(a) === digits(b);
}

export interface AmountFields {
	total?: ScalarResult;
	subtotal?: ScalarResult;
	tax?: ScalarResult;
	/** Amounts of the line items read, when the template has a table of them. */
	lineAmounts?: number[];
	/** A line stating that no tax is charged (`Umsatzsteuerbefreit nach §19 UStG`, `TVA non applicable`). */
	noTaxStatement?: string;
}

/**
 * Chooses total, subtotal and tax among their candidates so that subtotal + tax = total (and the
 * line items add up) where some choice does; believes values so checked, doubts values that
 * contradict each other, and fills a missing one when the two others and a usual tax rate agree.
 */
export function crossCheckAmounts(fields: AmountFields): AmountFields {
	let { total, subtotal, tax } = fields;
	const lineSum = fields.lineAmounts && fields.lineAmounts.length > 0 ? roundMoney(fields.lineAmounts.reduce((a, b) => a + b, 0)) : undefined;
	let best: { t: Option; s: Option; x: Option; score: number; checks: string[] } | undefined;
	const printedTotals = optionsOf(total).flatMap((option) => (option.value === undefined ? [] : [option.value]));
	for (const t of optionsOf(total)) {
		for (const s of optionsOf(subtotal)) {
			for (const x of optionsOf(tax)) {
				const checks: string[] = [];
				let contradictions = 0;
				if (t.value !== undefined && s.value !== undefined && x.value !== undefined) {
					// A tax of 0 makes the sum one amount read twice, and a tax of another sign than the
					// amounts (`400 + -190 = 210`) is a correction line: neither is a check.
					if (!agrees(s.value + x.value, t.value) || oppositeSigns(s.value, x.value)) contradictions++;
					else if (x.value !== 0) checks.push('subtotal + tax = total');
				} else if (t.value !== undefined && s.value !== undefined) {
					if (s.value > t.value + 0.01) contradictions++;
				}
				if (t.value !== undefined && x.value !== undefined && x.value >= t.value && t.value > 0) contradictions++;
				// No subtotal read: the total less the tax printed as another amount labelled like a total
				// (`Gesamtsumme 99,00` ... `Gesamtsumme 117,81`) at a usual rate checks the pair.
				if (s.value === undefined && t.value !== undefined && x.value !== undefined && x.value !== 0 && isCommonRate(x.value, t.value - x.value)) {
					const net = t.value - x.value;
					if (printedTotals.some((value) => value !== t.value && agrees(value, net))) checks.push('total - tax is printed too');
				}
				if (lineSum !== undefined) {
					if (s.value !== undefined && agrees(lineSum, s.value)) checks.push('the line items add up to the subtotal');
					else if (t.value !== undefined && agrees(lineSum, t.value)) checks.push('the line items add up to the total');
				}
				const score = t.confidence + s.confidence + x.confidence + checks.length * 2 - contradictions * 3;
				if (!best || score > best.score + 1e-9) best = { t, s, x, score, checks };
			}
		}
	}
	if (!best) return fields;
	// Keep a value the cross-check would drop; only swap in alternatives or confirm.
	const pick = (result: ScalarResult | undefined, option: Option) => (result && option.value !== undefined ? setValue(result, option) : result);
	total = pick(total, best.t);
	subtotal = pick(subtotal, best.s);
	tax = pick(tax, best.x);
	const value = (result: ScalarResult | undefined) => (result && typeof result.value === 'number' ? result.value : undefined);
	let [t, s, x] = [value(total), value(subtotal), value(tax)];

	// A tax read without its decimal point, or missing, from total - subtotal at a usual rate.
	if (t !== undefined && s !== undefined && s < t) {
		const difference = roundMoney(t - s);
		if (x !== undefined && !agrees(s + x, t) && sameDigits(x, difference) && tax) {
			tax = { ...adjust(tax, 0.85, `read as ${difference}: total - subtotal has the same digits (decimal point lost)`), value: difference };
			x = difference;
		} else if (x === undefined && isCommonRate(difference, s)) {
			tax = derived(difference, 0.6, `not found; total - subtotal (${t} - ${s}), a usual tax rate`);
			x = difference;
		}
	}
	if (t !== undefined && x !== undefined && s === undefined && t > x && isCommonRate(x, t - x)) {
		subtotal = derived(t - x, 0.6, `not found; total - tax (${t} - ${x}), a usual tax rate`);
		s = roundMoney(t - x);
	}
	if (t === undefined && s !== undefined && x !== undefined && isCommonRate(x, s)) {
		total = derived(s + x, 0.6, `not found; subtotal + tax (${s} + ${x}), a usual tax rate`);
		t = roundMoney(s + x);
	}

	// No tax printed, the net the gross, and a statement that none is charged: two kinds of evidence for a tax of 0.
	if (x === undefined && t !== undefined && s !== undefined && agrees(s, t) && fields.noTaxStatement) {
		tax = { value: 0, confidence: 0.85, source_fragment: fields.noTaxStatement, raw_candidates: [], normalization_notes: `no tax charged: '${fields.noTaxStatement}', and subtotal = total` };
		x = 0;
	}

	const consistent = t !== undefined && s !== undefined && x !== undefined && agrees(s + x, t) && !oppositeSigns(s, x);
	// `subtotal + 0 = total`: the labels agree, the arithmetic checks nothing.
	const zeroTax = consistent && x === 0;
	const linesAgree = lineSum !== undefined && ((s !== undefined && agrees(lineSum, s)) || (t !== undefined && agrees(lineSum, t)));
	const confirm = (result: ScalarResult | undefined, note: string) => (result && result.source_fragment !== '' ? adjust(result, Math.max(result.confidence, 0.95), `checked: ${note}`) : result);
	const doubt = (result: ScalarResult | undefined, note: string) => (result ? adjust(result, Math.min(result.confidence, 0.6), `doubtful: ${note}`) : result);
	if (zeroTax) {
		const note = 'tax 0: subtotal = total, the sum checks nothing';
		const unchecked = (result: ScalarResult | undefined) => (result && result.source_fragment !== '' ? adjust(result, result.confidence, note) : result);
		total = unchecked(total);
		subtotal = unchecked(subtotal);
		tax = unchecked(tax);
	} else if (consistent) {
		const note = `subtotal + tax = total (${s} + ${x} = ${t})`;
		// A value derived from the two others agrees with them by construction: only the usual rate
		// checks them, which confirms values read cleanly, not ones read with doubts (words beside them).
		const derivedOne = [total, subtotal, tax].some((result) => result?.source_fragment === '');
		const confirmRead = (result: ScalarResult | undefined) => (derivedOne && result && result.confidence < CLEAN_READ ? result : confirm(result, note));
		total = confirmRead(total);
		subtotal = confirmRead(subtotal);
		tax = confirmRead(tax);
	} else if (t !== undefined && s !== undefined && x !== undefined) {
		const note = `subtotal + tax = ${roundMoney(s + x)}, not the total ${t}`;
		total = doubt(total, note);
		subtotal = doubt(subtotal, note);
		tax = doubt(tax, note);
	} else {
		if (t !== undefined && s !== undefined && s > t + 0.01) {
			total = doubt(total, `subtotal ${s} above total ${t}`);
			subtotal = doubt(subtotal, `subtotal ${s} above total ${t}`);
		}
		if (t !== undefined && x !== undefined && x >= t) {
			tax = doubt(tax, `tax ${x} not below total ${t}`);
			total = doubt(total, `tax ${x} not below total ${t}`);
		}
		if (t !== undefined && x !== undefined && x < t && x > t * MAX_TAX_SHARE) tax = doubt(tax, `tax ${x} is more than ${MAX_TAX_SHARE * 100}% of the total ${t}`);
		if (s !== undefined && x !== undefined && t === undefined && !isCommonRate(x, s)) tax = doubt(tax, `tax ${x} is no usual rate of the subtotal ${s}`);
	}
	if (linesAgree && lineSum !== undefined) {
		if (s !== undefined && agrees(lineSum, s)) subtotal = confirm(subtotal, `the line items add up to ${lineSum}`);
		else if (t !== undefined && agrees(lineSum, t)) total = confirm(total, `the line items add up to ${lineSum}`);
	}
	// Not confirmed by any check while labels offered other values: a guess among them.
	const guess = (result: ScalarResult | undefined) => {
		if (!result || result.normalization_notes.includes('checked:')) return result;
		const others = (result.alternatives ?? []).filter((alternative) => typeof alternative.value === 'number' && alternative.value !== result.value);
		if (others.length === 0 || result.confidence <= UNCHECKED_CAP) return result;
		return adjust(result, UNCHECKED_CAP, `unchecked; labels also gave ${others.map((other) => String(other.value)).join(', ')}`);
	};
	return { total: unconfirmedTotal(guess(total)), subtotal: guess(subtotal), tax: guess(tax), lineAmounts: fields.lineAmounts };
}

/**
 * Labels that name the amount to pay and nothing else (`Total` alone may head a column, a
 * sub-total or a line's amount).
 */
const UNAMBIGUOUS_TOTAL_LABELS = new Set(['total due', 'amount due', 'grand total', 'balance due', 'invoice total', 'total amount', 'amount payable', 'total payable', 'total to pay', 'total incl. vat', 'total including vat', 'total inc. vat', 'gesamtbetrag', 'gesamtbetrag brutto', 'gesamtsumme brutto', 'total amount (gross)', 'rechnungsbetrag', 'rechnungssumme', 'gesamtsumme', 'endbetrag', 'bruttobetrag', 'zu zahlen', 'summe brutto', 'gesamt brutto', 'total ttc', 'montant ttc', 'total t.t.c.', 'net à payer', 'total à payer', 'montant à payer', 'totaal', 'totaalbedrag', 'te betalen', 'totaal te betalen', 'totaal incl. btw', 'totaal inclusief btw', 'importe total', 'total a pagar', 'total factura', 'totale fattura', 'totale documento', 'totale da pagare', 'importo totale', 'valor total', 'valor a pagar', 'total da fatura', 'amount to pay', 'zahlbetrag', 'endsumme'].map(fold));

/**
 * A total nothing confirmed (no subtotal + tax, no line items) is believed only under a label that
 * names the amount to pay and when it is the largest of the amounts labelled as totals.
 */
function unconfirmedTotal(result: ScalarResult | undefined): ScalarResult | undefined {
	if (!result || typeof result.value !== 'number' || result.normalization_notes.includes('checked:') || result.confidence < REVIEW_THRESHOLD) return result;
	const label = /label '([^']+)'/u.exec(result.normalization_notes)?.[1];
	const others = (result.alternatives ?? []).map((alternative) => alternative.value).filter((value): value is number => typeof value === 'number');
	const value = result.value;
	const largest = others.every((other) => other <= value);
	// Any label that gave the value may name the amount to pay (`Total` and `Amount due` over one amount).
	const payLabel = [label, ...(result.labels ?? [])].find((text) => text !== undefined && UNAMBIGUOUS_TOTAL_LABELS.has(text));
	if (payLabel !== undefined && largest) return payLabel === label ? result : adjust(result, result.confidence, `also under '${payLabel}'`);
	const why = payLabel === undefined ? `label '${label ?? '?'}' may name another amount` : 'a larger amount is also labelled as a total';
	return adjust(result, UNCHECKED_CAP, `unchecked total: ${why}`);
}

/** The most an amount chosen among several labelled values, with no check to confirm it, keeps. */
const UNCHECKED_CAP = 0.75;

/** Names of the amount fields a template may give total, subtotal and tax. */
export const AMOUNT_NAMES = { total: ['total', 'total_amount', 'amount_due'], subtotal: ['subtotal', 'net_amount'], tax: ['tax_amount', 'vat_amount', 'tax'] };

export function isScalar(value: unknown): value is ScalarValue {
	return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
