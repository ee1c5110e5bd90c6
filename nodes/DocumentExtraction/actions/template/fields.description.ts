import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FIELD_TYPES, formatCount, TEMPLATE_LIMITS } from '../../../shared/limits';

/**
 * The template's fields, defined in the UI or as JSON (spec 2.2). `fieldsFromUi` and
 * `parseFieldsJson` in shared/templates/ (fieldsUi.ts, fieldsJson.ts) read what these parameters hold; the names
 * used here (`fieldsUi.field[].columns.column[]`, `options.formatHint`...) are the ones they
 * expect.
 */

/** Spec 2.2 types in the user's words. Values are the wire names. */
const TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Date', value: 'date', description: 'A date, e.g. an invoice or due date' },
	{ name: 'Email', value: 'email', description: 'An email address' },
	{ name: 'Money Amount', value: 'currency', description: 'An amount of money, e.g. a total or unit price' },
	{ name: 'Number', value: 'number', description: 'A number, e.g. a quantity' },
	{ name: 'Phone', value: 'phone', description: 'A phone number' },
	{ name: 'Table (Repeating Rows)', value: 'table', description: 'A repeating group such as invoice lines; define its columns below' },
	{ name: 'Text', value: 'string', description: 'Any text, e.g. a name or an invoice number' },
	{ name: 'Yes/No', value: 'boolean', description: 'True or false, e.g. "is the invoice paid"' },
];

type Noun = 'field' | 'column';

/** Placeholders of a field and of a table column: a column gets its own, not the invoice number's. */
const PLACEHOLDERS: Record<Noun, Record<'name' | 'label' | 'description' | 'formatHint' | 'examples', string>> = {
	field: {
		name: 'e.g. invoice_number',
		label: 'e.g. Invoice Number',
		description: 'e.g. The invoice number, top right, after "Invoice No."',
		formatHint: 'e.g. YYYY-MM-DD',
		examples: 'e.g. INV-0001, INV-0002',
	},
	column: {
		name: 'e.g. quantity',
		label: 'e.g. Quantity',
		description: 'e.g. The number of units on the line, in the Qty column',
		formatHint: 'e.g. A whole number',
		examples: 'e.g. 1, 12',
	},
};

/** The settings of a field or column that are used less often, in the order n8n lists them. */
function optionalSettings(noun: Noun, kind: 'value' | 'table'): INodeProperties[] {
	const settings: INodeProperties[] = [
		{
			displayName: 'Examples',
			name: 'examples',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: PLACEHOLDERS[noun].examples,
			description:
				`Up to ${TEMPLATE_LIMITS.examplesPerField} example values, one per line or separated by commas (a comma between digits, as in 1,234.56, stays in the example). Use made-up examples that only show the format: the model may copy them.`,
		},
		{
			displayName: 'Format Hint',
			name: 'formatHint',
			type: 'string',
			default: '',
			placeholder: PLACEHOLDERS[noun].formatHint,
			description: `Expected format of the value (up to ${formatCount(TEMPLATE_LIMITS.formatHintLength)} characters)`,
		},
		{
			displayName: 'Label',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: PLACEHOLDERS[noun].label,
			description: `Human-readable name (up to ${formatCount(TEMPLATE_LIMITS.fieldLabelLength)} characters)`,
		},
		{
			displayName: 'Required',
			name: 'required',
			type: 'boolean',
			default: false,
			description: `Whether the document is expected to always have this ${noun}`,
		},
	];
	// A table's value is its rows: a format or example values mean nothing for it.
	return kind === 'table' ? settings.filter((setting) => setting.name === 'label' || setting.name === 'required') : settings;
}

/**
 * Version 0.1.0 kept Label, Required, Format Hint and Examples beside Name and Type. Saved
 * workflows hold them there, and n8n drops every value the description does not declare, so
 * they stay declared at that level, shown only while they hold a value (new fields never do).
 * `fieldsFromUi` reads them when Options does not say otherwise.
 */
function legacySettings(noun: Noun): INodeProperties[] {
	const moved = ' Set with an earlier version of this node; the same setting under Options replaces it.';
	const whileSet = (name: string): IDisplayOptions => ({ show: { [name]: [{ _cnd: { exists: true } }] } });
	return optionalSettings(noun, 'value').map((setting) => ({
		...setting,
		description: `${String(setting.description).replace(/\.?$/, '.')}${moved}`,
		displayOptions: setting.type === 'boolean' ? { show: { [setting.name]: [true] } } : whileSet(setting.name),
	}));
}

