import type { FaultKind } from './faults';
import { ENDPOINT_KEYS, type EndpointKey, type UploadEndpoint } from './types';

export interface UploadStat {
	/** Sandbox time (ms since the epoch) the file was received. */
	at: number;
	endpoint: UploadEndpoint;
	accountId: string;
	sha256: string;
	bytes: number;
	filename: string;
	/** Content type declared on the multipart part. */
	contentType: string;
	/** HTTP status the upload was answered with (202 when accepted). */
	status: number;
	/** Set when the upload was accepted. */
	resultId: string | null;
}

export interface ResultStat {
	accountId: string;
	endpoint: UploadEndpoint;
	pages: number;
	createdAt: number;
	/** When the result reaches its terminal state as the sandbox computes it; null: never (fault). */
	terminalAt: number | null;
	/** Sandbox time of every request to GET /results/{id} for this result, in order. */
	reads: number[];
}

export interface SandboxStats {
	/** Requests per operation (every request routed to it, whatever its outcome). */
	requests: Record<EndpointKey, number>;
	/** Requests to unknown paths or with wrong methods (403 Missing Authentication Token). */
	unknownPathRequests: number;
	/** Responses by HTTP status, over the API (not the admin endpoints). */
	responses: Record<string, number>;
	/** 429 responses sent, real or injected. */
	rateLimited: number;
	/** 413 responses sent by the "gateway". */
	tooLarge: number;
	/** Every file received by an upload operation, accepted or not. */
	uploads: UploadStat[];
	/** Per sha256 of file bytes: how often it was received and how often accepted. */
	uploadsByHash: Record<string, { received: number; accepted: number }>;
	results: Record<string, ResultStat>;
	/** Per account: pages reserved by uploads and pages given back by `rejected` results. */
	pages: Record<string, { charged: number; released: number }>;
	/** Faults injected, in order. */
	faults: Array<{ at: number; endpoint: EndpointKey; kind: FaultKind }>;
	/** Connections the sandbox destroyed on purpose. */
	droppedConnections: number;
}

export function emptyStats(): SandboxStats {
	return {
		requests: Object.fromEntries(ENDPOINT_KEYS.map((key) => [key, 0])) as Record<EndpointKey, number>,
		unknownPathRequests: 0,
		responses: {},
		rateLimited: 0,
		tooLarge: 0,
		uploads: [],
		uploadsByHash: {},
		results: {},
		pages: {},
		faults: [],
		droppedConnections: 0,
	};
}

/** The one place that counts. */
export class StatsRecorder {
	private stats = emptyStats();

	snapshot(): SandboxStats {
		return structuredClone(this.stats);
	}

	reset(): void {
		this.stats = emptyStats();
	}

	request(endpoint: EndpointKey | null): void {
		if (endpoint) this.stats.requests[endpoint] += 1;
		else this.stats.unknownPathRequests += 1;
	}

	response(status: number): void {
		this.stats.responses[status] = (this.stats.responses[status] ?? 0) + 1;
		if (status === 429) this.stats.rateLimited += 1;
		if (status === 413) this.stats.tooLarge += 1;
	}

	upload(upload: UploadStat): void {
		this.stats.uploads.push(upload);
		const byHash = (this.stats.uploadsByHash[upload.sha256] ??= { received: 0, accepted: 0 });
		byHash.received += 1;
		if (upload.resultId) byHash.accepted += 1;
	}

	resultCreated(resultId: string, stat: Omit<ResultStat, 'reads'>): void {
		this.stats.results[resultId] = { ...stat, reads: [] };
	}

	resultRead(resultId: string, at: number, describe: () => Omit<ResultStat, 'reads'>): void {
		(this.stats.results[resultId] ??= { ...describe(), reads: [] }).reads.push(at);
	}

	pagesCharged(accountId: string, pages: number): void {
		this.accountPages(accountId).charged += pages;
	}

	pagesReleased(accountId: string, pages: number): void {
		this.accountPages(accountId).released += pages;
	}

	fault(at: number, endpoint: EndpointKey, kind: FaultKind): void {
		this.stats.faults.push({ at, endpoint, kind });
	}

	droppedConnection(): void {
		this.stats.droppedConnections += 1;
	}

	private accountPages(accountId: string) {
		return (this.stats.pages[accountId] ??= { charged: 0, released: 0 });
	}
}
