import type { IDataObject } from 'n8n-workflow';

import type { Result } from '../schemas';
import type { InvoiceVerdict } from '../duplicates/invoiceMarks';
import { CHARGE_KEYS, DUPLICATE_INVOICE_KEYS, FIELDS_MODE_KEYS, TABLE_ROW_KEYS } from './columnNames';
import { fieldsItem } from './fieldsMode';
import type { OutputOptions } from './options';
import { assignVerbatim, copyData } from './safeCopy';
import { tableRowItems } from './tableRows';

/**
 * A Result (spec 2.4) -> the JSON of workflow items. The one place where results take their
 * output shape, used by the action node and the poller node alike: fieldsMode.ts, tableRows.ts,
 * and unsuccessful.ts for results without data. Everything is data from the service, copied
 * through safeCopy.ts (keys never trusted); every step is linear in the size of the result.
 */

/**
 * The items for a `done` result: fields and raw give one item, tableRows one per table row.
 * Throws OutputMappingError when the chosen Table Field is not a table of this result.
 */
export function doneResultToJson(result: Result, options: OutputOptions): IDataObject[] {
	switch (options.mode) {
		case 'raw':
			// Keys as the service sent them (no renaming), but depth-checked like every other mode.
			return [copyData(result, 0, assignVerbatim) as IDataObject];
		case 'tableRows':
			return tableRowItems(result, options);
		default:
			return [fieldsItem(result, options)];
	}
}

/**
 * What this run paid for a document that was extracted before: nothing (`reused`: an earlier
 * upload's result was read), or the pages again (another n8n process extracted it on
 * `firstExtractedAt` and its result could not be read here).
 */
export interface Charge {
	reused: boolean;
	/** When the document was first extracted: the earlier upload's time, or its day from n8n's database. */
	firstExtractedAt: string | null;
}

/**
 * Says on every item whether its document was extracted before. Fields mode says it in
 * `extraction` (`reused` always, so a sheet's column is stable; `first_extracted_at`, and
 * `pages_used` 0 or `charged_again` when it was), table rows in `reused` and `first_extracted_at`
 * (always), Raw in an `extraction` of its own only then (its keys are otherwise the service's).
 */
export function markCharge(jsons: IDataObject[], mode: OutputOptions['mode'], charge: Charge | undefined): IDataObject[] {
	const reused = charge?.reused === true;
	const firstExtractedAt = charge?.firstExtractedAt ?? null;
	const said: IDataObject = {
		[CHARGE_KEYS.reused]: reused,
		[CHARGE_KEYS.firstExtractedAt]: firstExtractedAt,
		...(reused ? { [CHARGE_KEYS.pagesUsed]: 0 } : { [CHARGE_KEYS.chargedAgain]: true }),
	};
	const extraction = FIELDS_MODE_KEYS.extraction;
	for (const json of jsons) {
		if (mode === 'tableRows') {
			json[TABLE_ROW_KEYS.reused] = reused;
			json[TABLE_ROW_KEYS.firstExtractedAt] = firstExtractedAt;
		} else if (mode === 'raw') {
			if (charge) json[extraction] = { ...said };
		} else if (charge) {
			Object.assign(json[extraction] as IDataObject, said);
		}
	}
	return jsons;
}

/**
 * Says on every item whether its invoice was extracted before as another file (Flag Duplicate
 * Invoices): in `extraction` (fields), on every table row: all four keys always, null where
 * nothing is known, so a sheet's columns are stable. Raw gets them (in an `extraction` of its own)
 * only for a duplicate.
 */
export function markDuplicateInvoice(jsons: IDataObject[], mode: OutputOptions['mode'], verdict: InvoiceVerdict): IDataObject[] {
	const said: IDataObject = {
		[DUPLICATE_INVOICE_KEYS.level]: verdict.level,
		[DUPLICATE_INVOICE_KEYS.firstSeen]: verdict.firstSeen,
		[DUPLICATE_INVOICE_KEYS.resultId]: verdict.resultId,
		[DUPLICATE_INVOICE_KEYS.fileName]: verdict.fileName,
	};
	const extraction = FIELDS_MODE_KEYS.extraction;
	for (const json of jsons) {
		if (mode === 'tableRows') Object.assign(json, said);
		// Raw stays the service's answer but for what was found.
		else if (mode === 'raw') {
			if (verdict.level) json[extraction] = { ...((json[extraction] as IDataObject | undefined) ?? {}), ...said };
		}
		else Object.assign(json[extraction] as IDataObject, said);
	}
	return jsons;
}

/**
 * Says on every item what was done to its document before its upload (a part of a split PDF, a
 * shrunk photo): in `extraction` (fields), on every table row, and in an `extraction` of its own
 * for Raw (its keys are otherwise the service's).
 */
export function markPreparation(jsons: IDataObject[], mode: OutputOptions['mode'], facts: IDataObject | undefined): IDataObject[] {
	if (!facts) return jsons;
	const extraction = FIELDS_MODE_KEYS.extraction;
	for (const json of jsons) {
		if (mode === 'tableRows') Object.assign(json, facts);
		else json[extraction] = { ...((json[extraction] as IDataObject | undefined) ?? {}), ...facts };
	}
	return jsons;
}
