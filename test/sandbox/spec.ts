/**
 * The service's numbers, taken from the spec (/work/shared/spec/service-interface.md) and stated
 * here on their own: the sandbox never imports the package's constants, so a wrong constant in
 * the package shows up as a failing test against the sandbox.
 */

export const API_PREFIX = '/api/v1';
export const KEY_PREFIX = 'dex';

/** Part 4.2 / 8: "about 4.4 MB" of file; the gateway also lets the multipart envelope through. */
export const MAX_FILE_BYTES = 4_400_000;
export const MULTIPART_ENVELOPE_ALLOWANCE = 16 * 1024;
export const MAX_REQUEST_BYTES = MAX_FILE_BYTES + MULTIPART_ENVELOPE_ALLOWANCE;

/** Part 8. */
export const MAX_PAGES_PER_DOCUMENT = 50;
export const FREE_MONTHLY_PAGES = 20;
export const DEFAULT_PAID_MONTHLY_PAGES = 200;
export const FREE_RATE_LIMIT_PER_MINUTE = 60;
export const PAID_RATE_LIMIT_PER_MINUTE = 120;
export const FREE_TEMPLATES_LIMIT = 10;
/** "depends on the plan; the numbers are not shown": the sandbox picks one. */
export const DEFAULT_PAID_TEMPLATES_LIMIT = 100;
/** Part 8.7: "The threshold: not shown": the sandbox picks one. */
export const DEFAULT_MAX_CONCURRENT_UPLOADS = 5;
export const RATE_WINDOW_MS = 60_000;

/** Parts 2.1, 2.2, 4.6 and 8. */
export const TEMPLATE_LIMITS = {
	scannerName: 200,
	scannerDescription: 2000,
	fields: 100,
	itemFields: 100,
	fieldName: 100,
	fieldLabel: 200,
	fieldDescription: 2000,
	formatHint: 500,
	examples: 10,
	/** "at most 100 KB": read as 100,000 bytes of JSON, the stricter of the two readings. */
	definitionBytes: 100_000,
} as const;

export const FIELD_TYPES = ['string', 'number', 'date', 'boolean', 'currency', 'email', 'phone', 'table'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const RESULT_STATUSES = ['queued', 'processing', 'done', 'error', 'rejected'] as const;

/** Part 2.3: what automatic mode reports before a template is chosen. */
export const AUTO_SCANNER_ID = 'auto';
export const AUTO_SCANNER_PLACEHOLDER = 'Detecting template…';

/** Part 7.3: the gateway's bodies, exactly. */
export const GATEWAY_TOO_LARGE_BODY = { message: 'Request Too Long' };
export const GATEWAY_UNKNOWN_PATH_BODY = { message: 'Missing Authentication Token' };
