import { formatCount } from '../../limits';
import { decodeEncodedWords } from './encodedWords';
import { hexValue } from './encodings';
import { MIME_LIMITS } from './limits';
import { decodeCharset, ENCODER } from './text';

/**
 * Parameterized header values (RFC 2045 5.1, RFC 2183, RFC 6266): `type/subtype; name=value; ...`,
 * with RFC 2231's extended parameters (`filename*=utf-8''Rechnung%20M%C3%BCller.pdf`, or in
 * sections `filename*0*=`, `filename*1=`, ... in any order). The package's one reader of them: an
 * attached email's parts and a download's Content-Disposition.
 *
 * Headers are untrusted: one pass forward over the text, the parameters capped in number, the
 * sections of one capped in number and length, decoded only when asked. A malformed RFC 2231 parameter (a section missing or given
 * twice, a bad percent-encoding, too many or too long sections) is no value, with the reason: a
 * name is then taken from the parameters that remain, never guessed from a part.
 */

export interface Parameterized {
	/** The value before the first `;`, lower case (`application/pdf`, `attachment`). */
	value: string;
	/** Plain parameters by lower-case name, unquoted; the first of a name given twice. */
	params: Map<string, string>;
	/**
	 * The RFC 2231 parameter of this lower-case name (without `*`): its sections joined and decoded,
	 * or why they cannot be; undefined when the header has none. Decoded when asked, so a header of
	 * thousands of them costs their reading only.
	 */
	extended(name: string): { text: string } | { unreadable: string } | undefined;
}

const EQUALS = 0x3d;
const SEMICOLON = 0x3b;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function parseParameterized(header: string): Parameterized {
	const params = new Map<string, string>();
	const sectioned = new Map<string, Sections>();
	let cut = false;
	let semicolon = header.indexOf(';');
	if (semicolon < 0) semicolon = header.length;
	let at = semicolon + 1;
	let read = 0;
	while (at < header.length) {
		if (read++ >= MIME_LIMITS.parameters) {
			cut = true;
			break;
		}
		let nameEnd = at;
		for (let code = header.charCodeAt(nameEnd); nameEnd < header.length && code !== EQUALS && code !== SEMICOLON; code = header.charCodeAt(++nameEnd));
		if (nameEnd >= header.length) break;
		// A parameter without a value (`inline; foo; filename=a.pdf`) is passed over.
		if (header.charCodeAt(nameEnd) === SEMICOLON) {
			at = nameEnd + 1;
			continue;
		}
		const name = header.slice(at, nameEnd).trim().toLowerCase();
		const { value, next } = valueAt(header, nameEnd + 1);
		at = next;
		const star = name.indexOf('*');
		if (star >= 0) addSection(sectioned, name.slice(0, star), name.slice(star + 1), value);
		else if (name && !params.has(name)) params.set(name, value);
	}
	const extended = (name: string) => {
		const sections = sectioned.get(name);
		if (!sections) return undefined;
		// Its other sections may be among the parameters not read.
		if (cut && !sections.problem) return { unreadable: `its header has over ${MIME_LIMITS.parameters} parameters: its RFC 2231 sections were not all read` };
		const joined = sections.problem ?? joinSections(sections);
		return typeof joined === 'string' ? { unreadable: joined } : joined;
	};
	return { value: header.slice(0, semicolon).trim().toLowerCase(), params, extended };
}

/**
 * The file name the parameters give (RFC 2183 `filename`, else the older `name`): the RFC 2231
 * form first, then the plain one, whose RFC 2047 encoded words (`=?UTF-8?B?...?=`, which many
 * programs write there) are decoded. A name over MIME_LIMITS.textChars is none.
 */
export function fileNameIn({ params, extended }: Parameterized): string | undefined {
	for (const name of ['filename', 'name']) {
		const decoded = extended(name);
		if (decoded && 'text' in decoded && decoded.text) return decoded.text;
		const plain = params.get(name);
		if (plain === undefined || plain.length > MIME_LIMITS.textChars) continue;
		const text = decodeEncodedWords(plain).trim();
		if (text) return text;
	}
	return undefined;
}

/** The file name in an HTTP response's Content-Disposition (RFC 6266), read as a part's; undefined without one. */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
	return header === undefined ? undefined : fileNameIn(parseParameterized(header));
}

