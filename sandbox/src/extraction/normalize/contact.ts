/** E-mail addresses, phone numbers and yes/no answers. */

export interface Parsed<T> {
	value: T;
	text: string;
	notes: string[];
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/u;

export function parseEmail(raw: string): Parsed<string> | undefined {
	const match = EMAIL.exec(raw);
	if (!match) return undefined;
	const value = match[0].toLowerCase();
	return { value, text: match[0], notes: value === match[0] ? [] : ['lower-cased'] };
}

const PHONE = /(?:\+|00)?\d[\d\s().\-/]{4,}\d/u;

/**
 * A phone number in E.164 form (`+4930123456`) when it carries a country code (`+49` or
 * `0049`); the national trunk `(0)` after a country code is dropped. Without a country code the
 * digits are kept as written, since guessing the country would invent data.
 */
export function parsePhone(raw: string): Parsed<string> | undefined {
	const match = PHONE.exec(raw);
	if (!match) return undefined;
	const text = match[0].trim();
	const notes: string[] = [];
	const international = text.startsWith('+') || text.startsWith('00');
	let body = text.replace(/^\+|^00/, '');
	if (international && /^\d{1,3}\s*\(0\)/.test(body)) {
		body = body.replace(/\(0\)/, '');
		notes.push('dropped the national trunk prefix (0)');
	}
	const digits = body.replace(/\D/g, '');
	if (digits.length < 6 || digits.length > 15) return undefined;
	if (text.startsWith('00')) notes.push("international prefix 00 written as '+'");
	if (!international) notes.push('no country code; kept the national number');
	const value = international ? `+${digits}` : digits;
	if (value !== text) notes.push('removed spaces and punctuation');
	return { value, text, notes };
}

const TRUE_WORDS = ['yes', 'y', 'true', 'ja', 'j', 'si', 'sí', 'oui', 'x', '✓', '✔', '☑', '1'];
const FALSE_WORDS = ['no', 'n', 'false', 'nein', 'non', '✗', '☐', '0'];

export function parseBoolean(raw: string): Parsed<boolean> | undefined {
	const word = raw.trim().toLowerCase().split(/[\s,;:.]+/u)[0] ?? '';
	if (TRUE_WORDS.includes(word)) return { value: true, text: word, notes: word === 'true' ? [] : [`'${word}' read as true`] };
	if (FALSE_WORDS.includes(word)) return { value: false, text: word, notes: word === 'false' ? [] : [`'${word}' read as false`] };
	return undefined;
}
