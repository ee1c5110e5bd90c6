import type { IDataObject } from 'n8n-workflow';

import { UNSAFE_KEYS } from '../schemas';
import { OutputMappingError } from './options';

/**
 * Safe copying of data whose keys come from the service: `__proto__`, `constructor` and
 * `prototype` and the node's own keys get an underscore appended (`constructor_`), so no object's
 * prototype can be changed and nothing the node adds is overwritten.
 */

/**
 * Sets `key` on `target` under a key that cannot touch the prototype, is not reserved and is not
 * taken yet; returns the key used.
 */
export function assignSafely(target: IDataObject, key: string, value: unknown, reserved?: ReadonlySet<string>): string {
	let safe = key;
	while (UNSAFE_KEYS.has(safe) || reserved?.has(safe) || Object.hasOwn(target, safe)) safe += '_';
	target[safe] = value as IDataObject[string];
	return safe;
}

/** Deeper than any document's data; a guard against hostile answers, not a format rule. */
const MAX_DATA_DEPTH = 64;

type Assign = (target: IDataObject, key: string, value: unknown) => void;

/** Raw output keeps the service's keys; defineProperty keeps `__proto__` a plain key. */
export const assignVerbatim: Assign = (target, key, value) =>
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * A deep copy of JSON data, so the output never shares objects with the response. Keys go through
 * `assign` (safe renaming by default); depth is bounded so a hostile answer gives a clear error.
 */
export function copyData(value: unknown, depth = 0, assign: Assign = assignSafely): unknown {
	if (depth > MAX_DATA_DEPTH) {
		throw new OutputMappingError(
			`The extracted data is nested more than ${MAX_DATA_DEPTH} levels deep`,
			"The service sent data deeper than any document needs, so it was not copied into the workflow. Check the template's fields, or contact support with the result ID.",
		);
	}
	if (Array.isArray(value)) return value.map((entry) => copyData(entry, depth + 1, assign));
	if (!isPlainObject(value)) return value;
	const copy: IDataObject = {};
	for (const [key, entry] of Object.entries(value)) assign(copy, key, copyData(entry, depth + 1, assign));
	return copy;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
