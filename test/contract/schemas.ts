import { expect } from 'vitest';
import { z } from 'zod';
import type { ApiResponse } from './target';

/** The spec's resources (parts 2 and 7) as zod schemas, written from the spec for the contract suite. */

const dateTime = z.string().datetime({ offset: true });
const uuid = z.string().uuid();
const unit = z.number().min(0).max(1);
const int = z.number().int();
const fieldType = z.enum(['string', 'number', 'date', 'boolean', 'currency', 'email', 'phone', 'table']);

const fieldShape = {
	name: z.string().min(1).max(100),
	label: z.string().max(200).optional(),
	type: fieldType.optional(),
	value_type: fieldType.optional(),
	required: z.boolean().optional(),
	description: z.string().max(2000).optional(),
	format_hint: z.string().max(500).optional(),
	examples: z.array(z.string()).max(10).optional(),
};
const itemField = z.object(fieldShape);
export const fieldDefinition = z.object({ ...fieldShape, item_fields: z.array(itemField).max(100).optional() });

/** Spec 4.5 list entries and the 4.6 creation response: no updated_at. */
export const scannerSummary = z
	.object({
		scanner_id: z.string().min(1),
		name: z.string().max(200),
		description: z.string().max(2000),
		fields: z.array(fieldDefinition).max(100),
		created_at: dateTime,
	})
	.strict();

export const scannerList = z.object({ success: z.literal(true), scanners: z.array(scannerSummary) }).strict();
export const scannerCreated = scannerSummary.extend({ success: z.literal(true) }).strict();
/** Spec 4.7 / 4.8. */
export const scannerDetail = scannerCreated.extend({ updated_at: dateTime }).strict();
export const scannerDeleted = z.object({ success: z.literal(true), scanner_id: z.string(), deleted: z.literal(true) }).strict();

/** Spec 2.3. */
export const uploadAccepted = z.object({
	success: z.literal(true),
	result_id: uuid,
	request_id: uuid,
	scanner_id: z.string().min(1),
	scanner_name: z.string().min(1),
	filename: z.string(),
	status: z.literal('queued'),
	tokens_required: int.positive(),
	tokens_remaining: int.nonnegative(),
	queued_at: dateTime,
});

const tableRow = z.record(z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** Spec 2.6. */
export const extractedField = z
	.object({
		name: z.string(),
		label: z.string(),
		value_type: z.string(),
		value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(tableRow)]),
		confidence: unit,
		source_fragment: z.string(),
		raw_candidates: z.array(z.string()),
		normalization_notes: z.string(),
	})
	.passthrough();

/** Spec 2.5. */
export const extractedData = z
	.object({
		status: z.literal('ok'),
		scanner_name: z.string(),
		language: z.string(),
		extracted_at: z.string(),
		summary: z.object({ fields_with_values: int.nonnegative(), fields_null: int.nonnegative() }).passthrough(),
		doc_metadata: z
			.object({ num_paginas: int.positive(), tipo_archivo: z.string(), ocr_provider: z.string(), idioma_detectado_ocr: z.string() })
			.passthrough(),
		fields: z.array(extractedField),
	})
	.passthrough();

/** Spec 2.4. */
export const result = z.object({
	success: z.literal(true),
	result_id: uuid,
	status: z.string(),
	scanner_id: z.string(),
	scanner_name: z.string(),
	filename: z.string(),
	file_type: z.string(),
	tokens_used: z.union([int, z.string(), z.null()]),
	created_at: dateTime,
	source_type: z.literal('api'),
	extracted_data: extractedData.optional(),
	confidence: unit.optional(),
	error_code: z.string().optional(),
	error_message: z.string().optional(),
});

/** Spec 7.1. */
export const nextAction = z.object({
	type: z.enum(['upgrade_or_wait', 'buy_pages', 'upgrade', 'billing_portal']),
	renews_at: dateTime.optional(),
	pricing_url: z.string().url().optional(),
	url: z.string().url().optional(),
	message: z.string().optional(),
});

export const errorBody = z
	.object({ success: z.literal(false), message: z.string().min(1), error_code: z.string().min(1), next_action: nextAction.optional() })
	.passthrough();

/** Parses with a readable failure (the zod issues and the body). */
export function expectShape<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
	const parsed = schema.safeParse(value);
	if (!parsed.success) expect.fail(`${JSON.stringify(parsed.error.issues, null, 1)}\nbody: ${JSON.stringify(value).slice(0, 2000)}`);
	return parsed.data;
}

/** An error response of spec 7.1 / 7.2 with the given status and code. */
export function expectError(response: ApiResponse, status: number, errorCode: string) {
	expect(response.status, response.text.slice(0, 500)).toBe(status);
	const body = expectShape(errorBody, response.body);
	expect(body.error_code).toBe(errorCode);
	return response.body;
}

/** Spec 2.8: the three headers, as integers. */
export function expectRateHeaders(response: ApiResponse): { limit: number; remaining: number; reset: number } {
	const read = (name: string) => {
		const value = response.headers.get(name);
		expect(value, `${name} header`).toMatch(/^\d+$/);
		return Number(value);
	};
	const headers = { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), reset: read('x-ratelimit-reset') };
	expect(headers.remaining).toBeLessThanOrEqual(headers.limit);
	expect(headers.reset).toBeGreaterThanOrEqual(0);
	expect(headers.reset).toBeLessThanOrEqual(60);
	return headers;
}
