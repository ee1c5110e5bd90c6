import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ServiceError } from './errors';

/**
 * Where every input item leaves the node: on an output, or as an error item when the user chose
 * to continue on fail. Both nodes emit through it, so pairedItem, continueOnFail and the rule
 * "every input item leaves exactly once" live in one place.
 */
export class ItemSink {
	private readonly outputs: INodeExecutionData[][];

	private readonly settled = new Set<number>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		outputCount = 1,
	) {
		this.outputs = Array.from({ length: outputCount }, () => []);
	}

	/** Emits the item's results (one input item may become several output items, e.g. table rows). */
	emit(itemIndex: number, jsons: IDataObject[], output = 0, binary?: IBinaryKeyData): void {
		this.settle(itemIndex);
		for (const json of jsons) {
			this.outputs[output].push({ json, pairedItem: { item: itemIndex }, ...(binary ? { binary } : {}) });
		}
	}

	/**
	 * Fails the item: under continueOnFail it becomes an error item on `output` (the user keeps
	 * the item and can route it); otherwise the error stops the node, naming the item.
	 */
	fail(itemIndex: number, error: unknown, output = 0, extra: IDataObject = {}): void {
		const nodeError = asNodeError(this.ctx, error, itemIndex);
		if (!this.ctx.continueOnFail()) throw nodeError;
		this.settle(itemIndex);
		const serviceError = nodeError.context.serviceError as ServiceError | undefined;
		this.outputs[output].push({
			json: {
				...extra,
				error: nodeError.message,
				...(nodeError.description ? { error_description: nodeError.description } : {}),
				...(serviceError ? { error_code: serviceError.error_code, http_status: serviceError.http_status, error_details: serviceError.details } : {}),
			},
			pairedItem: { item: itemIndex },
		});
	}

	isSettled(itemIndex: number): boolean {
		return this.settled.has(itemIndex);
	}

	/** The node's return value, after checking that no input item was lost. */
	result(itemCount: number): INodeExecutionData[][] {
		for (let i = 0; i < itemCount; i++) {
			if (!this.settled.has(i)) {
				throw new NodeOperationError(this.ctx.getNode(), `Item ${i + 1} produced no output (internal error: please report it)`, { itemIndex: i });
			}
		}
		return this.outputs;
	}

	private settle(itemIndex: number): void {
		if (this.settled.has(itemIndex)) {
			throw new NodeOperationError(this.ctx.getNode(), `Item ${itemIndex + 1} was emitted twice (internal error: please report it)`, { itemIndex });
		}
		this.settled.add(itemIndex);
	}
}

/** Errors keep their own class and HTTP status; anything else becomes a NodeOperationError with the item. */
export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(ctx.getNode(), message, { itemIndex });
}
