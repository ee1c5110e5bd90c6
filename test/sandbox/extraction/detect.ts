import { findLabels } from './labels';
import { fold, labelPattern, toLines, type TextLine } from './text-lines';
import type { Detection, FieldDefinition, ReadDocument, TemplateLike } from './types';
import { DOCUMENT_KEYWORDS } from './vocabulary';

/** A title within the first lines says more about the document than one in the small print. */
const HEADING_LINES = 8;
const FIELD_WEIGHT = 0.6;
const TITLE_WEIGHT = 0.4;

/** Fields and table columns: a column header is as telling as a label. */
function allFields(template: TemplateLike): FieldDefinition[] {
	return template.fields.flatMap((field) => [field, ...(field.item_fields ?? [])]);
}

/** The template's own name, plus its translations when it is one of the ready-made kinds. */
function titleWords(template: TemplateLike): RegExp[] {
	const name = fold(template.name).trim();
	return [...new Set([name, ...(DOCUMENT_KEYWORDS[name] ?? [])])].filter((word) => word !== '').map(labelPattern);
}

function titleScore(template: TemplateLike, lines: TextLine[]): number {
	const patterns = titleWords(template);
	const seenAt = (line: TextLine) => line.cells.some((cell) => patterns.some((pattern) => pattern.test(line.folded.slice(cell.start))));
	const first = lines.findIndex(seenAt);
	if (first < 0) return 0;
	const heading = lines.slice(0, first + 1).filter((line) => line.cells.length > 0).length <= HEADING_LINES;
	return heading ? 1 : 0.5;
}

function fieldScore(template: TemplateLike, lines: TextLine[]): number {
	const fields = allFields(template);
	if (fields.length === 0) return 0;
	const labelled = new Set(findLabels(fields, lines).map((match) => match.field));
	return labelled.size / fields.length;
}

/**
 * Automatic mode (spec 4.2, "picks the best-matching template"): each template scores by the
 * share of its fields whose labels appear in the document and by whether its title (or a
 * translation of it) appears, near the top counting double. Ties go to the earlier template.
 */
export function detectTemplate(templates: TemplateLike[], doc: ReadDocument): Detection {
	if (templates.length === 0) throw new Error('detectTemplate needs at least one template');
	const lines = toLines(doc.pageTexts.length > 0 ? doc.pageTexts.slice(0, 3) : [doc.text]);
	const scored = templates.map((template, order) => ({
		template,
		order,
		score: Math.round((FIELD_WEIGHT * fieldScore(template, lines) + TITLE_WEIGHT * titleScore(template, lines)) * 1000) / 1000,
	}));
	scored.sort((a, b) => b.score - a.score || a.order - b.order);
	return {
		template: scored[0].template,
		score: scored[0].score,
		candidates: scored.map(({ template, score }) => ({ scanner_id: template.scanner_id, name: template.name, score })),
	};
}

/** The `auto` block of automatic mode's ExtractedData (spec 2.5; inner fields are the sandbox's design). */
export function autoBlock(detection: Detection): Record<string, unknown> {
	return {
		mode: 'automatic',
		chosen_scanner_id: detection.template.scanner_id,
		chosen_scanner_name: detection.template.name,
		score: detection.score,
		candidates: detection.candidates,
	};
}
