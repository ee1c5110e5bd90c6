import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { deepCopy, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ServiceError } from '../http/errors';
import { itemError, itemLabel, withItemLabel } from '../items/itemError';
import { REUSE_DAYS } from '../limits';
import { FIELDS_MODE_KEYS } from './columnNames';
import { assignVerbatim } from './safeCopy';

type NodeError = NodeApiError | NodeOperationError;

/**
 * One of several documents an input item holds (an email's attachments): it leaves the node on
 * its own output items, paired with its input item. `label` names it in errors ("attachment_1,
 * invoice.pdf"). A plain item index stands for the item's only document.
 */
export interface DocumentSlot {
	item: number;
	part: number;
	label: string;
}

export type SinkTarget = number | DocumentSlot;

/** How a document of the run came to have its result: uploaded now, an earlier upload reused, or only read (Poller). */
export type DocumentOrigin = 'uploaded' | 'reused' | 'read';

const slotOf = (target: SinkTarget): DocumentSlot => (typeof target === 'number' ? { item: target, part: 0, label: '' } : target);
const slotKey = ({ item, part }: Pick<DocumentSlot, 'item' | 'part'>): string => `${item}/${part}`;
/** Input order: items, then an item's documents. */
const inInputOrder = (a: DocumentSlot, b: DocumentSlot): number => a.item - b.item || a.part - b.part;

/** Fields added to every output item of an input item or a document; a name the item already has gets `prefix`. */
interface Annotation {
	fields: IDataObject;
	prefix: string;
}

