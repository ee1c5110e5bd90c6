/**
 * The scoring rules of `npm run bench:sandbox`: how one expected value is compared with what the
 * sandbox returned (right / wrong / missing), and when a table of line items counts as found. Pure
 * functions, no corpus needed (test/unit/sandboxScore.test.ts).
 *
 * - amounts: equal within 0.01;
 * - dates: the same YYYY-MM-DD;
 * - supplier and customer names: loosely, one contains the other (whole words) once case, accents,
 *   punctuation and legal suffixes (Inc., Ltd., B.V., GmbH, SAS, ...) are removed;
 * - identifiers (invoice, order numbers): case-insensitive, without spaces or a leading "#";
 * - VAT ids and IBANs: case-insensitive, without spaces, dots or hyphens; a 2-letter country prefix
 *   may be missing on one side;
 * - anything else: case-insensitive, trimmed, runs of spaces as one.
 */

export type Verdict = 'right' | 'wrong' | 'missing';

export type FieldKind = 'amount' | 'date' | 'party' | 'identifier' | 'taxId' | 'text';

/** Expected field names (dev-invoices' format) and how each is compared; anything else is text. */
export const FIELD_KINDS: Record<string, FieldKind> = {
	invoice_number: 'identifier',
	order_number: 'identifier',
	invoice_date: 'date',
	due_date: 'date',
	total: 'amount',
	subtotal: 'amount',
	tax_amount: 'amount',
	supplier_name: 'party',
	customer_name: 'party',
	supplier_vat_id: 'taxId',
	customer_vat_id: 'taxId',
	iban: 'taxId',
	currency: 'text',
};

export const fieldKind = (name: string): FieldKind => FIELD_KINDS[name] ?? 'text';

export type ExpectedValue = string | number;
export type FoundValue = string | number | boolean | null | undefined | unknown[] | Record<string, unknown>;

/** Case, accents and surrounding space folded away. */
function fold(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.trim();
}

/** A number from a value the service returned as a number or as text ("1,234.50", "12.5"). */
export function toAmount(value: FoundValue): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const plain = value.replace(/[\s\u00a0]/g, '').replace(/[^\d.,-]/g, '');
	if (plain === '') return undefined;
	// One separator followed by exactly 1-2 digits at the end is the decimal one.
	const decimal = /[.,](\d{1,2})$/.exec(plain);
	const digits = decimal ? `${plain.slice(0, decimal.index).replace(/[.,]/g, '')}.${decimal[1]}` : plain.replace(/[.,]/g, '');
	const parsed = Number(digits);
	return Number.isFinite(parsed) ? parsed : undefined;
}

export const AMOUNT_TOLERANCE = 0.01;

export function sameAmount(expected: number, found: FoundValue): boolean {
	const value = toAmount(found);
	return value !== undefined && Math.abs(value - expected) <= AMOUNT_TOLERANCE + 1e-9;
}

/** Legal-form words dropped before names are compared. */
const LEGAL_WORDS = new Set([
	'inc',
	'incorporated',
	'ltd',
	'limited',
	'llc',
	'llp',
	'lp',
	'plc',
	'corp',
	'corporation',
	'co',
	'company',
	'pvt',
	'private',
	'pty',
	'gmbh',
	'ag',
	'kg',
	'bv',
	'nv',
	'sa',
	'sas',
	'sarl',
	'srl',
	'spa',
	'sl',
	'ab',
	'oy',
	'se',
]);

/**
 * A name as words without case, accents, punctuation or legal form: "e-Luscious Nederland B.V." ->
 * "e luscious nederland". Single letters in a row are one word ("B.V." -> "bv", "U.S.A." -> "usa").
 */