/** Name, type and description in view; the rest under Options. `types` differ: tables do not nest. */
function fieldSettings(noun: Noun, types: INodePropertyOptions[], extra: INodeProperties[] = []): INodeProperties[] {
	const optionsCollection = (kind: 'value' | 'table', displayOptions?: IDisplayOptions): INodeProperties => ({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(displayOptions ? { displayOptions } : {}),
		options: optionalSettings(noun, kind),
	});
	return [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: PLACEHOLDERS[noun].name,
			description: `Key of the ${noun} in the output (up to ${formatCount(TEMPLATE_LIMITS.fieldNameLength)} characters). Use snake_case, e.g. ${noun === 'field' ? 'invoice_number' : 'unit_price'}.`,
		},
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: types,
			default: 'string',
			description: `Kind of value the ${noun} holds`,
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: PLACEHOLDERS[noun].description,
			description:
				`Where the value appears on the document and how to write it (up to ${formatCount(TEMPLATE_LIMITS.fieldDescriptionLength)} characters). The extraction model reads this, so a precise description improves results.`,
		},
		...extra,
		...legacySettings(noun),
		// Two collections of one name, never shown together: a table field's has no format or examples.
		...(noun === 'field'
			? [optionsCollection('value', { hide: { type: ['table'] } }), optionsCollection('table', { show: { type: ['table'] } })]
			: [optionsCollection('value')]),
	];
}

/**
 * The "Define Fields" choice, the field rows and the JSON box, each shown where
 * `displayOptions` says (create: the create operation; update: when fields are replaced).
 */
export function templateFieldsProperties(displayOptions: IDisplayOptions): INodeProperties[] {
	const showWhen = (definedAs: 'ui' | 'json'): IDisplayOptions => ({
		...displayOptions,
		show: { ...displayOptions.show, fieldsDefinedAs: [definedAs] },
	});
	return [
		{
			displayName: 'Define Fields',
			name: 'fieldsDefinedAs',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Using Fields Below', value: 'ui', description: 'Add the fields one by one' },
				{ name: 'Using JSON', value: 'json', description: 'Give the fields as a JSON list, e.g. copied from Get Template' },
			],
			default: 'ui',
			displayOptions,
			description: 'How to give the fields the template extracts',
		},
		{
			displayName: 'Fields',
			name: 'fieldsUi',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Field',
			default: {},
			displayOptions: showWhen('ui'),
			description: 'The values to extract from each document. Each field becomes a key of the output.',
			options: [
				{
					name: 'field',
					displayName: 'Field',
					values: fieldSettings('field', TYPE_OPTIONS, [
						{
							displayName: 'Columns',
							name: 'columns',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true, sortable: true },
							placeholder: 'Add Column',
							default: {},
							displayOptions: { show: { type: ['table'] } },
							description: `The columns of each row of the table (up to ${TEMPLATE_LIMITS.tableColumns}), e.g. description, quantity, unit_price`,
							options: [
								{
									name: 'column',
									displayName: 'Column',
									values: fieldSettings(
										'column',
										TYPE_OPTIONS.filter((option) => option.value !== 'table'),
									),
								},
							],
						},
					]),
				},
			],
		},
		{
			displayName: 'Fields (JSON)',
			name: 'fieldsJson',
			type: 'json',
			default:
				'[\n  { "name": "invoice_number", "type": "string", "required": true, "description": "The invoice number, usually top right" },\n  { "name": "total", "type": "currency", "description": "Total amount due, including tax" },\n  {\n    "name": "line_items",\n    "type": "table",\n    "item_fields": [\n      { "name": "description", "type": "string" },\n      { "name": "quantity", "type": "number" },\n      { "name": "unit_price", "type": "currency" }\n    ]\n  }\n]',
			displayOptions: showWhen('json'),
			description:
				`A list of fields, or an object with a "fields" list (as returned by Get Template). Each field: name (required), label, type (${FIELD_TYPES.slice(0, -1).join(', ')} or ${FIELD_TYPES.at(-1)}), required, description, format_hint, examples (list of texts), and for tables item_fields (the columns; tables do not nest). At most ${TEMPLATE_LIMITS.fields} fields.`,
		},
	];
}
