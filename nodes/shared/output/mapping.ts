import type { IDataObject } from 'n8n-workflow';

import type { Result } from '../schemas';
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
