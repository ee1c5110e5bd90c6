/**
 * The marks in n8n's database, over a store with the flaws of n8n's own (one row per workflow,
 * read and written back whole with no lock): what a look-up finds, what it leaves behind, the day
 * it reports, a claim whose process died, and marks written at the same moment.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { findMark, markExtracted, unmark } from '../../nodes/shared/http/chargeMarks';
import { MARK_TIMING, MarkSession } from '../../nodes/shared/http/markRow';
import { deduplicationStore, nodeWithDeduplication } from '../harness/deduplication';
import { N8N_SETTLE_MS } from '../harness/markTiming.setup';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-26T10:00:00Z');
const at = (ms: number) => () => ms;

const session = (workflowId: string) => new MarkSession(nodeWithDeduplication(workflowId));
const rowSize = (workflowId: string) => deduplicationStore().rowSize(workflowId);
/** A run whose every removal is lost (another write at the same moment put the values back). */
const losingRemovals = (workflowId: string) => {
	const ctx = nodeWithDeduplication(workflowId);
	return new MarkSession({ ...ctx, helpers: { ...ctx.helpers, removeProcessed: async () => {} } } as IExecuteFunctions);
};
const dayMarkHeld = (workflowId: string, documentKey: string, day: string) => deduplicationStore().holds(workflowId, `${documentKey}@${day}`);

/** One run that extracts the document at `now`: look-up, upload accepted, mark, settle. */
async function extractedBy(workflowId: string, documentKey: string, now: number): Promise<void> {
	const run = session(workflowId);
	expect(await findMark(run, documentKey, undefined, at(now))).toEqual({ claimed: true });
	await markExtracted(run, documentKey, now);
	await run.settle();
}