/** A parameter's value at `from` (after its `=`): a quoted string unquoted, or the token up to `;`; and where the next parameter starts. */
function valueAt(header: string, from: number): { value: string; next: number } {
	const length = header.length;
	let at = from;
	while (at < length && (header[at] === ' ' || header[at] === '\t')) at++;
	if (header[at] !== '"') {
		let stop = header.indexOf(';', at);
		if (stop < 0) stop = length;
		return { value: header.slice(at, stop).trim(), next: stop + 1 };
	}
	let value = '';
	let segment = ++at;
	for (let code = header.charCodeAt(at); at < length && code !== QUOTE; code = header.charCodeAt(++at)) {
		// A quoted pair (RFC 5322 3.2.1): the backslash dropped, the character after it kept.
		if (code === BACKSLASH && at + 1 < length) {
			value += header.slice(segment, at);
			segment = ++at;
		}
	}
	value += header.slice(segment, at);
	let next = header.indexOf(';', at);
	if (next < 0) next = length;
	return { value, next: next + 1 };
}

interface Section {
	value: string;
	/** `name*n*=`: percent-encoded, section 0 led by `charset'language'`. */
	encoded: boolean;
}

/** One RFC 2231 parameter's sections as read: by index (`whole` for `name*=`), or why it cannot be read. */
interface Sections {
	whole?: string;
	byIndex: Array<Section | undefined>;
	count: number;
	chars: number;
	problem?: string;
}

/** `rest` is what follows the `*` of `base*`: '' (the whole value, encoded), `n` (plain section) or `n*`. */
function addSection(sectioned: Map<string, Sections>, base: string, rest: string, value: string): void {
	let sections = sectioned.get(base);
	if (sections?.problem) return;
	const section = /^(0|[1-9]\d{0,8})(\*?)$/.exec(rest);
	if (!base || (rest !== '' && !section)) return;
	if (!sections) {
		sections = { byIndex: [], count: 0, chars: 0 };
		sectioned.set(base, sections);
	}
	sections.chars += value.length;
	if (sections.chars > MIME_LIMITS.textChars) {
		sections.problem = `its RFC 2231 value is over ${formatCount(MIME_LIMITS.textChars)} characters`;
		return;
	}
	if (!section) {
		if (sections.whole !== undefined || sections.count > 0) sections.problem = 'it is given whole and in RFC 2231 sections, or whole twice';
		sections.whole = value;
		return;
	}
	const index = Number(section[1]);
	if (index >= MIME_LIMITS.sections) sections.problem = `it has over ${MIME_LIMITS.sections} RFC 2231 sections`;
	else if (sections.whole !== undefined) sections.problem = 'it is given whole and in RFC 2231 sections, or whole twice';
	else if (sections.byIndex[index]) sections.problem = `its RFC 2231 section ${index} is given twice`;
	else {
		sections.byIndex[index] = { value, encoded: section[2] === '*' };
		sections.count++;
	}
}

/** The sections joined in their order and decoded, or why they cannot be. */
function joinSections(sections: Sections): { text: string } | string {
	const list = sections.whole !== undefined ? [{ value: sections.whole, encoded: true }] : sections.byIndex;
	// Encoded bytes are gathered across sections (a character's bytes may be split between two), then decoded once.
	const pending = new Uint8Array(sections.chars * 3);
	let size = 0;
	let charset: string | undefined;
	let text = '';
	for (let n = 0; n < list.length; n++) {
		const section = list[n];
		if (!section) return `its RFC 2231 section ${n} is missing`;
		if (!section.encoded) {
			text += decodeCharset(pending.subarray(0, size), charset) + section.value;
			size = 0;
			continue;
		}
		let value = section.value;
		if (n === 0) {
			// charset'language'value; software that leaves the two quotes out gets the default.
			const first = value.indexOf("'");
			const second = first < 0 ? -1 : value.indexOf("'", first + 1);
			if (second >= 0) {
				charset = value.slice(0, first);
				value = value.slice(second + 1);
			}
		}
		const decoded = percentDecodedInto(value, pending, size);
		if (decoded < 0) return 'its RFC 2231 value has a malformed percent-encoding';
		size = decoded;
	}
	if (list.length === 0) return 'its RFC 2231 section 0 is missing';
	return { text: (text + decodeCharset(pending.subarray(0, size), charset)).trim() };
}

/** `value`'s bytes percent-decoded into `out` from `size`: the new size, or -1 for a `%` without two hex digits. */
function percentDecodedInto(value: string, out: Uint8Array, size: number): number {
	// Raw non-ASCII characters (against the RFC, but written) are taken as their UTF-8 bytes.
	const raw = ENCODER.encode(value);
	let end = size;
	for (let at = 0; at < raw.length; at++) {
		let byte = raw[at];
		if (byte === 0x25) {
			const high = hexValue(raw[at + 1]);
			const low = hexValue(raw[at + 2]);
			if (high < 0 || low < 0) return -1;
			byte = high * 16 + low;
			at += 2;
		}
		out[end++] = byte;
	}
	return end;
}
