import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listScanners } from '../../../shared/api';
import type { ItemSink } from '../../../shared/itemSink';

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
	const templates = await listScanners(this, itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
	sink.emit(itemIndex, (returnAll ? templates : templates.slice(0, limit)) as IDataObject[]);
}
