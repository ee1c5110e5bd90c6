import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { MIN_RESULT_READ_INTERVAL_MS } from '../limits';
import { waitFor } from '../wait';
import { apiKeyProblem, baseUrlProblem, normaliseBaseUrl } from './connection';
import { CHANGE_NOT_SENT_AGAIN, describeServiceError, serviceApiError, UPLOAD_NOT_SENT_AGAIN, type RequestKind } from './errors';
import { multipartBody, type MultipartBody, type UploadFile } from './multipart';
import { networkError, networkFailure } from './networkErrors';
import { rateBudgetFor, type RateBudget } from './rateBudget';

/**
 * The one place that talks HTTP to the service: URLs, the credential, the per-key rate budget,
 * retries and response parsing; the body of an upload comes from multipart.ts, error answers are
 * explained by errors.ts. Every operation of both nodes goes through `callApi`.
 */

const CREDENTIAL_TYPE = 'documentExtractionApi';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions;

export interface ApiCall {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Path below the base URL, with path parameters already encoded (see `apiPath`). */
	path: string;
	body?: IDataObject;
	/** Sent as multipart part `file` (spec 4.2). */
	file?: UploadFile;
	itemIndex?: number;
	/** The ids in the path, named in error messages (e.g. RESULT_NOT_FOUND says which result). */
	subject?: { resultId?: string; templateId?: string };
}

/**
 * Retry policy. Uploads are retried only on answers that prove the service did not take them.
 * A plain object rather than constants so tests can shorten the waits.
 */
export const RETRY = {
	/** 429: wait Retry-After, but never longer than this per wait. */
	maxRetryAfterMs: 60_000,
	rateLimitedRetries: 5,
	/** 503 BUSY (spec 7.2: "retry in a few seconds", retryable). */
	busyRetries: 5,
	busyBaseDelayMs: 1_000,
	/** GET on 5xx, malformed answers and network errors. Every GET retry waits at least the spec's 2 s between reads. */
	idempotentRetries: 4,
	idempotentBaseDelayMs: 1_000,
	idempotentMinDelayMs: MIN_RESULT_READ_INTERVAL_MS,
	maxBackoffMs: 15_000,
	readTimeoutMs: 30_000,
	uploadTimeoutMs: 120_000,
};

/** Builds `/api/v1/...` with each parameter encoded, so `a/b?c` can never change the path. */
export function apiPath(strings: TemplateStringsArray, ...params: string[]): string {
	return strings.reduce((path, part, i) => path + part + (i < params.length ? encodePathParam(params[i]) : ''), '');
}

function encodePathParam(value: string): string {
	// `.` and `..` survive encodeURIComponent but are collapsed by URL resolution.
	if (value === '.' || value === '..') return encodeURIComponent(value).replace(/\./g, '%2E');
	return encodeURIComponent(value);
}

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

type RetryKind = 'rate-limited' | 'busy' | 'idempotent';

/** The request budget of the credential's key, shared by every request made with it. */
export async function rateBudgetOf(ctx: ApiContext): Promise<RateBudget> {
	return (await connectionOf(ctx)).budget;
}

/**
 * A one-way fingerprint of the account the credential reaches (Base URL and API key): what was
 * uploaded with one key is never taken for another's. The key itself is kept nowhere.
 */
export async function accountOf(ctx: ApiContext): Promise<string> {
	const { baseUrl, apiKey } = await connectionOf(ctx);
	return createHash('sha256').update(`document-extraction account\n${baseUrl}\n${apiKey}`).digest('hex');
}

async function connectionOf(ctx: ApiContext, itemIndex?: number): Promise<{ baseUrl: string; budget: RateBudget; apiKey: string }> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normaliseBaseUrl(credentials.baseUrl);
	// Also checked in the credential's authenticate, but an error thrown there would reach us as a
	// network failure; deciding here gives the user the real reason without a request.
	const problem = baseUrlProblem(baseUrl, credentials) ?? apiKeyProblem(credentials.apiKey);
	if (problem) throw new NodeOperationError(ctx.getNode(), problem, { itemIndex });
	const apiKey = String(credentials.apiKey ?? '');
	return { baseUrl, budget: rateBudgetFor(apiKey, baseUrl), apiKey };
}

