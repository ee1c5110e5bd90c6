import { findLabels, isLabelCell, LABEL_CONFIDENCE, type LabelMatch } from './labels';
import { fieldTypeOf, normalizeValue, type DocumentStyle, type NormalizedValue } from './normalize';
import { checkCandidate, isIdentifierField, REVIEW_THRESHOLD } from './plausibility';
import { fold, overlap, type TextLine } from './text-lines';
import { DOCUMENT_KEYWORDS } from './vocabulary';
import type { FieldDefinition, ScalarValue } from './types';

export interface ScalarResult {
	value: ScalarValue;
	confidence: number;
	source_fragment: string;
	raw_candidates: string[];
	normalization_notes: string;
	currency?: string;
	/** The text the value was read from (OCR word confidences are looked up by it). */
	raw?: string;
	/** Other values labels gave, best first: cross-checks (plausibility.ts) may prefer one. */
	alternatives?: ScalarAlternative[];
}

export interface ScalarAlternative {
	value: ScalarValue;
	confidence: number;
	source_fragment: string;
	notes: string;
	currency?: string;
	raw?: string;
}

interface Candidate {
	raw: string;
	normalized: NormalizedValue;
	confidence: number;
	line: TextLine;
	notes: string[];
}

const TITLE_LABELS = new Set(Object.values(DOCUMENT_KEYWORDS).flat().map(fold));
const PERCENTAGE = /(\d+(?:[.,]\d+)?)\s*%/u;
/** A reference number: one token of letters, digits and `-/._`, with digits (`INV-2019-001`, `12345`). */
const IDENTIFIER_SHAPE = /^(?=[^\s]*\d)[\p{L}\d][\p{L}\d\-/._]{2,24}$/u;
/** The most a value read beside a document title (not a number label) keeps. */
const TITLE_LABEL_CAP = 0.75;
/** Lines are searched this far below a label that stands alone (`Invoice No.` over `INV-1`). */
const LINES_BELOW = 2;

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

