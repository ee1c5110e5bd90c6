import type { IDataObject } from 'n8n-workflow';

import { UNSAFE_KEYS } from '../schemas';

/**
 * "Input Fields to Include" names a field inside a field with a path, as n8n's expressions write
 * it after `$json.`: `from.text`, `from.value[0].address`, `from.emailAddress.address`. Email
 * triggers give the sender as an object, which a spreadsheet cell cannot show: the Gmail Trigger
 * with Simplify off gives mailparser's `{ value: [{ address, name }], html, text }`, the Microsoft
 * Outlook Trigger's Raw output gives Graph's `{ emailAddress: { name, address } }`. A name the
 * input item has as a field of its own is that field, dots or not: a path is read only when it is
 * not. A path's value goes out under the path's steps joined by `_` (`from_text`,
 * `from_value_0_address`): Data Tables and SQL refuse a column name with a dot or a bracket.
 */

/** `a.b[0].c` as its steps (`['a', 'b', 0, 'c']`); undefined when the name is no path (no dot or index, or malformed). */
export function pathSteps(name: string): Array<string | number> | undefined {
	if (!/^[^.[\]]+(?:\.[^.[\]]+|\[\d+\])+$/.test(name)) return undefined;
	const steps: Array<string | number> = [];
	for (const [, key, index] of name.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) steps.push(index === undefined ? key.trim() : Number(index));
	return steps;
}

/** The value at `steps` inside `json`, or undefined where the path leads nowhere. Own keys only. */
export function valueAtPath(json: IDataObject, steps: Array<string | number>): unknown {
	let value: unknown = json;
	for (const step of steps) {
		if (typeof step === 'number') {
			if (!Array.isArray(value) || step >= value.length) return undefined;
			value = value[step];
		} else {
			if (typeof value !== 'object' || value === null || Array.isArray(value) || UNSAFE_KEYS.has(step) || !Object.hasOwn(value, step)) return undefined;
			value = (value as IDataObject)[step];
		}
	}
	return value;
}

/** The output key of a name of "Input Fields to Include": the name itself for a field of the item's own, the steps joined by `_` for a path. */
export function inputFieldKey(json: IDataObject, name: string): string {
	const steps = Object.hasOwn(json, name) ? undefined : pathSteps(name);
	return steps ? steps.join('_') : name;
}

/** The input item's value for a name of "Input Fields to Include": its own field, else the path's value; undefined when neither. */
export function inputFieldValue(json: IDataObject, name: string): unknown {
	if (Object.hasOwn(json, name)) return json[name];
	const steps = pathSteps(name);
	return steps ? valueAtPath(json, steps) : undefined;
}
