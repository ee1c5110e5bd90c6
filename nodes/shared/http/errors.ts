import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	formatCount,
	formatKilobytes,
	formatMegabytes,
	FREE_PLAN_TEMPLATES,
	MAX_FILE_BYTES,
	MAX_PAGES_PER_DOCUMENT,
	READY_MADE_TEMPLATES,
	RECOMMENDED_IMAGE_LONG_SIDE_PX,
	TEMPLATE_LIMITS,
} from '../limits';
import { errorBodySchema, type ErrorBody } from '../schemas';

/**
 * Every error answer of the service (spec 7.2 and 7.3) becomes one NodeApiError that says what
 * happened (message) and what to do (description), keeps the HTTP status and error_code, and
 * carries the extra members as plain data so workflows can route on them.
 */

/** What a workflow sees of a service error (`error.context.serviceError`, and error items). */
export interface ServiceError extends IDataObject {
	http_status: number;
	error_code: string | null;
	message: string;
	description: string;
	details: IDataObject;
}

type Explanation = { message: string; description: string };

/** What the failed request was doing: the same code needs different advice on different calls. */
export type RequestKind = 'upload' | 'read' | 'change';

export interface RequestContext {
	kind: RequestKind;
	resultId?: string;
	templateId?: string;
}

type Explain = (body: ErrorBody, status: number, request: RequestContext) => Explanation;

/** Why an upload that got no clear answer is never repeated: the same words wherever that happens. */
export const UPLOAD_NOT_SENT_AGAIN = 'The upload was not sent again: the service may have accepted it, and a second upload would be charged twice.';

/** The same for a template create, update or delete: a write is never repeated. */
export const CHANGE_NOT_SENT_AGAIN =
	'The change was not sent again: the service may have applied it. Check the template with Get Template or Get Many before running the node again.';

const BASE_URL_FIX = 'Check the Base URL in the credential: it is the address of the service without a path, e.g. https://api.example.com.';

const TOO_LARGE_FIX = `Compress the file, lower an image's resolution to about ${formatCount(RECOMMENDED_IMAGE_LONG_SIDE_PX)} px on the long side, or split the PDF into smaller files.`;

const TEMPLATE_LIMITS_TEXT =
	`Limits: name up to ${formatCount(TEMPLATE_LIMITS.nameLength)} characters, description up to ${formatCount(TEMPLATE_LIMITS.descriptionLength)}, ` +
	`at most ${TEMPLATE_LIMITS.fields} fields and ${TEMPLATE_LIMITS.tableColumns} table columns, ${TEMPLATE_LIMITS.examplesPerField} examples per field, ${formatKilobytes(TEMPLATE_LIMITS.definitionBytes)} KB in total.`;

