/**
 * The names the nodes choose for the keys of their output items, in one place. Items go to
 * Google Sheets (Append Row, automatic mapping), n8n Data Tables, CSV/XLSX files and SQL
 * databases, and each key becomes a column there, so every name here is one they all take as it
 * is: lower case, a letter first, then letters, digits and underscores, at most 63 characters;
 * never `row_number` (Google Sheets' own column), `id`, `createdAt` or `updatedAt` (a Data Table's
 * own) or an SQL reserved word. test/unit/outputColumnNames.test.ts checks them, and every key of
 * every output, against each destination's rule; docs/output-columns.md lists them for users.
 *
 * Field and column names from the template, and the service's own keys (Raw, receipts, templates),
 * are the user's: kept as they are. Where one meets a name below, the node's name wins and the
 * other is renamed as each mode says (fieldsMode.ts, tableRows.ts, itemSink.ts).
 */

/** Whether a document was extracted before (mapping.ts markCharge, the upload receipt). */
export const CHARGE_KEYS = {
	/** true: an earlier upload's result was read, nothing was charged this time. */
	reused: 'reused',
	/** When the document was first extracted (a time, or a day from n8n's database). */
	firstExtractedAt: 'first_extracted_at',
	pagesUsed: 'pages_used',
	/** Extracted before in another n8n process, whose result could not be read here: charged again. */
	chargedAgain: 'charged_again',
} as const;

/**
 * Whether the document is an invoice extracted before as another file (mapping.ts
 * markDuplicateInvoice, duplicates/invoiceMarks.ts); in `extraction`, and on every table row.
 */
export const DUPLICATE_INVOICE_KEYS = {
	/** `likely`, `possible`, or null. */
	level: 'duplicate_invoice',
	/** The day (YYYY-MM-DD, UTC) the matching invoice was first seen. */
	firstSeen: 'duplicate_invoice_first_seen',
	/** The first document's result ID and file name, when this n8n process extracted it. */
	resultId: 'duplicate_invoice_result_id',
	fileName: 'duplicate_invoice_file_name',
} as const;

/**
 * What was done to a document before its upload (Split PDFs, Shrink Large Photos), only on the
 * documents it was done to: in `extraction`, on every table row, and on the document's other
 * items (mapping.ts markPreparation, the upload receipt).
 */
export const DOCUMENT_PREPARATION_KEYS = {
	/** The PDF a part was split from, as it was named. */
	sourceFileName: 'source_file_name',
	/** The part's pages in that PDF: "3-4", or "5". */
	sourcePages: 'source_pages',
	/** The photo a JPEG was made from: "4032x3024 JPEG, 5.2 MB". */
	shrunkFrom: 'shrunk_from',
} as const;

/** One Item per Document: the keys next to the extracted fields (fieldsMode.ts). */
export const FIELDS_MODE_KEYS = {
	/** About the document and the run: result ID, template, file, confidence, pages used... */
	extraction: 'extraction',
	/** Include Confidence: each field's confidence (table rows: the table field's). */
	fieldConfidence: 'field_confidence',
	/** Include Source Text: the text each field was read from. */
	fieldSourceText: 'field_source_text',
	/** Review Threshold: the fields to check, and how many. */
	needsReview: 'needs_review',
	needsReviewCount: 'needs_review_count',
} as const;

/** One Item per Table Row: the keys the node puts on every row (tableRows.ts, markCharge). */
export const TABLE_ROW_KEYS = {
	/** The row's number in its table, from 1 (empty when the document has no rows). */
	lineNumber: 'line_number',
	/** A row that is not an object (spec 2.6 says rows are objects) is kept whole under this column. */
	lineValue: 'line_value',
	resultId: 'result_id',
	fieldConfidence: FIELDS_MODE_KEYS.fieldConfidence,
	needsReview: FIELDS_MODE_KEYS.needsReview,
	needsReviewCount: FIELDS_MODE_KEYS.needsReviewCount,
	reused: CHARGE_KEYS.reused,
	firstExtractedAt: CHARGE_KEYS.firstExtractedAt,
	duplicateInvoice: DUPLICATE_INVOICE_KEYS.level,
	duplicateInvoiceFirstSeen: DUPLICATE_INVOICE_KEYS.firstSeen,
	duplicateInvoiceResultId: DUPLICATE_INVOICE_KEYS.resultId,
	duplicateInvoiceFileName: DUPLICATE_INVOICE_KEYS.fileName,
} as const;

/** What a name gets in front when the item has it already. */
export const COLUMN_PREFIXES = {
	/** A table column named like a key the node adds to rows: `column_line_number`. */
	column: 'column_',
	/** A document field named like a column or a key the node adds to rows: `document_total`. */
	document: 'document_',
	/** Where a document came from (`file_name`, `binary_field`...), when the item has that name: `source_file_name`. */
	source: 'source_',
	/** An input field (Input Fields to Include) the output item has already: `input_status`. */
	input: 'input_',
} as const;

/** Every name above, by what it is (for the test of the destinations' rules). */
export const NODE_COLUMN_NAMES: Readonly<Record<string, string>> = {
	...Object.fromEntries(Object.entries(CHARGE_KEYS).map(([key, name]) => [`charge.${key}`, name])),
	...Object.fromEntries(Object.entries(DUPLICATE_INVOICE_KEYS).map(([key, name]) => [`duplicateInvoice.${key}`, name])),
	...Object.fromEntries(Object.entries(DOCUMENT_PREPARATION_KEYS).map(([key, name]) => [`preparation.${key}`, name])),
	...Object.fromEntries(Object.entries(FIELDS_MODE_KEYS).map(([key, name]) => [`fields.${key}`, name])),
	...Object.fromEntries(Object.entries(TABLE_ROW_KEYS).map(([key, name]) => [`tableRows.${key}`, name])),
};
