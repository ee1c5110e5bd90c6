import { setTimeout as sleep } from 'node:timers/promises';

import type { BenchDocument } from './documents';

/**
 * How other n8n nodes wait for an asynchronous job, written here as baselines (their behaviour,
 * not their code), each sending plain fetch requests to its own sandbox account:
 * - Mindee (n8n's built-in node): inside the node, item after item, the first read 1.5 s after
 *   the upload, then every 1 s;
 * - LlamaCloud: inside the node, item after item, reads 1 s apart, each wait 1.5 times the last,
 *   up to 5 s;
 * - Firecrawl: inside the node, item after item, a read every 2 s;
 * - the naive workflow loop (HTTP Request, Wait 2.5 s, IF not done loop back): the same batches
 *   and executions as the Poller's workflow, every result of a batch read every 2.5 s.
 * None of them looks at the rate-limit headers. A 429 (or a 503 BUSY on upload) is answered by
 * trying again after the style's next wait, as a user would set "Retry On Fail" to keep the run
 * going; every such request is counted.
 */
export const PEER_STYLES = {
	mindee: { label: 'Mindee-style', inline: true, waits: growing(1500, 1000, 1, 1000) },
	llamaCloud: { label: 'LlamaCloud-style', inline: true, waits: growing(1000, 1500, 1.5, 5000) },
	firecrawl: { label: 'Firecrawl-style', inline: true, waits: growing(2000, 2000, 1, 2000) },
	naive: { label: 'naive 2.5 s loop', inline: false, waits: growing(2500, 2500, 1, 2500) },
} satisfies Record<string, PeerStyle>;

export type PeerName = keyof typeof PEER_STYLES;
export const PEER_NAMES = Object.keys(PEER_STYLES) as PeerName[];

interface PeerStyle {
	label: string;
	/** Waits inside the node, one item after another; otherwise a workflow loop over a whole batch. */
	inline: boolean;
	/** The n-th wait before a read (ms), from 0. */
	waits: (n: number) => number;
}

/** First wait, then `next` growing by `factor` per wait, capped at `max`. */
function growing(first: number, next: number, factor: number, max: number): (n: number) => number {
	return (n) => (n === 0 ? first : Math.min(max, next * factor ** (n - 1)));
}

export interface PeerConfig {
	baseUrl: string;
	apiKey: string;
	/** Items per execution (Loop Over Items batch). */
	batch: number;
	/** Executions at once on the key. */
	lanes: number;
}

/** Runs the documents the way `peer` would; resolves with the wall time in ms. */
export async function runPeer(peer: PeerName, documents: BenchDocument[], config: PeerConfig): Promise<number> {
	const style = PEER_STYLES[peer];
	const batches: BenchDocument[][] = [];
	for (let i = 0; i < documents.length; i += config.batch) batches.push(documents.slice(i, i + config.batch));
	const startedAt = Date.now();
	const lane = async () => {
		for (let batch = batches.shift(); batch; batch = batches.shift()) {
			if (style.inline) {
				for (const document of batch) await readUntilTerminal(await uploadUntilAccepted(document, style, config), style, config);
			} else {
				const uploads: string[] = [];
				for (const document of batch) uploads.push(await uploadUntilAccepted(document, style, config));
				await Promise.all(uploads.map((resultId) => readUntilTerminal(resultId, style, config)));
			}
		}
	};
	await Promise.all(Array.from({ length: config.lanes }, lane));
	return Date.now() - startedAt;
}

async function uploadUntilAccepted(document: BenchDocument, style: PeerStyle, config: PeerConfig): Promise<string> {
	for (let attempt = 0; ; attempt++) {
		const form = new FormData();
		form.append('file', new Blob([document.bytes as Uint8Array<ArrayBuffer>], { type: document.mimeType }), document.fileName);
		const response = await fetch(`${config.baseUrl}/api/v1/process`, { method: 'POST', headers: { 'X-API-Key': config.apiKey }, body: form });
		const body = (await response.json()) as { result_id?: string };
		if (response.status === 202 && body.result_id) return body.result_id;
		await sleep(style.waits(attempt));
	}
}

async function readUntilTerminal(resultId: string, style: PeerStyle, config: PeerConfig): Promise<void> {
	for (let n = 0; ; n++) {
		await sleep(style.waits(n));
		const response = await fetch(`${config.baseUrl}/api/v1/results/${resultId}`, { headers: { 'X-API-Key': config.apiKey } });
		const body = (await response.json()) as { status?: string };
		if (response.status === 200 && body.status !== 'queued' && body.status !== 'processing') return;
	}
}
