/**
 * Numbers and money written the ways documents write them: `1,234.56`, `1.234,56`, `1 234,56`,
 * `1'234.56`, `-12.50`, `(12.50)`, `12.50-`, with or without a currency symbol or ISO code.
 */
import { findSigns, isoCodeOf } from './currencies';

/** Which character a document uses as its decimal separator, when it can be told. */
export type DecimalSeparator = ',' | '.';

export interface ParsedNumber {
	value: number;
	/** The number as written, e.g. '1.234,56'. */
	text: string;
	notes: string[];
}

export interface ParsedMoney extends ParsedNumber {
	/** ISO 4217 code, when a symbol or code was seen. */
	currency?: string;
	currencyText?: string;
}

const GROUP_SPACE = '[ \\u00a0\\u202f]';
// A digit group is three digits and no more (`1.0000` is one and four decimals, not `1.000`).
const NUMBER_PATTERN = new RegExp(
	`(\\(\\s*)?([-\\u2212+])?\\s?(\\d{1,3}(?:(?:[.,']|${GROUP_SPACE})\\d{3}(?!\\d))+(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?)(\\s?-(?!\\d))?(\\s*\\))?`,
	'u',
);

/** Turns the digits-and-separators part into a number, deciding which separator is decimal. */
function interpretDigits(digits: string, hint: DecimalSeparator | undefined, notes: string[]): number {
	const compact = digits.replace(/[ '\u00a0\u202f]/gu, '');
	if (compact !== digits) notes.push('removed digit-group separators');
	const lastComma = compact.lastIndexOf(',');
	const lastDot = compact.lastIndexOf('.');
	if (lastComma >= 0 && lastDot >= 0) {
		const decimal = lastComma > lastDot ? ',' : '.';
		notes.push(`read '${decimal}' as the decimal separator`);
		return Number(compact.replace(decimal === ',' ? /\./g : /,/g, '').replace(',', '.'));
	}
	const separator = lastComma >= 0 ? ',' : lastDot >= 0 ? '.' : undefined;
	if (!separator) return Number(compact);
	const parts = compact.split(separator);
	if (parts.length > 2) {
		notes.push(`read '${separator}' as a thousands separator`);
		return Number(parts.join(''));
	}
	const looksGrouped = parts[1].length === 3 && parts[0].length <= 3 && parts[0] !== '0';
	if (looksGrouped) {
		// `1.234` or `1,234`: a thousands group unless the document writes decimals that way.
		const isDecimal = hint === separator;
		notes.push(isDecimal ? `read '${separator}' as the decimal separator (document style)` : `read '${separator}' as a thousands separator (ambiguous)`);
		return isDecimal ? Number(`${parts[0]}.${parts[1]}`) : Number(parts.join(''));
	}
	if (separator === ',') notes.push("read ',' as the decimal separator");
	return Number(`${parts[0]}.${parts[1]}`);
}

/** The first number in `raw`, or undefined. */
export function parseNumber(raw: string, hint?: DecimalSeparator): ParsedNumber | undefined {
	const match = NUMBER_PATTERN.exec(raw);
	if (!match) return undefined;
	const [text, openParen, sign, digits, trailingMinus, closeParen] = match;
	const notes: string[] = [];
	let value = interpretDigits(digits, hint, notes);
	if (!Number.isFinite(value)) return undefined;
	const negative = (sign !== undefined && sign !== '+') || trailingMinus !== undefined || (openParen !== undefined && closeParen !== undefined);
	if (negative) {
		value = -value;
		if (sign === undefined) notes.push(trailingMinus ? 'trailing minus read as negative' : 'parentheses read as negative');
	}
	return { value, text: text.trim(), notes };
}

export interface FoundCurrency {
	code: string;
	text: string;
}

/** Every currency sign of `raw` (codes, symbols, abbreviations beside an amount), in order. */
export function findCurrencies(raw: string): FoundCurrency[] {
	return findSigns(raw)
		.sort((a, b) => a.index - b.index)
		.flatMap((sign) => {
			const code = isoCodeOf(sign);
			return code === undefined ? [] : [{ code, text: sign.text }];
		});
}

/** The first currency sign of `raw` with an ISO code. */
export function findCurrency(raw: string): FoundCurrency | undefined {
	return findCurrencies(raw)[0];
}

/** An amount of money: the number, plus the currency seen next to it. */
export function parseMoney(raw: string, hint?: DecimalSeparator): ParsedMoney | undefined {
	const number = parseNumber(raw, hint);
	if (!number) return undefined;
	const currency = findCurrency(raw);
	if (!currency) return number;
	const note = currency.text === currency.code ? `currency ${currency.code} seen` : `currency ${currency.code} seen ('${currency.text}')`;
	return { ...number, currency: currency.code, currencyText: currency.text, notes: [note, ...number.notes] };
}

/** Which decimal separator a document's amounts use, judged by `12,34` against `12.34` endings. */
export function guessDecimalSeparator(text: string): DecimalSeparator | undefined {
	const commas = text.match(/\d,\d{2}(?!\d)/g)?.length ?? 0;
	const dots = text.match(/\d\.\d{2}(?![\d.])/g)?.length ?? 0;
	if (commas === dots) return undefined;
	return commas > dots ? ',' : '.';
}

/** Cent-precise rounding for sums of money. */
export function roundMoney(value: number): number {
	return Math.round(value * 100) / 100;
}
