/**
 * The ISO 4217 currency of a document's amounts. Explicit evidence first: codes, symbols and
 * words printed with the amounts or in headings (`Total (EUR)`, `£10.20`, `1.234,50 zł`,
 * `pounds sterling`). When nothing is printed, the supplier's country tells it: the prefix of its
 * VAT id, the country of its IBAN, its address (country names, postcode shapes) and its phone's
 * country code, read outside the customer's block (whose country is not the supplier's).
 */
import { customerBlockLines } from './customer-block';
import { findIbans, taxIdKind } from './normalize';
import { SHARED_SIGNS as SHARED, findSigns } from './normalize/currencies';
import type { ScalarResult } from './scalar-fields';
import { fold, labelPattern, type TextLine } from './text-lines';
import { FIELD_SYNONYMS } from './vocabulary';

/** The currency of each country (ISO 3166 alpha-2, and `EL`, Greece's VAT prefix). */
const COUNTRY_CURRENCY: Record<string, string> = {
	AT: 'EUR', BE: 'EUR', CY: 'EUR', DE: 'EUR', EE: 'EUR', EL: 'EUR', GR: 'EUR', ES: 'EUR', FI: 'EUR', FR: 'EUR', HR: 'EUR', IE: 'EUR', IT: 'EUR', LT: 'EUR', LU: 'EUR', LV: 'EUR', MT: 'EUR', NL: 'EUR', PT: 'EUR', SI: 'EUR', SK: 'EUR', MC: 'EUR', SM: 'EUR', VA: 'EUR', AD: 'EUR', ME: 'EUR', XK: 'EUR',
	GB: 'GBP', XI: 'GBP', CH: 'CHF', LI: 'CHF', SE: 'SEK', DK: 'DKK', FO: 'DKK', GL: 'DKK', NO: 'NOK', IS: 'ISK', PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', RS: 'RSD', TR: 'TRY', UA: 'UAH',
	IN: 'INR', JP: 'JPY', CN: 'CNY', KR: 'KRW', SG: 'SGD', HK: 'HKD', US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', MX: 'MXN', BR: 'BRL', ZA: 'ZAR', IL: 'ILS', AE: 'AED', RU: 'RUB',
};

/** The currency signs of one line (codes, symbols, words), in the order of the table, each span read once. */
export function currencySigns(text: string): string[] {
	return findSigns(text, fold(text)).map((sign) => sign.code);
}

// --- Indirect evidence: the supplier's country ---

type Kind = 'VAT id' | 'IBAN' | 'address' | 'phone';

interface Clue {
	kind: Kind;
	country: string;
	line: TextLine;
}

// The prefix is followed by a digit (`ATU` by its `U`): `BTW NL...` is not read from `BT`.
const VAT_START = /(?<![\p{L}\p{N}])(CHE|[A-Z]{2})[ .-]?(?=U?\d)((?:[0-9A-Z]{1,12}[ .-]?){1,5})/gu;
const GSTIN = /(?<![\p{L}\p{N}])\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z](?![\p{L}\p{N}])/u;

/** Countries of the VAT ids of a line: a country prefix and its national shape (`DE123456789`, `CHE-123.456.789`), or a GSTIN. */
export function vatCountries(text: string): string[] {
	const countries: string[] = GSTIN.test(text) ? ['IN'] : [];
	for (const match of text.matchAll(VAT_START)) {
		const groups = match[2].split(/[ .-]/u).filter((group) => group !== '');
		// The groups after the id belong to the next words: drop them until the shape holds.
		for (let count = groups.length; count > 0; count--) {
			const kind = taxIdKind(match[1] + groups.slice(0, count).join(''));
			if (kind?.endsWith('VAT ID')) {
				countries.push(kind.slice(0, 2));
				break;
			}
		}
	}
	return countries;
}

