import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type AccountOptions, type Sandbox } from '../../sandbox/src';
import { expectDocumented } from './openapi';

/**
 * Where the contract suite runs: the local sandbox (default, fast timing), or another service
 * named by CONTRACT_BASE_URL + CONTRACT_API_KEY. Cases that need sandbox controls (accounts,
 * faults, the clock) skip when pointed elsewhere.
 */
export interface Target {
	baseUrl: string;
	apiKey: string;
	/** Present only when the suite drives its own sandbox. */
	sandbox?: Sandbox;
	/** Its answers may depart from docs/openapi.json on purpose (injected faults): not checked. */
	offContract?: boolean;
}

export const EXTERNAL_BASE_URL = process.env.CONTRACT_BASE_URL;
export const usingSandbox = !EXTERNAL_BASE_URL;

export async function openTarget(): Promise<Target> {
	if (EXTERNAL_BASE_URL) {
		const apiKey = process.env.CONTRACT_API_KEY;
		if (!apiKey) throw new Error('CONTRACT_BASE_URL needs CONTRACT_API_KEY');
		return { baseUrl: EXTERNAL_BASE_URL.replace(/\/+$/, ''), apiKey };
	}
	// The suite's main key gets a generous rate limit, so only the rate-limit cases meet 429s.
	const sandbox = await startSandbox({ timing: 'fast', demoAccount: { plan: 'paid', monthlyPages: 15_000, rateLimitPerMinute: 100_000 } });
	return { baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey, sandbox };
}

export async function closeTarget(target: Target | undefined): Promise<void> {
	await target?.sandbox?.stop();
}

/** A fresh account of the sandbox and its key (sandbox-only cases). */
export function freshAccount(target: Target, options: AccountOptions = {}): { accountId: string; key: string } {
	if (!target.sandbox) throw new Error('freshAccount needs the sandbox');
	const account = target.sandbox.accounts.create(options);
	return { accountId: account.id, key: account.keys[0] };
}

export interface ApiResponse {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed JSON body, or undefined when the body is not JSON. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads arbitrary JSON
	body: any;
}

export interface CallOptions {
	/** API key; null sends none. Default: the target's key. */
	key?: string | null;
	json?: unknown;
	body?: RequestInit['body'];
	headers?: Record<string, string>;
}

export async function call(target: Target, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
	const headers: Record<string, string> = { ...options.headers };
	const key = options.key === undefined ? target.apiKey : options.key;
	if (key !== null) headers['X-API-Key'] = key;
	let body = options.body;
	if (options.json !== undefined) {
		headers['Content-Type'] = 'application/json';
		body = JSON.stringify(options.json);
	}
	let response = await fetch(`${target.baseUrl}${path}`, { method, headers, body });
	// Against a real service the suite keeps to its rate limit (spec 8.5: wait Retry-After seconds);
	// against the sandbox every 429 is one a case asked for.
	for (let retry = 0; EXTERNAL_BASE_URL && response.status === 429 && retry < 3; retry++) {
		await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
		response = await fetch(`${target.baseUrl}${path}`, { method, headers, body });
	}
	const text = await response.text();
	// Every answer, whatever the case checks, must be one docs/openapi.json allows.
	if (!target.offContract) expectDocumented({ method, path, status: response.status, headers: response.headers, text });
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: response.status, headers: response.headers, text, body: parsed };
}

export function fileForm(bytes: Uint8Array, filename: string, contentType: string): FormData {
	const form = new FormData();
	form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentType }), filename);
	return form;
}

export function upload(target: Target, bytes: Uint8Array, options: { scannerId?: string; filename?: string; contentType?: string; key?: string } = {}) {
	const path = options.scannerId ? `/api/v1/scanners/${encodeURIComponent(options.scannerId)}/upload` : '/api/v1/process';
	return call(target, 'POST', path, {
		key: options.key,
		body: fileForm(bytes, options.filename ?? 'document.pdf', options.contentType ?? 'application/pdf'),
	});
}

const TERMINAL = new Set(['done', 'error', 'rejected']);

/** Polls a result until it is terminal; 2.5 s apart against a real service (spec 4.4), quickly against the fast sandbox. */
export async function waitForResult(
	target: Target,
	resultId: string,
	key?: string,
	onRead: (response: ApiResponse) => void = () => undefined,
): Promise<ApiResponse> {
	const intervalMs = target.sandbox ? 100 : 2500;
	const deadline = Date.now() + (target.sandbox ? 20_000 : 180_000);
	for (;;) {
		const response = await call(target, 'GET', `/api/v1/results/${resultId}`, { key });
		onRead(response);
		if (response.status !== 200 || TERMINAL.has(response.body?.status) || Date.now() > deadline) return response;
		await sleep(intervalMs);
	}
}

export async function createTemplate(target: Target, definition: Record<string, unknown>, key?: string): Promise<ApiResponse> {
	return call(target, 'POST', '/api/v1/scanners', { key, json: definition });
}
