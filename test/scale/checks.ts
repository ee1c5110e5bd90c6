import { totalRequests } from '../bench/metrics';
import type { SandboxStats } from '../../sandbox/src';
import type { CollectedItem } from './collector';
import type { ScaleDocument } from './documents';
import type { OutputName, ScaleMode } from './workflows';

/** A document the suite sent, with where it was sent from. */
export interface SentDocument extends ScaleDocument {
	batch: number;
	mode: ScaleMode;
	/** `load`: the throughput run; `crash`: the batch whose worker was killed (finished by a retry). */
	phase: 'load' | 'crash';
}

/** Where one document ended up, from the sandbox's records and the collector's. */
export interface DocumentOutcome {
	document: SentDocument;
	/** How often the sandbox received the document's bytes in an upload (0: never). */
	uploads: number;
	resultId?: string;
	/** The outputs it came out on (one entry per time). */
	outputs: OutputName[];
	/** What the node or the service said where it did not come out on Done. */
	messages: string[];
	expectedOutput: OutputName;
}

export interface ScaleFigures {
	docs: number;
	/** Came out on exactly one output, the right one. */
	deliveredOnce: number;
	/** Came out on no output at all. */
	lost: number;
	/** Came out more than once (extra deliveries). */
	duplicateOutputs: number;
	/** Came out once, on another output than its outcome calls for. */
	wrongOutput: number;
	/** Times the sandbox received a document's bytes beyond the first. */
	duplicateUploads: number;
	/** Items the collector received that belong to no document of the run. */
	strayItems: number;
	requests: number;
	http429: number;
	/** Documents per minute while the pipeline was full (see `throughput`). */
	docsPerMin: number;
	boundDocsPerMin: number;
	window: ThroughputWindow;
}

export interface ThroughputWindow {
	startsAt: number;
	endsAt: number;
	/** Uploads the service accepted inside the window. */
	uploads: number;
	/** Reads inside the window that found a document finished. */
	completed: number;
}

/** Spec 2.8 / 8: a document costs at least one upload and one read, so the key allows at most limit/2 documents per minute. */
export function boundDocsPerMinute(rateLimitPerMinute: number): number {
	return rateLimitPerMinute / 2;
}

/** The output a document must come out on: Done, or for a rejected one the Poller's Rejected output or the action node's error output. */
export function expectedOutput(document: Pick<SentDocument, 'expected' | 'mode'>): OutputName {
	if (document.expected === 'done') return 'done';
	return document.mode === 'poller' ? 'rejected' : 'error-output';
}

/** Matches the collector's items to the documents: by result ID (the service's name for an upload), else by file name. */
export function documentOutcomes(documents: SentDocument[], collected: CollectedItem[], stats: SandboxStats): { outcomes: DocumentOutcome[]; strayItems: number } {
	const resultIdByHash = new Map<string, string>();
	for (const upload of stats.uploads) if (upload.resultId) resultIdByHash.set(upload.sha256, upload.resultId);
	const byResultId = new Map<string, SentDocument>();
	const byFileName = new Map(documents.map((document) => [document.fileName, document]));
	for (const document of documents) {
		const resultId = resultIdByHash.get(document.sha256);
		if (resultId) byResultId.set(resultId, document);
	}
	const outputs = new Map<SentDocument, CollectedItem[]>(documents.map((document) => [document, []]));
	let strayItems = 0;
	for (const item of collected) {
		const document = (item.result_id ? byResultId.get(item.result_id) : undefined) ?? (item.file_name ? byFileName.get(item.file_name) : undefined);
		if (document) outputs.get(document)!.push(item);
		else strayItems += 1;
	}
	const outcomes = documents.map((document) => ({
		document,
		uploads: stats.uploadsByHash[document.sha256]?.received ?? 0,
		resultId: resultIdByHash.get(document.sha256),
		outputs: outputs.get(document)!.map((item) => item.output),
		messages: outputs.get(document)!.flatMap((item) => (item.message ? [item.message] : [])),
		expectedOutput: expectedOutput(document),
	}));
	return { outcomes, strayItems };
}

