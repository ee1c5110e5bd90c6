import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from './errors';
import type { Fault } from './faults';
import { isLoopback, readBody, sendJson, sendText } from './http';
import { loadOpenApiDocument, OPENAPI_PATH } from './openapi';
import { OPERATIONS } from './operations';
import { RateLimiter } from './rateLimit';
import { matchRoute, type Route } from './router';
import { GATEWAY_TOO_LARGE_BODY, GATEWAY_UNKNOWN_PATH_BODY, MAX_REQUEST_BYTES } from './spec';
import type { SandboxState } from './state';
import { describeResult } from './state';
import type { JsonReply } from './types';

export const ADMIN_PREFIX = '/__sandbox/';

/**
 * Keep-alive: the sandbox announces 5 s (`Keep-Alive: timeout=5`, what Node announces by default)
 * and closes an idle connection itself only after 65 s. Clients close theirs before the announced
 * time (undici 2 s before, Node's agent 1 s before), so only a client closes a connection it might
 * still use. With Node's default (the server's own close 6 s after its last answer) a read that a
 * client sent 2 to 3 s after its last one was reset when the sandbox's loop was held past those
 * 6 s by a document read (PDF reader, OCR; seconds under CPU load): once the loop came back, Node
 * ran the connection's timer before it read the request waiting on it, closed the connection
 * with the request unread, and the client got ECONNRESET (docs/benchmark.md, "Connection resets").
 */
export const ANNOUNCED_KEEP_ALIVE_SECONDS = 5;
export const IDLE_CONNECTION_CLOSE_MS = 65_000;

export type AdminHandler = (method: string, url: URL, body: Buffer) => JsonReply;

export interface ServerHooks {
	admin: AdminHandler;
	/** Called after every request that may have changed accounts, templates or results. */
	changed(): void;
}

/** The HTTP front: the "gateway" rules of spec 7.3, then auth, rate limit, faults and the operation. */
export class SandboxServer {
	readonly server: Server;
	private readonly sockets = new Set<Socket>();
	private readonly stopping = new AbortController();
	/** Read at start-up, so a missing or moved file stops the sandbox from starting. */
	private readonly openApiText = loadOpenApiDocument();