/** What follows the label inside its own cell, without the `:` / `#` / `-` that joins them. */
function restOfCell(match: LabelMatch): string {
	const cell = match.line.cells[match.cellIndex];
	return cell.text.slice(match.length, match.end).trim().replace(/^[\s:#\-–]+/u, '').replace(/^\.\s*/u, '');
}

/** The cell under the label cell in the next non-empty lines, if any. */
function cellBelow(match: LabelMatch, lines: TextLine[], labelCells: Set<string>): { raw: string; line: TextLine } | undefined {
	const labelCell = match.line.cells[match.cellIndex];
	let seen = 0;
	for (let index = match.line.index + 1; index < lines.length && seen < LINES_BELOW; index++) {
		const line = lines[index];
		if (line.page !== match.line.page) return undefined;
		if (line.cells.length === 0) continue;
		seen++;
		const below = line.cells
			.map((cell, cellIndex) => ({ cell, cellIndex, shared: overlap(cell, labelCell) }))
			.filter((entry) => entry.shared > 0)
			.sort((a, b) => b.shared - a.shared)[0];
		if (!below) continue;
		// A cell that is itself a label (`VAT ID: XX1`) holds another field's value.
		if (labelCells.has(`${line.index}:${below.cellIndex}`) || labelCells.has(`any:${line.index}:${below.cellIndex}`)) return undefined;
		return { raw: below.cell.text, line };
	}
	return undefined;
}

/** A line most of whose cells are bare labels. */
function isLabelRow(line: TextLine, labelCells: Set<string>): boolean {
	const labels = line.cells.filter((_, cellIndex) => labelCells.has(`${line.index}:${cellIndex}`)).length;
	return labels >= 2 && labels * 2 >= line.cells.length;
}

/** The texts a label may be giving a value to, nearest first, with the confidence cost of each. */
function rawValues(match: LabelMatch, lines: TextLine[], labelCells: Set<string>, amount = false): Array<{ raw: string; line: TextLine; cost: number; where: string }> {
	const values: Array<{ raw: string; line: TextLine; cost: number; where: string }> = [];
	const rest = restOfCell(match);
	if (rest === '' && isLabelRow(match.line, labelCells)) {
		// A row of headings (`Invoice No.   Date   Due date`) gives its values in the row below;
		// a label with a value beside it in such a row (`Bill To   Invoice #  INT-001`) gives that one.
		const beside = match.line.cells[match.cellIndex + 1];
		const besideFree = beside && !labelCells.has(`any:${match.line.index}:${match.cellIndex + 1}`);
		const below = cellBelow(match, lines, labelCells);
		return [
			...(below ? [{ ...below, cost: 0.05, where: 'under the label' }] : []),
			...(besideFree ? [{ raw: beside.text, line: match.line, cost: 0.05, where: 'next to the label' }] : []),
		];
	}
	if (rest !== '') values.push({ raw: rest, line: match.line, cost: 0, where: 'after the label' });
	const next = match.line.cells[match.cellIndex + 1];
	if (next && !labelCells.has(`${match.line.index}:${match.cellIndex + 1}`)) {
		values.push({ raw: next.text, line: match.line, cost: 0, where: 'next to the label' });
		// Amounts stand at the line's right end (`TVA (...)   Assiette   238,82 €`), up to the next label.
		for (let cellIndex = match.cellIndex + 2; amount && cellIndex < match.line.cells.length; cellIndex++) {
			if (labelCells.has(`any:${match.line.index}:${cellIndex}`)) break;
			values.push({ raw: match.line.cells[cellIndex].text, line: match.line, cost: 0.05 * (cellIndex - match.cellIndex - 1), where: 'further along the line' });
		}
	}
	// A document title (`INVOICE`) names the field only with its value beside it, not below it.
	if (rest === '' && isLabelCell(match) && !TITLE_LABELS.has(match.spec.text)) {
		const below = cellBelow(match, lines, labelCells);
		if (below) values.push({ ...below, cost: 0.05, where: 'under the label' });
	}
	return values;
}

function normalizeFor(field: FieldDefinition, match: LabelMatch, raw: string, style: DocumentStyle): NormalizedValue | undefined {
	const type = fieldTypeOf(field);
	if (match.spec.source === 'percent') {
		const percent = PERCENTAGE.exec(raw);
		return percent ? normalizeValue('number', percent[1], style) : undefined;
	}
	// `VAT 19%: 190.00`: the percentage is the rate, not the amount.
	const withoutRate = type === 'currency' || (type === 'number' && !PERCENTAGE.test(raw.trim())) ? raw.replace(new RegExp(PERCENTAGE, 'gu'), ' ') : raw;
	if (type === 'string' && /^[\s:.#\-–]*$/u.test(withoutRate)) return undefined;
	return normalizeValue(type, withoutRate, style);
}

function candidatesFor(field: FieldDefinition, matches: LabelMatch[], lines: TextLine[], labelCells: Set<string>, style: DocumentStyle): { candidates: Candidate[]; considered: string[] } {
	const candidates: Candidate[] = [];
	const considered: string[] = [];
	for (const match of matches) {
		let skipped = 0;
		for (const { raw, line, cost: placeCost, where } of rawValues(match, lines, labelCells, fieldTypeOf(field) === 'currency')) {
			considered.push(raw);
			const read = normalizeFor(field, match, raw, style);
			// Words after the label that are no value (`Total EDF Electricité *  957,43`): the label may name something else.
			const cost = placeCost + (skipped > 0 && where !== 'under the label' ? 0.15 : 0);
			if (!read) {
				if (/\p{L}{2,}/u.test(raw)) skipped++;
				continue;
			}
			// Shape checks: an identifier without digits, an amount that is part of an ID, a zero total...
			const check = checkCandidate(field, match.spec.source, raw, read, style, match.spec.text);
			if (check.reject) {
				considered.push(`(rejected: ${check.reject})`);
				continue;
			}
			// Past other words on the line only a money amount (with decimals) is taken (`TOTAL  CIGARETTES  60,000`).
			if (where === 'further along the line' && !/[.,]\d{2}(?!\d)/u.test(read.text)) continue;
			const normalized = check.normalized ?? read;
			const changed = String(normalized.value) !== raw.trim();
			const ambiguous = normalized.notes.some((note) => note.includes('ambiguous'));
			let confidence = LABEL_CONFIDENCE[match.spec.source] - cost - check.cost - (changed ? 0.05 : 0) - (ambiguous ? 0.15 : 0);
			const notes = [`label '${match.spec.text}' (${match.spec.source}), value ${where}`, ...normalized.notes, ...check.notes];
			// A document title (`INVOICE`) used as the label: believed only for an identifier right after it.
			if (TITLE_LABELS.has(match.spec.text) && isIdentifierField(field) && confidence >= REVIEW_THRESHOLD) {
				const directlyAfter = where === 'after the label' || where === 'next to the label';
				if (!directlyAfter || !IDENTIFIER_SHAPE.test(String(normalized.value))) {
					confidence = TITLE_LABEL_CAP;
					notes.push('read beside a document title, not a number label');
				}
			}
			candidates.push({ raw, normalized, confidence, line, notes });
			skipped++;
			// Amounts: later cells of the line stay candidates (`Total  1  319.00`); cross-checks choose.
			if (!check.keepLooking) break;
		}
	}
	return { candidates, considered };
}

export function emptyResult(considered: string[] = [], note = 'not found'): ScalarResult {
	return { value: null, confidence: 0, source_fragment: '', raw_candidates: considered, normalization_notes: note };
}

/** The best candidate; disagreeing candidates of the same strength lower the confidence. */
function choose(candidates: Candidate[], considered: string[]): ScalarResult {
	const best = [...candidates].sort((a, b) => b.confidence - a.confidence || a.line.index - b.line.index)[0];
	const rivals = candidates.filter((candidate) => candidate.normalized.value !== best.normalized.value && candidate.confidence >= best.confidence - 0.05);
	const notes = [...best.notes];
	if (rivals.length > 0) notes.push(`other values seen: ${rivals.map((rival) => String(rival.normalized.value)).join(', ')}`);
	return {
		value: best.normalized.value,
		confidence: round(Math.max(0.05, best.confidence - (rivals.length > 0 ? 0.1 : 0))),
		source_fragment: best.line.text.trim(),
		raw_candidates: [...new Set(considered)],
		normalization_notes: notes.join('; '),
		currency: best.normalized.currency,
		raw: best.raw,
		alternatives: alternativesOf(candidates, best),
	};
}

/** Distinct other values, best first. */
function alternativesOf(candidates: Candidate[], best: Candidate): ScalarAlternative[] {
	const seen = new Set([String(best.normalized.value)]);
	const alternatives: ScalarAlternative[] = [];
	for (const candidate of [...candidates].sort((a, b) => b.confidence - a.confidence || a.line.index - b.line.index)) {
		const key = String(candidate.normalized.value);
		if (seen.has(key)) continue;
		seen.add(key);
		alternatives.push({
			value: candidate.normalized.value,
			confidence: round(Math.max(0.05, candidate.confidence)),
			source_fragment: candidate.line.text.trim(),
			notes: candidate.notes.join('; '),
			currency: candidate.normalized.currency,
			raw: candidate.raw,
		});
	}
	return alternatives;
}

/** Reads every scalar field of a template from its labelled values. */
export function readScalarFields(fields: FieldDefinition[], lines: TextLine[], style: DocumentStyle): Map<FieldDefinition, ScalarResult> {
	const matches = findLabels(fields, lines);
	const labelCells = new Set(matches.filter(isLabelCell).map((match) => `${match.line.index}:${match.cellIndex}`));
	for (const match of matches) labelCells.add(`any:${match.line.index}:${match.cellIndex}`);
	const results = new Map<FieldDefinition, ScalarResult>();
	for (const field of fields) {
		const own = matches.filter((match) => match.field === field);
		const { candidates, considered } = candidatesFor(field, own, lines, labelCells, style);
		results.set(field, candidates.length > 0 ? choose(candidates, considered) : emptyResult(considered));
	}
	return results;
}
