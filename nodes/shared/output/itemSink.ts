import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ServiceError } from '../http/errors';
import { itemError, itemLabel, withItemLabel } from '../itemError';

type NodeError = NodeApiError | NodeOperationError;

/**
 * Where every input item leaves the node: on an output, or as an error item when the user chose
 * to continue on fail. Both nodes emit through it, so pairedItem, continueOnFail, input order and
 * the rule "every input item leaves exactly once" live in one place.
 *
 * With On Error = Stop, a failure stops the node. Once documents have been uploaded (or results
 * read) the stop must lose nothing: `holdFailures()` lets every other item finish first, and the
 * error then lists each document of the run with its result ID and outcome.
 */
export class ItemSink {
	/** Per output, the items with the input item they belong to, in the order they were emitted. */
	private readonly outputs: Array<Array<{ itemIndex: number; item: INodeExecutionData }>>;

	private readonly settled = new Set<number>();

	private readonly documents = new Map<number, { resultId: string; uploaded: boolean }>();

	private readonly failures: Array<{ itemIndex: number; error: NodeError }> = [];

	/** The status of each emitted document (`done`, `rejected`, `queued`...), for the stop error's list. */
	private readonly statuses = new Map<number, string>();

	private holding = false;

	constructor(
		private readonly ctx: IExecuteFunctions,
		outputCount = 1,
	) {
		this.outputs = Array.from({ length: outputCount }, () => []);
	}

	/**
	 * Emits the item's results (one input item may become several output items, e.g. table rows).
	 * The input file, when passed through, goes with the first of them only: one copy per document.
	 */
	emit(itemIndex: number, jsons: IDataObject[], output = 0, binary?: IBinaryKeyData): void {
		this.settle(itemIndex);
		this.statuses.set(itemIndex, statusOf(jsons[0]));
		jsons.forEach((json, index) => {
			this.outputs[output].push({ itemIndex, item: { json, pairedItem: { item: itemIndex }, ...(binary && index === 0 ? { binary } : {}) } });
		});
	}

	/**
	 * Fails the item. Under "Continue" it becomes an item on `output` with the error's fields flat
	 * (`error`, `error_description`, `error_code`...) next to `extra`. Under "Continue (using error
	 * output)" its JSON is `{ message, error: { ...those fields } }`: the shape every n8n version
	 * sends to the error output with its data kept (n8n 2.x replaces the JSON of an item carrying
	 * `item.error` by the bare message; n8n 1.x routes only `{ error }` or `{ error, message }`).
	 * Under "Stop" the error stops the node, naming the item and listing the run's documents.
	 */
	fail(itemIndex: number, error: unknown, output = 0, extra: IDataObject = {}, binary?: IBinaryKeyData): void {
		const nodeError = errorForItem(this.ctx, error, itemIndex);
		if (!this.ctx.continueOnFail()) {
			if (!this.holding) throw this.stopError(nodeError);
			this.settle(itemIndex);
			this.failures.push({ itemIndex, error: nodeError });
			return;
		}
		this.settle(itemIndex);
		const fields = failureFields(nodeError, extra);
		const json: IDataObject = this.ctx.getNode().onError === 'continueErrorOutput' ? { message: nodeError.message, error: fields } : fields;
		this.outputs[output].push({ itemIndex, item: { json, pairedItem: { item: itemIndex }, ...(binary ? { binary } : {}) } });
	}

	/** A document this run handles, listed in a stop error so its result ID is never lost. */
	track(itemIndex: number, resultId: string, { uploaded }: { uploaded: boolean }): void {
		this.documents.set(itemIndex, { resultId, uploaded });
	}

	/** From now on a failure under "Stop" waits until every item is settled (see `result`). */
	holdFailures(): void {
		this.holding = true;
	}

	/** The node's return value, in input order on each output, after checking that no input item was lost. */
	result(itemCount: number): INodeExecutionData[][] {
		if (this.failures.length > 0) throw this.stopError(this.failures[0].error);
		for (let i = 0; i < itemCount; i++) {
			if (!this.settled.has(i)) {
				throw new NodeOperationError(this.ctx.getNode(), `${itemLabel(i)} produced no output (internal error: please report it)`, { itemIndex: i });
			}
		}
		// Items are emitted as their results arrive; a stable sort puts them back in input order.
		return this.outputs.map((entries) => [...entries].sort((a, b) => a.itemIndex - b.itemIndex).map(({ item }) => item));
	}

