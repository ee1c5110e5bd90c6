import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { OutputName, ScaleMode } from './workflows';

/** One output item, as a workflow's "Report" node posted it. */
export interface CollectedItem {
	output: OutputName;
	mode: ScaleMode;
	execution: string;
	result_id: string | null;
	file_name: string | null;
	/** What the service or the node said about a document that did not come out on Done. */
	message: string | null;
	/** The item's status (`done`, `duplicate`...) and whether its data is an earlier upload's. */
	status?: string | null;
	reused?: boolean | null;
	/** Flag Duplicate Invoices: `likely`, `possible` or null. */
	duplicate_invoice?: string | null;
	/** When the collector received it (ms since the epoch). */
	at: number;
}

/** One upload receipt, as the Poller workflow's "Store Receipts" node posted it (what a Data Table or a sheet would hold). */
export interface StoredReceipt {
	execution: string;
	result_id: string;
	file_name: string | null;
}

export interface Collector {
	/** Where the workflows post their output items. */
	url: string;
	/** Where the Poller workflow stores its upload receipts, outside n8n's execution data. */
	receiptsUrl: string;
	items(): CollectedItem[];
	receipts(): StoredReceipt[];
	stop(): Promise<void>;
}

/** A small HTTP server on a loopback port that records every JSON body posted to it, output items and stored receipts apart. */
export async function startCollector(): Promise<Collector> {
	const items: CollectedItem[] = [];
	const receipts: StoredReceipt[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			try {
				const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				if (request.url === '/receipts') receipts.push(body as StoredReceipt);
				else items.push({ ...(body as Omit<CollectedItem, 'at'>), at: Date.now() });
				response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			} catch {
				response.writeHead(400).end();
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: `${base}/collect`,
		receiptsUrl: `${base}/receipts`,
		items: () => [...items],
		receipts: () => [...receipts],
		stop: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
