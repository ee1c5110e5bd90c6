/**
 * What the action node's nock suites share: the fake service's address, an isolated credential
 * per test, a record of every request that reached the fake service, multipart parsing, and
 * service answers shaped as spec part 2 describes them.
 */
import nock, { cleanAll, disableNetConnect, emitter, enableNetConnect } from 'nock';
import { LoadOptionsContext } from 'n8n-core';
import { NodeHelpers, Workflow, type IDataObject, type INode, type INodeExecutionData, type INodeListSearchResult, type INodeParameters, type INodeTypes } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { RETRY } from '../../nodes/shared/http/transport';
import { buildAdditionalData, NODE_TYPES, runNode, type RunResult, type TestCredential } from '../harness/engine';
import { freshKey } from '../harness/keys';

export const BASE = 'https://extract.example.test';

/** Result ids are UUIDs (spec 2.3); these differ in their last digit only to stay readable. */
export const resultId = (n: number) => `6f1c2a9e-0b7d-4c55-9a7e-3d2b1c0a9f8${n.toString(16)}`;

/** A fresh key per test: the rate budget and the completion estimator are per key. */
export function credential(): TestCredential {
	return { apiKey: freshKey(), baseUrl: BASE };
}

/** nock for the whole file, with the transport's retry waits shortened (and restored). */
export function useNock(): void {
	const original = { ...RETRY };
	beforeAll(() => {
		disableNetConnect();
		Object.assign(RETRY, { busyBaseDelayMs: 5, idempotentBaseDelayMs: 5, idempotentMinDelayMs: 5, maxBackoffMs: 20 });
	});
	afterAll(() => {
		Object.assign(RETRY, original);
		enableNetConnect();
	});
	afterEach(() => {
		cleanAll();
		emitter.removeAllListeners('no match');
	});
}

export function runAction(parameters: INodeParameters, input: INodeExecutionData[] | undefined, options: { cred?: TestCredential; continueOnFail?: boolean } = {}): Promise<RunResult> {
	return runNode({
		nodeType: 'action',
		parameters,
		credential: options.cred ?? credential(),
		input,
		onError: options.continueOnFail ? 'continueRegularOutput' : undefined,
	});
}

const actionType = new DocumentExtraction();
const actionNodeTypes: INodeTypes = {
	getByName: () => actionType,
	getByNameAndVersion: (_name, version) => NodeHelpers.getVersionedNodeType(actionType, version),
	getKnownTypes: () => ({}),
};

/**
 * The Template picker's list, called as n8n's editor calls it: the node type's listSearch method
 * on n8n-core's LoadOptionsContext for the `templateId` parameter.
 */
export async function searchTemplates(cred: TestCredential, filter?: string): Promise<INodeListSearchResult> {
	const node: INode = {
		id: 'picker',
		name: 'Document Extraction',
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'document', operation: 'extractWithTemplate' },
		credentials: { documentExtractionApi: { id: 'cred-1', name: 'Document Extraction account' } },
	};
	const workflow = new Workflow({ id: 'wf-picker', nodes: [node], connections: {}, active: false, nodeTypes: actionNodeTypes });
	const context = new LoadOptionsContext(workflow, node, buildAdditionalData(cred), 'parameters.templateId');
	return await actionType.methods.listSearch.searchTemplates.call(context, filter);
}

export interface SeenRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
	/** Date.now() when the request arrived. */
	at: number;
}

/**
 * Answers every request to the fake service (any method, any path) and records it, including
 * requests that no interceptor matched. For "nothing was sent": the list must stay empty.
 */
export function trapAllRequests(): SeenRequest[] {
	const seen: SeenRequest[] = [];
	emitter.on('no match', (req: { method?: string; path?: string; options?: { method?: string; path?: string } }) => {
		seen.push({ method: String(req.method ?? req.options?.method), path: String(req.path ?? req.options?.path), headers: {}, body: Buffer.alloc(0), at: Date.now() });
	});
	const scope = nock(BASE).persist();
	for (const method of ['get', 'post', 'patch', 'delete'] as const) {
		scope[method](/.*/).reply(function (path, body) {
			seen.push({ method: method.toUpperCase(), path, headers: { ...this.req.headers }, body: bodyBytes(body), at: Date.now() });
			return [500, { success: false, error_code: 'INTERNAL_ERROR', message: 'this test expected no request' }];
		});
	}
	return seen;
}

