import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemSink } from '../../shared/output/itemSink';

/** An operation that handles one item at a time; the router loops and catches per item. */
export interface ItemOperation {
	execute(this: IExecuteFunctions, sink: ItemSink, itemIndex: number): Promise<void>;
}

/** An operation that needs all items at once (extract: upload all, then wait for all). */
export interface BatchOperation {
	executeAll(this: IExecuteFunctions, sink: ItemSink): Promise<void>;
}

export type Operation = ItemOperation | BatchOperation;

export type DocumentExtractionMap = {
	document: 'extract' | 'extractWithTemplate' | 'getResult';
	template: 'create' | 'get' | 'getFields' | 'getMany' | 'update' | 'delete';
};
