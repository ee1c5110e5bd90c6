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

export interface LabelMatch {
	field: FieldDefinition;
	spec: LabelSpec;
	line: TextLine;
	cellIndex: number;
	/** Characters of the cell the label covers. */
	length: number;
}

/**
 * Labels found at the start of each cell. When labels of several fields start at the same
 * place the longest wins (`Total VAT` is the tax, not the total); equal lengths are all kept.
 */
export function findLabels(fields: FieldDefinition[], lines: TextLine[]): LabelMatch[] {
	const found: LabelMatch[] = [];
	for (const line of lines) {
		line.cells.forEach((cell, cellIndex) => {
			const rest = line.folded.slice(cell.start, cell.end);
			const here: LabelMatch[] = [];
			for (const field of fields) {
				let best: LabelMatch | undefined;
				for (const spec of labelsFor(field)) {
					const match = spec.pattern.exec(rest);
					if (match && (!best || match[0].length > best.length)) best = { field, spec, line, cellIndex, length: match[0].length };
				}
				if (best) here.push(best);
			}
			const longest = Math.max(0, ...here.filter((match) => match.spec.source !== 'percent').map((match) => match.length));
			found.push(...here.filter((match) => match.spec.source === 'percent' || match.length >= longest));
		});
	}
	return found;
}

/** True when the cell is nothing but a label (of any field), e.g. a heading above a value. */
export function isLabelCell(match: LabelMatch): boolean {
	const cell = match.line.cells[match.cellIndex];
	return cell.text.slice(match.length).replace(/^[\s:#.\-–]+/u, '') === '';
}

/** A field named `constructor` or `__proto__` must not find Object.prototype's members. */
function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
	return Object.hasOwn(table, key) ? table[key] : undefined;
}
