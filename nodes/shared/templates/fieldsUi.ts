import type { IDataObject } from 'n8n-workflow';

import type { FieldDefinition } from '../schemas';

/**
 * The "Fields" parameter (fields.description.ts) read into spec fields, for validation.ts to check.
 */

/** The value of the "Fields" fixed collection (see fields.description.ts). */
export interface FieldsUiCollection {
	field?: FieldUi[];
}

export interface FieldUi extends ColumnUi {
	columns?: { column?: ColumnUi[] };
}

/** The settings under a field's or column's Options. */
export interface OptionalSettingsUi {
	label?: string;
	/** A boolean from the toggle; an expression may give anything. */
	required?: boolean | string;
	formatHint?: string;
	examples?: string;
}

/**
 * A field or column row. The optional settings sit under `options`; rows saved by version 0.1.0
 * hold them flat beside the name, and are read as well (Options wins where both are set).
 */
export interface ColumnUi extends OptionalSettingsUi {
	name?: string;
	type?: string;
	description?: string;
	options?: OptionalSettingsUi;
}

/** The UI's fields as spec fields. Empty optional values are left out: the service gets no "". */
export function fieldsFromUi(collection: FieldsUiCollection | IDataObject | undefined): FieldDefinition[] {
	const fields = ((collection as FieldsUiCollection | undefined)?.field ?? []) as FieldUi[];
	return fields.map((ui) => {
		const field = fieldFromUi(ui);
		// Columns only mean something on a table; a type changed after adding columns drops them.
		if (field.type === 'table') field.item_fields = (ui.columns?.column ?? []).map(fieldFromUi);
		return field;
	});
}

function fieldFromUi(ui: ColumnUi): FieldDefinition {
	const settings = optionalSettings(ui);
	const field: FieldDefinition = { name: (ui.name ?? '').trim() };
	const put = (key: 'label' | 'description' | 'format_hint', value: string | undefined) => {
		const text = value?.trim();
		if (text) field[key] = text;
	};
	put('label', settings.label);
	if (ui.type) field.type = ui.type;
	// Anything but "no" is passed on: true, or a value the checks then refuse with its path.
	if (settings.required !== false) field.required = settings.required as boolean;
	put('description', ui.description);
	put('format_hint', settings.formatHint);
	const examples = splitExamples(settings.examples ?? '');
	if (examples.length > 0) field.examples = examples;
	return field;
}

/** Options first, then the flat 0.1.0 values; an empty text or an unset switch does not count. */
function optionalSettings(ui: ColumnUi): OptionalSettingsUi {
	const current = ui.options ?? {};
	const text = (key: 'label' | 'formatHint' | 'examples') => {
		const value = current[key];
		return typeof value === 'string' && value.trim() !== '' ? value : ui[key];
	};
	return {
		label: text('label'),
		// A Required added under Options wins either way: off there overrides a flat 0.1.0 "on".
		required: (readRequired(current.required !== undefined && current.required !== '' ? current.required : ui.required) ?? false) as boolean | string,
		formatHint: text('formatHint'),
		examples: text('examples'),
	};
}

/** A toggle holds a boolean; an expression may give "true"/"false", or anything else (then refused by the checks). */
function readRequired(value: unknown): unknown {
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
	return value;
}

/**
 * One example per line; on a single line, commas separate them. A comma between two digits
 * (1,234.56) belongs to the example, so money amounts survive.
 */
export function splitExamples(text: string): string[] {
	const parts = text.includes('\n') ? text.split(/\r?\n/) : text.split(/,(?!\d)|(?<!\d),/);
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}