type Reply = [number, unknown] | [number, unknown, Record<string, string>];

/** Answers `interceptor` once with `reply`, recording the request into `into`. */
export function answer(interceptor: nock.Interceptor, into: SeenRequest[], reply: Reply | ((request: SeenRequest) => Reply)): nock.Scope {
	return interceptor.reply(function (path, body) {
		const request = { method: this.req.method ?? '', path, headers: { ...this.req.headers }, body: bodyBytes(body), at: Date.now() };
		into.push(request);
		return typeof reply === 'function' ? reply(request) : reply;
	});
}

/** nock hands a binary body over as a hex string, a text body as the text, JSON as an object. */
function bodyBytes(body: unknown): Buffer {
	if (typeof body === 'string') return /^(?:[0-9a-f]{2})+$/i.test(body) ? Buffer.from(body, 'hex') : Buffer.from(body, 'utf8');
	if (body === undefined || body === null || body === '') return Buffer.alloc(0);
	return Buffer.from(JSON.stringify(body), 'utf8');
}

export function jsonBody(request: SeenRequest): unknown {
	return JSON.parse(request.body.toString('utf8'));
}

export interface MultipartPart {
	name: string | undefined;
	filename: string | undefined;
	contentType: string | undefined;
	data: Buffer;
}

/** The parts of a multipart/form-data request, bytes exact (RFC 7578). */
export function multipartParts(request: SeenRequest): MultipartPart[] {
	const header = String(request.headers['content-type'] ?? '');
	const boundary = /^multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;]+))/i.exec(header);
	if (!boundary) throw new Error(`not a multipart request: content-type "${header}"`);
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const parts: MultipartPart[] = [];
	let start = request.body.indexOf(delimiter);
	while (start !== -1) {
		const next = request.body.indexOf(delimiter, start + delimiter.length);
		if (next === -1) break;
		// Each part: CRLF, headers, CRLF CRLF, data, CRLF, then the next delimiter.
		const part = request.body.subarray(start + delimiter.length + 2, next - 2);
		const split = part.indexOf('\r\n\r\n');
		const headers = part.subarray(0, split).toString('utf8');
		const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
		parts.push({
			name: /\bname="([^"]*)"/.exec(disposition)?.[1],
			filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
			contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1].trim(),
			data: Buffer.from(part.subarray(split + 4)),
		});
		start = next;
	}
	return parts;
}

/** Spec 2.3. `queued_at` lies in the past, so the scheduler's first read is due at once. */
export function uploadAccepted(id: string, extra: IDataObject = {}): IDataObject {
	return {
		success: true,
		result_id: id,
		request_id: '0c6f5a1e-7d2b-4a8e-9f3c-1b2d3e4f5a6b',
		scanner_id: 'auto',
		scanner_name: 'Detecting template…',
		filename: 'invoice.pdf',
		status: 'queued',
		tokens_required: 1,
		tokens_remaining: 19,
		queued_at: '2026-01-01T00:00:00.000Z',
		...extra,
	};
}

/**
 * What the Fields output (the default) makes of `doneResult(id)`: each field's value under its
 * name, tables as lists of rows, and the result's metadata in `extraction` (pages_used is the
 * result's tokens_used, language and extracted_at come from extracted_data).
 */