/**
 * Documents per minute while the pipeline was full, from the sandbox's records.
 *
 * A document is one upload and at least one read, so each counts half when its upload arrives and
 * half when the read that found it finished arrives: a window then measures the work the key did
 * in it, whether the executions were mostly uploading or mostly reading then, and can never
 * exceed limit/2 per minute. The measure runs over whole rate-limit windows (the budget is per
 * minute, so part of a window would measure where in it the budget was spent): it leaves out the
 * first one (a minute from the key's first request, the first upload), in which the executions
 * started at once spend their first burst, and takes as many whole minutes as fit before the last
 * upload, after which the key idles while the last documents are processed.
 */
export function throughput(documents: SentDocument[], stats: SandboxStats, rateWindowMs = 60_000): ThroughputWindow & { docsPerMin: number } {
	const hashes = new Set(documents.map((document) => document.sha256));
	const uploads = stats.uploads.filter((upload) => upload.resultId && hashes.has(upload.sha256));
	if (uploads.length === 0) return { startsAt: 0, endsAt: 0, uploads: 0, completed: 0, docsPerMin: 0 };
	const firstUpload = Math.min(...uploads.map((upload) => upload.at));
	const lastUpload = Math.max(...uploads.map((upload) => upload.at));
	const startsAt = firstUpload + rateWindowMs;
	const wholeWindows = Math.floor((lastUpload - startsAt) / rateWindowMs);
	// A run too short for one whole window is measured up to its last upload (and says so by its length).
	const endsAt = wholeWindows >= 1 ? startsAt + wholeWindows * rateWindowMs : Math.max(startsAt, lastUpload);
	const inside = (at: number) => at >= startsAt && at < endsAt;
	let completed = 0;
	for (const upload of uploads) {
		const result = stats.results[upload.resultId!];
		if (!result || result.terminalAt === null) continue;
		const seenAt = result.reads.find((at) => at >= result.terminalAt!);
		if (seenAt !== undefined && inside(seenAt)) completed += 1;
	}
	const uploaded = uploads.filter((upload) => inside(upload.at)).length;
	const minutes = (endsAt - startsAt) / 60_000;
	return { startsAt, endsAt, uploads: uploaded, completed, docsPerMin: minutes > 0 ? (uploaded + completed) / 2 / minutes : 0 };
}

/** One of the key's rate-limit windows as the sandbox counts them: it opens with a request and runs a minute. */
export interface KeyWindow {
	startsAt: number;
	/** Uploads and result reads in it (other calls are not timed by the sandbox). */
	requests: number;
	/** Of those, reads that found their document still queued or processing. */
	pending: number;
	/** From its end to the request that opened the next window; undefined for the last. */
	idleAfterMs?: number;
}

/**
 * Where the key's budget went: its windows, each with the uploads and reads it counted and the
 * idle time before the next one. A window short of the limit had no work ready or held a margin;
 * idle time between windows is budget that waited for a window to end.
 */
export function keyWindows(stats: SandboxStats, rateWindowMs = 60_000): KeyWindow[] {
	const requests = [
		...stats.uploads.map((upload) => ({ at: upload.at, pending: false })),
		...Object.values(stats.results).flatMap((result) => result.reads.map((at) => ({ at, pending: isPending(result, at) }))),
	].sort((a, b) => a.at - b.at);
	const windows: KeyWindow[] = [];
	for (const { at, pending } of requests) {
		const current = windows.at(-1);
		if (current && at < current.startsAt + rateWindowMs) {
			current.requests += 1;
			if (pending) current.pending += 1;
			continue;
		}
		if (current) current.idleAfterMs = at - (current.startsAt + rateWindowMs);
		windows.push({ startsAt: at, requests: 1, pending: pending ? 1 : 0 });
	}
	return windows;
}

/** A read that found its document still queued or processing: a request the key spent on nothing. */
export interface PendingRead {
	at: number;
	pages: number;
	/** Ms after the upload: when the read came, and when the document was done. */
	readAfterMs: number;
	doneAfterMs: number;
	/** The document's first read (else a read again after one that found it pending). */
	first: boolean;
}

export function pendingReads(stats: SandboxStats): PendingRead[] {
	return Object.values(stats.results).flatMap((result) =>
		result.reads
			.map((at, index) => ({ at, index }))
			.filter(({ at }) => isPending(result, at))
			.map(({ at, index }) => ({ at, pages: result.pages, readAfterMs: at - result.createdAt, doneAfterMs: result.terminalAt! - result.createdAt, first: index === 0 })),
	);
}

/** A read before the document's end (one that never ends, a fault, is not counted). */
function isPending(result: SandboxStats['results'][string], at: number): boolean {
	return result.terminalAt !== null && at < result.terminalAt;
}

