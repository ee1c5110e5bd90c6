import { joinWrappedHeadings } from './heading-rows';
import { findLabels, isLabelCell, LABEL_CONFIDENCE, type LabelMatch, type LabelSource } from './labels';
import { fieldTypeOf, normalizeValue, roundMoney, type DocumentStyle, type NormalizedValue } from './normalize';
import { AMOUNT_NAMES, checkCandidate, isIdentifierField, REVIEW_THRESHOLD } from './plausibility';
import { SELF_CHECKING_ROW, summaryTables, type SummaryTable } from './summary-table';
import { fold, overlap, type Cell, type TextLine } from './text-lines';
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
	/** Every label that gave this value (`Total` and `Amount due` both over 2,608.20). */
	labels?: string[];
	/** Where the value was read: the line's index and the column it starts at. */
	at?: ValuePlace;
	/** The confidence before rival values lowered it, when they did. */
	uncontested?: number;
}

export interface ValuePlace {
	line: number;
	column: number;
}

export interface ScalarAlternative {
	value: ScalarValue;
	confidence: number;
	source_fragment: string;
	notes: string;
	currency?: string;
	raw?: string;
	labels?: string[];
	at?: ValuePlace;
}

interface Candidate {
	/** The label's text (folded), and how it was known. */
	label: string;
	source: LabelSource;
	raw: string;
	normalized: NormalizedValue;
	confidence: number;
	line: TextLine;
	/** The column the value starts at in its line. */
	column: number;
	notes: string[];
}

const TITLE_LABELS = new Set(Object.values(DOCUMENT_KEYWORDS).flat().map(fold));
const PERCENTAGE = /(\d+(?:[.,]\d+)?)\s*%/u;
/** A reference number: one token of letters, digits and `-/._`, with digits (`INV-2019-001`, `12345`). */
const IDENTIFIER_SHAPE = /^(?=[^\s]*\d)[\p{L}\d][\p{L}\d\-/._]{2,24}$/u;
/** The most a value read beside a document title (not a number label) keeps. */
const TITLE_LABEL_CAP = 0.75;
/** The most a value keeps when labels of the same strength gave other values: which is right is a guess. */
const RIVAL_CAP = 0.75;
/** How many ids a list under a tax-id label (`Tax ID(s):`) is read for. */
const ID_LIST_LINES = 3;
/** Lines are searched this far below a label that stands alone (`Invoice No.` over `INV-1`). */
const LINES_BELOW = 2;

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

/** A plural ending printed after a label (`Tax ID(s):`, `Steuernummer(n):`): part of the label. */
export const PLURAL_SUFFIX = /^\((?:s|es|n|en|e)\)(?=\s*:|\s*$)/u;

