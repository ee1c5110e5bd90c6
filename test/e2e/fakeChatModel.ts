import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the agent sent: the conversation so far and the tools it offers. */
export interface ChatRequest {
	messages: Array<{ role: string; content?: unknown; tool_call_id?: string; name?: string }>;
	tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown } }>;
	stream?: boolean;
}

export type ChatReply = { toolCall: { name: string; arguments: Record<string, unknown> } } | { content: string };

export interface FakeChatModel {
	/** Base URL for n8n's OpenAI credential (ends in /v1). */
	url: string;
	requests: ChatRequest[];
	stop(): Promise<void>;
}

/**
 * A stand-in for an OpenAI-compatible chat model (POST /v1/chat/completions), answering from a
 * script: it lets the AI-agent example run to the end offline, with real tool calls into the
 * package's nodes. It plays the model only; every tool result comes from the real nodes.
 */
export async function startFakeChatModel(script: (request: ChatRequest) => ChatReply): Promise<FakeChatModel> {
	const requests: ChatRequest[] = [];
	let calls = 0;
	const server = createServer((req, res) => {
		void readJson(req).then(
			(body) => {
				if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(res, 404, { error: { message: `not faked: ${req.method} ${req.url}` } });
				const request = body as ChatRequest;
				requests.push(request);
				let reply: ChatReply;
				try {
					reply = script(request);
				} catch (error) {
					return send(res, 400, { error: { message: error instanceof Error ? error.message : String(error) } });
				}
				calls += 1;
				const message =
					'toolCall' in reply
						? {
								role: 'assistant',
								content: null,
								tool_calls: [{ id: `call_${calls}`, type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } }],
							}
						: { role: 'assistant', content: reply.content };
				const finishReason = 'toolCall' in reply ? 'tool_calls' : 'stop';
				if (request.stream) return stream(res, calls, message, finishReason);
				send(res, 200, {
					id: `chatcmpl-${calls}`,
					object: 'chat.completion',
					created: Math.floor(Date.now() / 1000),
					model: 'fake-model',
					choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				});
			},
			() => send(res, 400, { error: { message: 'invalid JSON' } }),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? JSON.parse(text) : {};
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

/** The same answer as server-sent events, for clients that ask for a stream. */
function stream(res: ServerResponse, call: number, message: Record<string, unknown>, finishReason: string): void {
	res.writeHead(200, { 'content-type': 'text/event-stream' });
	const chunk = (delta: unknown, finish: string | null) =>
		`data: ${JSON.stringify({ id: `chatcmpl-${call}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'fake-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
	const toolCalls = message.tool_calls as Array<Record<string, unknown>> | undefined;
	const delta = toolCalls ? { role: 'assistant', content: null, tool_calls: toolCalls.map((toolCall, index) => ({ index, ...toolCall })) } : { role: 'assistant', content: message.content };
	res.end(`${chunk(delta, null)}${chunk({}, finishReason)}data: [DONE]\n\n`);
}
