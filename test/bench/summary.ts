/**
 * What `npm run bench` ends with: the one-line summary, and whether the run may be trusted. A
 * run fails (non-zero exit) on a document this package did not finish, on a failure of its
 * workflow, on a scenario without figures for this package or a peer, and on a summary line that
 * lacks a figure its scenarios should have given ('-'), so the benchmark cannot break silently.
 */
import type { UploadMemory } from './memory';
import { quantile, type PipelineFigures } from './metrics';
import type { ScenarioKey } from './options';
import { PEER_NAMES, PEER_STYLES, type PeerName } from './peers';
import type { FlowRun } from './workflow';

export interface Scenario {
	key: Exclude<ScenarioKey, 'memory'>;
	title: string;
	docs: number;
	batch: number;
	lanes: number;
	requestsPerMinute: number;
	/** Runs of this package, each in a fresh sandbox: their figures are pooled (poolRuns). */
	repeats: number;
}

export interface ScenarioResult {
	scenario: Scenario;
	node: PipelineFigures;
	run: FlowRun;
	peers: Record<PeerName, PipelineFigures>;
}

/** What makes a run's figures untrustworthy, whatever they say: unfinished documents, failures, missing figures. */
export function runProblems(results: ScenarioResult[]): string[] {
	const problems: string[] = [];
	for (const { scenario, node, run, peers } of results) {
		const docs = scenario.docs * scenario.repeats;
		if (run.outputs[0] !== docs) problems.push(`${scenario.key}: this package finished ${run.outputs[0]} of ${docs} documents`);
		for (const failure of run.failures) problems.push(`${scenario.key}: ${failure}`);
		const columns: Array<[string, PipelineFigures | undefined]> = [['this package', node], ...PEER_NAMES.map((peer): [string, PipelineFigures | undefined] => [PEER_STYLES[peer].label, peers[peer]])];
		for (const [label, figures] of columns) {
			const known = figures !== undefined && [figures.wallSeconds, figures.requestsPerDoc, figures.docsPerMinute].every((value) => Number.isFinite(value) && value > 0);
			if (!known) problems.push(`${scenario.key}: no figures for ${label}`);
		}
	}
	return problems;
}

export interface SummaryField {
	key: string;
	value: string;
	/** The run's scenarios should have given this figure: a '-' here fails the run. */
	expected: boolean;
}

/** The one-line summary: the batch scenario's figures under the keys earlier runs printed, then the rest. */
export function summaryFields(results: ScenarioResult[], memory: UploadMemory | undefined, fast: boolean): SummaryField[] {
	const of = (key: ScenarioKey) => results.find((result) => result.scenario.key === key);
	const batch = of('batch');
	const single = of('single');
	const delay = (figures: PipelineFigures | undefined, q: number) => (fast || !figures ? '-' : fixed(quantile(figures.emitDelays, q), 2));
	const f = batch?.node;
	const peers = batch && PEER_NAMES.every((peer) => batch.peers[peer] !== undefined) ? batch.peers : undefined;
	const [ranBatch, ranSingle, ranMemory] = [batch !== undefined, single !== undefined, memory !== undefined];
	const fields: Array<[string, string, boolean]> = [
		['docs', f ? String(f.docs) : '-', ranBatch],
		['wall_s', f ? fixed(f.wallSeconds, 1) : '-', ranBatch],
		['docs_per_min', f ? fixed(f.docsPerMinute, 1) : '-', ranBatch],
		['bound_docs_per_min', batch ? fixed(batch.scenario.requestsPerMinute / 2, 1) : '-', ranBatch],
		['requests_per_doc', f ? fixed(f.requestsPerDoc, 2) : '-', ranBatch],
		['naive_requests_per_doc', peers ? fixed(peers.naive.requestsPerDoc, 2) : '-', ranBatch],
		['http_429', f ? String(f.http429) : '-', ranBatch],
		// Not printed with the fast timing (see the header).
		['emit_p50_s', delay(f, 0.5), ranBatch && !fast],
		['emit_p95_s', delay(f, 0.95), ranBatch && !fast],
		['single_emit_p50_s', delay(single?.node, 0.5), ranSingle && !fast],
		['single_emit_p95_s', delay(single?.node, 0.95), ranSingle && !fast],
		['best_peer_requests_per_doc', peers ? fixed(Math.min(...PEER_NAMES.map((peer) => peers[peer].requestsPerDoc)), 2) : '-', ranBatch],
		['rss_growth_mb', memory ? fixed(rssGrowthMb(memory), 0) : '-', ranMemory],
		['upload_mb', memory ? fixed(uploadMb(memory), 1) : '-', ranMemory],
	];
	return fields.map(([key, value, expected]) => ({ key, value, expected }));
}

export function rssGrowthMb(memory: UploadMemory): number {
	return memory.peakRssMb - memory.baselineRssMb;
}

/** Bytes uploaded, in the same MB (2^20) as the RSS figures. */
export function uploadMb(memory: UploadMemory): number {
	return (memory.uploads * memory.fileBytes) / (1024 * 1024);
}

/** The summary line and every reason to fail the run. */
export function summaryOf(results: ScenarioResult[], memory: UploadMemory | undefined, fast: boolean): { line: string; problems: string[] } {
	const fields = summaryFields(results, memory, fast);
	return {
		line: `bench: ${fields.map(({ key, value }) => `${key}=${value}`).join(' ')}`,
		problems: [...runProblems(results), ...fields.filter(({ value, expected }) => expected && value === '-').map(({ key }) => `summary lacks ${key}`)],
	};
}

export function fixed(value: number, digits: number): string {
	return Number.isFinite(value) ? value.toFixed(digits) : '-';
}
