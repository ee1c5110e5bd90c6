import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	sendText(response, status, JSON.stringify(body), headers);
}

export function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
	if (response.headersSent || response.destroyed) return;
	response.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
	response.end(text);
}

export type BodyOutcome = { kind: 'body'; bytes: Buffer } | { kind: 'tooLarge' } | { kind: 'aborted' };

/**
 * Reads the body, counting bytes as they arrive (chunked bodies have no Content-Length). Once
 * the limit is passed the rest is drained unread, so the caller can still be answered with 413.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyOutcome> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				if (!tooLarge) {
					tooLarge = true;
					chunks.length = 0;
					resolve({ kind: 'tooLarge' });
				}
				return;
			}
			chunks.push(chunk);
		});
		request.on('end', () => resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'body', bytes: Buffer.concat(chunks) }));
		request.on('error', () => resolve({ kind: 'aborted' }));
		request.on('close', () => resolve({ kind: 'aborted' }));
	});
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function isLoopback(request: IncomingMessage): boolean {
	return LOOPBACK.has(request.socket.remoteAddress ?? '');
}
