/**
 * n8n's deduplication store (what `helpers.checkProcessedAndRecord` and `removeProcessed` reach)
 * for the engine tests. n8n's own (packages/cli, DeduplicationHelper) keeps one row per workflow
 * and context in its database; this keeps the same rows in memory with the same rules for mode
 * "entries": values hashed (MD5, base64), membership only, the oldest dropped past `maxEntries`,
 * context `n:<node id>` for scope "node" and '' for "workflow". Real n8n's database is what the
 * end-to-end and queue-mode suites use.
 */
import { createHash } from 'crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

class MemoryDeduplicator implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();

	async checkProcessedAndRecord(items: DeduplicationItemTypes[], scope: DeduplicationScope, context: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<IDeduplicationOutput> {
		const row = this.row(scope, context);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = hashOf(item);
			if (row.includes(hash)) output.processed.push(item);
			else {
				output.new.push(item);
				row.push(hash);
			}
		}
		if (options.maxEntries) row.splice(0, Math.max(0, row.length - options.maxEntries));
		return await Promise.resolve(output);
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		const row = this.row(scope, context);
		for (const hash of items.map(hashOf)) {
			const index = row.indexOf(hash);
			if (index !== -1) row.splice(index, 1);
		}
		await Promise.resolve();
	}

	async clearAllProcessedItems(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<void> {
		this.rows.delete(rowKey(scope, context));
		await Promise.resolve();
	}

	async getProcessedDataCount(scope: DeduplicationScope, context: ICheckProcessedContextData): Promise<number> {
		return await Promise.resolve(this.row(scope, context).length);
	}

	private row(scope: DeduplicationScope, context: ICheckProcessedContextData): string[] {
		const key = rowKey(scope, context);
		let row = this.rows.get(key);
		if (!row) this.rows.set(key, (row = []));
		return row;
	}
}

function rowKey(scope: DeduplicationScope, context: ICheckProcessedContextData): string {
	return `${String(context.workflow.id)}|${scope === 'node' ? `n:${context.node?.id ?? ''}` : ''}`;
}

function hashOf(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

let installed: MemoryDeduplicator | undefined;

/** n8n's deduplication store for this test process (installed once: n8n-core allows one). */
export function deduplicationStore(): MemoryDeduplicator {
	if (installed) return installed;
	try {
		// Installed by an earlier test file of this process: use that one.
		installed = (DataDeduplicationService.getInstance() as unknown as { deduplicator: MemoryDeduplicator }).deduplicator;
	} catch {
		installed = new MemoryDeduplicator();
		// Synchronous in effect: init only checks and sets the instance.
		void DataDeduplicationService.init(installed);
	}
	return installed;
}