	/**
	 * The error that stops the node: the first failure, with the other failures and every document
	 * of the run (result ID, outcome) added to its description and, as data, to its context.
	 */
	private stopError(first: NodeError): NodeError {
		const others = this.failures.filter(({ error }) => error !== first);
		if (others.length > 0) first.message += ` (and ${others.length} more item${others.length === 1 ? '' : 's'} failed)`;
		const failedAt = new Map(this.failures.map(({ itemIndex, error }) => [itemIndex, error.message]));
		const documents = [...this.documents.entries()]
			.sort(([a], [b]) => a - b)
			.map(([itemIndex, { resultId, uploaded }]) => ({
				item: itemIndex + 1,
				result_id: resultId,
				uploaded,
				outcome: failedAt.has(itemIndex) ? 'failed' : (this.statuses.get(itemIndex) ?? 'not finished yet'),
			}));
		const parts = [first.description ?? ''];
		if (others.length > 0) parts.push(`Other items that failed:\n${others.map(({ error }) => `- ${error.message}`).join('\n')}`);
		if (documents.length > 0) {
			const uploaded = documents.some((document) => document.uploaded);
			const heading = uploaded
				? 'Documents uploaded in this run: their pages are already reserved, so do not upload them again. Read each one with "Get Result" (or the Document Extraction Poller), or set "On Error" to "Continue" to get them as items:'
				: 'Results of this run, all kept in your account: read them again with "Get Result" or the Document Extraction Poller, or set "On Error" to "Continue" to get them as items:';
			parts.push(`${heading}\n${documents.map((document) => `- item ${document.item}: result ID ${document.result_id} (${document.outcome})`).join('\n')}`);
		}
		first.description = parts.filter(Boolean).join('\n\n');
		first.context.documents = documents as unknown as IDataObject[];
		first.context.failedItems = [first, ...others.map(({ error }) => error)].map((error) => Number(error.context.itemIndex) + 1);
		return first;
	}

	private settle(itemIndex: number): void {
		if (this.settled.has(itemIndex)) {
			throw new NodeOperationError(this.ctx.getNode(), `${itemLabel(itemIndex)} was emitted twice (internal error: please report it)`, { itemIndex });
		}
		this.settled.add(itemIndex);
	}
}

/** A result's status as its item shows it: top-level (raw, receipts, pending) or in `_extraction` (fields); table rows are done. */
function statusOf(json: IDataObject | undefined): string {
	const extraction = json?._extraction as IDataObject | undefined;
	const status = json?.status ?? extraction?.status;
	return typeof status === 'string' ? status : 'done';
}

/** The flat fields of a failed item: what the node says, and what the service said when it answered. */
function failureFields(error: NodeError, extra: IDataObject): IDataObject {
	const serviceError = error.context.serviceError as ServiceError | undefined;
	return {
		...extra,
		error: error.message,
		...(error.description ? { error_description: error.description } : {}),
		...(serviceError ? { error_code: serviceError.error_code, http_status: serviceError.http_status, error_details: serviceError.details } : {}),
	};
}

/**
 * The error as the node's error for this item: its message starts with "Item n", it keeps its
 * class, HTTP status and context. An error shared by several items (one result read for two items)
 * is copied, never renamed in place.
 */
function errorForItem(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) {
		return itemError(ctx.getNode(), itemIndex, error instanceof Error ? error.message : String(error));
	}
	const message = withItemLabel(error.message, itemIndex);
	if (message === error.message) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	const options = { message, description: error.description ?? undefined, itemIndex, failure: error.failure };
	const copy =
		error instanceof NodeApiError
			? new NodeApiError(ctx.getNode(), { message: error.message } as JsonObject, { ...options, httpCode: error.httpCode ?? undefined })
			: new NodeOperationError(ctx.getNode(), options.message, options);
	Object.assign(copy.context, error.context, { itemIndex });
	return copy;
}
