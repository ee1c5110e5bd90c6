/**
 * Result and template ids checked before any request: what is wrong with an id is said before a
 * URL is built from it, and nothing but an id can reach the path.
 */

/** Spec 4.4: a result id is a UUID. Any version, any case, surrounding blanks ignored. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for a UUID. Checked before any request, so that `../scanners`, `%2F`, `?` or `#` in an
 * id taken from earlier data can never reach another endpoint.
 */
export function isResultId(value: string): boolean {
	return UUID.test(value.trim());
}

/** On failure, `message` and `description` have no final period (callers append their own sentence). */
export type IdCheck = { ok: true; id: string } | { ok: false; message: string; description: string };

/** A result id ready for the URL, or what is wrong with it. */
export function checkResultId(value: unknown): IdCheck {
	const notText = notAnId(value, 'result ID', 'result_id');
	if (notText) return notText;
	const id = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (id === '') {
		return {
			ok: false,
			message: 'The result ID is empty',
			description: 'Map the result_id returned by an Extract operation (for example {{ $json.result_id }})',
		};
	}
	if (!isResultId(id)) {
		return {
			ok: false,
			message: `"${shorten(id)}" is not a result ID`,
			description: 'A result ID looks like 123e4567-e89b-12d3-a456-426614174000: use the result_id returned by an Extract operation',
		};
	}
	return { ok: true, id };
}

const TEMPLATE_ID_HELP = 'Pick a template from the list, type its name in By Name, or map its ID (the scanner_id returned by Get Many Templates)';

/**
 * A template id ready for the transport: trimmed and non-empty. Template ids have no documented
 * shape, so only what can never be an id is refused: `.` and `..` survive URL encoding and would
 * walk out of `/scanners/`, and control characters cannot be part of a URL.
 */
export function checkTemplateId(value: unknown): IdCheck {
	const notText = notAnId(value, 'template ID', 'scanner_id');
	if (notText) return notText;
	const id = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (id === '') {
		return { ok: false, message: 'No template was chosen', description: TEMPLATE_ID_HELP };
	}
	if (id === '.' || id === '..' || [...id].some(isControlCharacter)) {
		return { ok: false, message: `"${shorten(id)}" is not a template ID`, description: TEMPLATE_ID_HELP };
	}
	return { ok: true, id };
}

/**
 * An expression that gives a list, an object or a boolean where one ID belongs: say what it gave
 * rather than calling it empty.
 */
function notAnId(value: unknown, noun: string, field: string): IdCheck | undefined {
	if (Array.isArray(value)) {
		return {
			ok: false,
			message: `The ${noun} is a list of ${value.length} value${value.length === 1 ? '' : 's'}, not one ID`,
			description: `Give one ${field} per item: split the list into items first (for example with the Split Out node), then map {{ $json.${field} }}`,
		};
	}
	if (typeof value === 'object' && value !== null) {
		const keys = Object.keys(value);
		return {
			ok: false,
			message: `The ${noun} is an object${keys.length ? ` (with ${keys.slice(0, 3).map((key) => `"${shorten(key)}"`).join(', ')}${keys.length > 3 ? ', ...' : ''})` : ''}, not an ID`,
			description: `Map the field that holds the ID, for example {{ $json.${field} }}, not the whole object`,
		};
	}
	if (typeof value === 'boolean') {
		return { ok: false, message: `The ${noun} is ${value}, not an ID`, description: `Map the ${field} field, for example {{ $json.${field} }}` };
	}
	return undefined;
}

/** A character that cannot be part of text or of a URL (C0 controls and DEL). */
export function isControlCharacter(char: string): boolean {
	const code = char.charCodeAt(0);
	return code < 0x20 || code === 0x7f;
}

function shorten(value: string): string {
	const printable = [...value].map((char) => (isControlCharacter(char) ? '?' : char)).join('');
	return printable.length > 60 ? `${printable.slice(0, 57)}...` : printable;
}