export const fieldsItemOf = (id: string, reused?: { firstExtractedAt: string }): IDataObject => ({
	invoice_number: 'INV-1',
	total: 1234.56,
	paid: false,
	due_date: null,
	line_items: [
		{ description: 'Design', quantity: 1, amount: 750 },
		{ description: 'Hosting', quantity: 12, amount: 238.8 },
	],
	taxes: [{ rate: 20, amount: 205.76 }],
	extraction: {
		result_id: id,
		status: 'done',
		template: { id: 'scn_invoice', name: 'Invoice' },
		file_name: 'invoice.pdf',
		file_type: 'application/pdf',
		confidence: 0.87,
		// An earlier upload's result read again costs nothing this time, and says when it was first extracted.
		pages_used: reused ? 0 : 1,
		reused: reused !== undefined,
		language: 'en',
		extracted_at: '2026-01-01T00:00:05.000Z',
		created_at: '2026-01-01T00:00:00.000Z',
		summary: { fields_with_values: 5, fields_null: 1 },
		compliance: { compliant: true, checks: ['totals'] },
		...(reused ? { first_extracted_at: reused.firstExtractedAt } : {}),
		...NO_DUPLICATE_INVOICE,
	},
});
/** An invoice (an `invoice_number` field) that matched no earlier one: Flag Duplicate Invoices is on by default. */
export const NO_DUPLICATE_INVOICE = { duplicate_invoice: null, duplicate_invoice_first_seen: null, duplicate_invoice_result_id: null, duplicate_invoice_file_name: null };
/** The upload receipt's queued_at (uploadAccepted): when a reused document was first extracted. */
export const QUEUED_AT = '2026-01-01T00:00:00.000Z';

/** A `done` Result (spec 2.4-2.6) with scalar fields of every kind, a null, and two tables. */
export function doneResult(id: string, extra: IDataObject = {}): IDataObject {
	return {
		success: true,
		result_id: id,
		status: 'done',
		scanner_id: 'scn_invoice',
		scanner_name: 'Invoice',
		filename: 'invoice.pdf',
		file_type: 'application/pdf',
		tokens_used: '1',
		created_at: '2026-01-01T00:00:00.000Z',
		source_type: 'api',
		confidence: 0.87,
		extracted_data: {
			status: 'ok',
			scanner_name: 'Invoice',
			language: 'en',
			extracted_at: '2026-01-01T00:00:05.000Z',
			summary: { fields_with_values: 5, fields_null: 1 },
			doc_metadata: { num_paginas: 1, tipo_archivo: 'pdf', ocr_provider: 'text-layer', idioma_detectado_ocr: 'en' },
			compliance: { compliant: true, checks: ['totals'] },
			fields: [
				{ name: 'invoice_number', label: 'Invoice number', value_type: 'string', value: 'INV-1', confidence: 0.98, source_fragment: 'Invoice No. INV-1' },
				{ name: 'total', label: 'Total', value_type: 'currency', value: 1234.56, confidence: 0.6, source_fragment: 'Total due 1,234.56' },
				{ name: 'paid', label: 'Paid', value_type: 'boolean', value: false, confidence: 0.9, source_fragment: 'Unpaid' },
				{ name: 'due_date', label: 'Due date', value_type: 'date', value: null, confidence: 0, source_fragment: '' },
				{
					name: 'line_items',
					label: 'Lines',
					value_type: 'table',
					value: [
						{ description: 'Design', quantity: 1, amount: 750 },
						{ description: 'Hosting', quantity: 12, amount: 238.8 },
					],
					confidence: 0.8,
					source_fragment: 'Design 1 750.00 / Hosting 12 238.80',
				},
				{ name: 'taxes', label: 'Taxes', value_type: 'table', value: [{ rate: 20, amount: 205.76 }], confidence: 0.7, source_fragment: 'VAT 20% 205.76' },
			],
		},
		...extra,
	};
}

/** A result that ended without data (spec 2.4: error_code and error_message). */
export function failedResult(id: string, status: 'rejected' | 'error', code: string, message: string): IDataObject {
	return {
		success: true,
		result_id: id,
		status,
		scanner_id: 'auto',
		scanner_name: 'Invoice',
		filename: 'scan.pdf',
		file_type: 'application/pdf',
		tokens_used: status === 'rejected' ? 0 : 1,
		created_at: '2026-01-01T00:00:00.000Z',
		source_type: 'api',
		error_code: code,
		error_message: message,
	};
}

export function pendingResult(id: string, status: 'queued' | 'processing'): IDataObject {
	return { success: true, result_id: id, status, scanner_id: 'auto', scanner_name: 'Detecting template…', filename: 'invoice.pdf', tokens_used: null, source_type: 'api' };
}

/** Every output item points at an input item, and each input item in `expected` is there exactly as often as said. */
export function expectPairedItems(items: INodeExecutionData[], expected: number[]): void {
	for (const item of items) expect(item.pairedItem).toEqual({ item: expect.any(Number) });
	const paired = items.map((item) => (item.pairedItem as { item: number }).item);
	expect([...paired].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
}