const explanations: Record<string, Explain> = {
	NO_FILE: () => ({
		message: 'The service received no file',
		description: 'The upload had no "file" part. Check that the input item carries the document in the binary property the node is set to read.',
	}),
	UNSUPPORTED_FILE_TYPE: () => ({
		message: 'The service does not accept this type of file',
		description: 'Only PDF, JPEG and PNG files can be processed. Convert the document to one of these formats first.',
	}),
	DOCUMENT_TOO_LONG: () => ({
		message: `The document has more than ${MAX_PAGES_PER_DOCUMENT} pages`,
		description: `The service processes at most ${MAX_PAGES_PER_DOCUMENT} pages per document. Split the PDF into parts: Options → Split PDFs (Every N Pages, or Page Ranges) sends each part as its own document.`,
	}),
	VALIDATION_ERROR: (body) => ({
		message: `The service rejected the template definition: ${body.message ?? 'invalid input'}`,
		description: `Correct the field named in the message. ${TEMPLATE_LIMITS_TEXT}`,
	}),
	INVALID_JSON: () => ({
		message: 'The service could not read the request as JSON',
		description: 'Check the template fields given as JSON: they must be a valid JSON array of field objects.',
	}),
	API_KEY_REQUIRED: () => ({
		message: 'The service received no API key',
		description: 'Open the Document Extraction API credential and paste your API key.',
	}),
	INVALID_API_KEY: () => ({
		message: 'The service refused the API key',
		description: 'Copy the key again from the API section of your account into the credential. A regenerated key replaces the old one immediately.',
	}),
	INSUFFICIENT_TOKENS: (body) => {
		const required = numberOrUndefined(body.tokens_required);
		const available = numberOrUndefined(body.tokens_available);
		const plan = typeof body.plan === 'string' ? ` on the ${body.plan} plan` : '';
		const renews = body.next_action?.renews_at ? ` Your pages renew on ${body.next_action.renews_at}.` : '';
		const pricing = body.next_action?.pricing_url ? ` Upgrade or buy pages: ${body.next_action.pricing_url}` : '';
		const counts = required !== undefined && available !== undefined ? `: this document needs ${required}, ${available} left${plan}` : plan;
		return {
			message: `Not enough pages left in your quota${counts}`,
			description: `${body.next_action?.message ?? 'Each page of a document uses one page of the monthly quota.'}${renews}${pricing}`.trim(),
		};
	},
	PAYMENT_REQUIRED: (body) => ({
		message: 'Your account has an unpaid invoice',
		description: [body.next_action?.message ?? 'Settle the open invoice in the billing portal of your account.', body.next_action?.url].filter(Boolean).join(' '),
	}),
	SCANNER_LIMIT: (body) => ({
		message: `Template limit reached${numberOrUndefined(body.limit) !== undefined ? ` (${body.limit} templates)` : ''}`,
		description: `Delete a template you no longer use, or upgrade your plan${body.next_action?.pricing_url ? `: ${body.next_action.pricing_url}` : ''}. The free plan allows ${FREE_PLAN_TEMPLATES} templates including the ${READY_MADE_TEMPLATES} ready-made ones.`,
	}),
	SCANNER_NOT_FOUND: (_body, _status, request) => ({
		message: `The template${request.templateId ? ` "${request.templateId}"` : ''} does not exist in this account`,
		description:
			request.kind === 'upload'
				? 'It may have been deleted, or the ID belongs to another account. Pick the template from the list, or use "Extract (Auto-Detect Template)" to let the service choose.'
				: 'It may have been deleted, or the ID belongs to another account. Pick the template from the list, or look up the IDs with Template > Get Many.',
	}),
	RESULT_NOT_FOUND: (_body, _status, request) => ({
		message: `No result with ${request.resultId ? `ID ${request.resultId}` : 'this ID'} exists in this account`,
		description:
			'Check that the result ID comes from an upload made with the same account\'s API key (a key of another account sees none of its results), and that it was copied whole.',
	}),
	UPLOAD_PARSE_ERROR: () => ({
		message: 'The service could not read the uploaded file',
		description:
			'The upload may have arrived damaged or cut short, for example because of a network or proxy problem. Check that the file opens on your computer, then run the node again.',
	}),
	ROUTE_NOT_FOUND: () => ({
		message: 'The service does not know this address',
		description: BASE_URL_FIX,
	}),
	COMPANY_NOT_FOUND: () => ({
		message: 'The service found no account for this API key',
		description:
			'The account the key belongs to may have been closed or not fully set up. Sign in to the service\'s app, check the account, create a new API key in its API section and paste it into the credential.',
	}),
	RATE_LIMITED: (body) => ({
		message: 'Too many requests to the service in this minute',
		description: `The key allows ${body.limit_per_minute ?? 'a fixed number of'} requests per minute. The node waits and retries by itself; if this persists, other workflows are using the same key heavily.`,
	}),
	INTERNAL_ERROR: (body) => ({
		message: 'The service had an internal error',
		description: `Try again later.${body.request_id ? ` If it persists, contact support and quote request ID ${body.request_id}.` : ''}`,
	}),
	BUSY: () => ({
		message: 'The service is busy with other uploads of this account',
		description: 'Too many documents were uploaded at the same time. The node already retried; run it again in a few seconds, or send fewer documents at once.',
	}),
};

