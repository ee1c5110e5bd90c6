import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { templateFieldsProperties } from '../../nodes/DocumentExtraction/actions/template/fields.description';
import { FIELD_TYPES, TEMPLATE_LIMITS } from '../../nodes/shared/limits';
import { parseFieldsJson } from '../../nodes/shared/templates/fieldsJson';
import { fieldsFromUi, splitExamples } from '../../nodes/shared/templates/fieldsUi';
import { validateTemplateInput, type TemplateValidation } from '../../nodes/shared/templates/validation';

const text = (length: number, char = 'a') => char.repeat(length);
const field = (name: string, extra: Record<string, unknown> = {}) => ({ name, ...extra });
const fields = (count: number) => Array.from({ length: count }, (_, i) => field(`field_${i}`));
const table = (name: string, columns: unknown[]) => field(name, { type: 'table', item_fields: columns });

function expectInvalid(validation: TemplateValidation, path: string, ...messageParts: Array<string | RegExp>) {
	if (validation.ok) throw new Error(`expected a problem at ${path}, the input passed`);
	expect(validation.path).toBe(path);
	for (const part of messageParts) expect(validation.message).toMatch(part);
}

const create = (input: Record<string, unknown>) => validateTemplateInput({ name: 'Supplier invoice', ...input }, 'create');

describe('validateTemplateInput: the template', () => {
	it('accepts a complete definition and returns it as it will be sent', () => {
		const input = {
			name: '  Supplier invoice ',
			description: 'Invoices from suppliers',
			fields: [
				field(' invoice_number ', { label: 'Invoice Number', type: 'string', required: true, format_hint: 'INV-####', examples: ['INV-0001'] }),
				field('total', { value_type: 'currency' }),
				table('lines', [field('description'), field('quantity', { type: 'number' })]),
			],
		};
		expect(validateTemplateInput(input, 'create')).toEqual({
			ok: true,
			value: {
				name: 'Supplier invoice',
				description: 'Invoices from suppliers',
				fields: [
					{ name: 'invoice_number', label: 'Invoice Number', type: 'string', required: true, format_hint: 'INV-####', examples: ['INV-0001'] },
					{ name: 'total', value_type: 'currency' },
					{ name: 'lines', type: 'table', item_fields: [{ name: 'description' }, { name: 'quantity', type: 'number' }] },
				],
			},
		});
	});

	it('needs a non-empty name on create', () => {
		expectInvalid(validateTemplateInput({}, 'create'), 'name', /needs a name/);
		expectInvalid(validateTemplateInput({ name: '   ' }, 'create'), 'name', /empty/);
		expectInvalid(validateTemplateInput({ name: 42 }, 'create'), 'name', /must be text/);
	});

	it(`limits the name to ${TEMPLATE_LIMITS.nameLength} characters and says the actual length`, () => {
		expect(create({ name: text(TEMPLATE_LIMITS.nameLength) }).ok).toBe(true);
		expectInvalid(create({ name: text(TEMPLATE_LIMITS.nameLength + 1) }), 'name', '201 characters', /limit is 200/);
	});

	it(`limits the description to ${TEMPLATE_LIMITS.descriptionLength} characters`, () => {
		expect(create({ description: text(TEMPLATE_LIMITS.descriptionLength) }).ok).toBe(true);
		expectInvalid(create({ description: text(TEMPLATE_LIMITS.descriptionLength + 1) }), 'description', '2,001 characters', /limit is 2,000/);
	});

	it(`allows at most ${TEMPLATE_LIMITS.fields} fields`, () => {
		expect(create({ fields: fields(TEMPLATE_LIMITS.fields) }).ok).toBe(true);
		expectInvalid(create({ fields: fields(TEMPLATE_LIMITS.fields + 1) }), 'fields', '101 fields', /limit is 100/);
		expectInvalid(create({ fields: { name: 'x' } }), 'fields', /must be a list/);
	});

	it('update needs at least one of name, description or fields, and checks what is given', () => {
		expectInvalid(validateTemplateInput({}, 'update'), '', /Nothing to update/);
		expectInvalid(validateTemplateInput({ name: null, description: undefined }, 'update'), '', /Nothing to update/);
		expect(validateTemplateInput({ description: 'new text' }, 'update')).toEqual({ ok: true, value: { description: 'new text' } });
		expect(validateTemplateInput({ fields: [field('a')] }, 'update')).toEqual({ ok: true, value: { fields: [{ name: 'a' }] } });
		expectInvalid(validateTemplateInput({ name: '' }, 'update'), 'name', /empty/);
	});
});

