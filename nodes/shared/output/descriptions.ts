import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { readBoolean, readChoice, readNumber, type ParameterReader } from '../items/parameters';
import { INVOICE_DAYS } from '../duplicates/invoiceMarks';
import { DUPLICATE_INVOICE_KEYS, FIELDS_MODE_KEYS, TABLE_ROW_KEYS } from './columnNames';
import { OUTPUT_MODES, type OutputOptions } from './options';

/**
 * The output parameters both nodes show, and the one reader of them. Parameter names are part of
 * saved workflows: keep them stable.
 */
const OUTPUT_PARAMETER_NAMES = {
	output: 'output',
	tableField: 'tableField',
	/** The node's own Options collection, which holds the items of `outputOptionsCollection()`. */
	options: 'options',
	includeConfidence: 'includeConfidence',
	includeSourceFragments: 'includeSourceFragments',
	reviewThreshold: 'reviewThreshold',
	flagDuplicateInvoices: 'flagDuplicateInvoices',
	duplicateInvoiceCompareTotal: 'duplicateInvoiceCompareTotal',
} as const;

const names = OUTPUT_PARAMETER_NAMES;

/** Output and Table Field, shown where `displayOptions` says (e.g. the extract operations). */
export function outputProperties(displayOptions?: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: names.output,
			type: 'options',
			options: [
				{
					name: 'One Item per Document',
					value: 'fields',
					description:
						`Each extracted field as its own key (tables as lists of rows), plus an ${FIELDS_MODE_KEYS.extraction} object with the result ID, template, file, confidence and pages used`,
				},
				{
					name: 'One Item per Table Row',
					value: 'tableRows',
					description:
						`One flat item per row of a table field (e.g. invoice lines, numbered in ${TABLE_ROW_KEYS.lineNumber}), with the document fields repeated on each row: ready for a spreadsheet`,
				},
				{
					name: 'Raw',
					value: 'raw',
					description: 'The result exactly as the service returns it',
				},
			],
			default: 'fields',
			description: 'How to turn each extracted document into output items',
			...(displayOptions ? { displayOptions } : {}),
		},
		{
			// A list (free text in 0.1.0): the value is still the field's name, so saved
			// workflows keep working, and an expression can still give any name.
			displayName: 'Table Field Name or ID',
			name: names.tableField,
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getTableFields', loadOptionsDependsOn: ['templateId.value'] },
			default: '',
			description:
				`The table field whose rows become items (by default the first table field of the result). A document without rows gives one item with ${TABLE_ROW_KEYS.lineNumber} empty. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
			displayOptions: mergeDisplayOptions({ show: { [names.output]: ['tableRows'] } }, displayOptions),
		},
	];
}

/**
 * Items for the node's own Options collection (which must be named `options`), in alphabetical
 * order as n8n lists them. `displayOptions` (root paths start with '/') is added to each item.
 */
export function outputOptionsCollection(displayOptions?: IDisplayOptions): INodeProperties[] {
	const output = `/${names.output}`;
	const withDisplay = (own: IDisplayOptions): IDisplayOptions => mergeDisplayOptions(own, displayOptions);
	return [
		{
			displayName: 'Include Confidence',
			name: names.includeConfidence,
			type: 'boolean',
			default: false,
			description:
				`Whether to add ${FIELDS_MODE_KEYS.fieldConfidence}: how sure the service is of each field, from 0 to 1 (with One Item per Table Row: the table field's confidence)`,
			displayOptions: withDisplay({ hide: { [output]: ['raw'] } }),
		},
		{
			displayName: 'Include Source Text',
			name: names.includeSourceFragments,
			type: 'boolean',
			default: false,
			description: `Whether to add ${FIELDS_MODE_KEYS.fieldSourceText}: the text on the document each field was read from (One Item per Document output only)`,
			displayOptions: withDisplay({ show: { [output]: ['fields'] } }),
		},
		{
			displayName: 'Review Threshold',
			name: names.reviewThreshold,
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 0,
			description:
				`Fields with a confidence below this value (from 0 to 1, e.g. 0.8), and required fields left empty, are listed in ${FIELDS_MODE_KEYS.needsReview} and counted in ${FIELDS_MODE_KEYS.needsReviewCount}, so an IF node can route documents to a person. 0 turns this off.`,
			displayOptions: withDisplay({ hide: { [output]: ['raw'] } }),
		},
	];
}

