/**
 * The currency signs documents print, in one table: ISO codes, symbols, dollars with their
 * country's letters (`C$`, `US$`), abbreviations (`zł`, `Kč`, `Rs.`) and words (`euros`), with the
 * rules for the signs that are also words or abbreviations of other things and count only beside
 * an amount. Read for the currency next to one amount (numbers.ts) and for a document's currency
 * (currency.ts), so a sign is added here once.
 */

/** Signs several currencies share: which one is meant is told by a code the document names or by the country. */
export const SHARED_SIGNS: Record<string, { codes: string[]; usual?: string }> = {
	$: { codes: ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN', 'ARS', 'COP', 'CLP'], usual: 'USD' },
	'¥': { codes: ['JPY', 'CNY'], usual: 'JPY' },
	kr: { codes: ['SEK', 'NOK', 'DKK', 'ISK'] },
	kroner: { codes: ['NOK', 'DKK'] },
};

interface Sign {
	/** An ISO code, or a key of SHARED_SIGNS. */
	code: string;
	pattern: RegExp;
	/** Counts only next to a number: the sign is also a word or an abbreviation (`PEN`, `Ft`, `kr`). */
	nearAmount?: boolean;
	/** Matched in the folded (lower case, unaccented) text: a currency written as a word. */
	word?: boolean;
}

const PREFIXED_DOLLARS: Record<string, string> = { US: 'USD', USD: 'USD', C: 'CAD', CA: 'CAD', CAD: 'CAD', A: 'AUD', AU: 'AUD', AUD: 'AUD', NZ: 'NZD', NZD: 'NZD', S: 'SGD', SG: 'SGD', SGD: 'SGD', HK: 'HKD', HKD: 'HKD', R: 'BRL', MX: 'MXN', NT: 'TWD' };
const CODES = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CNY', 'INR', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'SEK', 'NOK', 'DKK', 'ISK', 'PLN', 'CZK', 'HUF', 'RSD', 'UAH', 'BRL', 'MXN', 'ARS', 'CLP', 'ZAR', 'KRW', 'ILS', 'AED', 'THB', 'MYR', 'IDR', 'TWD', 'VND'];
/** Codes that are also words or names (`PEN`, `TRY`, `RON`, `DRY RUB`): believed only next to an amount. */
const WORD_CODES = ['PEN', 'TRY', 'PHP', 'RON', 'RUB', 'COP', 'SAR'];
/** Every ISO code of the table, for readers that set codes aside (a table cell's `EUR` is no garbled digit). */
export const CURRENCY_CODES = [...CODES, ...WORD_CODES];
const SYMBOLS: Record<string, string> = { '€': 'EUR', '£': 'GBP', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '₱': 'PHP', '₫': 'VND', '฿': 'THB', '₴': 'UAH', '₦': 'NGN', '元': 'CNY', '¥': '¥', $: '$' };

/** `source` standing apart: not inside a longer word (`OPEN`, `EUROPE`, `DOLLARS`). */
const apart = (source: string, flags = 'gu') => new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}])`, flags);
/** A code standing apart from words; glued to an amount it still counts (`12,00EUR`). */
const codeApart = (source: string) => new RegExp(`(?<![\\p{L}])(?:${source})(?![\\p{L}])`, 'gu');
const escape = (text: string) => text.replace(/[$.]/gu, '\\$&');

/** Every sign, longest forms first: a span read by one is not read again by a later one (`C$` is not also `$`). */
const SIGNS: Sign[] = [
	...Object.entries(PREFIXED_DOLLARS).sort((a, b) => b[0].length - a[0].length).map(([prefix, code]) => ({ code, pattern: new RegExp(`(?<![\\p{L}])${prefix}\\s?\\$`, 'gu') })),
	{ code: 'CNY', pattern: apart('RMB') },
	{ code: 'CHF', pattern: apart('SFr\\.?') },
	...CODES.map((iso) => ({ code: iso, pattern: codeApart(iso) })),
	...WORD_CODES.map((iso) => ({ code: iso, pattern: codeApart(iso), nearAmount: true })),
	// OCR and typewriters write the euro as a word.
	{ code: 'EUR', pattern: apart('Eur\\.?') },
	...Object.entries(SYMBOLS).map(([symbol, code]) => ({ code, pattern: new RegExp(`(?<!\\p{L})${escape(symbol)}(?!\\p{L})`, 'gu') })),
	{ code: 'PLN', pattern: apart('zł') },
	{ code: 'PLN', pattern: apart('zl'), nearAmount: true },
	{ code: 'CZK', pattern: apart('K[čc]'), nearAmount: true },
	// Forints after an amount of three digits or more: `6 Ft` is six feet.
	{ code: 'HUF', pattern: /(?<=\d[.,\s]?\d{2}\s?)Ft(?![\p{L}])/gu },
	{ code: 'RON', pattern: apart('lei'), nearAmount: true },
	// `Fr. 12.50`, not the Friday of `Fr. 12.03.2021`.
	{ code: 'CHF', pattern: /(?<![\p{L}])Fr\.(?=\s?\d[\d']*[.,](?:\d{2}|-|–)(?![\d.]))/gu },
	{ code: 'INR', pattern: apart('Rs\\.?|₨'), nearAmount: true },
	{ code: 'IDR', pattern: apart('Rp\\.?'), nearAmount: true },
	// Ringgits before an amount with cents: `RM 204` is a room.
	{ code: 'MYR', pattern: /(?<![\p{L}\p{N}])RM(?=\s?\d[\d,]*\.\d{2}(?!\d))/gu },
	{ code: 'kr', pattern: apart('[Kk]r\\.?'), nearAmount: true },
	...wordSigns(),
];

/** Currencies written as words, in the folded text (`euros`, `pounds sterling`, `Swiss francs`). */
function wordSigns(): Sign[] {
	const words: Array<[string, string]> = [
		['us dollars?|u\\.s\\. dollars?', 'USD'], ['canadian dollars?', 'CAD'], ['australian dollars?', 'AUD'], ['new zealand dollars?', 'NZD'], ['singapore dollars?', 'SGD'], ['hong kong dollars?', 'HKD'],
		['dollars?', '$'], ['euros?', 'EUR'], ['pounds? sterling|sterling', 'GBP'], ['rupees?', 'INR'], ['yen', 'JPY'], ['yuan|renminbi', 'CNY'],
		['swiss francs?|francs? suisses?|schweizer franken|franken', 'CHF'], ['zlotys?|zlotych|złotych|złoty', 'PLN'], ['kronor', 'SEK'], ['kroner', 'kroner'], ['korun', 'CZK'], ['forints?', 'HUF'], ['reais', 'BRL'],
	];
	return words.map(([source, code]) => ({ code, pattern: apart(source), word: true }));
}

/** Whether the text at [start, end) of `text` touches a number, at most one space away. */
function besideNumber(text: string, start: number, end: number): boolean {
	return /\d[\s\u00a0]?$/u.test(text.slice(Math.max(0, start - 2), start)) || /^[\s\u00a0]?[-(]?\d/u.test(text.slice(end, end + 3));
}

export interface FoundSign {
	/** An ISO code, or a key of SHARED_SIGNS (`$`, `¥`, `kr`). */
	code: string;
	/** The sign as printed. */
	text: string;
	index: number;
}

/**
 * The currency signs of `text`, in the order of the table, each span read once. The words are
 * read only when `folded` is given: the text lower-cased and unaccented character for character
 * (so its indexes are the text's).
 */
export function findSigns(text: string, folded?: string): FoundSign[] {
	let plain = text;
	let words = folded;
	const found: FoundSign[] = [];
	for (const sign of SIGNS) {
		const source = sign.word ? words : plain;
		if (source === undefined) continue;
		for (const match of source.matchAll(sign.pattern)) {
			const end = match.index + match[0].length;
			if (sign.nearAmount && !besideNumber(plain, match.index, end)) continue;
			found.push({ code: sign.code, text: text.slice(match.index, end), index: match.index });
			const blank = ' '.repeat(match[0].length);
			plain = plain.slice(0, match.index) + blank + plain.slice(end);
			words = words === undefined ? undefined : words.slice(0, match.index) + blank + words.slice(end);
		}
	}
	return found;
}

/** A sign's ISO code: a shared sign read as its usual currency (`$` as USD); one without (`kr`) has none. */
export function isoCodeOf(sign: FoundSign): string | undefined {
	return SHARED_SIGNS[sign.code] === undefined ? sign.code : SHARED_SIGNS[sign.code].usual;
}
