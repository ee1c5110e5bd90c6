import type { IExecuteFunctions } from 'n8n-workflow';

import { getScanner } from '../http/api';
import type { Result } from '../schemas';
import { FIELDS_MODE_KEYS } from './columnNames';
import { addWarning } from './executionHints';
import type { OutputOptions } from './options';

/**
 * "Review Threshold" also lists required fields left empty. Extracted fields (spec 2.6) do not say
 * which fields are required; the template's definition (spec 2.2) does. It is read once per
 * template and run of the node, and only when a done result is mapped with a review threshold.
 */
const templatesByRun = new WeakMap<IExecuteFunctions, Map<string, Promise<ReadonlySet<string> | undefined>>>();

/** `options` with the required fields of the result's template added, when the review needs them. */
export async function withRequiredFields(ctx: IExecuteFunctions, result: Result, options: OutputOptions, itemIndex: number): Promise<OutputOptions> {
	const templateId = result.scanner_id;
	if (result.status !== 'done' || options.reviewThreshold === undefined || options.mode === 'raw' || !templateId || templateId === 'auto') return options;
	let templates = templatesByRun.get(ctx);
	if (!templates) {
		templates = new Map();
		templatesByRun.set(ctx, templates);
	}
	let required = templates.get(templateId);
	if (!required) {
		required = getScanner(ctx, templateId, itemIndex).then(
			(template) => new Set((template.fields ?? []).filter((field) => field.required === true).map((field) => field.name)),
			() => {
				addWarning(
					ctx,
					`Review Threshold: the template "${result.scanner_name ?? templateId}" could not be read, so required fields left empty are not listed in ${FIELDS_MODE_KEYS.needsReview} (fields below the threshold are).`,
				);
				return undefined;
			},
		);
		templates.set(templateId, required);
	}
	const names = await required;
	return names ? { ...options, requiredFields: names } : options;
}
