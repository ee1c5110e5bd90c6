import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResult } from '../../../shared/http/api';
import { itemError } from '../../../shared/items/itemError';
import { PENDING_STATUSES } from '../../../shared/limits';
import { outputOptionsCollection, outputProperties, readOutputOptions } from '../../../shared/output/descriptions';
import type { ItemSink } from '../../../shared/output/itemSink';
import { settleResult } from '../../../shared/output/settleResult';
import { pendingResultJson } from '../../../shared/output/unsuccessful';
import { checkResultId } from '../../../shared/preflight/ids';

const show = { show: { resource: ['document'], operation: ['getResult'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Result ID',
		name: 'resultId',
		type: 'string',
		default: '={{ $json.result_id }}',
		required: true,
		displayOptions: { ...show, hide: { '@tool': [true] } },
		description: 'The result_id returned by an extract operation that did not wait (a UUID)',
	},
	{
		// As an AI agent's tool there is no input item to read it from: the model gives it.
		displayName: 'Result ID',
		name: 'resultId',
		type: 'string',
		default: "={{ $fromAI('result_id', 'The result_id of an uploaded document (a UUID)', 'string') }}",
		required: true,
		displayOptions: { show: { ...show.show, '@tool': [true] } },
		description: 'The result_id of an uploaded document (a UUID). By default the AI model fills it in.',
	},
	...outputProperties(show),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: outputOptionsCollection(),
	},
];

/**
 * GET /results/{id} once (spec 4.4). A finished document is mapped like an extraction; one still
 * queued or processing is output with its status, so a workflow can loop through a Wait node.
 */
export async function execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void> {
	const checked = checkResultId(this.getNodeParameter('resultId', itemIndex, ''));
	if (!checked.ok) {
		throw itemError(this.getNode(), itemIndex, checked.message, `${checked.description}. Nothing was sent to the service.`);
	}
	const outputOptions = readOutputOptions(this, itemIndex);
	const result = await getResult(this, checked.id, itemIndex);
	if ((PENDING_STATUSES as readonly string[]).includes(result.status)) {
		sink.emit(itemIndex, [pendingResultJson(result.result_id, result.status)]);
		return;
	}
	// The upload receipt's document key, when the item is one: a result that ended in error is then forgotten everywhere.
	const documentKey = this.getInputData()[itemIndex]?.json.document_key;
	await settleResult(this, sink, itemIndex, result, outputOptions, { done: 0, rejected: 'fail', error: 'fail' }, { documentKey: typeof documentKey === 'string' ? documentKey : undefined });
}
