import type { IBinaryKeyData, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { itemError } from './itemError';

/**
 * Number, boolean and choice parameters read with a check. n8n hands over whatever an expression
 * gives (`{{ "5 minutes" }}`, `"false"`, `-1`) without checking it against the parameter's type;
 * a value the node cannot use must stop the item with a clear error before anything is sent,
 * not become NaN (a wait that never ends) or `true` (the string "false" is truthy).
 */

export type ParameterReader = Pick<IExecuteFunctions, 'getNodeParameter' | 'getNode'>;

export interface NumberRule {
	/** The parameter as the user sees it, e.g. `Wait Timeout (Seconds)`. */
	label: string;
	min?: number;
	/** Whether `min` itself is allowed (default) or the value must be greater. */
	minExclusive?: boolean;
	max?: number;
	integer?: boolean;
	/** What a good value looks like, e.g. `300`. */
	example: string;
}

/** A number, from a number or a numeric string ("300", " 0.8 "). */
export function readNumber(ctx: ParameterReader, name: string, itemIndex: number, fallback: number, rule: NumberRule): number {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	const value = raw === undefined || raw === null || raw === '' ? fallback : typeof raw === 'string' ? Number(raw.trim()) : raw;
	const tooSmall = typeof value === 'number' && rule.min !== undefined && (rule.minExclusive ? value <= rule.min : value < rule.min);
	const tooLarge = typeof value === 'number' && rule.max !== undefined && value > rule.max;
	if (typeof value !== 'number' || !Number.isFinite(value) || tooSmall || tooLarge || (rule.integer && !Number.isInteger(value))) {
		throw invalid(ctx, itemIndex, `"${rule.label}" must be ${describeRule(rule)}, not ${quote(raw)}`, `Enter ${describeRule(rule)}, e.g. ${rule.example}, or an expression that gives one.`);
	}
	return value;
}

/** A boolean, from a boolean or the strings "true"/"false" (any case). */
export function readBoolean(ctx: ParameterReader, name: string, itemIndex: number, fallback: boolean, label: string): boolean {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	if (raw === undefined || raw === null || raw === '') return fallback;
	if (typeof raw === 'boolean') return raw;
	const text = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalid(ctx, itemIndex, `"${label}" must be true or false, not ${quote(raw)}`, 'Switch it on or off, or use an expression that gives true or false.');
}

/** One of the option values (an expression may give any text). */
export function readChoice<T extends string>(ctx: ParameterReader, name: string, itemIndex: number, fallback: T, choices: readonly T[], label: string): T {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	if (raw === undefined || raw === null || raw === '') return fallback;
	if (typeof raw === 'string' && (choices as readonly string[]).includes(raw)) return raw as T;
	throw invalid(ctx, itemIndex, `"${label}" must be one of ${choices.map((choice) => `"${choice}"`).join(', ')}, not ${quote(raw)}`, 'Pick one of the options, or use an expression that gives one of these values.');
}

/** The option both nodes name `options.includeBinary`: the item's input files to pass through, if on. */
export function includedBinary(ctx: IExecuteFunctions, itemIndex: number): IBinaryKeyData | undefined {
	return readBoolean(ctx, 'options.includeBinary', itemIndex, false, 'Include Input Binary') ? ctx.getInputData()[itemIndex]?.binary : undefined;
}

/** The same for an item that already failed: an invalid setting then passes nothing through rather than failing again. */
export function includedBinaryOfFailedItem(ctx: IExecuteFunctions, itemIndex: number): IBinaryKeyData | undefined {
	try {
		return includedBinary(ctx, itemIndex);
	} catch {
		return undefined;
	}
}

function describeRule(rule: NumberRule): string {
	const kind = rule.integer ? 'a whole number' : 'a number';
	if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
	if (rule.min !== undefined) return `${kind} ${rule.minExclusive ? 'greater than' : 'of at least'} ${rule.min}`;
	return kind;
}

function quote(value: unknown): string {
	if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
	if (Array.isArray(value)) return 'a list';
	if (value === null || value === undefined) return 'empty';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

function invalid(ctx: ParameterReader, itemIndex: number, message: string, fix: string): NodeOperationError {
	return itemError(ctx.getNode(), itemIndex, message, `${fix} Nothing was sent to the service.`);
}
