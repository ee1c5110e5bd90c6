import { describe, expect, it } from 'vitest';
import { SAMPLES } from '../../fixtures';
import { FIELD_TYPES, TEMPLATE_LIMITS } from '../../../sandbox/src/spec';
import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import type { FieldDefinition } from '../../../sandbox/src/extraction/types';

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

function checkField(field: FieldDefinition, insideTable: boolean): string[] {
	const problems: string[] = [];
	const where = field.name;
	if (!SNAKE_CASE.test(field.name)) problems.push(`${where}: name is not snake_case`);
	if (field.name.length > TEMPLATE_LIMITS.fieldName) problems.push(`${where}: name too long`);
	if (!field.label || field.label.length > TEMPLATE_LIMITS.fieldLabel) problems.push(`${where}: label missing or too long`);
	if (!field.description || field.description.length > TEMPLATE_LIMITS.fieldDescription) problems.push(`${where}: description missing or too long`);
	if ((field.format_hint?.length ?? 0) > TEMPLATE_LIMITS.formatHint) problems.push(`${where}: format_hint too long`);
	if ((field.examples?.length ?? 0) > TEMPLATE_LIMITS.examples) problems.push(`${where}: too many examples`);
	if (!(FIELD_TYPES as readonly string[]).includes(field.type ?? '')) problems.push(`${where}: type ${field.type} not allowed`);
	if (field.type === 'table') {
		if (insideTable) problems.push(`${where}: tables do not nest`);
		const columns = field.item_fields ?? [];
		if (columns.length === 0 || columns.length > TEMPLATE_LIMITS.itemFields) problems.push(`${where}: needs 1-${TEMPLATE_LIMITS.itemFields} columns`);
		problems.push(...columns.flatMap((column) => checkField(column, true)));
	} else if (field.item_fields) {
		problems.push(`${where}: item_fields on a non-table field`);
	}
	return problems;
}

describe('READY_MADE_TEMPLATES', () => {
	it('are the 8 kinds of spec part 1', () => {
		expect(READY_MADE_TEMPLATES.map((template) => template.name)).toEqual([
			'Invoice',
			'Receipt',
			'Delivery note',
			'Quote',
			'Purchase order',
			'ID and passport',
			'Business card',
			'Bank statement',
		]);
	});

	it.each(READY_MADE_TEMPLATES.map((template) => [template.name, template] as const))('%s respects every limit of spec 2.2 and 8', (_, template) => {
		expect(template.name.length).toBeGreaterThan(0);
		expect(template.name.length).toBeLessThanOrEqual(TEMPLATE_LIMITS.scannerName);
		expect(template.description.length).toBeGreaterThan(20);
		expect(template.description.length).toBeLessThanOrEqual(TEMPLATE_LIMITS.scannerDescription);
		expect(template.fields.length).toBeGreaterThan(0);
		expect(template.fields.length).toBeLessThanOrEqual(TEMPLATE_LIMITS.fields);
		expect(Buffer.byteLength(JSON.stringify(template))).toBeLessThanOrEqual(TEMPLATE_LIMITS.definitionBytes);
		expect(template.fields.flatMap((field) => checkField(field, false))).toEqual([]);
		const names = template.fields.map((field) => field.name);
		expect(new Set(names).size).toBe(names.length);
		expect(template.fields.some((field) => field.required)).toBe(true);
	});

	it('give line items to the documents that have lines, and transactions to the bank statement', () => {
		const tables = Object.fromEntries(READY_MADE_TEMPLATES.map((template) => [template.name, template.fields.filter((field) => field.type === 'table').map((field) => field.name)]));
		expect(tables).toEqual({
			Invoice: ['line_items'],
			Receipt: ['items'],
			'Delivery note': ['items'],
			Quote: ['line_items'],
			'Purchase order': ['line_items'],
			'ID and passport': [],
			'Business card': [],
			'Bank statement': ['transactions'],
		});
	});

	it('keep examples format-only: placeholders that never equal a value of a sample document', () => {
		const examples = READY_MADE_TEMPLATES.flatMap((template) => template.fields.flatMap((field) => [field, ...(field.item_fields ?? [])])).flatMap((field) => field.examples ?? []);
		expect(examples.length).toBeGreaterThan(10);
		const truths = Object.values(SAMPLES).flatMap((sample) => Object.values(sample.expected ?? {}));
		const sampleValues = new Set(truths.filter((value) => typeof value === 'string' || typeof value === 'number').map(String));
		for (const example of examples) {
			expect(sampleValues.has(example), example).toBe(false);
			// Only placeholder letters (X) and digits, or the reserved example.com domain.
			expect(example).toMatch(/^(?:[X\d.:+-]+|[a-z.@]*example\.com)$/);
		}
	});
});
