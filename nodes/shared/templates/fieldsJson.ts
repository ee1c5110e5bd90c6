import { kindOf } from './validation';

/** The "Fields (JSON)" parameter read into a list of fields, for validation.ts to check. */

export type FieldsJsonParse = { ok: true; fields: unknown } | { ok: false; message: string };

/**
 * The fields of the JSON parameter: an array of fields, or an object with a `fields` array (so a
 * template read with Get Template can be pasted whole). n8n may hand over an already-parsed value.
 */
export function parseFieldsJson(text: unknown): FieldsJsonParse {
	let value = text;
	if (typeof text === 'string') {
		if (text.trim() === '') return { ok: false, message: 'The fields JSON is empty: give a list such as [{ "name": "invoice_number", "type": "string" }]' };
		try {
			value = JSON.parse(text);
		} catch (error) {
			return { ok: false, message: `The fields JSON is not valid: ${describeJsonError(text, error)}` };
		}
	}
	if (Array.isArray(value)) return { ok: true, fields: value };
	if (typeof value === 'object' && value !== null && 'fields' in value) return { ok: true, fields: (value as { fields: unknown }).fields };
	return {
		ok: false,
		message: `The fields JSON must be a list of fields or an object with a "fields" list, not ${kindOf(value)}`,
	};
}

/** V8's reason plus line and column: positions mean little to someone editing a JSON box. */
function describeJsonError(text: string, error: unknown): string {
	const raw = error instanceof Error ? error.message : String(error);
	const reason = raw
		.replace(/\s*\(line \d+ column \d+\)/, '')
		.replace(/ in JSON at position \d+/, '')
		.trim();
	const position = Number(/at position (\d+)/.exec(raw)?.[1] ?? (/Unexpected end of JSON input/.test(raw) ? text.length : NaN));
	if (!Number.isInteger(position)) return reason;
	const before = text.slice(0, position);
	const line = before.split('\n').length;
	const column = position - before.lastIndexOf('\n');
	return `${reason} (line ${line}, column ${column})`;
}
