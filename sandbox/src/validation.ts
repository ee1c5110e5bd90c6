import { FIELD_TYPES, TEMPLATE_LIMITS, type FieldType } from './spec';
import type { FieldDefinition } from './types';

/**
 * Template input checks of spec 2.1, 2.2, 4.6, 4.8 and 8. Every failure names the offending
 * path (`fields[2].item_fields[0].name: must be at most 100 characters`) so a caller can find it.
 */
export class ValidationFailure extends Error {}

export interface ScannerInput {
	name?: string;
	description?: string;
	fields?: FieldDefinition[];
}

export function validateCreateInput(body: unknown): Required<ScannerInput> {
	const input = readScannerInput(body);
	if (input.name === undefined) fail('name', 'is required');
	const complete = { name: input.name, description: input.description ?? '', fields: input.fields ?? [] };
	checkDefinitionSize(complete);
	return complete;
}

/** Spec 4.8: at least one of the three members; `fields` replaces the whole list. */
export function validateUpdateInput(body: unknown, current: Required<ScannerInput>): Required<ScannerInput> {
	const input = readScannerInput(body);
	if (input.name === undefined && input.description === undefined && input.fields === undefined) {
		fail('body', 'at least one of name, description or fields is required');
	}
	const merged = {
		name: input.name ?? current.name,
		description: input.description ?? current.description,
		fields: input.fields ?? current.fields,
	};
	checkDefinitionSize(merged);
	return merged;
}

function readScannerInput(body: unknown): ScannerInput {
	if (!isPlainObject(body)) fail('body', 'must be a JSON object');
	const input: ScannerInput = {};
	if (body.name !== undefined) {
		const name = readString(body.name, 'name', TEMPLATE_LIMITS.scannerName);
		if (name.trim() === '') fail('name', 'must not be empty');
		input.name = name;
	}
	if (body.description !== undefined) {
		input.description = readString(body.description, 'description', TEMPLATE_LIMITS.scannerDescription);
	}
	if (body.fields !== undefined) input.fields = readFields(body.fields, 'fields', TEMPLATE_LIMITS.fields, true);
	return input;
}

function readFields(value: unknown, path: string, maxItems: number, tablesAllowed: boolean): FieldDefinition[] {
	if (!Array.isArray(value)) fail(path, 'must be an array');
	if (value.length > maxItems) fail(path, `must have at most ${maxItems} items`);
	return value.map((field, index) => readField(field, `${path}[${index}]`, tablesAllowed));
}

function readField(value: unknown, path: string, tablesAllowed: boolean): FieldDefinition {
	if (!isPlainObject(value)) fail(path, 'must be an object');
	if (value.name === undefined) fail(`${path}.name`, 'is required');
	const name = readString(value.name, `${path}.name`, TEMPLATE_LIMITS.fieldName);
	if (name.trim() === '') fail(`${path}.name`, 'must not be empty');
	const field: FieldDefinition = { name };
	if (value.label !== undefined) field.label = readString(value.label, `${path}.label`, TEMPLATE_LIMITS.fieldLabel);
	if (value.type !== undefined) field.type = readType(value.type, `${path}.type`);
	if (value.value_type !== undefined) field.value_type = readType(value.value_type, `${path}.value_type`);
	if (field.type && field.value_type && field.type !== field.value_type) {
		fail(`${path}.value_type`, 'must equal type when both are given (value_type is an alias of type)');
	}
	if (value.required !== undefined) {
		if (typeof value.required !== 'boolean') fail(`${path}.required`, 'must be a boolean');
		field.required = value.required;
	}
	if (value.description !== undefined) {
		field.description = readString(value.description, `${path}.description`, TEMPLATE_LIMITS.fieldDescription);
	}
	if (value.format_hint !== undefined) {
		field.format_hint = readString(value.format_hint, `${path}.format_hint`, TEMPLATE_LIMITS.formatHint);
	}
	if (value.examples !== undefined) field.examples = readExamples(value.examples, `${path}.examples`);

	const type = field.type ?? field.value_type;
	if (type === 'table') {
		if (!tablesAllowed) fail(`${path}.type`, 'tables cannot be nested (item fields are one level only)');
		if (value.item_fields === undefined) fail(`${path}.item_fields`, 'is required when type is table');
		field.item_fields = readFields(value.item_fields, `${path}.item_fields`, TEMPLATE_LIMITS.itemFields, false);
		if (field.item_fields.length === 0) fail(`${path}.item_fields`, 'must have at least 1 item when type is table');
	} else if (value.item_fields !== undefined) {
		fail(`${path}.item_fields`, 'is only allowed when type is table');
	}
	return field;
}

function readType(value: unknown, path: string): FieldType {
	if (typeof value !== 'string' || !(FIELD_TYPES as readonly string[]).includes(value)) {
		fail(path, `must be one of ${FIELD_TYPES.join(', ')}`);
	}
	return value as FieldType;
}

function readExamples(value: unknown, path: string): string[] {
	if (!Array.isArray(value)) fail(path, 'must be an array of strings');
	if (value.length > TEMPLATE_LIMITS.examples) fail(path, `must have at most ${TEMPLATE_LIMITS.examples} items`);
	value.forEach((example, index) => {
		if (typeof example !== 'string') fail(`${path}[${index}]`, 'must be a string');
	});
	return value as string[];
}

function readString(value: unknown, path: string, maxChars: number): string {
	if (typeof value !== 'string') fail(path, 'must be a string');
	// Limits count characters, not UTF-16 code units.
	if ([...value].length > maxChars) fail(path, `must be at most ${maxChars} characters`);
	return value;
}

function checkDefinitionSize(definition: Required<ScannerInput>): void {
	const bytes = Buffer.byteLength(JSON.stringify(definition), 'utf8');
	if (bytes > TEMPLATE_LIMITS.definitionBytes) {
		fail('body', `template definition must be at most ${TEMPLATE_LIMITS.definitionBytes} bytes of JSON (is ${bytes})`);
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, problem: string): never {
	throw new ValidationFailure(`${path}: ${problem}`);
}
