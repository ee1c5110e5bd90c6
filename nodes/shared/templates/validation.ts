import { FIELD_TYPES, formatCount, formatKilobytes, TEMPLATE_LIMITS, type FieldType } from '../limits';
import { UNSAFE_KEYS, type FieldDefinition } from '../schemas';

/**
 * Template definitions (spec 2.1, 2.2, 4.6, 4.8 and the limits of part 8): checked here, before
 * any request, so that a mistake is reported with its exact place (`fields[3].item_fields[0].name`)
 * instead of the service's general VALIDATION_ERROR.
 */

export interface TemplateInput {
	name?: string;
	description?: string;
	fields?: FieldDefinition[];
}

export type TemplateValidation =
	| { ok: true; value: TemplateInput }
	/** `path` is where the problem is, in the request's JSON terms; '' when it is the input as a whole. */
	| { ok: false; path: string; message: string };

export function validateTemplateInput(
	input: { name?: unknown; description?: unknown; fields?: unknown },
	mode: 'create' | 'update',
): TemplateValidation {
	try {
		const value: TemplateInput = {};
		const name = checkTemplateName(input.name, mode);
		if (name !== undefined) value.name = name;
		const description = optionalText(input.description, 'description', 'The template description', TEMPLATE_LIMITS.descriptionLength);
		if (description !== undefined) value.description = description;
		if (isGiven(input.fields)) value.fields = checkFieldList(input.fields, 'fields', 'field');
		// Spec 4.8: an update must change something.
		if (mode === 'update' && Object.keys(value).length === 0) {
			throw new InvalidTemplate('', 'Nothing to update: give a new name, a new description or new fields');
		}
		checkDefinitionSize(value);
		return { ok: true, value };
	} catch (error) {
		// The checks below stop at the first problem by throwing it; nothing else throws here.
		if (error instanceof InvalidTemplate) return { ok: false, path: error.path, message: error.message };
		return { ok: false, path: '', message: `The template definition could not be checked: ${String(error)}` };
	}
}

class InvalidTemplate extends Error {
	constructor(
		readonly path: string,
		message: string,
	) {
		super(message);
	}
}

/** null counts as "not given": JSON written by hand often says `"label": null`. */
function isGiven(value: unknown): boolean {
	return value !== undefined && value !== null;
}

function checkTemplateName(value: unknown, mode: 'create' | 'update'): string | undefined {
	if (!isGiven(value)) {
		if (mode === 'update') return undefined;
		throw new InvalidTemplate('name', 'The template needs a name');
	}
	const name = requireText(value, 'name', 'The template name');
	if (name.trim() === '') throw new InvalidTemplate('name', 'The template name is empty');
	checkLength(name.trim(), TEMPLATE_LIMITS.nameLength, 'name', 'The template name');
	return name.trim();
}

function requireText(value: unknown, path: string, subject: string): string {
	if (typeof value !== 'string') throw new InvalidTemplate(path, `${subject} must be text, not ${kindOf(value)}`);
	return value;
}

function optionalText(value: unknown, path: string, subject: string, limit: number): string | undefined {
	if (!isGiven(value)) return undefined;
	const text = requireText(value, path, subject);
	checkLength(text, limit, path, subject);
	return text;
}

/**
 * Spec 2.2 and 8 give the limits in characters: counted as Unicode characters (code points), so an
 * emoji is one character, not the two UTF-16 units JavaScript's `length` would count.
 */
function characterCount(text: string): number {
	// Each low surrogate of a valid pair is the second half of one character.
	let pairs = 0;
	for (let i = 1; i < text.length; i++) {
		const code = text.charCodeAt(i);
		const previous = text.charCodeAt(i - 1);
		if (code >= 0xdc00 && code <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff) {
			pairs++;
			i++;
		}
	}
	return text.length - pairs;
}

function checkLength(text: string, limit: number, path: string, subject: string): void {
	if (text.length <= limit) return;
	const characters = characterCount(text);
	if (characters > limit) {
		throw new InvalidTemplate(path, `${subject} is ${formatCount(characters)} characters long; the limit is ${formatCount(limit)}`);
	}
}

