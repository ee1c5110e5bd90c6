import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { getResult } from '../shared/api';
import { outputOptionsCollection, outputProperties, readOutputOptions } from '../shared/descriptions';
import { ItemSink } from '../shared/itemSink';
import { checkResultId } from '../shared/preflight';
import { pollResults, type PollTarget } from '../shared/scheduler';
import { settleResult } from '../shared/settleResult';
import { rateBudgetOf } from '../shared/transport';
import { waitFor } from '../shared/wait';

/** Output indexes, in the order of `outputNames`. */
const OUTPUT = { done: 0, rejected: 1, error: 2, stillProcessing: 3 } as const;

const DEFAULT_TIMEOUT_SECONDS = 300;

export class DocumentExtractionPoller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Poller',
		name: 'documentExtractionPoller',
		icon: { light: 'file:../../icons/documentExtractionPoller.svg', dark: 'file:../../icons/documentExtractionPoller.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: 'Wait for extraction results',
		description:
			'Waits for documents uploaded without waiting and outputs each one when it is done, rejected or failed, reading the service no faster than it allows',
		defaults: { name: 'Document Extraction Poller' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main, NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Done', 'Rejected', 'Error', 'Still Processing'],
		credentials: [{ name: 'documentExtractionApi', required: true }],
		properties: [
			{
				displayName:
					'Put this node after a Document Extraction node whose "Wait for Result" is off. Items still processing when the timeout ends leave on "Still Processing": loop them back through a Wait node.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Result ID',
				name: 'resultId',
				type: 'string',
				default: '={{ $json.result_id }}',
				required: true,
				description: 'The result_id of each uploaded document (a UUID)',
			},
			...outputProperties(),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Input Binary',
						name: 'includeBinary',
						type: 'boolean',
						default: false,
						description: 'Whether to pass the input item\'s files through to its output item',
					},
					{
						displayName: 'Timeout (Seconds)',
						name: 'timeout',
						type: 'number',
						default: DEFAULT_TIMEOUT_SECONDS,
						typeOptions: { minValue: 5 },
						description: 'How long to wait in this run; documents not finished by then leave on "Still Processing"',
					},
					...outputOptionsCollection(),
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const sink = new ItemSink(this, 4);
		const targets: PollTarget[] = [];
		const itemOfResult = new Map<string, number>();
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;

		for (let i = 0; i < items.length; i++) {
			try {
				const checked = checkResultId(this.getNodeParameter('resultId', i, ''));
				if (!checked.ok) {
					throw new NodeOperationError(this.getNode(), `Item ${i + 1}: ${checked.message}`, {
						itemIndex: i,
						description: `${checked.description}. Set "Result ID" to the field that holds it.`,
					});
				}
				const resultId = checked.id;
				if (itemOfResult.has(resultId)) {
					// The same document twice: read it once, emit both items.
					targets.push({ id: i, resultId });
					continue;
				}
				itemOfResult.set(resultId, i);
				const json = items[i].json;
				const queuedAt = Date.parse(String(json.queued_at ?? ''));
				targets.push({
					id: i,
					resultId,
					pages: typeof json.tokens_required === 'number' ? json.tokens_required : undefined,
					queuedAt: Number.isNaN(queuedAt) ? undefined : queuedAt,
				});
			} catch (error) {
				sink.fail(i, error, OUTPUT.error);
			}
		}

		const uniqueTargets = targets.filter((target) => itemOfResult.get(target.resultId) === target.id);
		const itemsOf = (target: PollTarget) => targets.filter((other) => other.resultId === target.resultId).map((other) => other.id);
		const binaryOf = (i: number) => (options.includeBinary ? items[i].binary : undefined);

		if (uniqueTargets.length > 0) {
			await pollResults(
				uniqueTargets,
				{
					timeoutMs: Number(options.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
					onOutcome: (target, outcome) => {
						for (const i of itemsOf(target)) {
							switch (outcome.kind) {
								case 'settled':
								case 'unknown-status':
									settleResult(this, sink, i, outcome.result, readOutputOptions(this, i), OUTPUT, binaryOf(i));
									break;
								case 'timeout':
									sink.emit(i, [{ ...items[i].json, result_id: target.resultId, status: outcome.result?.status ?? 'queued' }], OUTPUT.stillProcessing, binaryOf(i));
									break;
								case 'failed':
									sink.fail(i, outcome.error, OUTPUT.error, { result_id: target.resultId });
							}
						}
					},
				},
				{
					readResult: async (resultId) => await getResult(this, resultId, itemOfResult.get(resultId)),
					budget: await rateBudgetOf(this),
					now: () => Date.now(),
					wait: waitFor,
					signal: this.getExecutionCancelSignal(),
				},
			);
		}
		return sink.result(items.length);
	}
}
