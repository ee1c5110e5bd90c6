import { randomUUID } from 'node:crypto';
import { firstDayOfNextMonthUtc } from './clock';
import type { JsonReply, Plan } from './types';

/** Where error bodies point the caller (spec placeholders {app_url} and {pricing_url}). */
export interface SandboxLinks {
	appUrl: string;
	pricingUrl: string;
}

export const DEFAULT_LINKS: SandboxLinks = {
	appUrl: 'https://app.document-extraction.example',
	pricingUrl: 'https://document-extraction.example/pricing',
};

/** Spec 7.1: `success: false`, `message`, `error_code`, plus the extra members of 7.2. */
export function apiError(status: number, errorCode: string, message: string, extra: Record<string, unknown> = {}): JsonReply {
	return { status, body: { success: false, error_code: errorCode, message, ...extra } };
}

export const errors = {
	noFile: () => apiError(400, 'NO_FILE', 'No file was uploaded. Send the document in the multipart part "file".'),
	uploadParse: () => apiError(400, 'UPLOAD_PARSE_ERROR', 'The multipart body could not be parsed.'),
	unsupportedFileType: () =>
		apiError(400, 'UNSUPPORTED_FILE_TYPE', 'Unsupported file type. Upload a PDF or a JPEG/PNG image.'),
	documentTooLong: (pages: number, limit: number) =>
		apiError(400, 'DOCUMENT_TOO_LONG', `The document has ${pages} pages; at most ${limit} pages are allowed.`),
	validation: (message: string) => apiError(400, 'VALIDATION_ERROR', message),
	invalidJson: () => apiError(400, 'INVALID_JSON', 'The request body is not valid JSON.'),
	apiKeyRequired: () => apiError(401, 'API_KEY_REQUIRED', 'An API key is required in the X-API-Key header.'),
	invalidApiKey: () => apiError(401, 'INVALID_API_KEY', 'The API key is invalid.'),
	insufficientTokens: (args: { required: number; available: number; plan: Plan; now: number; links: SandboxLinks }) =>
		apiError(402, 'INSUFFICIENT_TOKENS', `This document needs ${args.required} pages but only ${args.available} are left.`, {
			tokens_required: args.required,
			tokens_available: args.available,
			plan: args.plan,
			next_action:
				args.plan === 'free'
					? {
							type: 'upgrade_or_wait',
							renews_at: firstDayOfNextMonthUtc(args.now),
							pricing_url: args.links.pricingUrl,
							message: 'Upgrade your plan or wait until your free pages renew.',
						}
					: {
							type: 'buy_pages',
							pricing_url: args.links.pricingUrl,
							message: 'Buy a page pack or upgrade your plan.',
						},
		}),
	paymentRequired: (links: SandboxLinks) =>
		apiError(402, 'PAYMENT_REQUIRED', 'An unpaid invoice exists. Settle it in the billing portal.', {
			next_action: {
				type: 'billing_portal',
				url: `${links.appUrl}/billing`,
				message: 'Open the billing portal and pay the outstanding invoice.',
			},
		}),
	scannerLimit: (limit: number, links: SandboxLinks) =>
		apiError(403, 'SCANNER_LIMIT', `Your plan allows ${limit} templates in total.`, {
			limit,
			next_action: { type: 'upgrade', pricing_url: links.pricingUrl, message: 'Upgrade to create more templates.' },
		}),
	scannerNotFound: () => apiError(404, 'SCANNER_NOT_FOUND', 'Scanner not found.'),
	resultNotFound: () => apiError(404, 'RESULT_NOT_FOUND', 'Result not found.'),
	rateLimited: (limitPerMinute: number, retryAfterSeconds: number) => ({
		...apiError(429, 'RATE_LIMITED', `Rate limit of ${limitPerMinute} requests per minute exceeded.`, {
			limit_per_minute: limitPerMinute,
			retry_after_seconds: retryAfterSeconds,
		}),
		headers: { 'Retry-After': String(retryAfterSeconds) },
	}),
	internal: () =>
		apiError(500, 'INTERNAL_ERROR', 'Internal error. Retry later; quote the request_id when contacting support.', {
			request_id: randomUUID(),
		}),
	busy: () =>
		apiError(503, 'BUSY', 'Too many simultaneous uploads for this account. Retry in a few seconds.', { retryable: true }),
};