/** Country calling codes of the countries COUNTRY_CURRENCY knows (`+1` is shared by the US and Canada: left out). */
const CALLING_CODES: Record<string, string> = {
	'30': 'GR', '31': 'NL', '32': 'BE', '33': 'FR', '34': 'ES', '36': 'HU', '39': 'IT', '40': 'RO', '41': 'CH', '43': 'AT', '44': 'GB', '45': 'DK', '46': 'SE', '47': 'NO', '48': 'PL', '49': 'DE',
	'351': 'PT', '352': 'LU', '353': 'IE', '354': 'IS', '356': 'MT', '357': 'CY', '358': 'FI', '370': 'LT', '371': 'LV', '372': 'EE', '381': 'RS', '385': 'HR', '386': 'SI', '380': 'UA', '420': 'CZ', '421': 'SK', '423': 'LI',
	'27': 'ZA', '52': 'MX', '55': 'BR', '61': 'AU', '64': 'NZ', '65': 'SG', '81': 'JP', '82': 'KR', '86': 'CN', '852': 'HK', '90': 'TR', '91': 'IN', '971': 'AE', '972': 'IL',
};
/**
 * `+49 30 1234567`, `(+44) 20 7946 0000`, `0033 1 23 45 67 89`: a country code and at least 8 digits in all (not
 * `+49,00`), not inside a longer run of digits (the `0044` of an IBAN).
 */
const PHONE = /(?<!\d[\s./-]?)(?:\+|00)\s?(\d[\d\s()./-]{7,20}\d)/gu;

/** Countries of the phone numbers of a line, by their calling code. */
export function phoneCountries(text: string): string[] {
	const countries: string[] = [];
	for (const match of text.matchAll(PHONE)) {
		const digits = match[1].replace(/\D/gu, '');
		if (digits.length < 8) continue;
		const code = [3, 2].map((length) => digits.slice(0, length)).find((prefix) => CALLING_CODES[prefix] !== undefined);
		if (code) countries.push(CALLING_CODES[code]);
	}
	return countries;
}

/** Country names as addresses print them, in the country's and other languages (folded). */
const COUNTRY_NAMES: Record<string, string[]> = {
	DE: ['germany', 'deutschland', 'allemagne', 'alemania', 'germania', 'duitsland'], FR: ['france', 'frankreich', 'francia', 'frankrijk'], NL: ['netherlands', 'the netherlands', 'nederland', 'niederlande', 'pays-bas', 'paises bajos', 'paesi bassi', 'holland'],
	BE: ['belgium', 'belgie', 'belgique', 'belgien', 'belgica', 'belgio'], IT: ['italy', 'italia', 'italien', 'italie'], ES: ['spain', 'espana', 'spanien', 'espagne', 'spagna', 'spanje'], AT: ['austria', 'osterreich', 'oesterreich', 'autriche', 'oostenrijk'],
	PT: ['portugal'], IE: ['ireland', 'irland', 'irlande', 'eire'], FI: ['finland', 'suomi', 'finnland', 'finlande'], LU: ['luxembourg', 'luxemburg', 'lussemburgo'], GR: ['greece', 'griechenland', 'grece', 'hellas'],
	GB: ['united kingdom', 'uk', 'u.k.', 'great britain', 'england', 'scotland', 'wales', 'northern ireland', 'vereinigtes konigreich', 'royaume-uni', 'reino unido', 'regno unito'], CH: ['switzerland', 'schweiz', 'suisse', 'svizzera'],
	SE: ['sweden', 'sverige', 'schweden', 'suede'], DK: ['denmark', 'danmark', 'danemark', 'danemark'], NO: ['norway', 'norge', 'norwegen', 'norvege'], PL: ['poland', 'polska', 'polen', 'pologne'], CZ: ['czech republic', 'czechia', 'ceska republika', 'tschechien'],
	HU: ['hungary', 'magyarorszag', 'ungarn'], RO: ['romania', 'rumanien'], IN: ['india', 'bharat'], JP: ['japan', 'japon'], CN: ['china', 'chine', 'p.r. china', "people's republic of china"], US: ['usa', 'u.s.a.', 'united states', 'united states of america'],
	CA: ['canada', 'kanada'], AU: ['australia', 'australien', 'australie'], NZ: ['new zealand', 'neuseeland'], SG: ['singapore', 'singapur'], HK: ['hong kong'], BR: ['brazil', 'brasil', 'brasilien'], MX: ['mexico', 'mexiko'], ZA: ['south africa', 'sudafrika'],
};
/** A country name closing an address: a cell of its own, or after a comma or a postcode (`75001 Paris, France`). */
const COUNTRY_CELL = new RegExp(
	`(?:^|[,\\d-]\\s*)(${Object.values(COUNTRY_NAMES).flat().sort((a, b) => b.length - a.length).map((name) => name.replace(/[.()]/gu, '\\$&')).join('|')})\\.?$`,
	'u',
);
const NAME_COUNTRY = new Map(Object.entries(COUNTRY_NAMES).flatMap(([country, names]) => names.map((name) => [name, country] as const)));

