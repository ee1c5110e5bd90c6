import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileEveryAnswer, problemsWith, type ObservedResponse } from '../contract/openapi';
import { startSandbox, type Sandbox } from '../../sandbox/src';

/**
 * docs/openapi.json, the service's interface as OpenAPI 3.1 (spec 1, 9): it is valid OpenAPI, the
 * sandbox serves it unchanged, and the contract suite's response check refuses what it does not allow.
 */

const FILE = join(__dirname, '..', '..', 'docs', 'openapi.json');
const text = readFileSync(FILE, 'utf8');
const document = JSON.parse(text) as Record<string, unknown>;

async function validateAsOpenApi(spec: Record<string, unknown>) {
	// @seriousme/openapi-schema-validator checks against the OpenAPI Initiative's own 3.1 schema.
	return new Validator().validate(structuredClone(spec));
}

describe('docs/openapi.json', () => {
	it('is valid OpenAPI 3.1 with interface version 1.0.0 (spec 9)', async () => {
		const outcome = await validateAsOpenApi(document);
		expect(outcome.errors).toBeUndefined();
		expect(outcome.valid).toBe(true);
		expect(document.openapi).toMatch(/^3\.1\.\d+$/);
		expect(document.info).toMatchObject({ version: '1.0.0' });
	});

	it('the OpenAPI check is not vacuous: a copy with a response lacking its description is refused', async () => {
		const broken = structuredClone(document) as { components: { responses: Record<string, Record<string, unknown>> } };
		delete broken.components.responses.UploadAccepted.description;
		expect((await validateAsOpenApi(broken)).valid).toBe(false);
	});

	it('has the eight operations of spec 4.1, each at its method and path', () => {
		const paths = document.paths as Record<string, Record<string, { operationId?: string }>>;
		const found = Object.entries(paths).flatMap(([path, item]) =>
			Object.entries(item)
				.filter(([, operation]) => operation.operationId)
				.map(([method, operation]) => `${operation.operationId} ${method.toUpperCase()} ${path}`),
		);
		expect(found.sort()).toEqual(
			[
				'processDocument POST /api/v1/process',
				'uploadDocumentToScanner POST /api/v1/scanners/{scannerId}/upload',
				'getResult GET /api/v1/results/{resultId}',
				'listScanners GET /api/v1/scanners',
				'createScanner POST /api/v1/scanners',
				'getScanner GET /api/v1/scanners/{scannerId}',
				'updateScanner PATCH /api/v1/scanners/{scannerId}',
				'deleteScanner DELETE /api/v1/scanners/{scannerId}',
			].sort(),
		);
	});

	it('names every error code of spec 7.2', () => {
		for (const code of [
			'NO_FILE',
			'UNSUPPORTED_FILE_TYPE',
			'DOCUMENT_TOO_LONG',
			'VALIDATION_ERROR',
			'INVALID_JSON',
			'API_KEY_REQUIRED',
			'INVALID_API_KEY',
			'INSUFFICIENT_TOKENS',
			'PAYMENT_REQUIRED',
			'SCANNER_LIMIT',
			'SCANNER_NOT_FOUND',
			'RESULT_NOT_FOUND',
			'RATE_LIMITED',
			'INTERNAL_ERROR',
			'BUSY',
			'ROUTE_NOT_FOUND',
			'UPLOAD_PARSE_ERROR',
			'COMPANY_NOT_FOUND',
		]) {
			expect(text, code).toContain(`"${code}"`);
		}
	});
});

describe('the sandbox serves it (spec 1: GET /openapi.json)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ timing: 'fast' });
	});
	afterAll(() => sandbox.stop());

	it('without an API key, as JSON, exactly the file', async () => {
		const response = await fetch(`${sandbox.baseUrl}/openapi.json`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
		expect(await response.text()).toBe(text);
	});

	it('only on GET: another method is an unknown URL (spec 7.3.2)', async () => {
		const response = await fetch(`${sandbox.baseUrl}/openapi.json`, { method: 'POST' });
		expect(response.status).toBe(403);
		expect(await response.json()).toStrictEqual({ message: 'Missing Authentication Token' });
	});
});

