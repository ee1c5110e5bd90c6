/**
 * The business key of an invoice, read from its extracted fields (the ready-made Invoice
 * template's names: `invoice_number`, `supplier_vat_id`, `iban`, `supplier_name`, `total`,
 * `currency`, `invoice_date`), so that the same invoice arriving as another file (a regenerated
 * reminder PDF, a scan of the paper copy, a phone photo) is known again. Pure functions: what is
 * compared and how each part is normalised; invoiceMarks.ts looks the key up.
 */

/** The parts of one invoice the comparison uses, each normalised; null where the document has none. */
export interface InvoiceFacts {
	/** `vat:GB123456789`, `iban:GB29...` or `name:brightline studio`: the first the document has. */
	supplier: string | null;
	/** The number without separators, case and leading zeros, a resubmission suffix stripped. */
	number: string | null;
	/** The resubmission suffix stripped from the number (`R`, `COPY`, `2`...), '' when none. */
	suffix: string;
	/** The total in cents (hundredths), as an integer string. */
	total: string | null;
	currency: string | null;
	/** The invoice date as extracted (YYYY-MM-DD with the ready-made template). */
	date: string | null;
}

/** Legal forms left out of a supplier's name when they end it (Ltd, GmbH & Co. KG, S.A.R.L....). */
const LEGAL_FORMS = new Set([
	'ltd',
	'limited',
	'plc',
	'llp',
	'llc',
	'inc',
	'incorporated',
	'corp',
	'corporation',
	'co',
	'company',
	'lp',
	'gmbh',
	'mbh',
	'ag',
	'kg',
	'ohg',
	'ug',
	'ev',
	'eg',
	'kgaa',
	'haftungsbeschrankt',
	'sarl',
	'sa',
	'sas',
	'sasu',
	'eurl',
	'sci',
	'snc',
	'sl',
	'slu',
	'srl',
	'srls',
	'spa',
	'sapa',
	'snc',
	'lda',
	'sgps',
	'bv',
	'nv',
	'vof',
	'cv',
	'bvba',
	'sprl',
	'scrl',
	'ab',
	'as',
	'asa',
	'aps',
	'oy',
	'oyj',
	'sro',
	'spzoo',
	'zoo',
	'sp',
	'kft',
	'pty',
	'pte',
	'bhd',
	'sdn',
]);

/** Words that mark a resubmission when they end an invoice number (`-R`, `/COPY`, ` Mahnung`...). */
const RESUBMISSION_WORDS = 'R|RE|COPY|COPIE|COPIA|KOPIE|DUP|DUPL|DUPLICATE|DUPLIKAT|DUPLICATA|REMINDER|MAHNUNG|RAPPEL|RECORDATORIO|SOLLECITO|HERINNERING|REPRINT|RESENT|REV\\d*';
const SUFFIXES: RegExp[] = [
	// `(2)`, `[2]`: a file or document number in brackets.
	/\s*[([]\s*(\d{1,2})\s*[)\]]$/,
	// `-R`, `/COPY`, `_Duplicate`, ` Reminder`, `-REV2`.
	new RegExp(`[\\s\\-/_.]+(${RESUBMISSION_WORDS})$`, 'i'),
	// `-1`, `-2`: one digit after a dash, when what is before it ends with a group of digits or letters of 2 or more.
	/(?<=[A-Za-z0-9]{2})-(\d)$/,
];

/** Letters without accents, lower case. */
function plain(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}

function text(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') return null;
	const trimmed = value.trim();
	return trimmed === '' ? null : trimmed;
}

/** A VAT id or IBAN: letters and digits only, upper case. */
function identifier(value: unknown): string | null {
	const raw = text(value);
	if (!raw) return null;
	const cleaned = plain(raw)
		.replace(/[^a-z0-9]/g, '')
		.toUpperCase();
	return cleaned.length >= 4 ? cleaned : null;
}

/** A supplier's name without case, accents, punctuation and its legal form: "Brightline Studio Ltd." -> "brightline studio". */
export function normalizeSupplierName(value: unknown): string | null {
	const raw = text(value);
	if (!raw) return null;
	// "S.A.R.L." and "GmbH & Co. KG": dots joined first, so that a legal form written with dots is one word.
	const words = plain(raw)
		.replace(/\b([a-z])\.(?=[a-z]\.?)/g, '$1')
		.replace(/[^a-z0-9]+/g, ' ')
		.trim()
		.split(' ')
		.filter(Boolean);
	while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1])) words.pop();
	return words.length > 0 ? words.join(' ') : null;
}

/** Who issued the invoice: its VAT id if it has one, else its IBAN, else its name. */
export function supplierOf(fields: Record<string, unknown>): string | null {
	const vat = identifier(fields.supplier_vat_id);
	if (vat) return `vat:${vat}`;
	const iban = identifier(fields.iban);
	if (iban) return `iban:${iban}`;
	const name = normalizeSupplierName(fields.supplier_name);
	return name ? `name:${name}` : null;
}

/**
 * An invoice number without case, spaces, separators (- / . _ and any other punctuation) and
 * leading zeros, a resubmission suffix stripped and returned on its own:
 * "INV-2026-0042-R" -> { number: "INV202642", suffix: "R" }.
 */
