/**
 * The Template picker's "By Name" mode, its rules without a request: which name was given, and
 * which template of the account's list it names.
 *
 * A name is matched exactly after trimming (blanks around it, on either side, are ignored):
 * capital letters and the spaces inside count. The service does not make names unique nor say
 * they ignore case, so "invoice" and "Invoice" may be two templates; a name that matched either
 * could extract with the wrong template and charge pages for it. What users see in the list is
 * what they type. A name that differs only in case or by a typo is suggested in the error instead.
 */
import { isControlCharacter } from '../../../shared/preflight/ids';

/** On failure, `message` and `description` are ready for `itemError` (no item label). */
export type NameCheck = { ok: true; name: string } | { ok: false; message: string; description: string };
export type NameMatch = { ok: true; id: string } | { ok: false; message: string; description: string };

/** What the matching needs of a template (spec 4.5 list entries have more). */
export interface NamedTemplate {
	scanner_id: string;
	name: string;
}

/** At most this many names (or IDs) are quoted in an error. */
const SHOWN = 5;

const CREATE_HELP = "Create the template with Template > Create (or in the service's app), or pick one From List.";

/** The name the user gave, trimmed, or what is wrong with it (an expression may give anything). */
export function checkTemplateName(value: unknown): NameCheck {
	if (Array.isArray(value)) {
		return {
			ok: false,
			message: `The template name is a list of ${value.length} value${value.length === 1 ? '' : 's'}, not one name`,
			description: 'Give one template name per item: split the list into items first (for example with the Split Out node), then map the name',
		};
	}
	if (typeof value === 'object' && value !== null) {
		const keys = Object.keys(value);
		const some = keys.length ? ` (with ${keys.slice(0, 3).map((key) => `"${printable(key)}"`).join(', ')}${keys.length > 3 ? ', ...' : ''})` : '';
		return { ok: false, message: `The template name is an object${some}, not a name`, description: 'Map the field that holds the name, for example {{ $json.template }}, not the whole object' };
	}
	if (typeof value === 'boolean') {
		return { ok: false, message: `The template name is ${value}, not a name`, description: 'Map the field that holds the template\'s name, for example {{ $json.template }}' };
	}
	const name = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (name === '') {
		return {
			ok: false,
			message: 'No template name was given',
			description: 'Type the template\'s name as the list shows it (e.g. Invoice), or map it with an expression (e.g. {{ $json.template }})',
		};
	}
	return { ok: true, name };
}

/** The ID of the one template named `name` (trimmed, exact), or why there is none. */
export function findTemplateByName(templates: readonly NamedTemplate[], name: string): NameMatch {
	const wanted = name.trim();
	const named = templates.filter((template) => template.name.trim() === wanted);
	if (named.length === 1) return { ok: true, id: named[0].scanner_id };
	if (named.length > 1) {
		return {
			ok: false,
			message: `${named.length} templates in this account are named ${quoted(wanted)}`,
			description: `A name must lead to one template. Pick the one you mean From List, or By ID (their IDs: ${listed(named.map((template) => template.scanner_id))}), or rename the others with Template > Update.`,
		};
	}
	const message = `No template in this account is named ${quoted(wanted)}`;
	if (templates.length === 0) return { ok: false, message, description: `This account has no templates. ${CREATE_HELP}` };
	const ranked = templates
		.map((template) => ({ name: template.name.trim(), closeness: closeness(template.name.trim(), wanted) }))
		.sort((a, b) => a.closeness - b.closeness || a.name.localeCompare(b.name));
	const names = [...new Set(ranked.map((template) => template.name))];
	const suggestion = ranked[0].closeness <= TYPO ? `Did you mean ${quoted(ranked[0].name)}? ` : '';
	return {
		ok: false,
		message,
		description: `${suggestion}Names must match exactly, capital letters included. This account's templates include ${listed(names.map(quoted))}. ${CREATE_HELP}`,
	};
}

/** Closeness ranks: the same but for capital letters, a typo or two, one inside the other, anything else. */
const SAME_BUT_CASE = 0;
const TYPO = 1;
const CONTAINED = 2;
const OTHER = 3;

function closeness(candidate: string, wanted: string): number {
	const a = candidate.toLowerCase();
	const b = wanted.toLowerCase();
	if (a === b) return SAME_BUT_CASE;
	if (Math.min(a.length, b.length) > 3 && withinTwoEdits(a, b)) return TYPO;
	if (a.includes(b) || b.includes(a)) return CONTAINED;
	return OTHER;
}

/** Whether at most two insertions, deletions or substitutions turn `a` into `b` (a banded Levenshtein distance). */
function withinTwoEdits(a: string, b: string): boolean {
	if (Math.abs(a.length - b.length) > 2) return false;
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		}
		if (Math.min(...current) > 2) return false;
		previous = current;
	}
	return previous[b.length] <= 2;
}

/** `"a", "b", "c" and 4 more`: at most SHOWN entries. */
function listed(entries: string[]): string {
	const shown = entries.slice(0, SHOWN).join(', ');
	return entries.length > SHOWN ? `${shown} and ${entries.length - SHOWN} more` : shown;
}

function quoted(name: string): string {
	const text = printable(name);
	return `"${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`;
}

/** Control characters (C0 and DEL) shown as '?'. */
function printable(text: string): string {
	return [...text].map((char) => (isControlCharacter(char) ? '?' : char)).join('');
}