export async function callApi<S extends z.ZodTypeAny>(ctx: ApiContext, call: ApiCall, schema: S): Promise<z.output<S>> {
	const node = ctx.getNode();
	const { baseUrl, budget, apiKey } = await connectionOf(ctx, call.itemIndex);
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const isUpload = call.file !== undefined;
	const idempotent = call.method === 'GET';
	const kind = isUpload ? 'upload' : idempotent ? 'read' : 'change';
	const counts: Record<RetryKind, number> = { 'rate-limited': 0, busy: 0, idempotent: 0 };
	// Built once: a retried upload sends the same bytes without another copy of the file.
	const upload = call.file && multipartBody(call.file);

	/** Waits before the next attempt and says whether there is one. `delayMs` defaults to backoff. */
	const retry = async (kind: RetryKind, delayMs?: number): Promise<boolean> => {
		const attempt = ++counts[kind];
		const limit = { 'rate-limited': RETRY.rateLimitedRetries, busy: RETRY.busyRetries, idempotent: RETRY.idempotentRetries }[kind];
		if (attempt > limit) return false;
		const delay = delayMs ?? backoff(kind === 'busy' ? RETRY.busyBaseDelayMs : RETRY.idempotentBaseDelayMs, attempt);
		// A GET may be a result read: the spec asks 2-3 s between reads, retries included.
		await waitFor(idempotent ? Math.max(delay, RETRY.idempotentMinDelayMs) : delay, signal);
		return true;
	};

	for (;;) {
		await budget.acquire(signal);
		let response: RawResponse;
		try {
			response = await send(ctx, baseUrl, call, upload, signal);
		} catch (error) {
			budget.settleWithoutAnswer();
			if (signal?.aborted) throw new NodeOperationError(node, 'The execution was cancelled', { itemIndex: call.itemIndex });
			const failure = networkFailure(error);
			// An upload that failed after it left may have been accepted: retrying could charge twice.
			if (idempotent && (await retry('idempotent'))) continue;
			const unreachable = networkError(node, failure, kind, RETRY.idempotentRetries + 1, call.itemIndex);
			throw idempotent ? unreachable : mayHaveBeenAccepted(unreachable);
		}
		budget.observe(response.headers);
		const { statusCode } = response;

		if (statusCode >= 200 && statusCode < 300) {
			const parsed = schema.safeParse(parseBody(response.body));
			if (parsed.success) return parsed.data;
			if (idempotent && (await retry('idempotent'))) continue;
			const unreadable = unreadableAnswer(node, statusCode, kind, parsed.error, call.itemIndex);
			throw idempotent ? unreadable : mayHaveBeenAccepted(unreadable);
		}

		// Error texts reach outputs and logs: a service that echoes the key must not leak it there.
		const body = redactSecret(parseBody(response.body), apiKey);
		const serviceError = describeServiceError(statusCode, body, { kind, ...call.subject });
		if (statusCode === 429) {
			const waitMs = retryAfterMs(response.headers, body);
			budget.blockFor(waitMs);
			// A 429 proves the request was not processed, so even an upload may be sent again.
			if (await retry('rate-limited', waitMs)) continue;
			throw serviceApiError(node, serviceError, call.itemIndex, waitMs);
		}
		if (statusCode === 503 && serviceError.error_code === 'BUSY') {
			// BUSY is the service refusing before it accepted anything (spec 7.2: retryable).
			if (await retry('busy')) continue;
			throw serviceApiError(node, serviceError, call.itemIndex);
		}
		if (statusCode >= 500 && idempotent && (await retry('idempotent'))) continue;
		if (statusCode >= 500 && isUpload) {
			serviceError.description += ` ${UPLOAD_NOT_SENT_AGAIN} If no result appears for it in your account, run the item again.`;
			throw mayHaveBeenAccepted(serviceApiError(node, serviceError, call.itemIndex));
		}
		if (statusCode >= 500) {
			// A create, update or delete is not repeated: it may have been applied before the failure.
			serviceError.description += ` ${CHANGE_NOT_SENT_AGAIN}`;
			throw mayHaveBeenAccepted(serviceApiError(node, serviceError, call.itemIndex));
		}
		throw serviceApiError(node, serviceError, call.itemIndex);
	}
}