export function partyKey(name: string): string {
	const tokens = fold(name)
		.replace(/&/g, ' and ')
		.split(/[^a-z0-9]+/)
		.filter((token) => token !== '');
	const merged: string[] = [];
	for (let i = 0; i < tokens.length; i++) {
		if (tokens[i].length === 1 && tokens[i + 1]?.length === 1) {
			let run = tokens[i];
			while (tokens[i + 1]?.length === 1) run += tokens[++i];
			merged.push(run);
		} else merged.push(tokens[i]);
	}
	return merged.filter((token) => !LEGAL_WORDS.has(token)).join(' ');
}

/** Whether `short` appears in `long` as whole words. */
const containsWords = (long: string, short: string): boolean => ` ${long} `.includes(` ${short} `);

/** Supplier/customer names: equal, or one contains the other as whole words, after partyKey. */
export function sameParty(expected: string, found: string): boolean {
	const a = partyKey(expected);
	const b = partyKey(found);
	if (a === '' || b === '') return false;
	if (a === b) return true;
	const [long, short] = a.length >= b.length ? [a, b] : [b, a];
	return short.length >= 3 && containsWords(long, short);
}

/** Invoice and order numbers: "# BLR_WFLD2015" and "blr_wfld2015" are one number. */
export function identifierKey(value: string): string {
	return value.replace(/\s+/g, '').replace(/^#+/, '').toUpperCase();
}

/** VAT ids and IBANs: "DE 232 446 240" and "DE232446240" are one id. */
export function taxIdKey(value: string): string {
	return value.replace(/[\s.\-/]+/g, '').toUpperCase();
}

export function sameTaxId(expected: string, found: string): boolean {
	const a = taxIdKey(expected);
	const b = taxIdKey(found);
	if (a === '' || b === '') return false;
	if (a === b) return true;
	// The country prefix may be printed apart from the number, or left out by a source.
	// Only one side may lack it: DE123 and FR123 stay different ids.
	const withoutPrefix = (id: string) => id.replace(/^[A-Z]{2}(?=\d)/, '');
	const [bareA, bareB] = [withoutPrefix(a), withoutPrefix(b)];
	return bareA === bareB && (bareA === a || bareB === b);
}

const textKey = (value: string): string => fold(value).replace(/\s+/g, ' ');

/** Whether a value was found at all: null, '', an empty list count as not found. */
export function hasValue(found: FoundValue): boolean {
	if (found === null || found === undefined) return false;
	if (typeof found === 'string') return found.trim() !== '';
	if (Array.isArray(found)) return found.length > 0;
	return true;
}

/**
 * One expected field against what was found. `alsoAccepted` lists other values the expected file
 * accepts for the field (e.g. the seller printed on the document beside the source's issuer).
 */
export function compareField(name: string, expected: ExpectedValue, found: FoundValue, alsoAccepted: ExpectedValue[] = []): Verdict {
	if (!hasValue(found)) return 'missing';
	const accepted = [expected, ...alsoAccepted];
	return accepted.some((value) => sameValue(fieldKind(name), value, found)) ? 'right' : 'wrong';
}

function sameValue(kind: FieldKind, expected: ExpectedValue, found: FoundValue): boolean {
	if (kind === 'amount') {
		const value = typeof expected === 'number' ? expected : toAmount(expected);
		return value !== undefined && sameAmount(value, found);
	}
	if (typeof found !== 'string' && typeof found !== 'number') return false;
	const expectedText = String(expected);
	const foundText = String(found);
	switch (kind) {
		case 'date':
			return foundText.trim() === expectedText.trim();
		case 'party':
			return sameParty(expectedText, foundText);
		case 'identifier':
			return identifierKey(foundText) === identifierKey(expectedText);
		case 'taxId':
			return sameTaxId(expectedText, foundText);
		default:
			return textKey(foundText) === textKey(expectedText);
	}
}

/** A line description as letters and digits only: "BIBIM. OCTOPU T1" -> "bibimoctoput1". */
export function descriptionKey(text: string): string {
	return fold(text).replace(/[^a-z0-9]+/g, '');
}

/**
 * Whether a found row's description is the expected line's: the found one contains the expected
 * one's first line (what is printed on the row itself), or the expected one contains the found one
 * (at least 4 letters or digits), once case, accents, spaces and punctuation are removed.
 */
export function sameDescription(expected: string, found: string): boolean {
	const firstLine = descriptionKey(expected.split('\n')[0]);
	const whole = descriptionKey(expected);
	const got = descriptionKey(found);
	if (got === '' || whole === '') return false;
	if (firstLine !== '' && got.includes(firstLine)) return true;
	return got.length >= 4 && whole.includes(got);
}

export interface ExpectedLine {
	description?: string;
	quantity?: number;
	unit_price?: number;
	amount?: number;
}

export interface LineItemsScore {
	/** Rows the source lists (with a description). */
	expectedRows: number;
	/** Rows the service returned. */
	foundRows: number;
	/** Expected rows matched one-to-one, in order of the expected list, to a found row by description. */
	matchedRows: number;
	/** Of the matched rows, those whose amount is right (rows with an expected amount only). */
	amountsRight: number;
	amountsExpected: number;
	/** The table counts as found: at least one row, and at least half the expected rows matched. */
	found: boolean;
}

const rowDescription = (row: unknown): string => {
	if (row === null || typeof row !== 'object') return '';
	const value = (row as Record<string, unknown>).description;
	return typeof value === 'string' ? value : '';
};

export function scoreLineItems(expected: ExpectedLine[], found: FoundValue): LineItemsScore {
	const rows = Array.isArray(found) ? found : [];
	const lines = expected.filter((line) => typeof line.description === 'string' && line.description.trim() !== '');
	const used = new Set<number>();
	let matchedRows = 0;
	let amountsRight = 0;
	let amountsExpected = 0;
	for (const line of lines) {
		const index = rows.findIndex((row, i) => !used.has(i) && sameDescription(line.description!, rowDescription(row)));
		if (index < 0) continue;
		used.add(index);
		matchedRows++;
		if (typeof line.amount === 'number') {
			amountsExpected++;
			const row = rows[index] as Record<string, unknown>;
			if (sameAmount(line.amount, row.amount as FoundValue)) amountsRight++;
		}
	}
	return {
		expectedRows: lines.length,
		foundRows: rows.length,
		matchedRows,
		amountsRight,
		amountsExpected,
		found: rows.length > 0 && lines.length > 0 && matchedRows * 2 >= lines.length,
	};
}

/**
 * Where each expected field is in a result: the Invoice template's name, or the Receipt
 * template's for the same thing; any other template holds a field only under the same name.
 */
export const RESULT_FIELD_NAMES: Record<string, string[]> = {
	invoice_number: ['invoice_number', 'receipt_number'],
	invoice_date: ['invoice_date', 'purchase_date'],
	supplier_name: ['supplier_name', 'merchant_name'],
	supplier_vat_id: ['supplier_vat_id', 'merchant_vat_id'],
};

/** Where the line items are in a result: the Invoice template's table, or the Receipt template's. */
export const RESULT_TABLE_NAMES = ['line_items', 'items'];

export interface ResultField {
	name: string;
	value: FoundValue;
	confidence: number;
}

/** The result's field that holds the expected field `name`, if the template has one. */
export function resultFieldFor(name: string, fields: ResultField[]): ResultField | undefined {
	for (const candidate of RESULT_FIELD_NAMES[name] ?? [name]) {
		const field = fields.find((item) => item.name === candidate);
		if (field) return field;
	}
	return undefined;
}

export function resultTableOf(fields: ResultField[]): ResultField | undefined {
	for (const candidate of RESULT_TABLE_NAMES) {
		const field = fields.find((item) => item.name === candidate);
		if (field) return field;
	}
	return undefined;
}

/** The confidence at and above which a field counts as sure (the target). */
export const SURE_CONFIDENCE = 0.8;
