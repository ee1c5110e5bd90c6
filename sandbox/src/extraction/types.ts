/** The shapes the extraction engine reads and writes (spec parts 2.2, 2.5 and 2.6). */

export type DocumentKind = 'pdf' | 'jpeg' | 'png' | 'webp' | 'heic' | 'unknown';

export type DocumentProblem = 'no_text' | 'encrypted' | 'corrupt' | 'unsupported';

export interface ReadDocument {
	kind: DocumentKind;
	/** Page count (images: 1; unreadable PDF: best effort, at least 1). */
	pages: number;
	/** All text, pages separated by a blank line ('' when none). */
	text: string;
	pageTexts: string[];
	problem?: DocumentProblem;
	/** ISO 639-1 guess, e.g. 'en', 'de', 'es', 'fr'. */
	language?: string;
	/** Words read by OCR with the engine's confidence (0-100); absent when no OCR ran. */
	ocrWords?: OcrWordConfidence[];
}

export interface OcrWordConfidence {
	text: string;
	confidence: number;
}

/** Spec 2.2. `type` and `value_type` are aliases. */
export interface FieldDefinition {
	name: string;
	label?: string;
	type?: string;
	value_type?: string;
	required?: boolean;
	description?: string;
	format_hint?: string;
	examples?: string[];
	item_fields?: FieldDefinition[];
}

export interface TemplateLike {
	scanner_id: string;
	name: string;
	description: string;
	fields: FieldDefinition[];
}

export type ScalarValue = string | number | boolean | null;
export type TableRow = Record<string, ScalarValue>;
export type FieldValue = ScalarValue | TableRow[];

/** Spec 2.6. */
export interface ExtractedField {
	name: string;
	label: string;
	value_type: string;
	value: FieldValue;
	confidence: number;
	source_fragment: string;
	raw_candidates: string[];
	normalization_notes: string;
	[extra: string]: unknown;
}

/** Spec 2.5. */
export interface ExtractedData {
	status: 'ok';
	scanner_name: string;
	language: string;
	extracted_at: string;
	summary: { fields_with_values: number; fields_null: number };
	doc_metadata: {
		num_paginas: number;
		tipo_archivo: string;
		ocr_provider: string;
		idioma_detectado_ocr: string;
		[extra: string]: unknown;
	};
	fields: ExtractedField[];
	compliance?: Record<string, unknown>;
	balance_check?: Record<string, unknown>;
	auto?: Record<string, unknown>;
	[extra: string]: unknown;
}

export interface DetectionCandidate {
	scanner_id: string;
	name: string;
	score: number;
}

export interface Detection {
	template: TemplateLike;
	score: number;
	candidates: DetectionCandidate[];
}