/** What a value is, in words, for messages that refuse it. */
export function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

type Level = 'field' | 'column';

/** A list of fields (level 'field') or of a table's columns (level 'column'). */
function checkFieldList(value: unknown, path: string, level: Level, owner?: string): FieldDefinition[] {
	const subject = level === 'field' ? 'The template' : `The table ${owner}`;
	const noun = level === 'field' ? 'fields' : 'columns';
	if (!Array.isArray(value)) throw new InvalidTemplate(path, `${subject}'s ${noun} must be a list, not ${kindOf(value)}`);
	const limit = level === 'field' ? TEMPLATE_LIMITS.fields : TEMPLATE_LIMITS.tableColumns;
	if (value.length > limit) throw new InvalidTemplate(path, `${subject} has ${value.length} ${noun}; the limit is ${limit}`);

	// Field names become the output keys: two fields with one name would overwrite each other.
	const firstIndexByName = new Map<string, number>();
	return value.map((item, index) => {
		const field = checkField(item, `${path}[${index}]`, level, index);
		const earlier = firstIndexByName.get(field.name);
		if (earlier !== undefined) {
			throw new InvalidTemplate(
				`${path}[${index}].name`,
				`The name "${field.name}" is already used by ${path}[${earlier}]: each ${level} needs its own name, because names become the output keys`,
			);
		}
		firstIndexByName.set(field.name, index);
		return field;
	});
}

const KNOWN_FIELD_KEYS = ['name', 'label', 'type', 'value_type', 'required', 'description', 'format_hint', 'examples', 'item_fields'];

function checkField(value: unknown, path: string, level: Level, index: number): FieldDefinition {
	const noun = level === 'field' ? 'Field' : 'Column';
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new InvalidTemplate(path, `${noun} ${index + 1} must be an object such as { "name": "invoice_number" }, not ${kindOf(value)}`);
	}
	const input = value as Record<string, unknown>;
	checkKeySpelling(input, path);

	if (!isGiven(input.name)) throw new InvalidTemplate(`${path}.name`, `${noun} ${index + 1} needs a name`);
	const name = requireText(input.name, `${path}.name`, `The name of ${noun.toLowerCase()} ${index + 1}`).trim();
	if (name === '') throw new InvalidTemplate(`${path}.name`, `The name of ${noun.toLowerCase()} ${index + 1} is empty`);
	const subject = `${noun.toLowerCase()} "${name}"`;
	const startsSentence = `${noun} "${name}"`;
	checkLength(name, TEMPLATE_LIMITS.fieldNameLength, `${path}.name`, `The name of ${noun.toLowerCase()} ${index + 1}`);

	const field: FieldDefinition = { name };
	const label = optionalText(input.label, `${path}.label`, `The label of ${subject}`, TEMPLATE_LIMITS.fieldLabelLength);
	if (label !== undefined) field.label = label;
	const type = checkType(input, path, subject);
	if (isGiven(input.type)) field.type = type;
	if (isGiven(input.value_type)) field.value_type = type;
	if (isGiven(input.required)) {
		if (typeof input.required !== 'boolean') {
			throw new InvalidTemplate(`${path}.required`, `"required" of ${subject} must be true or false, not ${kindOf(input.required)}`);
		}
		field.required = input.required;
	}
	const description = optionalText(input.description, `${path}.description`, `The description of ${subject}`, TEMPLATE_LIMITS.fieldDescriptionLength);
	if (description !== undefined) field.description = description;
	const formatHint = optionalText(input.format_hint, `${path}.format_hint`, `The format hint of ${subject}`, TEMPLATE_LIMITS.formatHintLength);
	if (formatHint !== undefined) field.format_hint = formatHint;
	if (isGiven(input.examples)) field.examples = checkExamples(input.examples, `${path}.examples`, subject);

	const itemFieldsPath = `${path}.item_fields`;
	if (type === 'table') {
		// Spec 2.2: exactly one level, tables do not nest.
		if (level === 'column') {
			throw new InvalidTemplate(`${path}.${isGiven(input.type) ? 'type' : 'value_type'}`, `${startsSentence} is a table inside a table; tables cannot contain tables`);
		}
		if (!isGiven(input.item_fields) || (Array.isArray(input.item_fields) && input.item_fields.length === 0)) {
			throw new InvalidTemplate(itemFieldsPath, `${startsSentence} is a table but has no columns: add at least one column (item_fields)`);
		}
		field.item_fields = checkFieldList(input.item_fields, itemFieldsPath, 'column', `"${name}"`);
	} else if (isGiven(input.item_fields)) {
		throw new InvalidTemplate(itemFieldsPath, `${startsSentence} has columns (item_fields) but is not a table: set its type to "table" or remove the columns`);
	}
	// Unknown keys pass through: a definition read back from the service may carry more than spec 2.2 lists.
	for (const [key, entry] of Object.entries(input)) {
		if (!KNOWN_FIELD_KEYS.includes(key) && !UNSAFE_KEYS.has(key)) field[key] = entry;
	}
	return field;
}

