import type { IDataObject } from 'n8n-workflow';

import type { ExtractedField, Result } from '../schemas';
import { CHARGE_KEYS, FIELDS_MODE_KEYS } from './columnNames';
import type { OutputOptions } from './options';
import { assignSafely, copyData } from './safeCopy';

/**
 * Fields mode: one object per document, each extracted field under its own (safe) key, next to
 * the keys of FIELDS_MODE_KEYS (columnNames.ts). A field named like one of those gets an
 * underscore appended (`extraction_`).
 */

export function fieldsItem(result: Result, options: OutputOptions): IDataObject {
	const item: IDataObject = {};
	const reserved = new Set<string>(Object.values(FIELDS_MODE_KEYS));
	const keyed = extractedFields(result).map((field) => ({
		field,
		key: assignSafely(item, field.name, copyData(field.value ?? null), reserved),
	}));

	item[FIELDS_MODE_KEYS.extraction] = extractionMetadata(result);
	if (options.includeConfidence) item[FIELDS_MODE_KEYS.fieldConfidence] = perField(keyed, (field) => field.confidence ?? null);
	if (options.includeSourceFragments) item[FIELDS_MODE_KEYS.fieldSourceText] = perField(keyed, (field) => field.source_fragment ?? null);
	if (options.reviewThreshold !== undefined) {
		const flagged = keyed.filter(({ field }) => needsReview(field, options.reviewThreshold as number, options.requiredFields)).map(({ key }) => key);
		item[FIELDS_MODE_KEYS.needsReview] = flagged;
		item[FIELDS_MODE_KEYS.needsReviewCount] = flagged.length;
	}
	return item;
}

export function extractedFields(result: Result): ExtractedField[] {
	const fields = result.extracted_data?.fields;
	return Array.isArray(fields) ? fields : [];
}

function perField(keyed: Array<{ field: ExtractedField; key: string }>, pick: (field: ExtractedField) => unknown): IDataObject {
	const map: IDataObject = {};
	for (const { field, key } of keyed) map[key] = copyData(pick(field)) as IDataObject[string];
	return map;
}

/** Below the threshold, or required (by the template, or by the field itself should the service say so) and empty. */
export function needsReview(field: ExtractedField, threshold: number, requiredFields: ReadonlySet<string> | undefined): boolean {
	if (typeof field.confidence === 'number' && field.confidence < threshold) return true;
	const required = requiredFields?.has(field.name) === true || (field as { required?: unknown }).required === true;
	return required && isEmpty(field.value);
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * ExtractedData keys that are shown elsewhere or left out; every other key is an extra block
 * (compliance...). `doc_metadata` only repeats file type, page count and language under the
 * service's Spanish names (`tipo_archivo`, `num_paginas`...): the Raw output keeps it.
 */
const EXTRACTED_DATA_KNOWN_KEYS = new Set(['status', 'scanner_name', 'language', 'extracted_at', 'summary', 'doc_metadata', 'fields']);

/** The one `extraction` object: about the document and the run, never about a field. */
function extractionMetadata(result: Result): IDataObject {
	const data = result.extracted_data ?? undefined;
	const metadata: IDataObject = {
		result_id: result.result_id,
		status: result.status,
		template: { id: result.scanner_id ?? null, name: result.scanner_name ?? data?.scanner_name ?? null },
		file_name: result.filename ?? null,
		file_type: result.file_type ?? null,
		confidence: result.confidence ?? null,
		[CHARGE_KEYS.pagesUsed]: pagesUsed(result.tokens_used),
		// Set by markCharge (mapping.ts) when the data is an earlier upload's.
		[CHARGE_KEYS.reused]: false,
		language: data?.language ?? null,
		extracted_at: data?.extracted_at ?? null,
		created_at: result.created_at ?? null,
		summary: copyData(data?.summary ?? null) as IDataObject | null,
	};
	// Spec 2.5: `compliance`, `balance_check`, `auto` and any further block the service adds.
	for (const [key, value] of Object.entries(data ?? {})) {
		if (!EXTRACTED_DATA_KNOWN_KEYS.has(key)) assignSafely(metadata, key, copyData(value));
	}
	return metadata;
}

/** Spec 2.4: `tokens_used` is an integer, a string or null; a number whenever it is one. */
export function pagesUsed(tokensUsed: Result['tokens_used']): number | string | null {
	if (tokensUsed === null || tokensUsed === undefined) return null;
	if (typeof tokensUsed === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(tokensUsed)) return Number(tokensUsed);
	return tokensUsed;
}
