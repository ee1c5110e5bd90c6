/**
 * The extra blocks of spec 2.5 for templates "with extra checks": invoice `compliance` and
 * bank-statement `balance_check`. What they contain is not specified (spec 2.5); the sandbox's
 * design is documented on each function. A check applies when the template has the fields it
 * needs, so a renamed or user-made invoice template is checked too.
 */
import { isValidVatId, roundMoney } from './normalize';

export { isValidVatId } from './normalize';
import type { ExtractedField, FieldDefinition, TableRow } from './types';

/** Amounts agree when they differ by at most a cent (rounding on printed documents). */
export const CENT_TOLERANCE = 0.01;

type Values = Map<string, ExtractedField>;

function numberOf(values: Values, name: string): number | undefined {
	const value = values.get(name)?.value;
	return typeof value === 'number' ? value : undefined;
}

function rowsOf(values: Values, name: string): TableRow[] | undefined {
	const value = values.get(name)?.value;
	return Array.isArray(value) ? value : undefined;
}

function agrees(a: number, b: number): boolean {
	return Math.abs(roundMoney(a - b)) <= CENT_TOLERANCE;
}

export interface ComplianceCheck {
	id: string;
	/** null when the values needed for the check were not found. */
	passed: boolean | null;
	detail: string;
}

export function appliesCompliance(fields: FieldDefinition[]): boolean {
	const names = new Set(fields.map((field) => field.name));
	return names.has('invoice_number') && names.has('total');
}

/**
 * Invoice compliance: required fields present; each line's quantity x unit price equals its
 * amount; the lines add up to the subtotal; subtotal + tax = total; the tax matches the rate;
 * the due date is not before the invoice date; VAT IDs are well-formed. `compliant` is true
 * when no check failed and every required field has a value; `issues` says what did not hold.
 */
export function invoiceCompliance(fields: FieldDefinition[], values: Values): Record<string, unknown> {
	const checks: ComplianceCheck[] = [];
	const check = (id: string, passed: boolean | null, detail: string) => checks.push({ id, passed, detail });

	const missing = fields.filter((field) => field.required && (values.get(field.name)?.value ?? null) === null).map((field) => field.name);
	check('required_fields_present', missing.length === 0, missing.length === 0 ? 'all required fields have a value' : `missing: ${missing.join(', ')}`);

	const lines = rowsOf(values, 'line_items');
	const subtotal = numberOf(values, 'subtotal');
	const tax = numberOf(values, 'tax_amount');
	const total = numberOf(values, 'total');
	const rate = numberOf(values, 'tax_rate');

	if (lines && lines.length > 0) {
		const wrong = lines.flatMap((row, index) => {
			const { quantity, unit_price: unitPrice, amount } = row;
			if (typeof quantity !== 'number' || typeof unitPrice !== 'number' || typeof amount !== 'number') return [];
			return agrees(quantity * unitPrice, amount) ? [] : [`line ${index + 1}: ${quantity} x ${unitPrice} = ${roundMoney(quantity * unitPrice)}, printed ${amount}`];
		});
		check('line_amounts', wrong.length === 0, wrong.length === 0 ? 'quantity x unit price = amount on every line' : wrong.join('; '));
		const amounts = lines.map((row) => row.amount).filter((amount): amount is number => typeof amount === 'number');
		const sum = roundMoney(amounts.reduce((a, b) => a + b, 0));
		if (subtotal === undefined) check('lines_match_subtotal', null, 'no subtotal found');
		else check('lines_match_subtotal', agrees(sum, subtotal), `lines add up to ${sum}, subtotal ${subtotal}`);
	} else {
		check('lines_match_subtotal', null, 'no line items found');
	}

	if (subtotal !== undefined && tax !== undefined && total !== undefined) {
		const expected = roundMoney(subtotal + tax);
		check('totals_add_up', agrees(expected, total), `subtotal ${subtotal} + tax ${tax} = ${expected}, total ${total}`);
	} else if (subtotal !== undefined && tax === undefined && total !== undefined) {
		check('totals_add_up', agrees(subtotal, total), `no tax found; subtotal ${subtotal}, total ${total}`);
	} else {
		check('totals_add_up', null, 'subtotal, tax or total not found');
	}

	if (subtotal !== undefined && tax !== undefined && rate !== undefined) {
		const expected = roundMoney((subtotal * rate) / 100);
		check('tax_matches_rate', agrees(expected, tax), `${rate}% of ${subtotal} = ${expected}, tax ${tax}`);
	} else {
		check('tax_matches_rate', null, 'subtotal, tax or rate not found');
	}

	const issued = values.get('invoice_date')?.value;
	const due = values.get('due_date')?.value;
	if (typeof issued === 'string' && typeof due === 'string') check('due_after_issue', due >= issued, `issued ${issued}, due ${due}`);
	else check('due_after_issue', null, 'invoice or due date not found');

	for (const name of ['supplier_vat_id', 'customer_vat_id']) {
		const id = values.get(name)?.value;
		if (typeof id === 'string') check(`${name}_format`, isValidVatId(id), `${id} ${isValidVatId(id) ? 'is' : 'is not'} a well-formed VAT ID`);
	}

	const failed = checks.filter((entry) => entry.passed === false);
	return {
		compliant: failed.length === 0,
		checks,
		missing_required_fields: missing,
		issues: failed.map((entry) => `${entry.id}: ${entry.detail}`),
		tolerance: CENT_TOLERANCE,
	};
}

export function appliesBalanceCheck(fields: FieldDefinition[]): boolean {
	const names = new Set(fields.map((field) => field.name));
	return names.has('opening_balance') && names.has('closing_balance');
}

function sumColumn(rows: TableRow[], column: string): number {
	return roundMoney(rows.reduce((sum, row) => sum + (typeof row[column] === 'number' ? Math.abs(row[column] as number) : 0), 0));
}

/**
 * Bank-statement balance check: opening balance + credits - debits = closing balance, over
 * every transaction read. A statement with a signed `amount` column instead of debit/credit
 * columns is summed by sign. `balanced` is false whenever the check could not be made.
 */
export function balanceCheck(values: Values): Record<string, unknown> {
	const opening = numberOf(values, 'opening_balance');
	const closing = numberOf(values, 'closing_balance');
	const rows = rowsOf(values, 'transactions') ?? [];
	const signed = rows.some((row) => typeof row.amount === 'number');
	const credits = signed ? roundMoney(rows.reduce((sum, row) => sum + Math.max(0, Number(row.amount ?? 0)), 0)) : sumColumn(rows, 'credit');
	const debits = signed ? roundMoney(rows.reduce((sum, row) => sum - Math.min(0, Number(row.amount ?? 0)), 0)) : sumColumn(rows, 'debit');
	const issues: string[] = [];
	if (opening === undefined) issues.push('opening balance not found');
	if (closing === undefined) issues.push('closing balance not found');
	if (rows.length === 0) issues.push('no transactions found');
	const computed = opening === undefined ? null : roundMoney(opening + credits - debits);
	const difference = computed === null || closing === undefined ? null : roundMoney(closing - computed);
	const balanced = difference !== null && Math.abs(difference) <= CENT_TOLERANCE;
	if (difference !== null && !balanced) issues.push(`closing balance differs from the computed one by ${difference}`);
	return {
		balanced,
		opening_balance: opening ?? null,
		total_credits: credits,
		total_debits: debits,
		computed_closing_balance: computed,
		closing_balance: closing ?? null,
		difference,
		transactions_count: rows.length,
		tolerance: CENT_TOLERANCE,
		issues,
	};
}