/** `formatHint`, `itemFields`, `valueType`... would be ignored by the service: say so instead. */
function checkKeySpelling(input: Record<string, unknown>, path: string): void {
	const simplify = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, '');
	for (const key of Object.keys(input)) {
		if (KNOWN_FIELD_KEYS.includes(key)) continue;
		const meant = KNOWN_FIELD_KEYS.find((known) => simplify(known) === simplify(key));
		if (meant) throw new InvalidTemplate(`${path}.${key}`, `Unknown key "${key}": did you mean "${meant}"?`);
	}
}

/** `type` and `value_type` are aliases (spec 2.2): each must be a known type, and they must agree. */
function checkType(input: Record<string, unknown>, path: string, subject: string): FieldType | undefined {
	let type: FieldType | undefined;
	for (const key of ['type', 'value_type'] as const) {
		if (!isGiven(input[key])) continue;
		const value = input[key];
		if (typeof value !== 'string' || !(FIELD_TYPES as readonly string[]).includes(value)) {
			throw new InvalidTemplate(
				`${path}.${key}`,
				`The type of ${subject} is ${JSON.stringify(value)}; it must be one of ${FIELD_TYPES.join(', ')}`,
			);
		}
		if (type !== undefined && type !== value) {
			throw new InvalidTemplate(
				`${path}.${key}`,
				`The ${subject} has type "${type}" and value_type "${value}": they are the same setting, give one or make them agree`,
			);
		}
		type = value as FieldType;
	}
	return type;
}

function checkExamples(value: unknown, path: string, subject: string): string[] {
	if (!Array.isArray(value)) throw new InvalidTemplate(path, `The examples of ${subject} must be a list of texts, not ${kindOf(value)}`);
	if (value.length > TEMPLATE_LIMITS.examplesPerField) {
		throw new InvalidTemplate(path, `The ${subject} has ${value.length} examples; the limit is ${TEMPLATE_LIMITS.examplesPerField}`);
	}
	value.forEach((example, index) => {
		if (typeof example !== 'string') {
			throw new InvalidTemplate(`${path}[${index}]`, `Example ${index + 1} of ${subject} must be text, not ${kindOf(example)}`);
		}
	});
	return value as string[];
}

/** Spec 2.2 / 8.1: the whole definition, as UTF-8 JSON, is at most the definition limit. */
function checkDefinitionSize(value: TemplateInput): void {
	const bytes = new TextEncoder().encode(JSON.stringify(value)).byteLength;
	if (bytes > TEMPLATE_LIMITS.definitionBytes) {
		throw new InvalidTemplate(
			value.fields ? 'fields' : '',
			`The template definition is ${formatKilobytes(bytes)} KB (${formatCount(bytes)} bytes) as JSON; the limit is ${formatKilobytes(TEMPLATE_LIMITS.definitionBytes)} KB. Shorten descriptions or remove fields`,
		);
	}
}
