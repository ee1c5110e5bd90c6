import { fold, humanise, labelPattern, type TextLine } from './text-lines';
import type { FieldDefinition } from './types';
import { FIELD_SYNONYMS, PERCENT_SYNONYMS } from './vocabulary';

/** How a label was known; the first are the surest (and give the higher confidence). */
export type LabelSource = 'label' | 'synonym' | 'name' | 'percent';

export interface LabelSpec {
	text: string;
	pattern: RegExp;
	source: LabelSource;
}

export const LABEL_CONFIDENCE: Record<LabelSource, number> = { label: 0.95, synonym: 0.9, name: 0.85, percent: 0.85 };

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
		if (key === '' || seen.has(key)) return;
		seen.add(key);
		specs.push({ text: key, pattern: labelPattern(key), source });
	};
	add(field.label, 'label');
	for (const synonym of ownEntry(FIELD_SYNONYMS, field.name) ?? []) add(synonym, 'synonym');
	add(humanise(field.name), 'name');
	for (const synonym of ownEntry(PERCENT_SYNONYMS, field.name) ?? []) {
		// Same words as other fields' labels: keep them even when already seen.
		specs.push({ text: synonym, pattern: labelPattern(synonym), source: 'percent' });
	}
	cache.set(field, specs);
	return specs;
}

const RATE_PREFIX = /^\d{1,2}(?:[.,]\d{1,2})?\s?%\s+(?=\p{L})/u;

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
function labelsAt(fields: FieldDefinition[], text: string, offset: number, line: TextLine, cellIndex: number): LabelMatch[] {
	const here: LabelMatch[] = [];
	for (const field of fields) {
		let best: LabelMatch | undefined;
		for (const spec of labelsFor(field)) {
			if (offset > 0 && spec.source === 'percent') continue;
			const length = spec.pattern.exec(text)?.[0].length ?? (spec.source === 'percent' ? undefined : runTogetherLength(spec, text));
			if (length !== undefined && (!best || offset + length > best.length)) best = { field, spec, line, cellIndex, length: offset + length, offset };
		}
		if (best) here.push(best);
	}
	const longest = Math.max(0, ...here.filter((match) => match.spec.source !== 'percent').map((match) => match.length));
	return here.filter((match) => match.spec.source === 'percent' || match.length >= longest);
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

/** Where a label may start inside a cell after other text: a word followed, soon, by a colon. */
function innerStarts(text: string): number[] {
	const starts: number[] = [];
	for (const word of text.matchAll(/(?<=\s)[\p{L}#]/gu)) {
		const colon = text.indexOf(':', word.index);
		if (colon > word.index && colon - word.index <= 40) starts.push(word.index);
	}
	return starts;
}

/**
 * Labels found at the start of each cell, and inside a cell where a label ends with a colon
 * (`Date: 12/01/2020 Invoice No: 123` in one run of text). When labels of several fields start at
 * the same place the longest wins (`Total VAT` is the tax, not the total); equal lengths are all
 * kept. A label's value ends where the next label of the same cell begins.
 */
export function findLabels(fields: FieldDefinition[], lines: TextLine[]): LabelMatch[] {
	const found: LabelMatch[] = [];
	for (const line of lines) {
		line.cells.forEach((cell, cellIndex) => {
			const rest = line.folded.slice(cell.start, cell.end);
			// A rate before the label (`20% VAT   1.70`, receipts' tax lines) is read past.
			const offset = RATE_PREFIX.exec(rest)?.[0].length ?? 0;
			const inCell = labelsAt(fields, rest.slice(offset), offset, line, cellIndex);
			let taken = Math.max(0, ...inCell.map((match) => match.length));
			for (const start of innerStarts(rest)) {
				if (start < taken) continue;
				const inner = labelsAt(fields, rest.slice(start), start, line, cellIndex).filter((match) => /^[\s.]*[:#]/u.test(rest.slice(match.length)) && match.spec.source !== 'percent');
				if (inner.length === 0) continue;
				inCell.push(...inner);
				taken = Math.max(...inner.map((match) => match.length));
			}
			const starts = [...new Set(inCell.map((match) => match.offset ?? 0))].sort((a, b) => a - b);
			for (const match of inCell) {
				const next = starts.find((start) => start > (match.offset ?? 0));
				if (next !== undefined) match.end = next;
			}
			found.push(...inCell);
		});
	}
	return found;
}

/** True when the cell is nothing but a label (of any field), e.g. a heading above a value. */
export function isLabelCell(match: LabelMatch): boolean {
	const cell = match.line.cells[match.cellIndex];
	if (match.offset !== undefined && match.offset > 0 && !RATE_PREFIX.test(match.line.folded.slice(cell.start, cell.end))) return false;
	return cell.text.slice(match.length, match.end).replace(/^[\s:#.\-–]+/u, '') === '';
}

/** A field named `constructor` or `__proto__` must not find Object.prototype's members. */
function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
	return Object.hasOwn(table, key) ? table[key] : undefined;
}
