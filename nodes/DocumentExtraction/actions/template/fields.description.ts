import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The template's fields, defined in the UI or as JSON (spec 2.2). `fieldsFromUi` and
 * `parseFieldsJson` in shared/templateDefinition.ts read what these parameters hold; the names
 * used here (`fieldsUi.field[].columns.column[]`, `formatHint`...) are the ones they expect.
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

/** Settings shared by a field and a table column; `types` differ because tables do not nest. */
function fieldSettings(noun: 'field' | 'column', types: INodePropertyOptions[]): INodeProperties[] {
	return [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: noun === 'field' ? 'e.g. invoice_number' : 'e.g. unit_price',
			description: `Key of the ${noun} in the output (up to 100 characters). Use snake_case, e.g. invoice_number.`,
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
			displayName: 'Label',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: noun === 'field' ? 'e.g. Invoice Number' : 'e.g. Unit Price',
			description: 'Human-readable name (up to 200 characters)',
		},
		{
			displayName: 'Required',
			name: 'required',
			type: 'boolean',
			default: false,
			description: `Whether the document is expected to always have this ${noun}`,
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: 'e.g. The invoice number, top right, after "Invoice No."',
			description:
				'Where the value appears on the document and how to write it (up to 2,000 characters). The extraction model reads this, so a precise description improves results.',
		},
		{
			displayName: 'Format Hint',
			name: 'formatHint',
			type: 'string',
			default: '',
			placeholder: 'e.g. YYYY-MM-DD',
			description: 'Expected format of the value (up to 500 characters)',
		},
		{
			displayName: 'Examples',
			name: 'examples',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: 'e.g. INV-0001, INV-0002',
			description:
				'Up to 10 example values, one per line or separated by commas (a comma between digits, as in 1,234.56, stays in the example). Use made-up examples that only show the format: the model may copy them.',
		},
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
				{ name: 'Using the Form Below', value: 'ui', description: 'Add the fields one by one' },
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
					values: [
						...fieldSettings('field', TYPE_OPTIONS),
						{
							displayName: 'Columns',
							name: 'columns',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true, sortable: true },
							placeholder: 'Add Column',
							default: {},
							displayOptions: { show: { type: ['table'] } },
							description: 'The columns of each row of the table (up to 100), e.g. description, quantity, unit_price',
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
					],
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
				'A list of fields, or an object with a "fields" list (as returned by Get Template). Each field: name (required), label, type (string, number, date, boolean, currency, email, phone or table), required, description, format_hint, examples (list of texts), and for tables item_fields (the columns; tables do not nest). At most 100 fields.',
		},
	];
}
