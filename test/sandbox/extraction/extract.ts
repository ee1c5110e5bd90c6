import { appliesBalanceCheck, appliesCompliance, balanceCheck, invoiceCompliance } from './checks';
import { compactIdentifier, fallbackValue } from './fallbacks';
import { fieldTypeOf, guessDecimalSeparator, type DocumentStyle } from './normalize';
import { emptyResult, readScalarFields, type ScalarResult } from './scalar-fields';
import { readTable } from './tables';
import { humanise, toLines, type TextLine } from './text-lines';
import type { ExtractedData, ExtractedField, FieldDefinition, ReadDocument, TemplateLike } from './types';

/** Reported as `doc_metadata.ocr_provider`: the sandbox reads text layers and metadata, no OCR. */
export const OCR_PROVIDER = 'sandbox-text-layer';

function styleOf(doc: ReadDocument): DocumentStyle {
	// US documents write dates month first; English documents paying in dollars are read that way.
	const monthFirstDates = doc.language === 'en' && /\$\s?\d|\bUSD\b/.test(doc.text) && !/[€£]/.test(doc.text);
	return { decimalSeparator: guessDecimalSeparator(doc.text), monthFirstDates };
}

function labelOf(field: FieldDefinition): string {
	if (field.label) return field.label;
	const words = humanise(field.name);
	return words.charAt(0).toUpperCase() + words.slice(1);
}

function toExtractedField(field: FieldDefinition, result: ScalarResult): ExtractedField {
	return {
		name: field.name,
		label: labelOf(field),
		value_type: fieldTypeOf(field),
		value: result.value,
		confidence: result.value === null ? 0 : result.confidence,
		source_fragment: result.source_fragment,
		raw_candidates: result.raw_candidates,
		normalization_notes: result.normalization_notes,
	};
}

function tableField(field: FieldDefinition, lines: TextLine[], style: DocumentStyle): { extracted: ExtractedField; usedLines: Set<number> } {
	const table = readTable(field, lines, style);
	const found = table.rows.length > 0;
	const notes = found
		? [`${table.rows.length} row(s) under ${table.headers.length} header line(s)`, ...new Set(table.notes)].join('; ')
		: table.headers.length > 0
			? 'header found but no rows under it'
			: 'no header line naming the columns found';
	return {
		extracted: {
			name: field.name,
			label: labelOf(field),
			value_type: 'table',
			value: found ? table.rows : null,
			confidence: found ? table.confidence : 0,
			source_fragment: table.headers[0]?.text.trim() ?? '',
			raw_candidates: table.headers.map((line) => line.text.trim()),
			normalization_notes: notes,
		},
		usedLines: table.usedLines,
	};
}

/** The average confidence of the fields that have a value (spec 2.4 `confidence`). */
export function averageConfidence(data: ExtractedData): number {
	const found = data.fields.filter((field) => field.value !== null);
	if (found.length === 0) return 0;
	return Math.round((found.reduce((sum, field) => sum + field.confidence, 0) / found.length) * 100) / 100;
}

/**
 * Fills every field of the template from the document's text (spec 2.5 / 2.6): tables first,
 * then labelled values outside the tables, then values recognisable without a label.
 */
export function extractData(template: TemplateLike, doc: ReadDocument, ctx: { fileName: string; fileType: string }): ExtractedData {
	const style = styleOf(doc);
	const lines = toLines(doc.pageTexts.length > 0 ? doc.pageTexts : [doc.text]);
	const byName = new Map<FieldDefinition, ExtractedField>();
	const usedLines = new Set<number>();
	for (const field of template.fields.filter((candidate) => fieldTypeOf(candidate) === 'table')) {
		const table = tableField(field, lines, style);
		byName.set(field, table.extracted);
		table.usedLines.forEach((index) => usedLines.add(index));
	}
	const freeLines = lines.filter((line) => !usedLines.has(line.index));
	const scalarFields = template.fields.filter((field) => fieldTypeOf(field) !== 'table');
	const scalars = readScalarFields(scalarFields, freeLines, style);
	for (const field of scalarFields) {
		let result = scalars.get(field) ?? emptyResult();
		if (result.value === null) {
			const fallback = fallbackValue(field, freeLines);
			if (fallback) result = { ...fallback, raw_candidates: [...result.raw_candidates, ...fallback.raw_candidates] };
		}
		byName.set(field, toExtractedField(field, compactIdentifier(field, result)));
	}
	const fields = template.fields.map((field) => byName.get(field) ?? toExtractedField(field, emptyResult()));
	const withValues = fields.filter((field) => field.value !== null).length;
	const language = doc.language ?? 'unknown';
	const data: ExtractedData = {
		status: 'ok',
		scanner_name: template.name,
		language,
		extracted_at: new Date().toISOString(),
		summary: { fields_with_values: withValues, fields_null: fields.length - withValues },
		doc_metadata: {
			num_paginas: doc.pages,
			tipo_archivo: doc.kind === 'unknown' ? ctx.fileType : doc.kind,
			ocr_provider: OCR_PROVIDER,
			idioma_detectado_ocr: language,
			nombre_archivo: ctx.fileName,
			decimal_separator: style.decimalSeparator ?? null,
		},
		fields,
	};
	const values = new Map(fields.map((field) => [field.name, field]));
	if (appliesCompliance(template.fields)) data.compliance = invoiceCompliance(template.fields, values);
	if (appliesBalanceCheck(template.fields)) data.balance_check = balanceCheck(values);
	return data;
}