describe('the contract suite’s response check', () => {
	const RATE = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '42', 'content-type': 'application/json' };
	const ACCEPTED = {
		success: true,
		result_id: '7d444840-9dc0-41cf-a7b4-9b7c9a4bbd3a',
		request_id: 'c4b0e1a2-5a9e-4b8e-9f3e-2f1d0c9b8a7e',
		scanner_id: 'auto',
		scanner_name: 'Detecting template…',
		filename: 'a.pdf',
		status: 'queued',
		tokens_required: 1,
		tokens_remaining: 19,
		queued_at: '2026-01-02T03:04:05.000Z',
	};
	const answer = (overrides: Partial<Omit<ObservedResponse, 'headers'>> & { headers?: Record<string, string> } = {}): ObservedResponse => ({
		method: 'POST',
		path: '/api/v1/process',
		status: 202,
		text: JSON.stringify(ACCEPTED),
		...overrides,
		headers: new Headers(overrides.headers ?? RATE),
	});
	const error = (code: string, extra: Record<string, unknown> = {}) =>
		JSON.stringify({ success: false, error_code: code, message: 'x', ...extra });

	it('compiles every documented answer\'s schemas in Ajv\'s strict mode (a misspelt keyword fails here)', () => {
		expect(compileEveryAnswer()).toBeGreaterThan(100);
	});

	it('accepts documented answers', () => {
		expect(problemsWith(answer())).toEqual([]);
		expect(problemsWith(answer({ status: 400, text: error('NO_FILE') }))).toEqual([]);
		expect(problemsWith(answer({ status: 401, text: error('API_KEY_REQUIRED'), headers: { 'content-type': 'application/json' } }))).toEqual([]);
		expect(problemsWith(answer({ method: 'GET', path: '/nowhere', status: 403, text: '{"message":"Missing Authentication Token"}', headers: { 'content-type': 'application/json' } }))).toEqual([]);
		expect(
			problemsWith(answer({ status: 429, text: error('RATE_LIMITED', { limit_per_minute: 60, retry_after_seconds: 3 }), headers: { ...RATE, 'retry-after': '3' } })),
		).toEqual([]);
	});

	it('refuses a body missing a required member', () => {
		const withoutId: Record<string, unknown> = { ...ACCEPTED };
		delete withoutId.result_id;
		expect(problemsWith(answer({ text: JSON.stringify(withoutId) })).join('\n')).toMatch(/result_id/);
	});

	it('refuses a status the operation does not document', () => {
		expect(problemsWith(answer({ status: 200 })).join('\n')).toMatch(/undocumented status 200/);
		expect(problemsWith(answer({ method: 'GET', path: '/api/v1/scanners', status: 404, text: error('SCANNER_NOT_FOUND') })).join('\n')).toMatch(
			/undocumented status 404/,
		);
	});

	it('refuses an error code its status does not have, and a code without its extra members', () => {
		expect(problemsWith(answer({ status: 400, text: error('INVALID_JSON') }))).not.toEqual([]);
		expect(problemsWith(answer({ status: 402, text: error('INSUFFICIENT_TOKENS') }))).not.toEqual([]);
		expect(problemsWith(answer({ status: 503, text: error('BUSY') }))).not.toEqual([]);
	});

	it('refuses a missing or non-integer rate-limit header, and a 429 without Retry-After', () => {
		const withoutReset: Record<string, string> = { ...RATE };
		delete withoutReset['x-ratelimit-reset'];
		expect(problemsWith(answer({ headers: withoutReset })).join('\n')).toMatch(/X-RateLimit-Reset/i);
		expect(problemsWith(answer({ headers: { ...RATE, 'x-ratelimit-remaining': 'many' } })).join('\n')).toMatch(/X-RateLimit-Remaining/i);
		const limited = error('RATE_LIMITED', { limit_per_minute: 60, retry_after_seconds: 3 });
		expect(problemsWith(answer({ status: 429, text: limited })).join('\n')).toMatch(/Retry-After/i);
	});

	it('refuses a body that is not JSON, and an unknown URL answered otherwise than the gateway does', () => {
		expect(problemsWith(answer({ text: '{"success":tr' }))).not.toEqual([]);
		expect(problemsWith(answer({ method: 'GET', path: '/api/v1/unknown', status: 404, text: error('ROUTE_NOT_FOUND') }))).not.toEqual([]);
	});
});
