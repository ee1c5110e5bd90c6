/**
 * n8n's deduplication store (what `helpers.checkProcessedAndRecord` and `removeProcessed` reach)
 * for every test that runs a node, with the flaws of n8n's own (packages/cli, DeduplicationHelper,
 * mode "entries"): one row per workflow and context; each call reads the row (`findOne`), changes
 * its copy in memory and writes the whole row back (`update`), a database round trip apart, with
 * no lock or transaction, so two calls at once lose one call's change, whichever values they
 * touch; the first call on a workflow inserts the row, and a second insert at once fails on the
 * primary key. Values are hashed (MD5, base64): membership only, the oldest dropped past
 * `maxEntries`, context `n:<node id>` for scope "node" and '' for "workflow". Every call is a
 * write, even one that finds all its values (n8n writes the row back all the same). Real n8n's
 * database is what the end-to-end and queue-mode suites use.
 */
import { createHash } from 'crypto';
import { DataDeduplicationService } from 'n8n-core';
import { sleep } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

export interface StoreCounts {
	/** `findOne` calls: one per helper call. */
	reads: number;
	/** `insert` and `update` calls. */
	writes: number;
	/** Inserts refused because another call inserted the row first. */
	insertCollisions: number;
}

class UnlockedRowDeduplicator implements IDataDeduplicator {
	private readonly rows = new Map<string, { data: string[] }>();

	readonly counts: StoreCounts = { reads: 0, writes: 0, insertCollisions: 0 };

	/**
	 * The time between a call's read and its write: n8n's database round trip. Random within the
	 * range, so that calls at once interleave as they do against a real database.
	 */
	roundTripMs: [min: number, max: number] = [1, 10];

	async checkProcessedAndRecord(items: DeduplicationItemTypes[], scope: DeduplicationScope, context: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<IDeduplicationOutput> {
		const key = rowKey(scope, context);
		const read = await this.findOne(key);
		const data = read ? [...read.data] : [];
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = hashOf(item);
			if (data.includes(hash)) output.processed.push(item);
			else {
				output.new.push(item);
				data.push(hash);
			}
		}
		if (options.maxEntries) data.splice(0, Math.max(0, data.length - options.maxEntries));
		await this.roundTrip();
		if (read) this.update(key, data);
		else this.insert(key, data);
		return output;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		const key = rowKey(scope, context);
		const read = await this.findOne(key);
		if (!read) return;
		const data = [...read.data];
		for (const hash of items.map(hashOf)) {
			const index = data.indexOf(hash);
			if (index !== -1) data.splice(index, 1);
		}
		await this.roundTrip();
		this.update(key, data);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		await this.roundTrip();
		this.rows.delete(rowKey(scope, context));
	}

	async getProcessedDataCount(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<number> {
		return (await this.findOne(rowKey(scope, context)))?.data.length ?? 0;
	}

	/** Whether the row holds the value now (for tests: no round trip, nothing recorded). */
	holds(workflowId: string, value: DeduplicationItemTypes): boolean {
		return this.rows.get(rowKey('workflow', { workflow: { id: workflowId } } as ICheckProcessedContextData))?.data.includes(hashOf(value)) ?? false;
	}

	/** What the database holds for the workflow now (for tests). */
	rowSize(workflowId: string): number {
		return this.rows.get(rowKey('workflow', { workflow: { id: workflowId } } as ICheckProcessedContextData))?.data.length ?? 0;
	}

	private async findOne(key: string): Promise<{ data: string[] } | undefined> {
		this.counts.reads++;
		await this.roundTrip();
		const row = this.rows.get(key);
		// An entity of its own, as TypeORM returns: later writes by others do not change it.
		return row && { data: [...row.data] };
	}

	private insert(key: string, data: string[]): void {
		this.counts.writes++;
		if (this.rows.has(key)) {
			this.counts.insertCollisions++;
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		}
		this.rows.set(key, { data });
	}

	private update(key: string, data: string[]): void {
		this.counts.writes++;
		// n8n's `update` with the whole entity: the row becomes what this call read and changed.
		if (this.rows.has(key)) this.rows.set(key, { data });
	}

	private async roundTrip(): Promise<void> {
		const [min, max] = this.roundTripMs;
		await sleep(min + Math.random() * (max - min));
	}
}

export type DeduplicationStore = UnlockedRowDeduplicator;

function rowKey(scope: DeduplicationScope, context: ICheckProcessedContextData): string {
	return `${String(context.workflow.id)}|${scope === 'node' ? `n:${context.node?.id ?? ''}` : ''}`;
}

function hashOf(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

let installed: UnlockedRowDeduplicator | undefined;

/** n8n's deduplication store for this test process (installed once: n8n-core allows one). */
export function deduplicationStore(): DeduplicationStore {
	if (installed) return installed;
	try {
		// Installed by an earlier test file of this process: use that one.
		installed = (DataDeduplicationService.getInstance() as unknown as { deduplicator: UnlockedRowDeduplicator }).deduplicator;
	} catch {
		installed = new UnlockedRowDeduplicator();
		// Synchronous in effect: init only checks and sets the instance.
		void DataDeduplicationService.init(installed);
	}
	return installed;
}

/**
 * A node's context whose deduplication helpers n8n bound to this workflow and node, for unit tests
 * of what the nodes keep in n8n's database (the engine tests get them from n8n-core).
 */
export function nodeWithDeduplication(workflowId: string, nodeId = 'node'): IExecuteFunctions {
	const store = deduplicationStore();
	const context = { workflow: { id: workflowId, active: false }, node: { id: nodeId } as never };
	return {
		getNode: () => ({ id: nodeId }),
		getExecutionCancelSignal: () => undefined,
		helpers: {
			checkProcessedAndRecord: async (items: string[], scope: DeduplicationScope, options: ICheckProcessedOptions) => await store.checkProcessedAndRecord(items, scope, context, options),
			removeProcessed: async (items: string[], scope: DeduplicationScope) => await store.removeProcessed(items, scope, context),
		},
	} as unknown as IExecuteFunctions;
}
