import { describe, expect, it } from 'vitest';

import type { UploadMemory } from '../bench/memory';
import type { PipelineFigures } from '../bench/metrics';
import { parseBenchArgs } from '../bench/options';
import { PEER_NAMES, type PeerName } from '../bench/peers';
import { summaryOf, type Scenario, type ScenarioResult } from '../bench/summary';

/** `npm run bench` must fail, not print a summary of dashes, when a run went wrong (docs/benchmark.md, "The short run"). */

const figures = (overrides: Partial<PipelineFigures> = {}): PipelineFigures => ({
	docs: 10,
	wallSeconds: 18,
	docsPerMinute: 33.3,
	requests: 20,
	requestsPerDoc: 2,
	http429: 0,
	emitDelays: [0.5, 1, 1.5],
	closestReadsMs: 2000,
	...overrides,
});

const scenario = (key: Scenario['key']): Scenario => ({ key, title: key, docs: 10, batch: 5, lanes: 1, requestsPerMinute: 60, repeats: 1 });

const result = (key: Scenario['key'], overrides: Partial<ScenarioResult> = {}): ScenarioResult => ({
	scenario: scenario(key),
	node: figures(),
	run: { startedAt: 0, endedAt: 18_000, outputs: [10, 0, 0, 0], failures: [] },
	peers: Object.fromEntries(PEER_NAMES.map((peer) => [peer, figures()])) as Record<PeerName, PipelineFigures>,
	...overrides,
});

const memory: UploadMemory = { uploads: 10, fileBytes: 4_300_000, accepted: 10, seconds: 6, baselineRssMb: 266, peakRssMb: 320, baselineHeapMb: 57, peakHeapMb: 61 };
const all = (): ScenarioResult[] => [result('single'), result('batch'), result('paid'), result('shared')];

describe('bench summary: the run fails instead of breaking silently', () => {
	it('a complete fast run passes; its delays are dashes, as the fast timing does not print them', () => {
		const { line, problems } = summaryOf(all(), memory, true);
		expect(problems).toStrictEqual([]);
		expect(line).toMatch(/^bench: docs=10 wall_s=18\.0 docs_per_min=33\.3 bound_docs_per_min=30\.0 requests_per_doc=2\.00 naive_requests_per_doc=2\.00 http_429=0 emit_p50_s=- /);
		expect(line).toContain('rss_growth_mb=54 upload_mb=41.0');
	});

	it('a realistic run without delays fails: the summary lacks them', () => {
		const noDelays = all().map((r) => ({ ...r, node: figures({ emitDelays: [] }) }));
		expect(summaryOf(noDelays, memory, false).problems).toStrictEqual([
			'summary lacks emit_p50_s',
			'summary lacks emit_p95_s',
			'summary lacks single_emit_p50_s',
			'summary lacks single_emit_p95_s',
		]);
		expect(summaryOf(all(), memory, false).problems).toStrictEqual([]);
	});

	it('fails on unfinished documents, workflow failures and figures that are not numbers', () => {
		const results = [
			result('single', { run: { startedAt: 0, endedAt: 1, outputs: [9, 0, 0, 1], failures: ['extract: fetch failed'] } }),
			result('batch', { node: figures({ wallSeconds: NaN, docsPerMinute: NaN }) }),
			result('paid'),
			result('shared'),
		];
		const { line, problems } = summaryOf(results, memory, true);
		expect(problems).toStrictEqual([
			'single: this package finished 9 of 10 documents',
			'single: extract: fetch failed',
			'batch: no figures for this package',
			'summary lacks wall_s',
			'summary lacks docs_per_min',
		]);
		expect(line).toContain('wall_s=- docs_per_min=-');
	});

	it('fails when a peer has no figures (its process gave none)', () => {
		const peers = { ...result('batch').peers } as Partial<Record<PeerName, PipelineFigures>>;
		delete peers.naive;
		const results = [result('batch', { peers: peers as Record<PeerName, PipelineFigures> })];
		expect(summaryOf(results, undefined, true).problems).toStrictEqual([
			'batch: no figures for naive 2.5 s loop',
			'summary lacks naive_requests_per_doc',
			'summary lacks best_peer_requests_per_doc',
		]);
	});

	it('expects only the figures of the scenarios that ran (--only) and of the memory run when it ran', () => {
		expect(summaryOf([result('single')], undefined, true).problems).toStrictEqual([]);
		expect(summaryOf([result('single')], undefined, false).problems).toStrictEqual([]);
		expect(summaryOf([], undefined, false).problems).toStrictEqual([]);
	});
});

describe('bench options: --fast is the short run', () => {
	const defaults = { docs: 60, runs: 60, batch: 10 };
	const fast = { docs: 10, runs: 3, batch: 5 };

	it('takes the fast counts with --fast, the full ones without, and what the command line gives either way', () => {
		expect(parseBenchArgs([], defaults, fast)).toMatchObject({ fast: false, docs: 60, runs: 60, batch: 10 });
		expect(parseBenchArgs(['--fast'], defaults, fast)).toMatchObject({ fast: true, docs: 10, runs: 3, batch: 5 });
		expect(parseBenchArgs(['--fast', '--docs', '20'], defaults, fast)).toMatchObject({ fast: true, docs: 20, runs: 3, batch: 5 });
	});
});
