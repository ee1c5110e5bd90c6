/**
 * Identifiers that carry their own proof: an IBAN's check digits (ISO 13616, mod 97), the
 * national shapes of VAT ids (EU, UK, Switzerland), India's GSTIN and Australia's ABN (checksum).
 */

/** IBAN length of each country of the ISO 13616 registry. */
const IBAN_LENGTHS: Record<string, number> = {
	AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** The remainder of a long digit string (letters count as 10..35) divided by 97, piece by piece. */
function mod97(text: string): number {
	let remainder = 0;
	for (const char of text) {
		const digits = /\d/u.test(char) ? char : String(char.charCodeAt(0) - 55);
		for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
	}
	return remainder;
}

/** An IBAN without its spaces, upper case. */
export function compactIban(raw: string): string {
	return raw.replace(/[\s.-]+/gu, '').toUpperCase();
}

/** True for an IBAN of its country's length whose check digits hold (mod 97 = 1); spaces anywhere are ignored. */
export function isValidIban(raw: string): boolean {
	const iban = compactIban(raw);
	const length = IBAN_LENGTHS[iban.slice(0, 2)];
	if (length === undefined || iban.length !== length || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/u.test(iban)) return false;
	return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

export interface FoundIban {
	/** Without spaces. */
	value: string;
	/** As printed. */
	text: string;
	index: number;
	valid: boolean;
}

/** Where an IBAN may start: a known country code and two check digits. */
const IBAN_START = /(?<![\p{L}\p{N}])([A-Z]{2})\s?(\d{2})(?=\s?[A-Z0-9])/gu;
const SHORTEST_IBAN = Math.min(...Object.values(IBAN_LENGTHS));
/** OCR and print put spaces anywhere in an IBAN, but never a wide gap. */
const MAX_GAP = 3;

/**
 * The IBANs printed in `text`, valid or not: from each country code and check digits, the
 * country's number of letters and digits, across any spaces of at most three characters. A run
 * shorter than the country's length, or longer without a gap, is found but not valid; one shorter
 * than any IBAN is not found.
 */
export function findIbans(text: string): FoundIban[] {
	const found: FoundIban[] = [];
	for (const start of text.matchAll(IBAN_START)) {
		const length = IBAN_LENGTHS[start[1]];
		if (length === undefined || found.some((other) => start.index < other.index + other.text.length)) continue;
		let position = start.index;
		let chars = '';
		while (position < text.length && chars.length < length) {
			const gap = /^ {1,3}/u.exec(text.slice(position))?.[0].length ?? 0;
			if (gap > MAX_GAP) break;
			const char = text[position + gap];
			if (char === undefined || !/[A-Za-z0-9]/u.test(char)) break;
			chars += char.toUpperCase();
			position += gap + 1;
		}
		// A short run (`DE123456789`, a VAT id) is no attempt at an IBAN.
		if (chars.length < SHORTEST_IBAN) continue;
		const glued = /^[A-Za-z0-9]/u.test(text.slice(position));
		const printed = text.slice(start.index, position);
		found.push({ value: chars, text: printed, index: start.index, valid: !glued && isValidIban(chars) });
	}
	return found;
}

/** National shapes of VAT ids, by their country prefix (compact, upper case). */
const VAT_ID_FORMATS: Record<string, RegExp> = {
	AT: /^ATU\d{8}$/u,
	BE: /^BE[01]\d{9}$/u,
	BG: /^BG\d{9,10}$/u,
	CH: /^CHE\d{9}(?:MWST|TVA|IVA)?$/u,
	CY: /^CY\d{8}[A-Z]$/u,
	CZ: /^CZ\d{8,10}$/u,
	DE: /^DE\d{9}$/u,
	DK: /^DK\d{8}$/u,
	EE: /^EE\d{9}$/u,
	EL: /^EL\d{9}$/u,
	ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/u,
	FI: /^FI\d{8}$/u,
	FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/u,
	GB: /^GB(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/u,
	HR: /^HR\d{11}$/u,
	HU: /^HU\d{8}$/u,
	IE: /^IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/u,
	IT: /^IT\d{11}$/u,
	LT: /^LT(?:\d{9}|\d{12})$/u,
	LU: /^LU\d{8}$/u,
	LV: /^LV\d{11}$/u,
	MT: /^MT\d{8}$/u,
	NL: /^NL\d{9}B\d{2}$/u,
	PL: /^PL\d{10}$/u,
	PT: /^PT\d{9}$/u,
	RO: /^RO\d{2,10}$/u,
	SE: /^SE\d{10}01$/u,
	SI: /^SI\d{8}$/u,
	SK: /^SK\d{10}$/u,
	XI: /^XI(?:\d{9}|\d{12})$/u,
};

/** India's GST identification number: state code, PAN, entity digit, `Z`, check character. */
const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/u;
const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** Australia's business number: 11 digits whose weighted sum (first digit less one) divides by 89. */
export function isValidAbn(raw: string): boolean {
	const digits = raw.replace(/\s/gu, '');
	if (!/^\d{11}$/u.test(digits)) return false;
	const sum = [...digits].reduce((total, digit, index) => total + (Number(digit) - (index === 0 ? 1 : 0)) * ABN_WEIGHTS[index], 0);
	return sum % 89 === 0;
}

/** A VAT or tax id without spaces, dots, dashes or slashes, upper case. */
export function compactTaxId(raw: string): string {
	return raw.replace(/[\s.\-/]/gu, '').toUpperCase();
}

/**
 * What kind of tax id `raw` is by its shape: `DE VAT ID`, `GSTIN`, `ABN`...; `wrong shape` for a
 * known VAT country prefix with the wrong number of characters (`DE12345678`); undefined when
 * nothing tells (digits without a prefix, an unknown prefix).
 */
export function taxIdKind(raw: string): string | undefined {
	const id = compactTaxId(raw);
	if (GSTIN.test(id)) return 'GSTIN';
	if (isValidAbn(id)) return 'ABN';
	const format = VAT_ID_FORMATS[id.slice(0, 2)];
	if (!format) return undefined;
	return format.test(id) ? `${id.slice(0, 2)} VAT ID` : 'wrong shape';
}

/** A well-formed VAT id: its country's shape, or a country prefix and 2-13 characters for the others. */
/**
 * Whether a VAT id's own check digits hold, for the countries whose ids carry them in a simple
 * published form: France (the key is (12 + 3 x (SIREN mod 97)) mod 97) and Belgium (the last two
 * digits are 97 - the first eight mod 97). Undefined elsewhere: only the shape can be checked.
 */
export function vatCheckDigitsHold(raw: string): boolean | undefined {
	const id = compactTaxId(raw);
	const fr = /^FR(\d{2})(\d{9})$/u.exec(id);
	if (fr) return Number(fr[1]) === (12 + 3 * (Number(fr[2]) % 97)) % 97;
	const be = /^BE([01]\d{7})(\d{2})$/u.exec(id);
	if (be) return Number(be[2]) === 97 - (Number(be[1]) % 97);
	return undefined;
}

export function isValidVatId(raw: string): boolean {
	const id = compactTaxId(raw);
	const format = VAT_ID_FORMATS[id.slice(0, 2)];
	return format ? format.test(id) : GSTIN.test(id) || /^[A-Z]{2}[A-Z0-9]{2,13}$/u.test(id);
}
