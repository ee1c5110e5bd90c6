import { describe, expect, it } from 'vitest';

import { emptyStats } from '../../sandbox/src/stats';
import type { SandboxStats } from '../../sandbox/src';
import { documentOutcomes, keyWindows, pendingReads, scaleChecks, scaleFigures, throughput, type SentDocument } from './checks';
import type { CollectedItem } from './collector';

/** The scale suite's checks on hand-made records: each must fail when its rule is broken. */

const MINUTE = 60_000;

function doc(n: number, overrides: Partial<SentDocument> = {}): SentDocument {
	return { fileName: `d${n}.pdf`, bytes: new Uint8Array(), sha256: `hash${n}`, pages: 1, expected: 'done', batch: 0, mode: 'poller', phase: 'load', ...overrides };
}

/** Records of documents uploaded once each at `uploadAt[i]`, finished 5 s later and read `readAfter` ms after that. */
function statsFor(documents: SentDocument[], uploadAt: (i: number) => number, readAfter = 1000): SandboxStats {
	const stats = emptyStats();
	documents.forEach((document, i) => {
		const at = uploadAt(i);
		const resultId = `r${i}`;
		stats.uploads.push({ at, endpoint: 'process', accountId: 'a', sha256: document.sha256, bytes: 1, filename: document.fileName, contentType: 'application/pdf', status: 202, resultId });
		stats.uploadsByHash[document.sha256] = { received: 1, accepted: 1 };
		stats.results[resultId] = { accountId: 'a', endpoint: 'process', pages: 1, createdAt: at, terminalAt: at + 5000, reads: [at + 5000 + readAfter] };
	});
	stats.requests.process = documents.length;
	stats.requests.getResult = documents.length;
	return stats;
}

function item(resultId: string, output: CollectedItem['output'], mode: CollectedItem['mode'] = 'poller'): CollectedItem {
	return { output, mode, execution: '1', result_id: resultId, file_name: null, message: null, at: 0 };
}

function checksOf(documents: SentDocument[], collected: CollectedItem[], stats: SandboxStats) {
	const { outcomes, strayItems } = documentOutcomes(documents, collected, stats);
	const figures = scaleFigures(outcomes, strayItems, stats, documents, 60);
	return { figures, checks: Object.fromEntries(scaleChecks(figures, outcomes).map((check) => [check.id, check])) };
}

describe('scale suite checks', () => {
	// 90 documents, one every 2 s: 30 per minute, the bound of a 60 requests/min key.
	const documents = Array.from({ length: 90 }, (_, i) => doc(i, i % 9 === 8 ? { expected: 'rejected' } : {}));
	const stats = statsFor(documents, (i) => i * 2000);
	const delivered = documents.map((document, i) => item(`r${i}`, document.expected === 'done' ? 'done' : 'rejected'));

	it('pass when every document came out once on its output, uploaded once, at the bound', () => {
		const { figures, checks } = checksOf(documents, delivered, stats);
		expect(Object.values(checks).every((check) => check.ok)).toBe(true);
		expect(figures.lost).toBe(0);
		// Whole windows from the second minute: uploads end at 178 s, so one window, 60..120 s.
		expect(figures.window.endsAt - figures.window.startsAt).toBe(MINUTE);
		expect(figures.docsPerMin).toBeCloseTo(30, 0);
	});

	it('a document on no output is lost; on two outputs, delivered twice; on the wrong one, misrouted', () => {
		const lost = checksOf(documents, delivered.slice(1), stats);
		expect(lost.figures.lost).toBe(1);
		expect(lost.checks['exactly-once'].ok).toBe(false);
		const twice = checksOf(documents, [...delivered, delivered[0]], stats);
		expect(twice.figures.duplicateOutputs).toBe(1);
		expect(twice.checks['exactly-once'].ok).toBe(false);
		const misrouted = checksOf(documents, [item('r8', 'done'), ...delivered.filter((entry) => entry.result_id !== 'r8')], stats);
		expect(misrouted.figures.wrongOutput).toBe(1);
		expect(misrouted.checks['exactly-once'].ok).toBe(false);
	});

	it('a rejected document of the Wait for Result workflow belongs on the error output', () => {
		const waitDocuments = documents.map((document) => ({ ...document, mode: 'wait' as const }));
		const waitItems = waitDocuments.map((document, i) => item(`r${i}`, document.expected === 'done' ? 'done' : 'error-output', 'wait'));
		expect(checksOf(waitDocuments, waitItems, stats).checks['exactly-once'].ok).toBe(true);
		expect(checksOf(waitDocuments, delivered, stats).checks['exactly-once'].ok).toBe(false);
	});

	it('an upload received twice fails, whatever came out', () => {
		const twice = structuredClone(stats);
		twice.uploadsByHash.hash3 = { received: 2, accepted: 2 };
		const { figures, checks } = checksOf(documents, delivered, twice);
		expect(figures.duplicateUploads).toBe(1);
		expect(checks['no-duplicate-upload'].ok).toBe(false);
	});

	it('429s over 1 % of requests fail', () => {
		const limited = structuredClone(stats);
		limited.rateLimited = 2;
		limited.requests.getResult += 2;
		expect(checksOf(documents, delivered, limited).checks['http-429'].ok).toBe(false);
		limited.rateLimited = 1;
		expect(checksOf(documents, delivered, limited).checks['http-429'].ok).toBe(true);
	});

	it('throughput below 85 % of the bound fails, and so does a run too short to measure', () => {
		const slow = statsFor(documents, (i) => i * 2500);
		expect(throughput(documents, slow).docsPerMin).toBeCloseTo(24, 0);
		expect(checksOf(documents, delivered, slow).checks.throughput.ok).toBe(false);
		const short = documents.slice(0, 40);
		expect(checksOf(short, delivered.slice(0, 40), statsFor(short, (i) => i * 2000)).checks.throughput.ok).toBe(false);
	});
});

describe('the key\'s windows', () => {
	it('open with the first request after the last one ended, counting uploads and reads, with the idle time between', () => {
		// Uploads at 0, 1 and 2 s, each read 6 s later; a window from 0 to 60 s, then one from 61.5 s.
		const stats = statsFor([doc(1), doc(2), doc(3)], (i) => i * 1000);
		stats.uploads.push({ ...stats.uploads[0], at: 61_500, resultId: null, status: 429 });

		expect(keyWindows(stats)).toEqual([
			{ startsAt: 0, requests: 6, pending: 0, idleAfterMs: 1500 },
			{ startsAt: 61_500, requests: 1, pending: 0 },
		]);
	});

	it('count the reads that came before their document was done', () => {
		const stats = statsFor([doc(1), doc(2)], (i) => i * 1000);
		const [first] = Object.values(stats.results);
		first.reads.unshift(first.createdAt + 1000);

		expect(keyWindows(stats).map((window) => window.pending)).toEqual([1]);
		expect(pendingReads(stats)).toEqual([expect.objectContaining({ pages: first.pages, readAfterMs: 1000, first: true })]);
	});
});
