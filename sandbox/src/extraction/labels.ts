import { fieldTypeOf, parseDate } from './normalize';
import { fold, humanise, labelPattern, overlap, type Cell, type TextLine } from './text-lines';
import type { FieldDefinition } from './types';
import { DOCUMENT_KEYWORDS, FIELD_SYNONYMS, NUMBER_SIGNS, PERCENT_SYNONYMS, RELATED_SYNONYMS, TITLE_DATE_WORDS, TITLES_OF_NUMBER } from './vocabulary';

/**
 * How a label was known; the first are the surest (and give the higher confidence). `related`:
 * a label that names the value on some documents only (`Statement #` for an invoice number).
 */
export type LabelSource = 'label' | 'synonym' | 'name' | 'percent' | 'related';

export interface LabelSpec {
	text: string;
	pattern: RegExp;
	source: LabelSource;
}

export const LABEL_CONFIDENCE: Record<LabelSource, number> = { label: 0.95, synonym: 0.9, name: 0.85, percent: 0.85, related: 0.85 };

const cache = new WeakMap<FieldDefinition, LabelSpec[]>();

/**
 * Every way a field may be labelled in a document: the template's label, the built-in
 * multilingual synonyms for its name, and the name humanised (`due_date` -> `due date`).
 */
export function labelsFor(field: FieldDefinition): LabelSpec[] {
	const cached = cache.get(field);
	if (cached) return cached;
	const seen = new Set<string>();
	const specs: LabelSpec[] = [];
	const add = (text: string | undefined, source: LabelSource) => {
		const key = text === undefined ? '' : fold(text).replace(/[:\s]+$/u, '').trim();
		// Printed apostrophes are often typographic (`Date d’échéance`).
		for (const variant of new Set([key, key.replace(/'/gu, '’')])) {
			if (variant === '' || seen.has(variant)) continue;
			seen.add(variant);
			specs.push({ text: variant, pattern: labelPattern(variant), source });
		}
	};
	add(field.label, 'label');
	for (const synonym of ownEntry(FIELD_SYNONYMS, field.name) ?? []) add(synonym, 'synonym');
	add(humanise(field.name), 'name');
	for (const synonym of ownEntry(RELATED_SYNONYMS, field.name) ?? []) add(synonym, 'related');
	for (const synonym of ownEntry(PERCENT_SYNONYMS, field.name) ?? []) {
		// Same words as other fields' labels: keep them even when already seen.
		specs.push({ text: synonym, pattern: labelPattern(synonym), source: 'percent' });
	}
	cache.set(field, specs);
	return specs;
}

/**
 * A rate before a tax label (`20% VAT`, receipts' tax lines), with the word saying the tax is added
 * or included (`zzgl. 19% MwSt.`, `plus 20% VAT`, `inkl. 7% USt.`, `dont 20 % TVA`).
 */
const RATE_PREFIX = /^(?:(?:zzgl|zuzgl|zuzuglich|plus|inkl|incl|including|enth|enthaltene|enthalten|davon|dont|hiervon|\+)\.?\s*)?\d{1,2}(?:[.,]\d{1,2})?\s?%\s+(?=\p{L})/u;

export interface LabelMatch {
	field: FieldDefinition;
	spec: LabelSpec;
	line: TextLine;
	cellIndex: number;
	/** Characters of the cell the label covers, from the cell's start. */
	length: number;
	/** Where in the cell the label starts (0 but for a rate before it or a label inside the cell). */
	offset?: number;
	/** Where the label's value ends in the cell: the start of the next label in it, if any. */
	end?: number;
}

/** The labels of every field that start `text`, the longest of each field; undefined for none. */
function labelsAt(fields: FieldDefinition[], text: string, offset: number, line: TextLine, cellIndex: number, options: FindOptions): LabelMatch[] {
	const here: LabelMatch[] = [];
	for (const field of fields) {
		let best: LabelMatch | undefined;
		for (const spec of labelsFor(field)) {
			if (offset > 0 && spec.source === 'percent') continue;
			if (spec.source === 'related' && !options.related) continue;
			const length =
				spec.pattern.exec(text)?.[0].length ??
				(spec.source === 'percent' ? undefined : (gluedSignLength(spec, text) ?? runTogetherLength(spec, text) ?? (isDateField(field) ? gluedDateLength(spec, text) : undefined)));
			if (length !== undefined && (!best || offset + length > best.length)) best = { field, spec, line, cellIndex, length: offset + length, offset };
		}
		if (best) here.push(best);
	}
	const longest = Math.max(0, ...here.filter((match) => match.spec.source !== 'percent').map((match) => match.length));
	return here.filter((match) => match.spec.source === 'percent' || match.length >= longest);
}

/**
 * A label ending in `#` printed against its value (`Invoice #INV-12`, `PO#4711`): the label's
 * characters up to the sign, undefined when the text does not start with the label.
 */
function gluedSignLength(spec: LabelSpec, text: string): number | undefined {
	const sign = text.indexOf('#');
	if (!spec.text.endsWith('#') || sign < 0 || !/^[\p{L}\p{N}]/u.test(text.slice(sign + 1))) return undefined;
	const length = spec.pattern.exec(`${text.slice(0, sign + 1)} ${text.slice(sign + 1)}`)?.[0].length;
	return length === sign + 1 ? length : undefined;
}

function isDateField(field: FieldDefinition): boolean {
	return fieldTypeOf(field) === 'date';
}

/** The date that starts `text` (after spaces, a colon or a dot), if one does. */
function startsWithDate(text: string): boolean {
	const rest = text.replace(/^[\s.:]*/u, '');
	const date = parseDate(rest);
	return date !== undefined && rest.startsWith(date.text);
}

/**
 * A date's label printed against its date (`Due date16.09.2026`): the label's characters,
 * undefined when the text does not start with the label and a date right after it.
 */
function gluedDateLength(spec: LabelSpec, text: string): number | undefined {
	const glued = /\p{L}(?=\d)/u.exec(text);
	if (!glued) return undefined;
	const end = glued.index + 1;
	const length = spec.pattern.exec(`${text.slice(0, end)} ${text.slice(end)}`)?.[0].length;
	return length === end && startsWithDate(text.slice(end)) ? length : undefined;
}

/**
 * A label OCR ran together or garbled at its edge (`GROSSAMOUNT`, `DueDate`, `Sub-Totalv`): the
 * label's letters, spaces and hyphens removed, at the start of the text, with at most one stray
 * character before or after them. Labels of 6 letters or more only. Returns the characters the
 * label covers, undefined when it is not there.
 */
function runTogetherLength(spec: LabelSpec, text: string): number | undefined {
	// Letters and separators only (`invoice #` needs its sign), 6 letters or more.
	if (!/^[\p{L}\s\-.]+$/u.test(spec.text) || spec.text.replace(/[^\p{L}]+/gu, '').length < 6) return undefined;
	for (const lead of [0, 1]) {
		if (lead === 1 && (text.length < 2 || /[\s\p{L}\p{N}]/u.test(text[0]))) continue;
		let position = lead;
		let ok = true;
		// The label's letters in order; its separators may be missing or other ones in the text,
		// but the text has no separator where the label has none (`INVO ICE` is not `invoice`).
		for (const char of spec.text) {
			if (/[\s\-.]/u.test(char)) {
				while (position < text.length && /[\s\-.]/u.test(text[position])) position++;
			} else if (text[position] === char) position++;
			else {
				ok = false;
				break;
			}
		}
		if (!ok) continue;
		const next = text.slice(position);
		if (next === '' || !/^[\p{L}\p{N}]/u.test(next)) return position;
		// One stray letter glued to the end (`Sub-Totalv`), nothing after it but a separator.
		if (/^\p{L}(?![\p{L}\p{N}])/u.test(next)) return position + 1;
	}
	return undefined;
}

/**
 * Where a label may start inside a cell after other text: a word followed, soon, by a colon, or
 * by a date (`Service date: 01.01.2026 - Due date16.09.2026`: the second label has no colon).
 */
function innerStarts(text: string): number[] {
	const starts: number[] = [];
	for (const word of text.matchAll(/(?<=\s)[\p{L}#]/gu)) {
		const colon = text.indexOf(':', word.index);
		const digit = text.slice(word.index).search(/\d/u);
		if ((colon > word.index && colon - word.index <= 40) || (digit > 0 && digit <= 40)) starts.push(word.index);
	}
	return starts;
}

/** Labels of date fields starting at `start` inside a cell with their date right after them, colon or not. */
function datedLabelsAt(fields: FieldDefinition[], cell: string, start: number, line: TextLine, cellIndex: number, options: FindOptions): LabelMatch[] {
	const dateFields = fields.filter(isDateField);
	if (dateFields.length === 0) return [];
	return labelsAt(dateFields, cell.slice(start), start, line, cellIndex, options).filter((match) => match.spec.source !== 'percent' && startsWithDate(cell.slice(match.length)));
}

export interface FindOptions {
	/** Take `related` labels too: value reading does, template detection does not. */
	related?: boolean;
}

const SIGN_PATTERNS = NUMBER_SIGNS.map(labelPattern);
const DATE_WORDS = new Set(TITLE_DATE_WORDS);
/** What follows a number sign: nothing (the number stands apart) or a token with digits. */
const NUMBER_AFTER_SIGN = /^[\s.:#]*(?:$|[\p{L}\d\-/]*\d)/u;
/** How many non-empty lines above a lone `n° 123` its title may stand. */
const TITLE_LINES_ABOVE = 2;

/** A document type's code after its title (`Handelsrechnung (380)`, UNTDID 1001). */
const TYPE_CODE = /\s*\(\d{1,4}\)$/u;

/**
 * The title `text` is, alone or with its date (`facture du 29/01/2021`, `rechnung vom 1.2.2021`),
 * or a one-word compound ending with it and its type code (`handelsrechnung (380)`).
 */
function titleWithDate(text: string, titles: string[]): string | undefined {
	const compound = text.replace(TYPE_CODE, '');
	const endsCompound = (word: string) => /^\p{L}+$/u.test(compound) && compound.length > word.length && word.length >= 6 && compound.endsWith(word);
	if (compound !== text || /^\p{L}+$/u.test(text)) {
		const title = titles.find((word) => compound === word || endsCompound(word));
		if (title) return title;
	}
	const title = titles.find((word) => text === word || text.startsWith(`${word} `));
	if (!title) return undefined;
	const rest = text.slice(title.length).trim();
	if (rest === '') return title;
	const [word, ...words] = rest.split(/\s+/u);
	const date = words.join(' ');
	const parsed = DATE_WORDS.has(word) ? parseDate(date) : undefined;
	return parsed !== undefined && date.replace(parsed.text, '').trim() === '' ? title : undefined;
}

/**
 * `N°` or `Nº` touching its number (`N°F-20240000014`): the printed degree sign tells it from a
 * word (`November`), which the folded text cannot. Its length, else undefined.
 */
function gluedDegreeSign(cell: Cell, folded: string, start: number): string | undefined {
	if (fold(cell.text) !== folded) return undefined;
	return /^[Nn][°º](?=[\p{L}\p{N}])/u.exec(cell.text.slice(start))?.[0];
}

/** The folded texts of the cells standing over `cell` in the non-empty lines above. */
function cellsAbove(cell: Cell, above: TextLine[]): string[] {
	return above.flatMap((line) => line.cells.filter((other) => overlap(other, cell) > 0).map((other) => line.folded.slice(other.start, other.end).trim()));
}

/**
 * A number sign after a document title and its date (`Facture du 29/01/2021 n° 123`), or starting
 * a cell under such a title (`Facture du 29/01/2021` over `n° 123`): the number of that document.
 * Positions before `taken` hold another label already.
 */
function titledNumbers(fields: FieldDefinition[], text: string, taken: number, line: TextLine, cellIndex: number, above: TextLine[]): LabelMatch[] {
	const matches: LabelMatch[] = [];
	for (const field of fields) {
		const titles = (ownEntry(DOCUMENT_KEYWORDS, ownEntry(TITLES_OF_NUMBER, field.name) ?? '') ?? []).map(fold);
		if (titles.length === 0) continue;
		for (const start of [0, ...[...text.matchAll(/(?<=\s)\S/gu)].map((word) => word.index)]) {
			if (start < taken) continue;
			const sign = SIGN_PATTERNS.map((pattern) => pattern.exec(text.slice(start))?.[0]).find((found) => found !== undefined) ?? gluedDegreeSign(line.cells[cellIndex], text, start);
			// The number itself follows (or stands in the next cell): `Number of items: 5` is no number sign.
			if (sign === undefined || !NUMBER_AFTER_SIGN.test(text.slice(start + sign.length))) continue;
			// The title above the sign's cell or in the cell before it (`Facture      n° :   2022...`).
			const left = line.cells[cellIndex - 1];
			const before = start === 0 ? [...cellsAbove(line.cells[cellIndex], above), ...(left ? [line.folded.slice(left.start, left.end).trim()] : [])] : [text.slice(0, start).trim()];
			const title = before.map((candidate) => titleWithDate(candidate, titles)).find((found) => found !== undefined);
			if (title === undefined) continue;
			const spec: LabelSpec = { text: `${title} ${sign}`, pattern: labelPattern(sign), source: 'synonym' };
			matches.push({ field, spec, line, cellIndex, length: start + sign.length, offset: start });
			break;
		}
	}
	return matches;
}

/**
 * Labels found at the start of each cell, and inside a cell where a label ends with a colon
 * (`Date: 12/01/2020 Invoice No: 123` in one run of text). When labels of several fields start at
 * the same place the longest wins (`Total VAT` is the tax, not the total); equal lengths are all
 * kept. A label's value ends where the next label of the same cell begins.
 */
export function findLabels(fields: FieldDefinition[], lines: TextLine[], options: FindOptions = {}): LabelMatch[] {
	const found: LabelMatch[] = [];
	const above: TextLine[] = [];
	/** Labels found in a line's later cells while reading an earlier one. */
	const laterInLine: LabelMatch[] = [];
	for (const line of lines) {
		if (above.length > 0 && above[0].page !== line.page) above.length = 0;
		line.cells.forEach((cell, cellIndex) => {
			const rest = line.folded.slice(cell.start, cell.end);
			// A rate before the label (`20% VAT   1.70`, receipts' tax lines) is read past.
			const offset = RATE_PREFIX.exec(rest)?.[0].length ?? 0;
			const inCell = labelsAt(fields, rest.slice(offset), offset, line, cellIndex, options);
			if (inCell.length === 0) inCell.push(...sectionHeading(fields, rest, line, cellIndex, options));
			let taken = Math.max(0, ...inCell.map((match) => match.length));
			for (const start of innerStarts(rest)) {
				if (start < taken) continue;
				const inner = labelsAt(fields, rest.slice(start), start, line, cellIndex, options).filter((match) => /^[\s.]*[:#]/u.test(rest.slice(match.length)) && match.spec.source !== 'percent');
				inner.push(...datedLabelsAt(fields, rest, start, line, cellIndex, options).filter((match) => !inner.some((other) => other.field === match.field)));
				if (inner.length === 0) continue;
				inCell.push(...inner);
				taken = Math.max(...inner.map((match) => match.length));
			}
			const own = new Set(inCell.map((match) => match.field));
			inCell.push(...titledNumbers(fields.filter((field) => !own.has(field)), rest, taken, line, cellIndex, above));
			for (const date of inCell.flatMap((match) => dateAfterNumber(fields, match) ?? [])) (date.cellIndex === cellIndex ? inCell : laterInLine).push(date);
			const starts = [...new Set(inCell.map((match) => match.offset ?? 0))].sort((a, b) => a - b);
			for (const match of inCell) {
				const next = starts.find((start) => start > (match.offset ?? 0));
				if (next !== undefined) match.end = next;
			}
			found.push(...inCell);
		});
		found.push(...laterInLine.splice(0));
		if (line.cells.length > 0) above.splice(0, above.length, line, ...above.slice(0, TITLE_LINES_ABOVE - 1));
	}
	return found;
}

const DATE_WORD_AFTER_NUMBER = new RegExp(`^\\s*\\S+\\s+(${TITLE_DATE_WORDS.map((word) => word.replace(/\./gu, '\\.')).join('|')})(?=\\s)`, 'u');

/**
 * The document's date after its number (`Rechnung Nr. 4711 vom 01.02.2021`,
 * `Handelsrechnung (380)  Nr. TX-471102  vom  15.11.2024`): the joining word is the label of the
 * date field of the same document (`invoice_number` -> `invoice_date`), in whatever cell it stands.
 */
function dateAfterNumber(fields: FieldDefinition[], number: LabelMatch): LabelMatch | undefined {
	const dateField = fields.find((field) => field.name === number.field.name.replace(/_number$/u, '_date') && isDateField(field));
	if (!dateField) return undefined;
	const { line } = number;
	const from = line.cells[number.cellIndex].start + number.length;
	const word = DATE_WORD_AFTER_NUMBER.exec(line.folded.slice(from));
	if (!word) return undefined;
	const at = from + word[0].length - word[1].length;
	if (!startsWithDate(line.folded.slice(at + word[1].length))) return undefined;
	const cellIndex = line.cells.findIndex((cell) => cell.start <= at && at < cell.end);
	if (cellIndex < 0) return undefined;
	const offset = at - line.cells[cellIndex].start;
	return { field: dateField, spec: { text: `${number.spec.text} ${word[1]}`, pattern: labelPattern(word[1]), source: 'synonym' }, line, cellIndex, length: offset + word[1].length, offset };
}

/** A section heading naming a party (`Informationen zum Verkäufer`, XRechnung's standard rendering). */
const SECTION_HEADING = /^(?:informationen|angaben|daten|information|details|informations)\s+(?:zum|zur|zu|des|der|about|on|of|sur|du|de)\s+(?:the\s+|le\s+|la\s+|l'\s*)?(.+)$/u;

/** The whole heading cell as the label of the field its last words name, if it is one. */
function sectionHeading(fields: FieldDefinition[], cell: string, line: TextLine, cellIndex: number, options: FindOptions): LabelMatch[] {
	const named = SECTION_HEADING.exec(cell);
	if (!named) return [];
	const at = cell.length - named[1].length;
	return labelsAt(fields, named[1], 0, line, cellIndex, options)
		.filter((match) => match.spec.source !== 'percent' && match.length === named[1].length)
		.map((match) => ({ ...match, length: at + match.length }));
}

/** True when the cell is nothing but a label (of any field), e.g. a heading above a value. */
export function isLabelCell(match: LabelMatch): boolean {
	const cell = match.line.cells[match.cellIndex];
	if (match.offset !== undefined && match.offset > 0 && !RATE_PREFIX.test(match.line.folded.slice(cell.start, cell.end))) return false;
	return cell.text.slice(match.length, match.end).replace(/^\((?:s|es|n|en|e)\)/u, '').replace(/^[\s:#.\-–]+/u, '') === '';
}

/** A field named `constructor` or `__proto__` must not find Object.prototype's members. */
function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
	return Object.hasOwn(table, key) ? table[key] : undefined;
}
