import type { SandboxStats } from '../../sandbox/src';

export interface PipelineFigures {
	docs: number;
	wallSeconds: number;
	docsPerMinute: number;
	requests: number;
	requestsPerDoc: number;
	http429: number;
	/** Seconds from the sandbox's terminal time to the first read that saw it; one per document. */
	emitDelays: number[];
	/** The shortest time between two reads of one result (ms), over all results; null when none was read twice. */
	closestReadsMs: number | null;
}

/** Requests the client sent (every route, whatever the answer) per document, from the sandbox's count. */
export function totalRequests(stats: SandboxStats): number {
	return Object.values(stats.requests).reduce((sum, count) => sum + count, 0) + stats.unknownPathRequests;
}

/**
 * The figures of one run, from the sandbox's own records: the delay of a document is the time
 * from its terminal state to the first read that arrived after it (that read saw the state).
 */
export function pipelineFigures(stats: SandboxStats, docs: number, wallMs: number): PipelineFigures {
	const emitDelays: number[] = [];
	let closestReadsMs = Infinity;
	for (const result of Object.values(stats.results)) {
		for (let i = 1; i < result.reads.length; i++) closestReadsMs = Math.min(closestReadsMs, result.reads[i] - result.reads[i - 1]);
		if (result.terminalAt === null) continue;
		const seenAt = result.reads.find((at) => at >= result.terminalAt!);
		if (seenAt !== undefined) emitDelays.push((seenAt - result.terminalAt) / 1000);
	}
	const requests = totalRequests(stats);
	return {
		docs,
		wallSeconds: wallMs / 1000,
		docsPerMinute: docs / (wallMs / 60_000),
		requests,
		requestsPerDoc: requests / docs,
		http429: stats.rateLimited,
		emitDelays,
		closestReadsMs: Number.isFinite(closestReadsMs) ? closestReadsMs : null,
	};
}

/** Runs of one scenario as one: wall time and requests per run (means); the 429s and delays of all of them; the closest reads of any. */
export function poolRuns(runs: PipelineFigures[]): PipelineFigures {
	const mean = (value: (figures: PipelineFigures) => number) => runs.reduce((sum, figures) => sum + value(figures), 0) / runs.length;
	const { docs } = runs[0];
	const [wallSeconds, requests] = [mean((f) => f.wallSeconds), mean((f) => f.requests)];
	const closest = runs.flatMap((f) => (f.closestReadsMs === null ? [] : [f.closestReadsMs]));
	return {
		docs,
		wallSeconds,
		docsPerMinute: docs / (wallSeconds / 60),
		requests,
		requestsPerDoc: requests / docs,
		http429: runs.reduce((sum, f) => sum + f.http429, 0),
		emitDelays: runs.flatMap((f) => f.emitDelays),
		closestReadsMs: closest.length > 0 ? Math.min(...closest) : null,
	};
}

/** The q-quantile (0..1) by linear interpolation; NaN for no data. */
export function quantile(values: number[], q: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const position = (sorted.length - 1) * q;
	const low = Math.floor(position);
	const high = Math.ceil(position);
	return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}
