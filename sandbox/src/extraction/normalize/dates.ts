/**
 * Dates to ISO 8601 (`YYYY-MM-DD`) from the ways documents write them: `05.03.2026`,
 * `05/03/2026`, `2026-03-05`, `5 March 2026`, `March 5, 2026`, `5. März 2026`,
 * `5 de marzo de 2026`, `5 mars 2026`.
 */

export interface ParsedDate {
	value: string;
	text: string;
	notes: string[];
	/** True when day and month could be swapped (`03/05/2026`). */
	ambiguous: boolean;
}

const MONTH_NAMES: Array<[number, string[]]> = [
	[1, ['january', 'jan', 'januar', 'janner', 'enero', 'ene', 'janvier', 'janv', 'januari', 'gennaio', 'gen', 'janeiro']],
	[2, ['february', 'feb', 'februar', 'febrero', 'fevrier', 'fevr', 'fev', 'februari', 'febbraio', 'fevereiro']],
	[3, ['march', 'mar', 'marz', 'maerz', 'marzo', 'mars', 'maart', 'mrt', 'marco']],
	[4, ['april', 'apr', 'abril', 'abr', 'avril', 'avr', 'aprile']],
	[5, ['may', 'mai', 'mayo', 'mei', 'maggio', 'mag', 'maio']],
	[6, ['june', 'jun', 'juni', 'junio', 'juin', 'giugno', 'giu', 'junho']],
	[7, ['july', 'jul', 'juli', 'julio', 'juillet', 'juil', 'luglio', 'lug', 'julho']],
	[8, ['august', 'aug', 'agosto', 'ago', 'aout', 'augustus', 'agosto']],
	[9, ['september', 'sep', 'sept', 'septiembre', 'setiembre', 'septembre', 'settembre', 'set', 'setembro']],
	[10, ['october', 'oct', 'oktober', 'okt', 'octubre', 'octobre', 'ottobre', 'ott', 'outubro', 'out']],
	[11, ['november', 'nov', 'noviembre', 'novembre', 'novembro']],
	[12, ['december', 'dec', 'dezember', 'dez', 'diciembre', 'dic', 'decembre', 'dicembre', 'dezembro']],
];
const MONTHS = new Map(MONTH_NAMES.flatMap(([month, names]) => names.map((name) => [name, month] as const)));

function fold(text: string): string {
	return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function fullYear(year: number): number {
	// Two-digit years on business documents are this century.
	return year < 100 ? 2000 + year : year;
}

function iso(year: number, month: number, day: number): string | undefined {
	const date = new Date(Date.UTC(year, month - 1, day));
	if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const ISO_DATE = /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/u;
const NUMERIC_DATE = /(?<!\d)(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?!\d)/u;
const DAY_MONTH_NAME = /(?<!\d)(\d{1,2})(?:st|nd|rd|th|er|o|º)?\.?[\s-]*(?:de\s+)?(\p{L}{3,})\.?\s*[,-]?\s*(?:de\s+)?(\d{4}|\d{2})(?![\d:])/u;
const MONTH_NAME_DAY = /(\p{L}{3,})\.?\s*[\s-]\s*(\d{1,2})(?:st|nd|rd|th)?\s*,?\s*(\d{4})(?!\d)/u;

/** Eight digits, year first (`20260815`, Factur-X's format 102), at the start of a labelled value. */
const DIGITS_ONLY_DATE = /^((?:19|20)\d{2})(\d{2})(\d{2})(?![\d.,/-])/u;

/** A date with a four-digit year that OCR ran into the time after it (`6/10/201913:59`). */
const GLUED_TIME = /(?<!\d)(\d{1,2}[./-]\d{1,2}[./-]\d{4})(?=\d{1,2}:\d{2})/gu;

/** The first match whose month group is a month name (`10 pcs 2020 ... 3 Aug 2014`: the second). */
function firstWithMonth(text: string, pattern: RegExp, group: number): RegExpExecArray | null {
	const global = new RegExp(pattern.source, 'gu');
	for (let match = global.exec(text); match; match = global.exec(text)) {
		if (MONTHS.has(match[group])) return match;
		global.lastIndex = match.index + 1;
	}
	return null;
}

export interface DateOptions {
	/** Read `03/05/2026` as March 5 (US style) instead of 3 May. */
	monthFirst?: boolean;
	/** Read eight digits opening the text as a date (`20260815`): only where a label says a date follows. */
	digitsOnly?: boolean;
}

/** The first date in `raw`, or undefined. */
export function parseDate(raw: string, options: DateOptions = {}): ParsedDate | undefined {
	const folded = fold(raw).replace(GLUED_TIME, '$1 ');
	let match = ISO_DATE.exec(folded);
	if (match) {
		const value = iso(Number(match[1]), Number(match[2]), Number(match[3]));
		if (value) return { value, text: match[0], notes: value === match[0] ? [] : ['read as year-month-day'], ambiguous: false };
	}
	match = NUMERIC_DATE.exec(folded);
	if (match) {
		const [text, first, separator, second, year] = match;
		const a = Number(first);
		const b = Number(second);
		// A dotted date is always day first; with / or - the larger number tells, else the style.
		const monthFirst = separator !== '.' && (a > 12 ? false : b > 12 ? true : (options.monthFirst ?? false));
		const ambiguous = separator !== '.' && a <= 12 && b <= 12 && a !== b;
		const value = monthFirst ? iso(fullYear(Number(year)), a, b) : iso(fullYear(Number(year)), b, a);
		if (value) {
			const notes = [monthFirst ? 'read as month/day/year' : 'read as day/month/year'];
			if (ambiguous) notes.push('day and month are ambiguous');
			if (year.length === 2) notes.push('two-digit year read as 20xx');
			return { value, text, notes, ambiguous };
		}
	}
	match = firstWithMonth(folded, DAY_MONTH_NAME, 2);
	if (match && MONTHS.has(match[2])) {
		const value = iso(fullYear(Number(match[3])), MONTHS.get(match[2]) ?? 0, Number(match[1]));
		if (value) return { value, text: match[0], notes: ['month name read'], ambiguous: false };
	}
	match = firstWithMonth(folded, MONTH_NAME_DAY, 1);
	if (match && MONTHS.has(match[1])) {
		const value = iso(Number(match[3]), MONTHS.get(match[1]) ?? 0, Number(match[2]));
		if (value) return { value, text: match[0], notes: ['month name read'], ambiguous: false };
	}
	match = options.digitsOnly ? DIGITS_ONLY_DATE.exec(folded.trimStart()) : null;
	const value = match ? iso(Number(match[1]), Number(match[2]), Number(match[3])) : undefined;
	if (match && value) return { value, text: match[0], notes: ['read as year-month-day (digits only)'], ambiguous: false };
	return undefined;
}
