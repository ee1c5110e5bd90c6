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
	/** When the collector received it (ms since the epoch). */
	at: number;
}

export interface Collector {
	url: string;
	items(): CollectedItem[];
	stop(): Promise<void>;
}

/** A small HTTP server on a loopback port that records every JSON body posted to it. */
export async function startCollector(): Promise<Collector> {
	const items: CollectedItem[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			try {
				items.push({ ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<CollectedItem, 'at'>), at: Date.now() });
				response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			} catch {
				response.writeHead(400).end();
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/collect`,
		items: () => [...items],
		stop: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
