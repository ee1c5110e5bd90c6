/**
 * The service's numbers, taken from its interface (docs/service-api.md; "Spec N.N" below is its
 * section N.N) and stated here on their own: the sandbox never imports the package's constants, so
 * a wrong constant in the package shows up as a failing test against the sandbox. Where the
 * interface leaves a number unspecified, the value here is the sandbox's own choice.
 */

/** Spec 9: every path starts with the version. */
export const API_PREFIX = '/api/v1';
/** Spec 5.2: the sandbox's `<KEY_PREFIX>`; keys are `dex_<secret>`. */
export const KEY_PREFIX = 'dex';

/** Spec 4.2 / 8: "about 4.4 MB" of file; the gateway also lets the multipart envelope through. */
export const MAX_FILE_BYTES = 4_400_000;
export const MULTIPART_ENVELOPE_ALLOWANCE = 16 * 1024;
export const MAX_REQUEST_BYTES = MAX_FILE_BYTES + MULTIPART_ENVELOPE_ALLOWANCE;

/** Spec 8. */
export const MAX_PAGES_PER_DOCUMENT = 50;
export const FREE_MONTHLY_PAGES = 20;
export const DEFAULT_PAID_MONTHLY_PAGES = 200;
export const FREE_RATE_LIMIT_PER_MINUTE = 60;
export const PAID_RATE_LIMIT_PER_MINUTE = 120;
export const FREE_TEMPLATES_LIMIT = 10;
/** Spec 8: paid plans' template limits depend on the plan and are not specified: the sandbox picks one. */
export const DEFAULT_PAID_TEMPLATES_LIMIT = 100;
/** Spec 8.7: how many uploads may run at once is not specified: the sandbox picks a number. */
export const DEFAULT_MAX_CONCURRENT_UPLOADS = 5;
export const RATE_WINDOW_MS = 60_000;

/** Spec 2.1, 2.2, 4.6 and 8. */
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

/** Spec 2.3: what automatic mode reports before a template is chosen. */
export const AUTO_SCANNER_ID = 'auto';
export const AUTO_SCANNER_PLACEHOLDER = 'Detecting template…';

/** Spec 7.3: the gateway's bodies, exactly. */
export const GATEWAY_TOO_LARGE_BODY = { message: 'Request Too Long' };
export const GATEWAY_UNKNOWN_PATH_BODY = { message: 'Missing Authentication Token' };