/** Postcodes whose shape names the country: `D-80331 München`, `1012 AB Amsterdam`, `00-950 Warszawa`, `SW1A 1AA`. */
const POSTCODES: Array<{ country: string; pattern: RegExp }> = [
	...Object.entries({ D: 'DE', F: 'FR', A: 'AT', CH: 'CH', NL: 'NL', B: 'BE', I: 'IT', L: 'LU', E: 'ES', P: 'PT', FIN: 'FI', S: 'SE', DK: 'DK', N: 'NO', PL: 'PL', CZ: 'CZ' }).map(([prefix, country]) => ({
		country,
		pattern: new RegExp(`(?<![\\p{L}\\p{N}])${prefix}-\\d{4,5}\\s+\\p{Lu}`, 'u'),
	})),
	{ country: 'NL', pattern: /(?<![\p{L}\p{N}])[1-9]\d{3}\s?[A-Z]{2}\s+\p{Lu}\p{Ll}+/u },
	{ country: 'PL', pattern: /(?<![\p{L}\p{N}-])\d{2}-\d{3}\s+\p{Lu}\p{L}+/u },
	{ country: 'GB', pattern: /(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}(?![\p{L}\p{N}])/u },
	{ country: 'JP', pattern: /〒\s?\d{3}-\d{4}/u },
	{ country: 'US', pattern: /\b\p{L}+,?\s+(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC),?\s+\d{5}(?:-\d{4})?\b/u },
	{ country: 'CA', pattern: /\b\p{L}+,\s+(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE|YT|NT|NU)\b(?!\s*\d{5})|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/u },
	{ country: 'AU', pattern: /\b(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\b(?!\d)/u },
];

/** Countries the address parts of a line name: country names closing an address, national postcode shapes. */
export function addressCountries(line: TextLine): string[] {
	const countries: string[] = [];
	for (const cell of line.cells) {
		const name = COUNTRY_CELL.exec(fold(cell.text).trim())?.[1];
		const country = name === undefined ? undefined : NAME_COUNTRY.get(name);
		if (country) countries.push(country);
	}
	for (const { country, pattern } of POSTCODES) if (pattern.test(line.text)) countries.push(country);
	return countries;
}

/** The supplier's country clues of the document, outside the customer's block. */
export function countryClues(lines: TextLine[]): Clue[] {
	const customer = customerBlockLines(lines);
	const clues: Clue[] = [];
	for (const line of lines.filter((candidate) => !customer.has(candidate.index))) {
		const add = (kind: Kind, countries: string[]) => countries.forEach((country) => clues.push({ kind, country, line }));
		add('VAT id', vatCountries(line.text));
		add('IBAN', findIbans(line.text).filter((iban) => iban.valid).map((iban) => iban.value.slice(0, 2)));
		add('address', addressCountries(line));
		add('phone', phoneCountries(line.text));
	}
	return clues.filter((clue) => COUNTRY_CURRENCY[clue.country] !== undefined);
}

interface Guess {
	code: string;
	/** How many kinds of clue point to it, and to another currency. */
	agreeing: Kind[];
	disagreeing: Kind[];
	line: TextLine;
}

/** The currency the supplier's country clues point to: each kind votes once, for its most frequent currency. */
export function countryCurrency(lines: TextLine[]): Guess | undefined {
	const votes = new Map<Kind, Map<string, number>>();
	const clues = countryClues(lines);
	for (const clue of clues) {
		const tally = votes.get(clue.kind) ?? new Map<string, number>();
		const code = COUNTRY_CURRENCY[clue.country];
		tally.set(code, (tally.get(code) ?? 0) + 1);
		votes.set(clue.kind, tally);
	}
	const byKind = [...votes].map(([kind, tally]) => ({ kind, code: [...tally].sort((a, b) => b[1] - a[1])[0][0] }));
	const counts = countBy(byKind.map((vote) => vote.code));
	const best = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
	if (best === undefined) return undefined;
	const line = clues.find((clue) => COUNTRY_CURRENCY[clue.country] === best)?.line as TextLine;
	return { code: best, agreeing: byKind.filter((vote) => vote.code === best).map((vote) => vote.kind), disagreeing: byKind.filter((vote) => vote.code !== best).map((vote) => vote.kind), line };
}

function countBy(items: string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
	return counts;
}

// --- Deciding ---

/** One currency printed again and again. */
const SURE = 0.85;
/** ... and the supplier's country agrees. */
const SURE_AND_COUNTRY = 0.9;
/** One currency printed once: it may be OCR noise. */
const SEEN_ONCE = 0.7;
/** A shared sign read through the country (`$` of a Toronto supplier), or one printed once that the country confirms. */
const SIGN_AND_COUNTRY = 0.8;
const GUESSED = 0.6;
const MIXED = 0.55;
/** Several currencies printed, the total's also the one printed most (a conversion note aside). */
const BESIDE_TOTAL = 0.8;
/** From the supplier's country alone: one kind of clue, two or more agreeing, clues that disagree. */
const COUNTRY_ONE_KIND = 0.65;
const COUNTRY_KINDS_AGREE = 0.8;
const COUNTRY_DISPUTED = 0.45;

const TOTAL_LABELS = FIELD_SYNONYMS.total.map(labelPattern);

/** Whether a cell of the line starts with a total's label (`Total`, `Amount due (CAD)`, `Montant TTC`). */
function isTotalLine(line: TextLine): boolean {
	return line.cells.some((cell) => TOTAL_LABELS.some((pattern) => pattern.test(line.folded.slice(cell.start, cell.end))));
}

interface Printed {
	code: string;
	line: TextLine;
	total: boolean;
}

/** Every currency sign printed, with its line and whether the line is a total's. */
function printedSigns(lines: TextLine[]): Printed[] {
	return lines.flatMap((line) => currencySigns(line.text).map((code) => ({ code, line, total: isTotalLine(line) })));
}

/** Which currency a shared sign (`$`, `¥`, `kr`) is: the one the document names, else the country's, else the usual one. */
function resolveShared(sign: string, named: string[], countries: string[]): { code: string; why: string; confidence: number } | undefined {
	const { codes, usual } = SHARED[sign];
	const ownNamed = named.filter((code) => codes.includes(code));
	const ownCountries = [...new Set(countries.filter((code) => codes.includes(code)))];
	const country = ownCountries.length === 1 ? ownCountries[0] : undefined;
	if (ownNamed.length === 1) return { code: ownNamed[0], why: `the ${sign} the document names`, confidence: ownCountries.every((code) => code === ownNamed[0]) ? SURE : GUESSED };
	if (country && (ownNamed.length === 0 || ownNamed.includes(country))) return { code: country, why: `the ${sign} of the supplier's or addresses' country`, confidence: SIGN_AND_COUNTRY };
	const code = ownNamed[0] ?? usual;
	return code === undefined ? undefined : { code, why: 'a guess', confidence: GUESSED };
}

/** The dollars the addresses point to (`Albany, NY 12210`, `Toronto, ON`), customer's included: most invoices stay in one country. */
function addressDollarCodes(lines: TextLine[]): string[] {
	return lines.flatMap((line) => addressCountries(line)).map((country) => COUNTRY_CURRENCY[country]).filter((code) => SHARED.$.codes.includes(code));
}

interface Reading {
	code: string;
	confidence: number;
	line: TextLine;
	notes: string[];
	printed: boolean;
}

/** Shared signs read as currencies; the notes say how. */
function resolvePrinted(printed: Printed[], lines: TextLine[], country: Guess | undefined): { resolved: Printed[]; notes: string[]; confidence?: number } {
	const named = [...new Set(printed.map((sign) => sign.code).filter((code) => SHARED[code] === undefined))];
	const notes: string[] = [];
	let confidence: number | undefined;
	const readings = new Map<string, string | undefined>();
	for (const sign of new Set(printed.map((entry) => entry.code).filter((code) => SHARED[code] !== undefined))) {
		// The supplier's country first; for `$`, else the dollars of every address.
		const supplier = country && SHARED[sign].codes.includes(country.code) ? [country.code] : [];
		const countries = supplier.length > 0 || sign !== '$' ? supplier : addressDollarCodes(lines);
		const reading = resolveShared(sign, named, countries);
		readings.set(sign, reading?.code);
		if (!reading) continue;
		notes.push(`'${sign}' read as ${reading.code}, ${reading.why}`);
		confidence = Math.min(confidence ?? 1, reading.confidence);
	}
	const resolved = printed.flatMap((sign) => {
		const code = SHARED[sign.code] === undefined ? sign.code : readings.get(sign.code);
		return code === undefined ? [] : [{ ...sign, code }];
	});
	return { resolved, notes, confidence };
}

/** The currency of the printed signs; with several, the one beside the total when only one is. */
function fromPrinted(lines: TextLine[], country: Guess | undefined): Reading | undefined {
	const printed = printedSigns(lines);
	const { resolved, notes, confidence: sharedConfidence } = resolvePrinted(printed, lines, country);
	const counts = countBy(resolved.map((sign) => sign.code));
	const ranked = [...counts].sort((a, b) => b[1] - a[1]);
	if (ranked.length === 0) return undefined;
	const totals = new Set(resolved.filter((sign) => sign.total).map((sign) => sign.code));
	const [first] = ranked;
	if (ranked.length > 1) {
		const beside = totals.size === 1 ? [...totals][0] : undefined;
		const code = beside ?? first[0];
		// Clear only when the total's currency is also the one printed most.
		const clear = beside !== undefined && beside === first[0] && first[1] > ranked[1][1];
		notes.push(beside ? `several currencies printed; ${code} beside the total` : 'several currencies printed; the most frequent taken');
		return { code, confidence: clear ? BESIDE_TOTAL : MIXED, line: lineOf(resolved, code), notes, printed: true };
	}
	const [code, count] = first;
	let confidence = sharedConfidence ?? (count > 1 ? SURE : SEEN_ONCE);
	// One sign, against a supplier country two kinds of clue agree on: perhaps a note in another currency.
	if (count === 1 && country !== undefined && country.code !== code && country.agreeing.length > 1) {
		notes.push(`the supplier's country says ${country.code} (${country.agreeing.join(', ')})`);
		return { code, confidence: MIXED, line: lineOf(resolved, code), notes, printed: true };
	}
	// A country that already chose a shared sign's currency is no second witness.
	if (sharedConfidence === undefined && country?.code === code && country.disagreeing.length === 0) {
		confidence = Math.max(confidence, count > 1 ? SURE_AND_COUNTRY : SIGN_AND_COUNTRY);
		notes.push(`the supplier's country agrees (${country.agreeing.join(', ')})`);
	}
	return { code, confidence, line: lineOf(resolved, code), notes, printed: true };
}

function lineOf(signs: Printed[], code: string): TextLine {
	const signsOfCode = signs.filter((sign) => sign.code === code);
	return (signsOfCode.find((sign) => sign.total) ?? signsOfCode[0]).line;
}

/** The currency of the supplier's country, when no currency is printed. */
function fromCountry(country: Guess): Reading {
	const confidence = country.disagreeing.length > 0 ? COUNTRY_DISPUTED : country.agreeing.length > 1 ? COUNTRY_KINDS_AGREE : COUNTRY_ONE_KIND;
	const disputed = country.disagreeing.length > 0 ? `; other clues disagree (${country.disagreeing.join(', ')})` : '';
	return { code: country.code, confidence, line: country.line, notes: [`no currency printed; the supplier's country (${country.agreeing.join(', ')})${disputed}`], printed: false };
}

/**
 * The currency of the amounts, without a label: the signs printed (shared ones like `$` read
 * through the document's codes and countries), else the supplier's country.
 */
export function documentCurrency(lines: TextLine[]): ScalarResult | undefined {
	const country = countryCurrency(lines);
	const reading = fromPrinted(lines, country) ?? (country && fromCountry(country));
	if (!reading) return undefined;
	const notes = [reading.printed ? `no label; the currency printed with the amounts (${reading.code})` : 'no label', ...reading.notes];
	return {
		value: reading.code,
		confidence: reading.confidence,
		source_fragment: reading.line.text.trim(),
		raw_candidates: [reading.code],
		normalization_notes: notes.join('; '),
	};
}

/** The most a labelled value keeps when it is no currency code, sign or word. */
const NOT_A_CURRENCY = 0.5;

/**
 * A labelled currency as its ISO code (`Currency: Euro`, `Devise : €`, `Währung: EUR`): a word or
 * sign read as its code; a shared sign (`$`) read as the document's currency when that is one of
 * its currencies. A value that is none of them is held below the review threshold.
 */
export function labelledCurrency(result: ScalarResult, lines: TextLine[]): ScalarResult {
	if (typeof result.value !== 'string' || /^[A-Z]{3}$/u.test(result.value)) return result;
	const printed = result.value;
	const signs = [...new Set(currencySigns(printed))];
	let code = signs.length === 1 ? signs[0] : undefined;
	if (code !== undefined && SHARED[code] !== undefined) {
		const documentCode = documentCurrency(lines)?.value;
		code = typeof documentCode === 'string' && SHARED[code].codes.includes(documentCode) ? documentCode : SHARED[code].usual;
	}
	const notes = (note: string) => [result.normalization_notes, note].filter((part) => part !== '').join('; ');
	if (code === undefined) {
		// A word or sentence under the label (`Abrechnungszeitraum`, `Bitte beachten Sie...`) is no currency: the amounts' own currency instead.
		if (/\p{L}{4,}/u.test(printed) && printed.length > 3) {
			const printedCurrency = documentCurrency(lines);
			const note = `'${printed.length > 40 ? `${printed.slice(0, 37)}...` : printed}' under the label is no currency`;
			if (printedCurrency) return { ...printedCurrency, raw_candidates: [...result.raw_candidates, ...printedCurrency.raw_candidates], normalization_notes: [note, printedCurrency.normalization_notes].join('; ') };
			return { ...result, value: null, confidence: 0, normalization_notes: notes(`${note}: not taken`) };
		}
		return { ...result, confidence: Math.min(result.confidence, NOT_A_CURRENCY), normalization_notes: notes(`'${printed}' is no currency code`) };
	}
	return { ...result, value: code, normalization_notes: notes(`read '${printed}' as ${code}`) };
}