describe('validateTemplateInput: fields, with the exact path', () => {
	it.each<[string, unknown[], string, ...RegExp[]]>([
		['a field that is not an object', ['text'], 'fields[0]', /must be an object/],
		['a missing name', [field('a'), {}], 'fields[1].name', /needs a name/],
		['an empty name', [field('  ')], 'fields[0].name', /empty/],
		['a name that is not text', [{ name: 5 }], 'fields[0].name', /must be text/],
		['a name over 100', [field(text(101))], 'fields[0].name', /101 characters long; the limit is 100/],
		['a label over 200', [field('a'), field('b', { label: text(201) })], 'fields[1].label', /201 characters long; the limit is 200/],
		['a description over 2,000', [field('a', { description: text(2001) })], 'fields[0].description', /2,001 characters long; the limit is 2,000/],
		['a format hint over 500', [field('a', { format_hint: text(501) })], 'fields[0].format_hint', /501 characters long; the limit is 500/],
		['11 examples', [field('a', { examples: Array.from({ length: 11 }, (_, i) => `E${i}`) })], 'fields[0].examples', /11 examples; the limit is 10/],
		['examples that are not a list', [field('a', { examples: 'A, B' })], 'fields[0].examples', /must be a list/],
		['an example that is not text', [field('a', { examples: ['A', 'B', 3] })], 'fields[0].examples[2]', /Example 3/],
		['an unknown type', [field('a', { type: 'text' })], 'fields[0].type', /"text"/, /string, number, date/],
		['an unknown value_type', [field('a', { value_type: 'money' })], 'fields[0].value_type', /"money"/],
		['type and value_type that disagree', [field('a', { type: 'number', value_type: 'string' })], 'fields[0].value_type', /"number"/, /"string"/],
		['required that is not a boolean', [field('a', { required: 'yes' })], 'fields[0].required', /true or false/],
		['a table without item_fields', [field('a'), field('b'), field('c'), field('lines', { type: 'table' })], 'fields[3].item_fields', /no columns/],
		['a table with empty item_fields', [table('lines', [])], 'fields[0].item_fields', /no columns/],
		['item_fields on a field that is not a table', [field('a', { type: 'string', item_fields: [field('x')] })], 'fields[0].item_fields', /not a table/],
		['item_fields on a field without a type', [field('a', { item_fields: [field('x')] })], 'fields[0].item_fields', /not a table/],
		['a table inside a table', [table('lines', [field('a'), table('inner', [field('x')])])], 'fields[0].item_fields[1].type', /tables cannot contain tables/],
		['a nested table given by value_type', [table('lines', [field('inner', { value_type: 'table', item_fields: [field('x')] })])], 'fields[0].item_fields[0].value_type', /tables cannot contain tables/],
		['a column name over 100', [field('a'), field('b'), field('c'), table('lines', [field(text(101))])], 'fields[3].item_fields[0].name', /101 characters/],
		['a column label over 200', [table('lines', [field('a', { label: text(201) })])], 'fields[0].item_fields[0].label', /201 characters/],
		['101 columns', [table('lines', fields(101))], 'fields[0].item_fields', /101 columns; the limit is 100/],
		['a camelCase key the service would ignore', [field('a', { formatHint: 'YYYY' })], 'fields[0].formatHint', /did you mean "format_hint"/],
		['itemFields instead of item_fields', [field('a', { type: 'table', itemFields: [field('x')] })], 'fields[0].itemFields', /did you mean "item_fields"/],
	])('refuses %s', (_case, input, path, ...message) => {
		expectInvalid(create({ fields: input }), path, ...message);
	});

	it('accepts each limit exactly', () => {
		const atLimits = field(text(TEMPLATE_LIMITS.fieldNameLength), {
			label: text(TEMPLATE_LIMITS.fieldLabelLength),
			description: text(TEMPLATE_LIMITS.fieldDescriptionLength),
			format_hint: text(TEMPLATE_LIMITS.formatHintLength),
			examples: Array.from({ length: TEMPLATE_LIMITS.examplesPerField }, (_, i) => `E${i}`),
		});
		expect(create({ fields: [atLimits, table('lines', fields(TEMPLATE_LIMITS.tableColumns))] }).ok).toBe(true);
	});

	it('accepts every spec type, and type and value_type that agree', () => {
		const all = FIELD_TYPES.filter((type) => type !== 'table').map((type) => field(`f_${type}`, { type, value_type: type }));
		expect(create({ fields: [...all, field('t', { value_type: 'table', item_fields: [field('x')] })] }).ok).toBe(true);
	});

	it('refuses duplicate names within one level, since they would be the same output key', () => {
		expectInvalid(create({ fields: [field('total'), field('date'), field(' total ')] }), 'fields[2].name', /"total"/, /fields\[0\]/);
		expectInvalid(create({ fields: [table('lines', [field('qty'), field('qty')])] }), 'fields[0].item_fields[1].name', /fields\[0\]\.item_fields\[0\]/);
		// A column may share a name with a field: they never meet in one output object.
		expect(create({ fields: [field('description'), table('lines', [field('description')])] }).ok).toBe(true);
	});

	it('treats null optional values as not given (hand-written JSON)', () => {
		expect(create({ fields: [field('a', { label: null, type: null, examples: null })] })).toEqual({
			ok: true,
			value: { name: 'Supplier invoice', fields: [{ name: 'a' }] },
		});
	});

	it('passes unknown keys through but never __proto__', () => {
		const parsed = JSON.parse('[{ "name": "a", "x_custom": 1, "__proto__": { "polluted": true } }]');
		const validation = create({ fields: parsed });
		expect(validation).toEqual({ ok: true, value: { name: 'Supplier invoice', fields: [{ name: 'a', x_custom: 1 }] } });
		if (!validation.ok) return;
		const first = validation.value.fields?.[0] as Record<string, unknown>;
		expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
		expect(first.polluted).toBeUndefined();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('validateTemplateInput: whole definition size', () => {
	const limit = TEMPLATE_LIMITS.definitionBytes;
	const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

	/** A definition of exactly `target` UTF-8 bytes, with two-byte characters so bytes != characters. */
	function definitionOf(target: number) {
		const definition = { name: 'Big', fields: Array.from({ length: 60 }, (_, i) => ({ name: `f${String(i).padStart(2, '0')}`, description: '' })) };
		let remaining = target - bytesOf(definition);
		for (const item of definition.fields) {
			const twoByte = Math.min(Math.floor(remaining / 2), TEMPLATE_LIMITS.fieldDescriptionLength - 10);
			item.description = 'é'.repeat(twoByte);
			remaining -= twoByte * 2;
		}
		definition.fields[0].description += 'a'.repeat(remaining);
		expect(bytesOf(definition)).toBe(target);
		return definition;
	}

	it(`accepts exactly ${limit} bytes of UTF-8 JSON`, () => {
		expect(validateTemplateInput(definitionOf(limit), 'create').ok).toBe(true);
	});

	it('refuses one byte more, with both sizes', () => {
		const definition = definitionOf(limit + 1);
		expect(definition.fields.every((item) => item.description.length <= TEMPLATE_LIMITS.fieldDescriptionLength)).toBe(true);
		expectInvalid(validateTemplateInput(definition, 'create'), 'fields', `${(limit + 1).toLocaleString('en-US')} bytes`, /the limit is 100 KB/);
	});
});

describe('parseFieldsJson', () => {
	it('accepts a list of fields, or an object with a fields list (e.g. a template from Get Template)', () => {
		expect(parseFieldsJson('[{ "name": "a" }]')).toEqual({ ok: true, fields: [{ name: 'a' }] });
		expect(parseFieldsJson('{ "scanner_id": "s1", "name": "Invoice", "fields": [{ "name": "b" }] }')).toEqual({ ok: true, fields: [{ name: 'b' }] });
		expect(parseFieldsJson([{ name: 'c' }])).toEqual({ ok: true, fields: [{ name: 'c' }] });
	});

	it('says where invalid JSON breaks, as line and column', () => {
		expect(parseFieldsJson('[{ "name": "a" }')).toEqual({ ok: false, message: expect.stringMatching(/^The fields JSON is not valid: .*\(line 1, column 17\)$/) });
		const multiLine = '[\n  { "name": "a" },\n  { "name": "b",, }\n]';
		expect(parseFieldsJson(multiLine)).toEqual({ ok: false, message: expect.stringMatching(/\(line 3, column 17\)$/) });
		expect(parseFieldsJson('[{ "name": "a" },')).toEqual({ ok: false, message: expect.stringMatching(/\(line 1, column 18\)$/) });
	});

	it('explains JSON that is not a list of fields', () => {
		expect(parseFieldsJson('')).toEqual({ ok: false, message: expect.stringMatching(/empty/) });
		expect(parseFieldsJson('"invoice_number"')).toEqual({ ok: false, message: expect.stringMatching(/not a string/) });
		expect(parseFieldsJson('{ "name": "a" }')).toEqual({ ok: false, message: expect.stringMatching(/"fields" list, not an object/) });
		expect(parseFieldsJson('not json')).toEqual({ ok: false, message: expect.stringMatching(/^The fields JSON is not valid: .+/) });
	});
});

describe('fieldsFromUi', () => {
	it('turns the UI rows into spec fields, leaving out empty optional values', () => {
		const ui = {
			field: [
				{
					name: ' invoice_number ',
					type: 'string',
					description: ' Top right ',
					options: { label: 'Invoice Number', required: true, formatHint: '', examples: 'INV-0001\nINV-0002\n' },
				},
				{ name: 'total', type: 'currency', description: '', options: { label: '', required: false, formatHint: '0.00', examples: '1,234.56, 99.00' } },
				{
					name: 'lines',
					type: 'table',
					options: { label: 'Lines' },
					columns: { column: [{ name: 'qty', type: 'number', options: { required: true } }, { name: 'item', type: 'string', options: { examples: '' } }] },
				},
				{ name: 'note', type: 'string', columns: { column: [{ name: 'left over', type: 'string' }] } },
			],
		};
		expect(fieldsFromUi(ui)).toEqual([
			{ name: 'invoice_number', label: 'Invoice Number', type: 'string', required: true, description: 'Top right', examples: ['INV-0001', 'INV-0002'] },
			{ name: 'total', type: 'currency', format_hint: '0.00', examples: ['1,234.56', '99.00'] },
			{ name: 'lines', label: 'Lines', type: 'table', item_fields: [{ name: 'qty', type: 'number', required: true }, { name: 'item', type: 'string' }] },
			{ name: 'note', type: 'string' },
		]);
	});

	it('reads rows saved by version 0.1.0, whose settings sit beside the name instead of under Options', () => {
		const saved = {
			field: [
				{ name: ' invoice_number ', label: 'Invoice Number', type: 'string', required: true, description: ' Top right ', formatHint: '', examples: 'INV-0001\nINV-0002\n' },
				{ name: 'total', label: '', type: 'currency', required: false, description: '', formatHint: '0.00', examples: '1,234.56, 99.00' },
				{
					name: 'lines',
					type: 'table',
					columns: { column: [{ name: 'qty', type: 'number', required: true }, { name: 'item', type: 'string', examples: '' }] },
				},
			],
		};
		expect(fieldsFromUi(saved)).toEqual([
			{ name: 'invoice_number', label: 'Invoice Number', type: 'string', required: true, description: 'Top right', examples: ['INV-0001', 'INV-0002'] },
			{ name: 'total', type: 'currency', format_hint: '0.00', examples: ['1,234.56', '99.00'] },
			{ name: 'lines', type: 'table', item_fields: [{ name: 'qty', type: 'number', required: true }, { name: 'item', type: 'string' }] },
		]);
	});

	it('prefers a setting under Options to the same setting saved flat by 0.1.0, and keeps the flat ones Options leaves empty', () => {
		const mixed = { field: [{ name: 'total', type: 'currency', label: 'Old label', formatHint: '0.00', required: true, options: { label: 'New label', formatHint: ' ' } }] };
		expect(fieldsFromUi(mixed)).toEqual([{ name: 'total', label: 'New label', type: 'currency', required: true, format_hint: '0.00' }]);
	});

	it('gives nothing for an empty collection', () => {
		expect(fieldsFromUi(undefined)).toEqual([]);
		expect(fieldsFromUi({})).toEqual([]);
	});

	it('leaves a table without columns for the validation to report at its path', () => {
		const converted = fieldsFromUi({ field: [{ name: 'lines', type: 'table' }] });
		expect(converted).toEqual([{ name: 'lines', type: 'table', item_fields: [] }]);
		expectInvalid(create({ fields: converted }), 'fields[0].item_fields', /no columns/);
	});

	it.each([
		['A, B,C', ['A', 'B', 'C']],
		['1,234.56', ['1,234.56']],
		['1,234.56, 2,000.00', ['1,234.56', '2,000.00']],
		['one, two\nthree', ['one, two', 'three']],
		['\r\n a \r\n\r\n b ', ['a', 'b']],
		[' , ', []],
	])('splits examples %j', (input, expected) => {
		expect(splitExamples(input)).toEqual(expected);
	});
});

describe('fields.description (the UI fieldsFromUi reads)', () => {
	const properties = templateFieldsProperties({ show: { resource: ['template'], operation: ['create'] } });
	const byName = (list: INodeProperties[], name: string) => {
		const found = list.find((property) => property.name === name);
		if (!found) throw new Error(`no parameter ${name}`);
		return found;
	};
	const valuesOf = (property: INodeProperties, option: string) =>
		((property.options as INodePropertyCollection[]).find((entry) => entry.name === option)?.values ?? []) as INodeProperties[];

	it('offers UI or JSON, each shown only for its choice, inside the given display options', () => {
		expect((byName(properties, 'fieldsDefinedAs').options as INodePropertyOptions[]).map((option) => option.value)).toEqual(['ui', 'json']);
		expect(byName(properties, 'fieldsUi').displayOptions?.show).toEqual({ resource: ['template'], operation: ['create'], fieldsDefinedAs: ['ui'] });
		expect(byName(properties, 'fieldsJson').displayOptions?.show).toEqual({ resource: ['template'], operation: ['create'], fieldsDefinedAs: ['json'] });
	});

	it('keeps name, type and description in view and the rarely used settings under Options, with every spec type, and columns without tables', () => {
		const fieldValues = valuesOf(byName(properties, 'fieldsUi'), 'field');
		const inView = (list: INodeProperties[]) => list.filter((property) => !property.displayOptions).map((property) => property.name);
		expect(inView(fieldValues)).toEqual(['name', 'type', 'description']);
		const optionsOf = (list: INodeProperties[], shownFor: string) =>
			list.filter((property) => property.name === 'options' && JSON.stringify(property.displayOptions ?? {}).includes(shownFor))[0];
		expect((optionsOf(fieldValues, 'hide').options as INodeProperties[]).map((option) => option.name)).toEqual(['examples', 'formatHint', 'label', 'required']);
		// A table's value is its rows: no format hint and no examples for it.
		expect((optionsOf(fieldValues, 'show').options as INodeProperties[]).map((option) => option.name)).toEqual(['label', 'required']);
		const typeValues = (byName(fieldValues, 'type').options as INodePropertyOptions[]).map((option) => option.value);
		expect([...typeValues].sort()).toEqual([...FIELD_TYPES].sort());

		const columns = byName(fieldValues, 'columns');
		expect(columns.displayOptions?.show).toEqual({ type: ['table'] });
		const columnValues = valuesOf(columns, 'column');
		expect(inView(columnValues)).toEqual(['name', 'type', 'description', 'options']);
		expect((byName(columnValues, 'options').options as INodeProperties[]).map((option) => option.name)).toEqual(['examples', 'formatHint', 'label', 'required']);
		const columnTypes = (byName(columnValues, 'type').options as INodePropertyOptions[]).map((option) => option.value);
		expect(columnTypes).not.toContain('table');
		expect(columnTypes).toHaveLength(FIELD_TYPES.length - 1);
	});

	it('gives columns placeholders of their own, not the invoice number\'s', () => {
		const fieldValues = valuesOf(byName(properties, 'fieldsUi'), 'field');
		const columnValues = valuesOf(byName(fieldValues, 'columns'), 'column');
		const placeholders = (list: INodeProperties[]) => [
			...list.map((property) => property.placeholder),
			...((byName(list, 'options').options ?? []) as INodeProperties[]).map((option) => option.placeholder),
		];
		const examplesOnly = (list: Array<string | undefined>) => list.filter((placeholder) => placeholder?.startsWith('e.g.'));
		const fieldPlaceholders = new Set(examplesOnly(placeholders(fieldValues)));
		const columnPlaceholders = examplesOnly(placeholders(columnValues));
		expect(columnPlaceholders.length).toBeGreaterThanOrEqual(5);
		for (const placeholder of columnPlaceholders) expect(fieldPlaceholders.has(placeholder), String(placeholder)).toBe(false);
		expect(columnPlaceholders.join(' ')).not.toMatch(/invoice|INV-/i);
	});

	it('ships a default JSON that parses and validates', () => {
		const parsed = parseFieldsJson(byName(properties, 'fieldsJson').default);
		if (!parsed.ok) throw new Error(parsed.message);
		expect(create({ fields: parsed.fields }).ok).toBe(true);
	});
});
