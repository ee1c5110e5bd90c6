import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listScanners } from '../../../shared/http/api';
import type { ItemSink } from '../../../shared/output/itemSink';
import { readBoolean, readNumber } from '../../../shared/items/parameters';

const show = { show: { resource: ['template'], operation: ['getMany'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: show,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { ...show.show, returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/** GET /scanners (spec 4.5): the service returns every template with its fields in one answer. */
export async function execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void> {
	// Checked before the request: a Limit of -1 would drop the last template, 0 would return none.
	const returnAll = readBoolean(this, 'returnAll', itemIndex, false, 'Return All');
	const limit = returnAll ? Infinity : readNumber(this, 'limit', itemIndex, 50, { label: 'Limit', min: 1, integer: true, example: '50' });
	const templates = await listScanners(this, itemIndex);
	sink.emit(itemIndex, templates.slice(0, limit) as IDataObject[]);
}
