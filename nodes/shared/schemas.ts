import { z } from 'zod';

/**
 * zod schemas of the service's resources (spec part 2). The spec allows extra keys everywhere, so
 * every object is `passthrough`: a new member from the service reaches the user instead of being
 * dropped. Only what the code relies on is required.
 */

/**
 * Keys no object built from the service's or the user's data may carry: assigning them changes the
 * object itself. The schemas let unknown keys through, so code that copies such data into new
 * objects renames or skips these.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Spec 2.2: a field definition inside a template. Limits are checked in templates/validation.ts. */
export interface FieldDefinition {
	name: string;
	label?: string;
	type?: string;
	value_type?: string;
	required?: boolean;
	description?: string;
	format_hint?: string;
	examples?: string[];
	item_fields?: FieldDefinition[];
	[key: string]: unknown;
}

const fieldDefinition: z.ZodType<FieldDefinition> = z.lazy(() =>
	z
		.object({
			name: z.string(),
			label: z.string().optional(),
			type: z.string().optional(),
			value_type: z.string().optional(),
			required: z.boolean().optional(),
			description: z.string().optional(),
			format_hint: z.string().optional(),
			examples: z.array(z.string()).optional(),
			item_fields: z.array(fieldDefinition).optional(),
		})
		.passthrough(),
);

/** Spec 2.1: a template (the service says "scanner"). `updated_at` only on read and update. */
export const scannerSchema = z
	.object({
		scanner_id: z.string(),
		name: z.string(),
		description: z.string().nullish(),
		fields: z.array(fieldDefinition).nullish(),
		created_at: z.string().nullish(),
		updated_at: z.string().nullish(),
	})
	.passthrough();
export type Scanner = z.infer<typeof scannerSchema>;

/** Spec 4.5. */
export const scannerListSchema = z.object({ success: z.boolean().optional(), scanners: z.array(scannerSchema) }).passthrough();

/** Spec 4.9. */
export const scannerDeletedSchema = z
	.object({ success: z.boolean().optional(), scanner_id: z.string(), deleted: z.boolean() })
	.passthrough();

/** Spec 2.3: the 202 answer of both upload operations. */
export const uploadAcceptedSchema = z
	.object({
		success: z.boolean().optional(),
		result_id: z.string(),
		request_id: z.string().nullish(),
		scanner_id: z.string().nullish(),
		scanner_name: z.string().nullish(),
		filename: z.string().nullish(),
		status: z.string().nullish(),
		tokens_required: z.number().nullish(),
		tokens_remaining: z.number().nullish(),
		queued_at: z.string().nullish(),
	})
	.passthrough();
export type UploadAccepted = z.infer<typeof uploadAcceptedSchema>;

/** Spec 2.6: one extracted field; `value` of a table field is an array of row objects. */
const extractedFieldSchema = z
	.object({
		name: z.string(),
		label: z.string().nullish(),
		value_type: z.string().nullish(),
		value: z.unknown(),
		confidence: z.number().nullish(),
		source_fragment: z.string().nullish(),
		raw_candidates: z.array(z.unknown()).nullish(),
		normalization_notes: z.string().nullish(),
	})
	.passthrough();
export type ExtractedField = z.infer<typeof extractedFieldSchema>;

/** Spec 2.5. `compliance`, `balance_check` and `auto` blocks pass through untouched. */
const extractedDataSchema = z
	.object({
		status: z.string().nullish(),
		scanner_name: z.string().nullish(),
		language: z.string().nullish(),
		extracted_at: z.string().nullish(),
		summary: z.object({ fields_with_values: z.number(), fields_null: z.number() }).passthrough().nullish(),
		doc_metadata: z.record(z.unknown()).nullish(),
		fields: z.array(extractedFieldSchema).default([]),
	})
	.passthrough();
export type ExtractedData = z.infer<typeof extractedDataSchema>;

/**
 * Spec 2.4. `status` stays a plain string: an unknown state must reach the code that decides
 * what to do with it (an error item), not fail parsing.
 */
export const resultSchema = z
	.object({
		success: z.boolean().optional(),
		result_id: z.string(),
		status: z.string(),
		scanner_id: z.string().nullish(),
		scanner_name: z.string().nullish(),
		filename: z.string().nullish(),
		file_type: z.string().nullish(),
		tokens_used: z.union([z.number(), z.string()]).nullish(),
		created_at: z.string().nullish(),
		source_type: z.string().nullish(),
		extracted_data: extractedDataSchema.nullish(),
		confidence: z.number().nullish(),
		error_code: z.string().nullish(),
		error_message: z.string().nullish(),
	})
	.passthrough();
export type Result = z.infer<typeof resultSchema>;

/** Spec 7.1: the error body. Used to read errors, never to reject them. */
export const errorBodySchema = z
	.object({
		success: z.boolean().optional(),
		message: z.string().optional(),
		error_code: z.string().optional(),
		request_id: z.string().optional(),
		next_action: z
			.object({
				type: z.string().optional(),
				renews_at: z.string().optional(),
				pricing_url: z.string().optional(),
				url: z.string().optional(),
				message: z.string().optional(),
			})
			.passthrough()
			.optional(),
	})
	.passthrough();
export type ErrorBody = z.infer<typeof errorBodySchema>;
