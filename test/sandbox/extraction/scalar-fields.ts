import { findLabels, isLabelCell, LABEL_CONFIDENCE, type LabelMatch } from './labels';
import { fieldTypeOf, normalizeValue, type DocumentStyle, type NormalizedValue } from './normalize';
import { overlap, type TextLine } from './text-lines';
import type { FieldDefinition, ScalarValue } from './types';

export interface ScalarResult {
	value: ScalarValue;
	confidence: number;
	source_fragment: string;
	raw_candidates: string[];
	normalization_notes: string;
	currency?: string;
}

interface Candidate {
	raw: string;
	normalized: NormalizedValue;
	confidence: number;
	line: TextLine;
	notes: string[];
}

const PERCENTAGE = /(\d+(?:[.,]\d+)?)\s*%/u;
/** Lines are searched this far below a label that stands alone (`Invoice No.` over `INV-1`). */
const LINES_BELOW = 2;

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

/** What follows the label inside its own cell, without the `:` / `#` / `-` that joins them. */
function restOfCell(match: LabelMatch): string {
	const cell = match.line.cells[match.cellIndex];
	return cell.text.slice(match.length).replace(/^[\s:#\-–]+/u, '').replace(/^\.\s*/u, '');
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
		if (labelCells.has(`${line.index}:${below.cellIndex}`)) return undefined;
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
function rawValues(match: LabelMatch, lines: TextLine[], labelCells: Set<string>): Array<{ raw: string; line: TextLine; cost: number; where: string }> {
	const values: Array<{ raw: string; line: TextLine; cost: number; where: string }> = [];
	const rest = restOfCell(match);
	if (rest === '' && isLabelRow(match.line, labelCells)) {
		// A row of headings (`Invoice No.   Date   Due date`) gives its values in the row below.
		const below = cellBelow(match, lines, labelCells);
		return below ? [{ ...below, cost: 0.05, where: 'under the label' }] : [];
	}
	if (rest !== '') values.push({ raw: rest, line: match.line, cost: 0, where: 'after the label' });
	const next = match.line.cells[match.cellIndex + 1];
	if (next && !labelCells.has(`${match.line.index}:${match.cellIndex + 1}`)) {
		values.push({ raw: next.text, line: match.line, cost: 0, where: 'next to the label' });
	}
	if (rest === '' && isLabelCell(match)) {
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
		for (const { raw, line, cost, where } of rawValues(match, lines, labelCells)) {
			considered.push(raw);
			const normalized = normalizeFor(field, match, raw, style);
			if (!normalized) continue;
			const changed = String(normalized.value) !== raw.trim();
			const ambiguous = normalized.notes.some((note) => note.includes('ambiguous'));
			const confidence = LABEL_CONFIDENCE[match.spec.source] - cost - (changed ? 0.05 : 0) - (ambiguous ? 0.15 : 0);
			const notes = [`label '${match.spec.text}' (${match.spec.source}), value ${where}`, ...normalized.notes];
			candidates.push({ raw, normalized, confidence, line, notes });
			break;
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
	};
}

/** Reads every scalar field of a template from its labelled values. */
export function readScalarFields(fields: FieldDefinition[], lines: TextLine[], style: DocumentStyle): Map<FieldDefinition, ScalarResult> {
	const matches = findLabels(fields, lines);
	const labelCells = new Set(matches.filter(isLabelCell).map((match) => `${match.line.index}:${match.cellIndex}`));
	const results = new Map<FieldDefinition, ScalarResult>();
	for (const field of fields) {
		const own = matches.filter((match) => match.field === field);
		const { candidates, considered } = candidatesFor(field, own, lines, labelCells, style);
		results.set(field, candidates.length > 0 ? choose(candidates, considered) : emptyResult(considered));
	}
	return results;
}
