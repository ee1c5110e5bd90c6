import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputFieldKey, inputFieldValue } from './inputFieldPath';
import { COLUMN_PREFIXES } from './columnNames';
import { assignVerbatim, copyData } from './safeCopy';

/**
 * "Input Fields to Include": input fields copied onto every output item of that input item (an
 * email's sender, subject and date for the spreadsheet), as n8n's own nodes offer "include input
 * fields". Both nodes read it; the item sink adds the fields (see ItemSink.annotate).
 */

export const inputFieldsOption: INodeProperties = {
	displayName: 'Input Fields to Include',
	name: 'inputFields',
	type: 'string',
	default: '',
	placeholder: 'from, subject, date',
	description:
		'Comma-separated names of input fields to copy onto every output item, e.g. an email\'s sender, subject and date for the spreadsheet; * copies them all. A field inside a field by its path, e.g. from.text (Gmail Trigger) or from.emailAddress.address (Microsoft Outlook Trigger), comes out as from_text or from_emailAddress_address. A name the output already has gets "input_" in front.',
};

/** Prefix of an input field whose name the output item already has. */
export const INPUT_FIELD_PREFIX = COLUMN_PREFIXES.input;

/** The named fields of the input item (null where it lacks one), all of them for `*`, or undefined when none is asked for. */
export function readInputFields(ctx: IExecuteFunctions, i: number): IDataObject | undefined {
	const raw = ctx.getNodeParameter('options.inputFields', i, '') as unknown;
	const names = (typeof raw === 'string' ? raw : '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (names.length === 0) return undefined;
	const json = ctx.getInputData()[i]?.json ?? {};
	const fields: IDataObject = {};
	for (const name of names.includes('*') ? Object.keys(json) : names) {
		const value = inputFieldValue(json, name);
		assignVerbatim(fields, inputFieldKey(json, name), value === undefined ? null : copyData(value, 0, assignVerbatim));
	}
	return fields;
}