export function normalizeInvoiceNumber(value: unknown): { number: string; suffix: string } | null {
	let raw = text(value);
	if (!raw) return null;
	const suffixes: string[] = [];
	for (let stripped = true; stripped; ) {
		stripped = false;
		for (const pattern of SUFFIXES) {
			const match = pattern.exec(raw);
			if (match && match.index > 0 && /[A-Za-z0-9]/.test(raw.slice(0, match.index))) {
				suffixes.unshift(match[1].toUpperCase());
				raw = raw.slice(0, match.index);
				stripped = true;
			}
		}
	}
	const number = plain(raw)
		.toUpperCase()
		.split(/[^A-Z0-9]+/)
		.map((part) => part.replace(/(^|[^0-9])0+(?=\d)/g, '$1'))
		.join('');
	return number === '' ? null : { number, suffix: suffixes.join('/') };
}

/** An amount in cents: 1234.5, "1,234.50", "1.234,50 €", "£1 234.50" -> "123450". */
export function normalizeAmount(value: unknown): string | null {
	if (typeof value === 'number') return Number.isFinite(value) ? String(Math.round(value * 100)) : null;
	const raw = text(value);
	if (!raw) return null;
	let digits = raw.replace(/[^0-9.,-]/g, '');
	const decimal = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
	// A single separator followed by three digits is a thousands separator ("1,234"); otherwise the last one is the decimal point.
	const onlyOne = digits.split(/[.,]/).length === 2;
	if (decimal >= 0 && !(onlyOne && digits.length - decimal - 1 === 3)) {
		digits = `${digits.slice(0, decimal).replace(/[.,]/g, '')}.${digits.slice(decimal + 1)}`;
	} else {
		digits = digits.replace(/[.,]/g, '');
	}
	const amount = Number(digits);
	return digits === '' || !Number.isFinite(amount) ? null : String(Math.round(amount * 100));
}

export function normalizeCurrency(value: unknown): string | null {
	const raw = text(value);
	if (!raw) return null;
	const symbols: Record<string, string> = {
		'€': 'EUR',
		'£': 'GBP',
		$: 'USD',
		'¥': 'JPY',
		CHF: 'CHF',
	};
	return symbols[raw] ?? raw.toUpperCase().replace(/[^A-Z]/g, '');
}

/**
 * The facts of a result's fields, or undefined when the result is not an invoice (it has no
 * `invoice_number` field at all: a receipt, a bank statement, a template of other fields).
 */
export function invoiceFacts(fields: Record<string, unknown>): InvoiceFacts | undefined {
	if (!Object.hasOwn(fields, 'invoice_number')) return undefined;
	const number = normalizeInvoiceNumber(fields.invoice_number);
	const date = text(fields.invoice_date);
	return {
		supplier: supplierOf(fields),
		number: number?.number ?? null,
		suffix: number?.suffix ?? '',
		total: normalizeAmount(fields.total),
		currency: normalizeCurrency(fields.currency),
		date: date ? date.slice(0, 10) : null,
	};
}

export type DuplicateLevel = 'likely' | 'possible';

/** What a key compares, as the user chose. */
export interface KeyParts {
	compareTotal: boolean;
}

/** The kinds of key an invoice is known by; each is looked up and recorded on its own. */
export type KeyKind = 'exact' | 'exactNumber' | 'number' | 'amount' | 'numberless';

/**
 * The keys an invoice is recorded by, whatever the user compares (so that a change of the option
 * finds what was recorded before it), by kind, before hashing:
 * - exact: supplier, number with its suffix, total and currency;
 * - exactNumber: supplier and number with its suffix (what Compare Total off calls the same);
 * - number: supplier and number without its suffix;
 * - amount: supplier, total, currency and invoice date;
 * - numberless: the same, written only by an invoice whose number was not read.
 * None without a supplier: a key of a number alone would match other suppliers' invoices.
 */
export function invoiceKeys(facts: InvoiceFacts): Partial<Record<KeyKind, string>> {
	const { supplier, number, suffix, total, currency, date } = facts;
	if (!supplier) return {};
	const keys: Partial<Record<KeyKind, string>> = {};
	const amount = total !== null ? `${total} ${currency ?? ''}` : null;
	if (number !== null) {
		if (amount) keys.exact = JSON.stringify(['exact', supplier, number, suffix, amount]);
		keys.exactNumber = JSON.stringify(['exactNumber', supplier, number, suffix]);
		keys.number = JSON.stringify(['number', supplier, number]);
	}
	if (amount && date) {
		keys.amount = JSON.stringify(['amount', supplier, amount, date]);
		if (number === null) keys.numberless = JSON.stringify(['numberless', supplier, amount, date]);
	}
	return keys;
}

/**
 * Which keys of an invoice to look for, and what finding each means:
 * - its exact key (exactNumber when Compare Total is off): `likely`;
 * - its number key: `possible` (same number, another total or another resubmission suffix);
 * - with Compare Total, without a number: its amount key (an earlier invoice of that supplier,
 *   total and date), `possible`;
 * - with Compare Total and a number: the numberless key of its supplier, total and date (an
 *   earlier one whose number was not read), `possible`.
 */
export function lookups(facts: InvoiceFacts, parts: KeyParts): Array<{ kind: KeyKind; key: string; level: DuplicateLevel }> {
	const keys = invoiceKeys(facts);
	const found: Array<{ kind: KeyKind; key: string; level: DuplicateLevel }> = [];
	const likely: KeyKind = parts.compareTotal ? 'exact' : 'exactNumber';
	if (keys[likely]) found.push({ kind: likely, key: keys[likely], level: 'likely' });
	if (keys.number) found.push({ kind: 'number', key: keys.number, level: 'possible' });
	if (parts.compareTotal && keys.amount) {
		if (facts.number === null) found.push({ kind: 'amount', key: keys.amount, level: 'possible' });
		else found.push({ kind: 'numberless', key: keys.amount.replace('["amount"', '["numberless"'), level: 'possible' });
	}
	return found;
}
