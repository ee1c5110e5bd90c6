import { totalRequests } from '../bench/metrics';
import type { SandboxStats } from '../sandbox';
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
	const outputs = new Map<SentDocument, OutputName[]>(documents.map((document) => [document, []]));
	let strayItems = 0;
	for (const item of collected) {
		const document = (item.result_id ? byResultId.get(item.result_id) : undefined) ?? (item.file_name ? byFileName.get(item.file_name) : undefined);
		if (document) outputs.get(document)!.push(item.output);
		else strayItems += 1;
	}
	const outcomes = documents.map((document) => ({
		document,
		uploads: stats.uploadsByHash[document.sha256]?.received ?? 0,
		resultId: resultIdByHash.get(document.sha256),
		outputs: outputs.get(document)!,
		expectedOutput: expectedOutput(document),
	}));
	return { outcomes, strayItems };
}

/**
 * Documents per minute while the pipeline was full, from the sandbox's records: the window opens
 * one rate-limit window (a minute) after the first upload, when the executions started at once
 * have spent their first burst and reads and uploads share the key, and closes at the last upload,
 * after which the key idles while the last documents are processed. A document counts when the
 * read that found it finished arrived inside the window.
 */
export function throughput(documents: SentDocument[], stats: SandboxStats, rateWindowMs = 60_000): ThroughputWindow & { docsPerMin: number } {
	const hashes = new Set(documents.map((document) => document.sha256));
	const uploads = stats.uploads.filter((upload) => upload.resultId && hashes.has(upload.sha256));
	if (uploads.length === 0) return { startsAt: 0, endsAt: 0, completed: 0, docsPerMin: 0 };
	const firstUpload = Math.min(...uploads.map((upload) => upload.at));
	const endsAt = Math.max(...uploads.map((upload) => upload.at));
	const startsAt = Math.min(firstUpload + rateWindowMs, endsAt);
	let completed = 0;
	for (const upload of uploads) {
		const result = stats.results[upload.resultId!];
		if (!result || result.terminalAt === null) continue;
		const seenAt = result.reads.find((at) => at >= result.terminalAt!);
		if (seenAt !== undefined && seenAt >= startsAt && seenAt <= endsAt) completed += 1;
	}
	const minutes = (endsAt - startsAt) / 60_000;
	return { startsAt, endsAt, completed, docsPerMin: minutes > 0 ? completed / minutes : 0 };
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
		.map((outcome) => `${outcome.document.fileName}: uploaded ${outcome.uploads}x, out on [${outcome.outputs.join(', ')}], expected ${outcome.expectedOutput}`)
		.join('; ');
	const share429 = figures.requests === 0 ? 0 : figures.http429 / figures.requests;
	const shareOfBound = figures.docsPerMin / figures.boundDocsPerMin;
	return [
		{
			name: 'every document came out exactly once, on the right output',
			ok: figures.deliveredOnce === figures.docs && figures.strayItems === 0,
			detail: `${figures.deliveredOnce}/${figures.docs}; lost ${figures.lost}, delivered twice ${figures.duplicateOutputs}, wrong output ${figures.wrongOutput}, stray items ${figures.strayItems}${examples ? `. ${examples}` : ''}`,
		},
		{
			name: 'no upload was sent twice',
			ok: figures.duplicateUploads === 0 && outcomes.every((outcome) => outcome.uploads === 1),
			detail: `${figures.duplicateUploads} duplicate uploads, ${outcomes.filter((outcome) => outcome.uploads === 0).length} documents never uploaded`,
		},
		{
			name: `HTTP 429s at most ${TARGETS.max429Share * 100} % of requests`,
			ok: share429 <= TARGETS.max429Share,
			detail: `${figures.http429} of ${figures.requests} (${(share429 * 100).toFixed(2)} %)`,
		},
		{
			name: `throughput at least ${TARGETS.minShareOfBound * 100} % of the rate-limit bound`,
			ok: shareOfBound >= TARGETS.minShareOfBound,
			detail: `${figures.docsPerMin.toFixed(1)} documents/min = ${(shareOfBound * 100).toFixed(1)} % of ${figures.boundDocsPerMin} (${figures.window.completed} documents in ${((figures.window.endsAt - figures.window.startsAt) / 1000).toFixed(0)} s)`,
		},
	];
}