const MAY_HAVE_BEEN_ACCEPTED = 'uploadMayHaveBeenAccepted';

/** Marks an upload's or change's error as one after which the service may have applied it (no clear answer). */
function mayHaveBeenAccepted<E extends NodeApiError | NodeOperationError>(error: E): E {
	error.context[MAY_HAVE_BEEN_ACCEPTED] = true;
	return error;
}

/** True when an upload or change failed in a way that does not prove the service refused it (see uploadLedger). */
export function mayHaveBeenApplied(error: unknown): boolean {
	return (error instanceof NodeApiError || error instanceof NodeOperationError) && error.context[MAY_HAVE_BEEN_ACCEPTED] === true;
}

async function send(ctx: ApiContext, baseUrl: string, call: ApiCall, upload: MultipartBody | undefined, signal: AbortSignal | undefined): Promise<RawResponse> {
	const options: IHttpRequestOptions = {
		method: call.method,
		url: baseUrl + call.path,
		headers: { Accept: 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: upload ? RETRY.uploadTimeoutMs : RETRY.readTimeoutMs,
		abortSignal: signal,
		// The service answers with no redirect (spec 4.1), and n8n would carry the X-API-Key header to wherever one points.
		disableFollowRedirect: true,
	};
	if (upload) {
		options.headers = { ...options.headers, 'Content-Type': upload.contentType };
		options.body = upload.body;
		// n8n would otherwise JSON-encode the body.
		options.json = false;
	} else if (call.body !== undefined) {
		options.body = call.body;
		options.json = true;
	} else {
		options.json = true;
	}
	const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options)) as RawResponse;
	return { statusCode: response.statusCode, headers: lowerCaseKeys(response.headers ?? {}), body: response.body };
}

function parseBody(body: unknown): unknown {
	if (typeof body === 'string') {
		try {
			return JSON.parse(body);
		} catch {
			return undefined;
		}
	}
	if (body instanceof Uint8Array) return parseBody(new TextDecoder().decode(body));
	return body;
}

function lowerCaseKeys(headers: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

/** Spec 7.2: the `Retry-After` header (seconds), else `retry_after_seconds`, bounded. */
function retryAfterMs(headers: Record<string, unknown>, body: unknown): number {
	const header = Number(headers['retry-after']);
	const member = Number((body as IDataObject | undefined)?.retry_after_seconds);
	const seconds = Number.isFinite(header) && header >= 0 ? header : Number.isFinite(member) && member >= 0 ? member : 1;
	return Math.min(seconds * 1000, RETRY.maxRetryAfterMs);
}

/** Exponential backoff with full jitter, so parallel items do not retry in lockstep. */
function backoff(baseMs: number, attempt: number): number {
	const ceiling = Math.min(RETRY.maxBackoffMs, baseMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function unreadableAnswer(node: INode, statusCode: number, kind: RequestKind, zodError: z.ZodError, itemIndex?: number): NodeApiError {
	const where = zodError.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
	const notSentAgain = { upload: ` ${UPLOAD_NOT_SENT_AGAIN}`, change: ` ${CHANGE_NOT_SENT_AGAIN}`, read: '' }[kind];
	return new NodeApiError(node, { statusCode, issues: where }, {
		message: kind === 'upload' ? 'The service accepted the upload but its answer could not be read' : 'The service sent an answer the node could not read',
		description: `Unexpected answer (HTTP ${statusCode}): ${where}.${notSentAgain}`,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** A copy of `value` in which every occurrence of `secret` inside a string is replaced. */
function redactSecret(value: unknown, secret: string, depth = 0): unknown {
	if (!secret || depth > 20) return value;
	if (typeof value === 'string') return value.split(secret).join('[redacted]');
	if (Array.isArray(value)) return value.map((entry) => redactSecret(entry, secret, depth + 1));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, redactSecret(entry, secret, depth + 1)]));
	}
	return value;
}