/** 7.3: errors the gateway sends before the API runs; they carry only a `message`. */
function explainWithoutCode(status: number, body: ErrorBody): Explanation | undefined {
	if (status === 413) {
		return {
			message: `The file is too large for the service (over about ${formatMegabytes(MAX_FILE_BYTES)} MB)`,
			description: TOO_LARGE_FIX,
		};
	}
	if (status === 403 && /missing authentication token/i.test(body.message ?? '')) {
		return {
			message: 'The service does not know this address',
			description: `${BASE_URL_FIX} (The gateway answers 403 "Missing Authentication Token" for unknown URLs.)`,
		};
	}
	return undefined;
}

/** An answer that is not the service's JSON at all: an HTML error page from a gateway or another server. */
function explainNotJson(status: number): Explanation {
	if (status >= 500) {
		return {
			message: `The service is unavailable right now (HTTP ${status})`,
			description:
				'The service, or a gateway in front of it, failed and sent an error page instead of an answer. Wait a few minutes and run the node again; if it keeps happening, check the service\'s status page.',
		};
	}
	return {
		message: `The address answered with a web page instead of the service's API (HTTP ${status})`,
		description: BASE_URL_FIX,
	};
}

/**
 * Turns an error answer into what the user reads. Unknown codes keep the service's own words.
 * `rawBody` is the parsed JSON body, or undefined when the answer was not JSON.
 */
export function describeServiceError(status: number, rawBody: unknown, request: RequestContext): ServiceError {
	const isJson = typeof rawBody === 'object' && rawBody !== null;
	const parsed = errorBodySchema.safeParse(isJson ? rawBody : {});
	const body: ErrorBody = parsed.success ? parsed.data : {};
	const code = body.error_code ?? null;
	const explanation =
		(code && Object.prototype.hasOwnProperty.call(explanations, code) ? explanations[code](body, status, request) : undefined) ??
		(code ? undefined : explainWithoutCode(status, body)) ??
		(isJson ? undefined : explainNotJson(status)) ?? {
			message: body.message ? `The service answered ${status}${code ? ` ${code}` : ''}: ${body.message}` : `The service answered with HTTP ${status}`,
			description: code ? `Error code ${code}.` : 'The answer carried no error code.',
		};
	const details: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		if (key !== 'success' && key !== 'error_code') details[key] = value as IDataObject[string];
	}
	return { http_status: status, error_code: code, message: explanation.message, description: explanation.description, details };
}

/** The NodeApiError for a service error, keeping the status, the code and the extra members. */
/** The service's error code of an error the transport built (RESULT_NOT_FOUND...), if it has one. */
export function errorCodeOf(error: unknown): string | undefined {
	const code = (error as { context?: { serviceError?: ServiceError } } | undefined)?.context?.serviceError?.error_code;
	return typeof code === 'string' ? code : undefined;
}

export function serviceApiError(node: INode, serviceError: ServiceError, itemIndex?: number, retryAfterMs?: number): NodeApiError {
	const error = new NodeApiError(node, { ...serviceError } as JsonObject, {
		message: serviceError.message,
		description: serviceError.description,
		httpCode: String(serviceError.http_status),
		itemIndex,
		failure: failureOf(serviceError, retryAfterMs),
	});
	error.context.serviceError = serviceError;
	return error;
}

function failureOf(serviceError: ServiceError, retryAfterMs?: number) {
	switch (serviceError.error_code) {
		case 'RATE_LIMITED':
			return { cause: 'rate-limited' as const, retryAfterMs };
		case 'INSUFFICIENT_TOKENS': {
			const renewsAt = Date.parse(String((serviceError.details.next_action as IDataObject | undefined)?.renews_at ?? ''));
			return { cause: 'quota-exhausted' as const, resetsAtEpochMs: Number.isNaN(renewsAt) ? undefined : renewsAt };
		}
		case 'BUSY':
		case 'INTERNAL_ERROR':
			return { cause: 'temporarily-unavailable' as const };
		case 'API_KEY_REQUIRED':
		case 'INVALID_API_KEY':
			return { cause: 'credential-invalid' as const };
		case 'SCANNER_NOT_FOUND':
			return { cause: 'configuration-invalid' as const };
		default:
			return undefined;
	}
}

function numberOrUndefined(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