	constructor(
		private readonly state: SandboxState,
		private readonly hooks: ServerHooks,
	) {
		this.server = createServer((request, response) => {
			announceKeepAlive(response);
			this.handle(request, response).catch(() => {
				if (!response.headersSent) sendJson(response, 500, errors.internal().body);
			});
		});
		this.server.keepAliveTimeout = IDLE_CONNECTION_CLOSE_MS;
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	listen(port: number, host: string): Promise<number> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				const address = this.server.address();
				resolve(typeof address === 'object' && address ? address.port : port);
			});
		});
	}

	/** Closes the listener and every open socket; pending latency waits are cancelled. */
	stop(): Promise<void> {
		this.stopping.abort();
		return new Promise((resolve) => {
			this.server.close(() => resolve());
			for (const socket of this.sockets) socket.destroy();
		});
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? '/', 'http://sandbox.local');
		const method = request.method ?? 'GET';

		// Spec 7.3.1: the gateway refuses a large request before anything else runs.
		if (Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_BYTES) return this.tooLarge(request, response);

		if (url.pathname.startsWith(ADMIN_PREFIX)) return this.admin(request, response, method, url);
		// Spec 1: the public site serves the interface description, without a key or rate limit.
		if (method === 'GET' && url.pathname === OPENAPI_PATH) {
			request.resume();
			return sendText(response, 200, this.openApiText);
		}

		const route = matchRoute(method, url.pathname);
		this.state.stats.request(route?.endpoint ?? null);
		if (!route) {
			// Spec 7.3.2: unknown URL (or method): 403 with the gateway's body, no success, no error_code.
			request.resume();
			return this.reply(response, { status: 403, body: GATEWAY_UNKNOWN_PATH_BODY });
		}
		this.recordResultRead(route);
		const decision = this.state.faults.decide(route.endpoint);
		const fault = decision.fault;
		if (fault) this.state.stats.fault(this.state.clock.now(), route.endpoint, fault.kind);
		if (fault?.kind === 'dropBeforeBody') return this.drop(response);

		const body = await readBody(request, MAX_REQUEST_BYTES);
		if (body.kind === 'aborted') return;
		if (body.kind === 'tooLarge') return this.tooLarge(request, response);

		const reply = await this.authorizedReply(request, route, body.bytes, decision.latencyMs, fault);
		if (!reply) return;
		if (route.endpoint !== 'getResult' && route.endpoint !== 'listScanners' && route.endpoint !== 'getScanner') this.hooks.changed();
		if (fault?.kind === 'dropAfterBody') return this.drop(response);
		if (fault?.kind === 'malformedJson') {
			const text = JSON.stringify(reply.body);
			this.state.stats.response(reply.status);
			return sendText(response, reply.status, text.slice(0, Math.max(1, Math.floor(text.length / 2))), reply.headers);
		}
		this.reply(response, reply);
	}

	/** Auth (spec 5), rate limit (2.8, 8), BUSY (8.7), injected faults, then the operation. Undefined: stopped. */
	private async authorizedReply(
		request: IncomingMessage,
		route: Route,
		body: Buffer,
		latencyMs: number,
		fault: Fault | undefined,
	): Promise<JsonReply | undefined> {
		const key = headerValue(request, 'x-api-key');
		if (!key) return errors.apiKeyRequired();
		const account = this.state.accounts.byKey(key);
		if (!account) return errors.invalidApiKey();

		const rate = this.state.rateLimiter.consume(key, account.rateLimitPerMinute);
		const withRateHeaders = (reply: JsonReply): JsonReply => ({
			...reply,
			headers: { ...RateLimiter.headers(rate), ...reply.headers },
		});
		if (!rate.allowed) return withRateHeaders(errors.rateLimited(rate.limit, rate.resetSeconds));

		const isUpload = route.endpoint === 'process' || route.endpoint === 'upload';
		if (isUpload && !this.state.tryStartUpload(account)) return withRateHeaders(errors.busy());
		try {
			if (latencyMs > 0) {
				try {
					await sleep(latencyMs, undefined, { signal: this.stopping.signal });
				} catch {
					return undefined;
				}
			}
			if (fault?.kind === 'internalError') return withRateHeaders(errors.internal());
			if (fault?.kind === 'busy') return withRateHeaders(errors.busy());
			if (fault?.kind === 'rateLimited') {
				const seconds = fault.retryAfterSeconds ?? 1;
				return withRateHeaders(errors.rateLimited(rate.limit, seconds));
			}
			try {
				const reply = await OPERATIONS[route.endpoint]({
					state: this.state,
					account,
					route,
					contentType: headerValue(request, 'content-type'),
					body,
					fault,
				});
				return withRateHeaders(reply);
			} catch {
				return withRateHeaders(errors.internal());
			}
		} finally {
			if (isUpload) this.state.endUpload(account);
		}
	}

	private admin(request: IncomingMessage, response: ServerResponse, method: string, url: URL): Promise<void> | void {
		// Admin controls are for local tools only; from elsewhere the path does not exist.
		if (!isLoopback(request)) {
			request.resume();
			return sendJson(response, 403, GATEWAY_UNKNOWN_PATH_BODY);
		}
		return readBody(request, MAX_REQUEST_BYTES).then((body) => {
			if (body.kind !== 'body') return sendJson(response, 413, GATEWAY_TOO_LARGE_BODY);
			let reply: JsonReply;
			try {
				reply = this.hooks.admin(method, url, body.bytes);
			} catch (error) {
				reply = { status: 400, body: { ok: false, error: error instanceof Error ? error.message : String(error) } };
			}
			sendJson(response, reply.status, reply.body, reply.headers);
		});
	}

	private recordResultRead(route: Route): void {
		if (route.endpoint !== 'getResult' || !route.resultId) return;
		const record = this.state.results.get(route.resultId);
		if (record) this.state.stats.resultRead(record.resultId, this.state.clock.now(), () => describeResult(record));
	}

	private tooLarge(request: IncomingMessage, response: ServerResponse): void {
		// Drain what the client is still sending so it can read the answer.
		request.resume();
		this.reply(response, { status: 413, body: GATEWAY_TOO_LARGE_BODY });
	}

	/** "The service took it but the client never heard back". */
	private drop(response: ServerResponse): void {
		this.state.stats.droppedConnection();
		response.socket?.destroy();
	}

	private reply(response: ServerResponse, reply: JsonReply): void {
		this.state.stats.response(reply.status);
		sendJson(response, reply.status, reply.body, reply.headers);
	}
}

/**
 * Node writes `Keep-Alive: timeout=<keepAliveTimeout>` itself unless the response names its
 * Connection: on a connection Node keeps open, the sandbox names both, with the shorter time.
 */
function announceKeepAlive(response: ServerResponse): void {
	if (!response.shouldKeepAlive) return;
	response.setHeader('Connection', 'keep-alive');
	response.setHeader('Keep-Alive', `timeout=${ANNOUNCED_KEEP_ALIVE_SECONDS}`);
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	const text = Array.isArray(value) ? value[0] : value;
	return text?.trim() ? text.trim() : undefined;
}
