/**
 * The service's numbers (spec parts 2.2, 4 and 8), each stated once. The preflight, the template
 * validation, the scheduler and every message or parameter text that names a limit read them from
 * here; the sandbox states them again on its own, so a wrong number here is caught by the tests
 * that run against it.
 */

/** Spec 4.2 / 7.3: a request over about 4.4 MB is refused by the gateway with HTTP 413. */
export const MAX_FILE_BYTES = 4_400_000;

/** Spec 7.2 DOCUMENT_TOO_LONG / part 8: pages per document. */
export const MAX_PAGES_PER_DOCUMENT = 50;

/** Spec 8.6: enough for text recognition while keeping the file small. */
export const RECOMMENDED_IMAGE_LONG_SIDE_PX = 2600;

/**
 * Not the service's: the largest JPEG or PNG file read whole to be shrunk (Shrink Large Photos);
 * a 48-megapixel phone photo is 10-25 MB. A larger one is refused as too large, unread.
 */
export const MAX_PHOTO_BYTES_TO_SHRINK = 40_000_000;

/**
 * Not the service's: the largest PDF read whole to be split (Split PDFs), each part then held to
 * MAX_FILE_BYTES. A copier's scan of a stack of invoices is often over 4.4 MB (a page scanned in
 * colour is often several hundred KB). The same cap as a photo's, for the same reason: the file
 * is held whole while it is checked and again while its parts are sent (one part at a time), and
 * n8n Cloud gives n8n about 140 MB; the split's work and output budgets grow with the file
 * (pdf/split.ts `splitBudget`), its time limit does not. A larger one is refused as too large, unread.
 */
export const MAX_PDF_BYTES_TO_SPLIT = 40_000_000;

/** Spec 2.1, 2.2, 4.6, 8: template definition limits. */
export const TEMPLATE_LIMITS = {
	nameLength: 200,
	descriptionLength: 2000,
	fields: 100,
	tableColumns: 100,
	/** "100 KB": read as 100,000 bytes, the stricter reading, so a definition we pass is never refused. */
	definitionBytes: 100_000,
	fieldNameLength: 100,
	fieldLabelLength: 200,
	fieldDescriptionLength: 2000,
	formatHintLength: 500,
	examplesPerField: 10,
} as const;

/** Spec 4.6 / 8: templates per account on the free plan, counting the ready-made ones every account starts with. */
export const FREE_PLAN_TEMPLATES = 10;
export const READY_MADE_TEMPLATES = 8;

/** Spec 2.2: the allowed field types (`type` and its alias `value_type`). */
export const FIELD_TYPES = ['string', 'number', 'date', 'boolean', 'currency', 'email', 'phone', 'table'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Spec 4.4 / 8.8: wait 2-3 seconds between reads of one result; never less than this. */
export const MIN_RESULT_READ_INTERVAL_MS = 2000;

/** Spec 4.4: typical completion 3-20 s, "the caller gives up after a few minutes": both nodes' default wait. */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 300;

/** Spec 2.8 / 8: requests per minute per key when no header has told us yet (free plan). */
export const DEFAULT_REQUESTS_PER_MINUTE = 60;

/**
 * Not the service's: how long this n8n process remembers an accepted upload, so that running the
 * node again on the same file reads its result instead of paying again (a failed run is often
 * retried the next working day; extracted data stays in the account, spec 1).
 */
export const REUSE_DAYS = 7;

/** Spec 2.4: the states in which a result is still being worked on (`done`, `error`, `rejected` are final). */
export const PENDING_STATUSES = ['queued', 'processing'] as const;

/** A count as messages write it: 2,000. */
export function formatCount(value: number): string {
	return value.toLocaleString('en-US');
}

/** Bytes in MB (1,000,000 bytes, as the spec's "4.4 MB"). */
export function formatMegabytes(bytes: number, digits = 1): string {
	return (bytes / 1_000_000).toFixed(digits);
}

/** Bytes in KB (1,000 bytes, as the spec's "100 KB"), without a needless ".0". */
export function formatKilobytes(bytes: number): string {
	return (bytes / 1000).toFixed(1).replace(/\.0$/, '');
}
