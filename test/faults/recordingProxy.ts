import { createServer, request as httpRequest } from 'node:http';

/**
 * A pass-through HTTP proxy in front of the sandbox that records each request line exactly as
 * the node sent it (the sandbox decodes paths before routing, so only this shows the encoding).
 */
export interface RecordingProxy {
	baseUrl: string;
	/** `METHOD /raw/path?query` per request, in order. */
	requests: string[];
	stop(): Promise<void>;
}

export async function startRecordingProxy(targetBaseUrl: string): Promise<RecordingProxy> {
	const target = new URL(targetBaseUrl);
	const requests: string[] = [];
	const server = createServer((incoming, outgoing) => {
		requests.push(`${incoming.method} ${incoming.url}`);
		const forwarded = httpRequest(
			{ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
			(answer) => {
				outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(outgoing);
			},
		);
		forwarded.on('error', () => outgoing.destroy());
		incoming.pipe(forwarded);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