describe('charge marks', () => {
	it('a first look-up claims the document; once extracted, the row holds its extracted mark, day mark and the proof of that day alone, and the next look-up finds that day', async () => {
		const run = session('wf-marks-1');
		expect(await findMark(run, 'doc-a', undefined, at(NOW))).toEqual({ claimed: true });
		expect(rowSize('wf-marks-1'), 'the claim and the extracted mark, nothing else the look-up recorded').toBe(2);
		await markExtracted(run, 'doc-a', NOW);
		await run.settle();
		expect(rowSize('wf-marks-1'), 'the claim went once the marks held').toBe(3);
		expect(dayMarkHeld('wf-marks-1', 'doc-a', '2026-11-26')).toBe(true);

		const later = session('wf-marks-1');
		expect(await findMark(later, 'doc-a', undefined, at(NOW + 3 * DAY))).toEqual({ firstDay: '2026-11-26' });
		await later.settle();
		expect(rowSize('wf-marks-1'), 'the look-up took back what it recorded').toBe(3);
	});

	it('a claim is not an extraction: a process that died during its upload leaves no duplicate behind', async () => {
		// The process claims, starts its upload and is killed: no mark, no settle.
		expect(await findMark(session('wf-marks-dead'), 'doc-dead', undefined, at(NOW))).toEqual({ claimed: true });
		// Three hours later, another process meets the document: not extracted, so it claims and uploads.
		expect(await findMark(session('wf-marks-dead'), 'doc-dead', undefined, at(NOW + 3 * 60 * 60 * 1000))).toEqual({ claimed: true });
	});

	it('a document claimed elsewhere is waited for, and reported with the day its extraction was marked', async () => {
		const holder = session('wf-marks-wait');
		expect(await findMark(holder, 'doc-w', undefined, at(NOW))).toEqual({ claimed: true });
		const waiting = findMark(session('wf-marks-wait'), 'doc-w', undefined, at(NOW + 1000));
		let answered = false;
		void waiting.then(() => (answered = true));
		await sleep(300);
		expect(answered, 'still waiting while the claim stands').toBe(false);
		await markExtracted(holder, 'doc-w', NOW);
		await holder.settle();
		expect(await waiting).toEqual({ firstDay: '2026-11-26' });
	});

	it('a mark counts for 7 days after its day, then no more', async () => {
		await extractedBy('wf-marks-2', 'doc-c', NOW);
		expect(await findMark(session('wf-marks-2'), 'doc-c', undefined, at(NOW + 7 * DAY))).toEqual({ firstDay: '2026-11-26' });
		expect(await findMark(session('wf-marks-2'), 'doc-c', undefined, at(NOW + 8 * DAY))).toEqual({ claimed: true });
	});

	it('reports the earliest day among several marks, and unmark takes them all away', async () => {
		const run = session('wf-marks-3');
		await markExtracted(run, 'doc-d', NOW - 2 * DAY);
		await markExtracted(run, 'doc-d', NOW);
		await run.settle();
		expect(await findMark(session('wf-marks-3'), 'doc-d', undefined, at(NOW))).toEqual({ firstDay: '2026-11-24' });
		const forget = session('wf-marks-3');
		await unmark(forget, 'doc-d', NOW);
		await forget.settle();
		expect(rowSize('wf-marks-3')).toBe(0);
		expect(await findMark(session('wf-marks-3'), 'doc-d', undefined, at(NOW))).toEqual({ claimed: true });
	});

	it('a new document\'s look-up records no day mark: when its removals are lost, nothing is left that passes for an extraction', async () => {
		const run = losingRemovals('wf-marks-new');
		expect(await findMark(run, 'doc-n', undefined, at(NOW))).toEqual({ claimed: true });
		for (let back = 0; back <= 7; back++) expect(dayMarkHeld('wf-marks-new', 'doc-n', new Date(NOW - back * DAY).toISOString().slice(0, 10))).toBe(false);
	});

	it('a past day a look-up found missing is never believed after, though a lost removal put it back', async () => {
		const holder = session('wf-marks-lost');
		expect(await findMark(holder, 'doc-l', undefined, at(NOW))).toEqual({ claimed: true });
		// The waiting look-up finds the claim and the extracted mark, asks for the days (none yet),
		// and every removal of what it added is lost: all 8 days stand in the row from then on.
		const waiting = findMark(losingRemovals('wf-marks-lost'), 'doc-l', undefined, at(NOW + 1000));
		await sleep(300);
		await markExtracted(holder, 'doc-l', NOW);
		await holder.settle();
		expect(dayMarkHeld('wf-marks-lost', 'doc-l', '2026-11-19'), 'the lost removal left the look-up\'s oldest day').toBe(true);
		expect(await waiting).toEqual({ firstDay: '2026-11-26' });
	});

	it('days a lost removal put back never pass for the first day: only a day written with its proof counts, and the others go', async () => {
		await extractedBy('wf-marks-back', 'doc-b', NOW);
		// A look-up the next day asks for the days and every removal of what it added is lost: from
		// then on the row holds the 7 days around the real one, as if each had been an extraction.
		expect(await findMark(losingRemovals('wf-marks-back'), 'doc-b', undefined, at(NOW + DAY))).toEqual({ firstDay: '2026-11-26' });
		expect(dayMarkHeld('wf-marks-back', 'doc-b', '2026-11-20'), 'the lost removal left the look-up\'s days').toBe(true);

		const later = session('wf-marks-back');
		expect(await findMark(later, 'doc-b', undefined, at(NOW + 2 * DAY))).toEqual({ firstDay: '2026-11-26' });
		await later.settle();
		// What it looked at without proof went; the one day before its window stays, and ages out.
		for (const day of ['2026-11-21', '2026-11-25', '2026-11-27']) expect(dayMarkHeld('wf-marks-back', 'doc-b', day), day).toBe(false);
		// The marks, the lost look-up's two claims (they count for nobody a day later) and that day.
		expect(rowSize('wf-marks-back')).toBe(3 + 2 + 1);
	});

	it('days written before proofs were (an earlier version of the node) still count', async () => {
		const run = session('wf-marks-old');
		await run.record(['doc-o#extracted', 'doc-o@2026-11-24']);
		expect(await findMark(session('wf-marks-old'), 'doc-o', undefined, at(NOW))).toEqual({ firstDay: '2026-11-24' });
	});

	it('without n8n\'s deduplication helpers, nothing is found and nothing fails', async () => {
		const run = new MarkSession({ helpers: {}, getExecutionCancelSignal: () => undefined } as unknown as IExecuteFunctions);
		expect(await findMark(run, 'doc-e', undefined, at(NOW))).toEqual({ claimed: false });
		await expect(markExtracted(run, 'doc-e', NOW)).resolves.toBeUndefined();
		await expect(unmark(run, 'doc-e', NOW)).resolves.toBeUndefined();
		await expect(run.settle()).resolves.toBe(0);
	});

	it('look-ups of one new document at the same moment never take another look-up\'s by-products for an extraction', async () => {
		for (let round = 0; round < 5; round++) {
			const workflowId = `wf-marks-same-${round}`;
			// Each upload is refused: the claim goes, and whoever waited for it looks again.
			const lookUp = async () => {
				const run = session(workflowId);
				const answer = await findMark(run, 'doc-new', undefined, at(NOW));
				await unmark(run, 'doc-new', NOW);
				await run.settle();
				return answer;
			};
			const answers = await Promise.all(Array.from({ length: 4 }, lookUp));
			for (const answer of answers) expect(answer.firstDay).toBeUndefined();
		}
	}, 120_000);

	it.each([8, 32])('%i runs marking different documents at the same moment: every mark holds', async (count) => {
		const workflowId = `wf-marks-load-${count}`;
		// The settle time n8n runs with: the shortened one is too short for 32 writers at once.
		const testSettleMs = MARK_TIMING.settleMs;
		MARK_TIMING.settleMs = N8N_SETTLE_MS;
		try {
			await Promise.all(Array.from({ length: count }, (_, i) => extractedBy(workflowId, `doc-${i}`, NOW)));
		} finally {
			MARK_TIMING.settleMs = testSettleMs;
		}
		const lost = Array.from({ length: count }, (_, i) => i).filter((i) => !dayMarkHeld(workflowId, `doc-${i}`, '2026-11-26'));
		expect(lost, 'documents whose mark was lost').toEqual([]);
		// Under load a claim's removals can all be lost (another write put it back each time): that
		// is all the row may hold beyond each document's three marks, and it delays nobody for long.
		const slot = Math.floor(NOW / (10 * 60 * 1000));
		const claimsLeft = Array.from({ length: count }, (_, i) => [slot, slot - 1].filter((s) => deduplicationStore().holds(workflowId, `doc-${i}#claim@${s}`)).length).reduce((a, b) => a + b, 0);
		expect(rowSize(workflowId), 'no look-up value left behind, only claims whose removals were lost').toBe(3 * count + claimsLeft);
		const firstDays = await Promise.all(Array.from({ length: count }, (_, i) => findMark(session(workflowId), `doc-${i}`, undefined, at(NOW + DAY))));
		expect(firstDays).toEqual(Array.from({ length: count }, () => ({ firstDay: '2026-11-26' })));
	}, 120_000);
});