/** What follows the label inside its own cell, without the `:` / `#` / `-` that joins them. */
function restOfCell(match: LabelMatch): string {
	const cell = match.line.cells[match.cellIndex];
	return cell.text
		.slice(match.length, match.end)
		.trim()
		.replace(PLURAL_SUFFIX, '')
		.replace(/^[\s:#\-–]+/u, '')
		.replace(/^\.\s*/u, '');
}

/**
 * In a row of headings, a value right-aligned under its heading may stand past the heading's end
 * (`Charges` over `$56,651.49`): a cell between the heading's start and the next heading's start
 * that lies under no heading.
 */
function rightAlignedBelow(match: LabelMatch, line: TextLine): { cell: Cell; cellIndex: number } | undefined {
	const heading = match.line.cells[match.cellIndex];
	const nextStart = match.line.cells[match.cellIndex + 1]?.start ?? Number.POSITIVE_INFINITY;
	const cellIndex = line.cells.findIndex((cell) => cell.start > heading.start && cell.end <= nextStart && match.line.cells.every((other) => overlap(other, cell) <= 0));
	return cellIndex < 0 ? undefined : { cell: line.cells[cellIndex], cellIndex };
}

/** A short label of its own ending with a colon (`Name:`, `Firmenname:`), under a heading. */
const SUB_LABEL = /^[\p{L}][\p{L}\s.\-/]{0,30}:$/u;

/** The cell under the label cell in the next non-empty lines, if any. */
function cellBelow(match: LabelMatch, lines: TextLine[], labelCells: Set<string>, headingRow = false): { raw: string; line: TextLine; column: number } | undefined {
	const labelCell = match.line.cells[match.cellIndex];
	let seen = 0;
	// `lines` may lack some of the document's lines (tables read apart): found by position, not index.
	const start = lines.findIndex((line) => line.index === match.line.index) + 1;
	for (let position = start; position > 0 && position < lines.length && seen < LINES_BELOW; position++) {
		const line = lines[position];
		if (line.page !== match.line.page) return undefined;
		if (line.cells.length === 0) continue;
		seen++;
		const below =
			line.cells
				.map((cell, cellIndex) => ({ cell, cellIndex, shared: overlap(cell, labelCell) }))
				.filter((entry) => entry.shared > 0)
				.sort((a, b) => b.shared - a.shared)[0] ?? (headingRow ? rightAlignedBelow(match, line) : undefined);
		if (!below) continue;
		// In a row of headings a value belongs to the heading it stands under most, not to a neighbour.
		if (headingRow && match.line.cells.some((other) => overlap(other, below.cell) > overlap(labelCell, below.cell))) return undefined;
		// A cell that is itself a label (`VAT ID: XX1`) holds another field's value.
		if (labelCells.has(`${line.index}:${below.cellIndex}`) || labelCells.has(`any:${line.index}:${below.cellIndex}`)) return undefined;
		// A heading over sub-labels (`Verkäufer` over `Name:   Taxi GmbH`): the value beside the first one.
		const beside = line.cells[below.cellIndex + 1];
		if (SUB_LABEL.test(below.cell.text.trim()) && beside && !labelCells.has(`any:${line.index}:${below.cellIndex + 1}`)) return { raw: beside.text, line, column: beside.start };
		return { raw: below.cell.text, line, column: below.cell.start };
	}
	return undefined;
}

/** A line most of whose cells are bare labels. */
function isLabelRow(line: TextLine, labelCells: Set<string>): boolean {
	const labels = line.cells.filter((_, cellIndex) => labelCells.has(`${line.index}:${cellIndex}`)).length;
	return labels >= 2 && labels * 2 >= line.cells.length;
}

const SHORT_DIGIT_GROUP = /^(?:[A-Z]{2}\s?)?\d{2,4}$/u;
const DIGIT_GROUPS = /^\d{2,4}(?: \d{2,4})*$/u;

/**
 * A tax ID printed in digit groups that wide spaces split into cells (`VAT 232  153 895`): the
 * group read after the label joined with the groups in the cells after `cellIndex`.
 */
function withDigitGroups(first: string, line: TextLine, cellIndex: number): string {
	if (!SHORT_DIGIT_GROUP.test(first)) return first;
	const groups = [first];
	for (let next = cellIndex + 1; next < line.cells.length && DIGIT_GROUPS.test(line.cells[next].text); next++) groups.push(line.cells[next].text);
	return groups.join(' ');
}

/** What kind of value a field reads, for where its value may stand. */
type ValueKind = 'amount' | 'taxId' | 'other';

function valueKindOf(field: FieldDefinition): ValueKind {
	if (fieldTypeOf(field) === 'currency') return 'amount';
	return /vat_id$|tax_id$/u.test(field.name) ? 'taxId' : 'other';
}

/** The texts a label may be giving a value to, nearest first, with the confidence cost of each. */
interface RawValue {
	raw: string;
	line: TextLine;
	column: number;
	cost: number;
	where: string;
}

/** `Tax ID(s):` over `FC: 201/113/40209` over `VA: BE123456789`: the ids listed under the first, the VAT id among them. */
function idList(match: LabelMatch, first: { raw: string; line: TextLine; column: number } | undefined, lines: TextLine[], labelCells: Set<string>, headingRow = false): RawValue[] {
	const values: RawValue[] = [];
	for (let more = first, step = 2; more && step <= ID_LIST_LINES; step++) {
		more = cellBelow({ ...match, line: { ...more.line, cells: match.line.cells } }, lines, labelCells, headingRow);
		if (more) values.push({ ...more, cost: 0.05 * step, where: 'under the label, in a list of ids' });
	}
	return values;
}

function rawValues(match: LabelMatch, lines: TextLine[], labelCells: Set<string>, kind: ValueKind = 'other'): RawValue[] {
	const values: RawValue[] = [];
	const cellStart = (cellIndex: number) => match.line.cells[cellIndex].start;
	const amount = kind === 'amount';
	const grouped = (raw: string, cellIndex: number) => (kind === 'taxId' ? withDigitGroups(raw, match.line, cellIndex) : raw);
	const rest = grouped(restOfCell(match), match.cellIndex);
	if (rest === '' && isLabelRow(match.line, labelCells)) {
		// A row of headings (`Invoice No.   Date   Due date`) gives its values in the row below;
		// a label with a value beside it in such a row (`Bill To   Invoice #  INT-001`) gives that one.
		const beside = match.line.cells[match.cellIndex + 1];
		const besideFree = beside && !labelCells.has(`any:${match.line.index}:${match.cellIndex + 1}`);
		const below = cellBelow(match, lines, labelCells, true);
		return [
			...(below ? [{ ...below, cost: 0.05, where: 'under the label' }] : []),
			...(kind === 'taxId' ? idList(match, below, lines, labelCells, true) : []),
			...(besideFree ? [{ raw: beside.text, line: match.line, column: beside.start, cost: 0.05, where: 'next to the label' }] : []),
		];
	}
	if (rest !== '') values.push({ raw: rest, line: match.line, column: cellStart(match.cellIndex) + match.length, cost: 0, where: 'after the label' });
	const next = match.line.cells[match.cellIndex + 1];
	if (next && !labelCells.has(`${match.line.index}:${match.cellIndex + 1}`)) {
		// `TVA intracom  : FR20123589444`: the colon joining them is no part of the value.
		const joined = /^:\s*/u.exec(next.text)?.[0].length ?? 0;
		values.push({ raw: grouped(next.text.slice(joined), match.cellIndex + 1), line: match.line, column: next.start + joined, cost: 0, where: 'next to the label' });
		// Amounts stand at the line's right end (`TVA (...)   Assiette   238,82 €`), up to the next label.
		for (let cellIndex = match.cellIndex + 2; amount && cellIndex < match.line.cells.length; cellIndex++) {
			if (labelCells.has(`any:${match.line.index}:${cellIndex}`)) break;
			values.push({ raw: match.line.cells[cellIndex].text, line: match.line, column: cellStart(cellIndex), cost: 0.05 * (cellIndex - match.cellIndex - 1), where: 'further along the line' });
		}
	}
	// A document title (`INVOICE`) names the field only with its value beside it, not below it.
	if (rest === '' && isLabelCell(match) && !TITLE_LABELS.has(match.spec.text)) {
		const below = cellBelow(match, lines, labelCells);
		if (below) values.push({ ...below, cost: 0.05, where: 'under the label' });
		if (kind === 'taxId') values.push(...idList(match, below, lines, labelCells));
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

/** What a label qualified by the words before it in its cell keeps less: those words may name another value. */
const QUALIFIED_COST = 0.2;

/**
 * The words before a label inside its cell (`Liefer- und` of `Liefer- und Leistungsdatum:`), when
 * they are words only; a value before it (`Date: 12/01/2020 Invoice No: 123`) or a rate is no qualifier.
 */
function qualifierOf(match: LabelMatch): string | undefined {
	if (!match.offset) return undefined;
	const cell = match.line.cells[match.cellIndex];
	const before = match.line.folded.slice(cell.start, cell.start + match.offset).trim();
	return before !== '' && !/[\d:#]/u.test(before) ? before : undefined;
}

function candidatesFor(field: FieldDefinition, matches: LabelMatch[], lines: TextLine[], labelCells: Set<string>, style: DocumentStyle): { candidates: Candidate[]; considered: string[] } {
	const candidates: Candidate[] = [];
	const considered: string[] = [];
	for (const match of matches) {
		let skipped = 0;
		for (const { raw, line, column, cost: placeCost, where } of rawValues(match, lines, labelCells, valueKindOf(field))) {
			considered.push(raw);
			const read = normalizeFor(field, match, raw, style);
			// Words after the label that are no value (`Total EDF Electricité *  957,43`): the label may name something else.
			const cost = placeCost + (skipped > 0 && !where.startsWith('under the label') ? 0.15 : 0);
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
			// Words before the label in its cell qualify it (`Liefer- und Leistungsdatum:`, `End of service:`, `Your VAT ID:`).
			const qualifier = qualifierOf(match);
			let confidence = LABEL_CONFIDENCE[match.spec.source] - cost - check.cost - (changed ? 0.05 : 0) - (ambiguous ? 0.15 : 0) - (qualifier ? QUALIFIED_COST : 0);
			const notes = [`label '${match.spec.text}' (${match.spec.source}), value ${where}`, ...normalized.notes, ...check.notes, ...(qualifier ? [`the label is qualified by '${qualifier}': perhaps another ${field.name.replace(/_/gu, ' ')}`] : [])];
			// A document title (`INVOICE`) used as the label: believed only for an identifier right after it.
			if (TITLE_LABELS.has(match.spec.text) && isIdentifierField(field) && confidence >= REVIEW_THRESHOLD) {
				const directlyAfter = where === 'after the label' || where === 'next to the label';
				if (!directlyAfter || !IDENTIFIER_SHAPE.test(String(normalized.value))) {
					confidence = TITLE_LABEL_CAP;
					notes.push('read beside a document title, not a number label');
				}
			}
			candidates.push({ label: match.spec.text, source: match.spec.source, raw, normalized, confidence, line, column, notes });
			skipped++;
			// Amounts: later cells of the line stay candidates (`Total  1  319.00`); cross-checks choose.
			if (!check.keepLooking) break;
		}
	}
	return { candidates, considered };
}

/**
 * A tax line with its rate, base and amount (`VAT 20%   1,000.00   200.00`, `TVA 19% on 100.00
 * 19.00`): the amount that is the rate of another amount on the line is the tax, believed as the
 * label is; the base it was computed from is no tax.
 */
function rateTimesBase(candidates: Candidate[]): Candidate[] {
	const bases = new Set<Candidate>();
	const checked = new Set<Candidate>();
	for (const candidate of candidates) {
		const rate = PERCENTAGE.exec(candidate.line.text);
		const value = candidate.normalized.value;
		if (!rate || typeof value !== 'number') continue;
		const percent = Number(rate[1].replace(',', '.'));
		const base = candidates.find((other) => other !== candidate && other.line === candidate.line && typeof other.normalized.value === 'number' && Math.abs(roundMoney((other.normalized.value * percent) / 100) - value) <= 0.01);
		if (!base) continue;
		bases.add(base);
		checked.add(candidate);
	}
	return candidates
		.filter((candidate) => !bases.has(candidate) || checked.has(candidate))
		.map((candidate) => (checked.has(candidate) ? { ...candidate, confidence: Math.max(candidate.confidence, LABEL_CONFIDENCE.synonym), notes: [...candidate.notes, `checked: ${candidate.normalized.value} is the line's rate of its base`] } : candidate));
}

export function emptyResult(considered: string[] = [], note = 'not found'): ScalarResult {
	return { value: null, confidence: 0, source_fragment: '', raw_candidates: considered, normalization_notes: note };
}

/** The best candidate; disagreeing candidates of the same strength lower the confidence. */
function choose(candidates: Candidate[], considered: string[]): ScalarResult {
	const best = [...candidates].sort((a, b) => b.confidence - a.confidence || a.line.index - b.line.index)[0];
	// A related label (`Receipt #`) beside the field's own label names another document's value: no rival.
	const rivals = candidates.filter((candidate) => candidate.normalized.value !== best.normalized.value && candidate.confidence >= best.confidence - 0.05 && (candidate.source !== 'related' || best.source === 'related'));
	const notes = [...best.notes];
	if (rivals.length > 0) notes.push(`other values seen: ${rivals.map((rival) => String(rival.normalized.value)).join(', ')}`);
	return {
		value: best.normalized.value,
		confidence: round(Math.max(0.05, rivals.length > 0 ? Math.min(best.confidence - 0.1, RIVAL_CAP) : best.confidence)),
		source_fragment: best.line.text.trim(),
		raw_candidates: [...new Set(considered)],
		normalization_notes: notes.join('; '),
		currency: best.normalized.currency,
		raw: readWords(best),
		alternatives: alternativesOf(candidates, best),
		labels: labelsOf(candidates, best.normalized.value),
		at: placeOf(best),
		...(rivals.length > 0 ? { uncontested: round(best.confidence) } : {}),
	};
}

function placeOf(candidate: Candidate): ValuePlace {
	return { line: candidate.line.index, column: candidate.column };
}

/**
 * The words of the raw text the value was read from (`12/30/2016` of `12/30/2016 FRI`): OCR's
 * doubt about a word beside the value is no doubt about the value.
 */
function readWords(candidate: Candidate): string {
	const { raw } = candidate;
	const at = fold(raw).indexOf(fold(candidate.normalized.text));
	if (at < 0 || candidate.normalized.text === '') return raw;
	const end = at + candidate.normalized.text.length;
	const words = [...raw.matchAll(/\S+/gu)].filter((word) => word.index < end && word.index + word[0].length > at);
	return words.map((word) => word[0]).join(' ');
}

/** The labels that gave `value`. */
function labelsOf(candidates: Candidate[], value: ScalarValue): string[] {
	return [...new Set(candidates.filter((candidate) => candidate.normalized.value === value).map((candidate) => candidate.label))];
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
			raw: readWords(candidate),
			labels: labelsOf(candidates, candidate.normalized.value),
			at: placeOf(candidate),
		});
	}
	return alternatives;
}

/** The summary-table role of an amount field (`subtotal`, `net_amount` -> subtotal). */
function summaryRoleOf(field: FieldDefinition): 'subtotal' | 'tax' | 'total' | undefined {
	return (['subtotal', 'tax', 'total'] as const).find((role) => AMOUNT_NAMES[role].includes(field.name));
}

/**
 * An amount field's value from a summary table of amounts replaces what labels read in that table
 * (a heading reads the first row under it, a VAT-rate row, not the sum row).
 */
function withSummaryTables(field: FieldDefinition, candidates: Candidate[], tables: SummaryTable[]): Candidate[] {
	const role = summaryRoleOf(field);
	const found = role === undefined ? [] : tables.flatMap((table) => (table.values[role] ? [{ table, read: table.values[role] }] : []));
	if (found.length === 0) return candidates;
	const inTables = (candidate: Candidate) => found.some(({ table }) => table.lines.has(candidate.line.index));
	const fromTables = found.map(({ table, read }): Candidate => {
		const notes = read.heading === SELF_CHECKING_ROW ? table.notes : [`label '${read.heading}' (summary table heading), value under the label`, ...table.notes];
		return { label: read.heading, source: 'synonym', raw: read.cell.text, normalized: { value: read.value, text: read.cell.text, notes: [] }, confidence: table.confidence, line: read.line, column: read.cell.start, notes };
	});
	return [...candidates.filter((candidate) => !inTables(candidate)), ...fromTables];
}

/** Reads every scalar field of a template from its labelled values. */
export function readScalarFields(fields: FieldDefinition[], printed: TextLine[], style: DocumentStyle): Map<FieldDefinition, ScalarResult> {
	const lines = joinWrappedHeadings(fields, printed);
	const matches = findLabels(fields, lines, { related: true });
	const labelCells = new Set(matches.filter(isLabelCell).map((match) => `${match.line.index}:${match.cellIndex}`));
	for (const match of matches) labelCells.add(`any:${match.line.index}:${match.cellIndex}`);
	const tables = summaryTables(lines, style);
	const results = new Map<FieldDefinition, ScalarResult>();
	for (const field of fields) {
		const own = matches.filter((match) => match.field === field);
		const found = candidatesFor(field, own, lines, labelCells, style);
		const candidates = withSummaryTables(field, AMOUNT_NAMES.tax.includes(field.name) ? rateTimesBase(found.candidates) : found.candidates, tables);
		results.set(field, candidates.length > 0 ? choose(candidates, found.considered) : emptyResult(found.considered));
	}
	return results;
}