/**
 * A collection's options sorted by their label, n8n's convention; needed where a collection mixes
 * its own options with shared ones (the lint rule cannot see into a spread).
 */
export function alphabetically(properties: INodeProperties[]): INodeProperties[] {
	return [...properties].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** Both sets of conditions must hold: show and hide entries are combined key by key. */
function mergeDisplayOptions(own: IDisplayOptions, extra: IDisplayOptions | undefined): IDisplayOptions {
	if (!extra) return own;
	const merged: IDisplayOptions = { ...extra, ...own };
	if (own.show || extra.show) merged.show = { ...extra.show, ...own.show };
	if (own.hide || extra.hide) merged.hide = { ...extra.hide, ...own.hide };
	return merged;
}

/**
 * The duplicate-invoice check's items for the Options collection of the operations that map done
 * results in runs (both extract operations, the Poller): duplicates/invoiceMarks.ts.
 */
export function duplicateInvoiceOptions(displayOptions?: IDisplayOptions): INodeProperties[] {
	const withDisplay = displayOptions ? { displayOptions } : {};
	return [
		{
			displayName: 'Flag Duplicate Invoices',
			name: names.flagDuplicateInvoices,
			type: 'boolean',
			default: true,
			description: `Whether to compare each invoice (a result with an invoice_number field) with those this workflow extracted in the last ${INVOICE_DAYS} days, and say in ${DUPLICATE_INVOICE_KEYS.level} whether it is "likely" (same supplier, invoice number, total and currency) or "possible" (same number with another total, or a resubmission mark such as -R or (2)) the same invoice as an earlier file. Catches a reminder, a scan or a photo of an invoice already extracted. Nothing is held back, and the second file is still charged: its invoice number is only known once it is read.`,
			...withDisplay,
		},
		{
			displayName: 'Duplicate Invoices: Compare Total',
			name: names.duplicateInvoiceCompareTotal,
			type: 'boolean',
			default: true,
			description:
				'Whether the total and currency are part of an invoice\'s key. On: the same supplier and number with another total is only a "possible" duplicate, and an invoice whose number was not read is compared by supplier, total and date. Off: the same supplier and number is a "likely" duplicate whatever the total.',
			...withDisplay,
		},
	];
}

/** The output settings of one item, checked (expressions can produce anything). */
export function readOutputOptions(ctx: ParameterReader, itemIndex: number): OutputOptions {
	const mode = readChoice(ctx, names.output, itemIndex, 'fields', OUTPUT_MODES, 'Output');
	const option = (name: string) => `${names.options}.${name}`;
	const threshold = readNumber(ctx, option(names.reviewThreshold), itemIndex, 0, {
		label: 'Review Threshold',
		min: 0,
		max: 1,
		example: '0.8 (lists the fields the service is less than 80% sure of; 0 turns the review off)',
	});
	const tableField = mode === 'tableRows' ? String(ctx.getNodeParameter(names.tableField, itemIndex, '') ?? '').trim() : '';
	return {
		mode,
		...(tableField ? { tableField } : {}),
		includeConfidence: readBoolean(ctx, option(names.includeConfidence), itemIndex, false, 'Include Confidence'),
		includeSourceFragments: readBoolean(ctx, option(names.includeSourceFragments), itemIndex, false, 'Include Source Text'),
		...(threshold > 0 ? { reviewThreshold: threshold } : {}),
		...(readBoolean(ctx, option(names.flagDuplicateInvoices), itemIndex, true, 'Flag Duplicate Invoices')
			? { duplicateInvoices: { compareTotal: readBoolean(ctx, option(names.duplicateInvoiceCompareTotal), itemIndex, true, 'Duplicate Invoices: Compare Total') } }
			: {}),
	};
}