/** The run's figures; `loadDocuments` are the ones the throughput is measured on. */
export function scaleFigures(outcomes: DocumentOutcome[], strayItems: number, stats: SandboxStats, loadDocuments: SentDocument[], rateLimitPerMinute: number): ScaleFigures {
	const once = (outcome: DocumentOutcome) => outcome.outputs.length === 1;
	const { docsPerMin, ...window } = throughput(loadDocuments, stats);
	return {
		docs: outcomes.length,
		deliveredOnce: outcomes.filter((outcome) => once(outcome) && outcome.outputs[0] === outcome.expectedOutput).length,
		lost: outcomes.filter((outcome) => outcome.outputs.length === 0).length,
		duplicateOutputs: outcomes.reduce((sum, outcome) => sum + Math.max(0, outcome.outputs.length - 1), 0),
		wrongOutput: outcomes.filter((outcome) => once(outcome) && outcome.outputs[0] !== outcome.expectedOutput).length,
		duplicateUploads: outcomes.reduce((sum, outcome) => sum + Math.max(0, outcome.uploads - 1), 0),
		strayItems,
		requests: totalRequests(stats),
		http429: stats.rateLimited,
		docsPerMin,
		boundDocsPerMin: boundDocsPerMinute(rateLimitPerMinute),
		window,
	};
}

export interface Check {
	/** Short and stable, for tests. */
	id: string;
	name: string;
	ok: boolean;
	detail: string;
}

/** Issue 14's targets. */
export const TARGETS = { max429Share: 0.01, minShareOfBound: 0.85 } as const;

/** The checks every run must pass, from the figures and the documents' outcomes. */
export function scaleChecks(figures: ScaleFigures, outcomes: DocumentOutcome[]): Check[] {
	const misfits = outcomes.filter((outcome) => outcome.outputs.length !== 1 || outcome.outputs[0] !== outcome.expectedOutput || outcome.uploads !== 1);
	const examples = misfits
		.slice(0, 5)
		.map(
			(outcome) =>
				`${outcome.document.fileName}: uploaded ${outcome.uploads}x, out on [${outcome.outputs.join(', ')}], expected ${outcome.expectedOutput}` +
				(outcome.messages.length ? ` ("${outcome.messages[0]}")` : ''),
		)
		.join('; ');
	const share429 = figures.requests === 0 ? 0 : figures.http429 / figures.requests;
	const shareOfBound = figures.docsPerMin / figures.boundDocsPerMin;
	const windowMs = figures.window.endsAt - figures.window.startsAt;
	return [
		{
			id: 'exactly-once',
			name: 'every document came out exactly once, on the right output',
			ok: figures.deliveredOnce === figures.docs && figures.strayItems === 0,
			detail: `${figures.deliveredOnce}/${figures.docs}; lost ${figures.lost}, delivered twice ${figures.duplicateOutputs}, wrong output ${figures.wrongOutput}, stray items ${figures.strayItems}${examples ? `. ${examples}` : ''}`,
		},
		{
			id: 'no-duplicate-upload',
			name: 'no upload was sent twice',
			ok: figures.duplicateUploads === 0 && outcomes.every((outcome) => outcome.uploads === 1),
			detail: `${figures.duplicateUploads} duplicate uploads, ${outcomes.filter((outcome) => outcome.uploads === 0).length} documents never uploaded`,
		},
		{
			id: 'http-429',
			name: `HTTP 429s at most ${TARGETS.max429Share * 100} % of requests`,
			ok: share429 <= TARGETS.max429Share,
			detail: `${figures.http429} of ${figures.requests} (${(share429 * 100).toFixed(2)} %)`,
		},
		{
			id: 'throughput',
			name: `throughput at least ${TARGETS.minShareOfBound * 100} % of the rate-limit bound`,
			ok: shareOfBound >= TARGETS.minShareOfBound && windowMs >= 60_000,
			detail:
				`${figures.docsPerMin.toFixed(1)} documents/min = ${(shareOfBound * 100).toFixed(1)} % of ${figures.boundDocsPerMin} ` +
				`(${figures.window.uploads} uploads and ${figures.window.completed} finished documents read in ${(windowMs / 1000).toFixed(0)} s)` +
				(windowMs < 60_000 ? '; too short to measure: the load run needs at least two minutes of uploads (more --docs)' : ''),
		},
	];
}