/** Everything the sink holds about one slot: an input item's only document, or one of its several. */
interface SlotRecord {
	slot: DocumentSlot;
	/** It has left the node (emitted, failed as an item, or held as a failure under Stop). */
	settled: boolean;
	/** The status it left with (`done`, `rejected`, `queued`...), for the stop error's list. */
	status?: string;
	/** Its result, when it is a document of the run (`track`). */
	document?: { resultId: string; how: DocumentOrigin };
	/** Its failure under Stop, held until every other slot is settled. */
	failure?: NodeError;
	/** Fields for its output items (those of its input item come first). */
	annotations: Annotation[];
}

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
	/** Per output, the items with the slot they belong to, in the order they were emitted. */
	private readonly outputs: Array<Array<{ slot: DocumentSlot; item: INodeExecutionData }>>;

	/** One record per slot, by `item/part`. */
	private readonly slots = new Map<string, SlotRecord>();

	/** Per input item: fields for every output item of all its documents. */
	private readonly itemAnnotations = new Map<number, Annotation[]>();

	/** Documents per input item, where an item holds several (see `expectDocuments`). */
	private readonly documentCounts = new Map<number, number>();

	/** Failures held under Stop, first one first. */
	private readonly failures: SlotRecord[] = [];

	private holding = false;

	constructor(
		private readonly ctx: IExecuteFunctions,
		outputCount = 1,
	) {
		this.outputs = Array.from({ length: outputCount }, () => []);
	}

	/** The input item leaves as `count` documents, each settled on its own (`DocumentSlot`); 0 is not allowed. */
	expectDocuments(itemIndex: number, count: number): void {
		this.documentCounts.set(itemIndex, count);
	}

	/**
	 * Adds `fields` to every output item (error items included) of an input item (a number) or of
	 * one of its documents. A field the output item already has is added as `<prefix><name>`.
	 */
	annotate(target: SinkTarget, fields: IDataObject, prefix: string): void {
		if (typeof target === 'number') this.itemAnnotations.set(target, [...(this.itemAnnotations.get(target) ?? []), { fields, prefix }]);
		else this.record(target).annotations.push({ fields, prefix });
	}

	/**
	 * Emits the item's results (one input item may become several output items, e.g. table rows).
	 * The input file, when passed through, goes with the first of them only: one copy per document.
	 */
	emit(target: SinkTarget, jsons: IDataObject[], output = 0, binary?: IBinaryKeyData): void {
		const record = this.settle(target);
		record.status = statusOf(jsons[0]);
		jsons.forEach((json, index) => {
			this.outputs[output].push({ slot: record.slot, item: this.item(record, json, index === 0 ? binary : undefined) });
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
	fail(target: SinkTarget, error: unknown, output = 0, extra: IDataObject = {}, binary?: IBinaryKeyData): void {
		const nodeError = errorForItem(this.ctx, error, slotOf(target));
		if (!this.ctx.continueOnFail()) {
			if (!this.holding) throw this.stopError(nodeError);
			const held = this.settle(target);
			held.failure = nodeError;
			this.failures.push(held);
			return;
		}
		const record = this.settle(target);
		const fields = failureFields(nodeError, extra);
		if (this.ctx.getNode().onError !== 'continueErrorOutput') {
			this.outputs[output].push({ slot: record.slot, item: this.item(record, fields, binary) });
			return;
		}
		// n8n moves an item to the error output only when its JSON holds nothing but `message` and
		// `error` (and adds the input item's fields itself): what the item says of its document
		// (binary field, file name) goes inside `error`.
		const { json: annotated, ...item } = this.item(record, fields, binary);
		this.outputs[output].push({ slot: record.slot, item: { ...item, json: { message: nodeError.message, error: annotated } } });
	}

	/** A document this run handles, listed in a stop error so its result ID is never lost. */
	track(target: SinkTarget, resultId: string, how: DocumentOrigin): void {
		this.record(target).document = { resultId, how };
	}

	/** From now on a failure under "Stop" waits until every item is settled (see `result`). */
	holdFailures(): void {
		this.holding = true;
	}

	/** The node's return value, in input order on each output, after checking that no input item or document was lost. */
	result(itemCount: number): INodeExecutionData[][] {
		if (this.failures.length > 0) throw this.stopError(this.failures[0].failure as NodeError);
		for (let i = 0; i < itemCount; i++) {
			for (let part = 0; part < (this.documentCounts.get(i) ?? 1); part++) {
				if (!this.slots.get(slotKey({ item: i, part }))?.settled) {
					throw new NodeOperationError(this.ctx.getNode(), `${itemLabel(i)} produced no output (internal error: please report it)`, { itemIndex: i });
				}
			}
		}
		// Items are emitted as their results arrive; a stable sort puts them back in input order.
		return this.outputs.map((entries) => [...entries].sort((a, b) => inInputOrder(a.slot, b.slot)).map(({ item }) => item));
	}

	/** An output item of `target`: its JSON after the annotations of its input item and its document, paired with the input item. */
	private item({ slot, annotations: own }: SlotRecord, json: IDataObject, binary: IBinaryKeyData | undefined): INodeExecutionData {
		const annotations = [...(this.itemAnnotations.get(slot.item) ?? []), ...own];
		let annotated = json;
		if (annotations.length > 0) {
			annotated = {};
			for (const { fields, prefix } of annotations) {
				for (const [name, value] of Object.entries(fields)) {
					// The item may carry it already (the Poller's Still Processing items keep their input).
					if (Object.hasOwn(json, name) && json[name] === value) continue;
					// A copy per item: output items never share objects (rows of one document, say).
					assignVerbatim(annotated, Object.hasOwn(json, name) ? `${prefix}${name}` : name, deepCopy(value));
				}
			}
			for (const [name, value] of Object.entries(json)) assignVerbatim(annotated, name, value);
		}
		return { json: annotated, pairedItem: { item: slot.item }, ...(binary ? { binary } : {}) };
	}

	/**
	 * The error that stops the node: the first failure, with the other failures and every document
	 * of the run (result ID, outcome) added to its description and, as data, to its context.
	 */
	private stopError(first: NodeError): NodeError {
		const others = this.failures.map(({ failure }) => failure as NodeError).filter((error) => error !== first);
		if (others.length > 0) first.message += ` (and ${others.length} more item${others.length === 1 ? '' : 's'} failed)`;
		const documents = [...this.slots.values()]
			.filter((record): record is SlotRecord & Required<Pick<SlotRecord, 'document'>> => record.document !== undefined)
			.sort((a, b) => inInputOrder(a.slot, b.slot))
			.map(({ slot, document, failure, status }) => ({
				item: slot.item + 1,
				...(slot.label ? { document: slot.label } : {}),
				result_id: document.resultId,
				uploaded: document.how === 'uploaded',
				reused: document.how === 'reused',
				outcome: failure ? 'failed' : (status ?? 'not finished yet'),
			}));
		const parts = [first.description ?? ''];
		if (others.length > 0) parts.push(`Other items that failed:\n${others.map((error) => `- ${error.message}`).join('\n')}`);
		if (documents.length > 0) {
			const uploaded = documents.some((document) => document.uploaded || document.reused);
			const heading = uploaded
				? `Documents uploaded in this run: their pages are already reserved. Retry of this execution reads their results instead of uploading them again, when it runs in this n8n process within ${REUSE_DAYS} days (after n8n restarts, or on another queue-mode worker, it uploads them again and the items say "charged_again"); to be sure, read each one with "Get Result" (or the Document Extraction Poller), or set "On Error" to "Continue" to get them as items:`
				: 'Results of this run, all kept in your account: read them again with "Get Result" or the Document Extraction Poller, or set "On Error" to "Continue" to get them as items:';
			const line = (document: (typeof documents)[number]) =>
				`- item ${document.item}${document.document ? ` (${document.document})` : ''}: result ID ${document.result_id} (${document.outcome}${document.reused ? '; an earlier upload of the same file, not charged again' : ''})`;
			parts.push(`${heading}\n${documents.map(line).join('\n')}`);
		}
		first.description = parts.filter(Boolean).join('\n\n');
		first.context.documents = documents as unknown as IDataObject[];
		first.context.failedItems = [first, ...others].map((error) => Number(error.context.itemIndex) + 1);
		return first;
	}

	private record(target: SinkTarget): SlotRecord {
		const slot = slotOf(target);
		let record = this.slots.get(slotKey(slot));
		if (!record) this.slots.set(slotKey(slot), (record = { slot, settled: false, annotations: [] }));
		return record;
	}

	private settle(target: SinkTarget): SlotRecord {
		const record = this.record(target);
		if (record.settled) {
			const { item } = record.slot;
			throw new NodeOperationError(this.ctx.getNode(), `${itemLabel(item)} was emitted twice (internal error: please report it)`, { itemIndex: item });
		}
		record.settled = true;
		return record;
	}
}

/** A result's status as its item shows it: top-level (raw, receipts, pending) or in `extraction` (fields); table rows are done. */
function statusOf(json: IDataObject | undefined): string {
	const extraction = json?.[FIELDS_MODE_KEYS.extraction] as IDataObject | undefined;
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
 * The error as the node's error for this item: its message starts with "Item n" (and names the
 * document, when the item holds several), it keeps its class, HTTP status and context. An error
 * shared by several items (one result read for two items) is copied, never renamed in place.
 */
function errorForItem(ctx: IExecuteFunctions, error: unknown, { item: itemIndex, label }: DocumentSlot): NodeError {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) {
		return itemError(ctx.getNode(), itemIndex, withDocumentLabel(error instanceof Error ? error.message : String(error), itemIndex, label));
	}
	const message = withDocumentLabel(error.message, itemIndex, label);
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

/** "Item 2: ..." becomes "Item 2 (attachment_1, invoice.pdf): ..." for one of the item's several documents. */
function withDocumentLabel(message: string, itemIndex: number, label: string): string {
	const labelled = withItemLabel(message, itemIndex);
	const plain = `${itemLabel(itemIndex)}: `;
	return label && labelled.startsWith(plain) ? `${itemLabel(itemIndex)} (${label}): ${labelled.slice(plain.length)}` : labelled;
}
