/** The marks in n8n's database: what a look-up finds, what it leaves behind, and the day it reports. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { findMark, markExtracted, unmark } from '../../nodes/shared/http/chargeMarks';
import { deduplicationStore } from '../harness/deduplication';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-26T10:00:00Z');

/** A node's helpers as n8n binds them: to this workflow and node. */
function contextOf(workflowId: string): IExecuteFunctions {
	const store = deduplicationStore();
	const context = { workflow: { id: workflowId, active: false }, node: { id: 'extract' } as never };
	return {
		helpers: {
			checkProcessedAndRecord: async (items: string[], scope: 'node' | 'workflow', options: never) => await store.checkProcessedAndRecord(items, scope, context, options),
			removeProcessed: async (items: string[], scope: 'node' | 'workflow') => await store.removeProcessed(items, scope, context),
		},
	} as unknown as IExecuteFunctions;
}

const rowSize = async (workflowId: string) => await deduplicationStore().getProcessedDataCount('workflow', { workflow: { id: workflowId, active: false } });

describe('charge marks', () => {
	it('a first look-up finds nothing and leaves only today\'s mark as a claim; the next one finds that day', async () => {
		const ctx = contextOf('wf-marks-1');
		expect(await findMark(ctx, 'doc-a', NOW)).toEqual({ firstDay: undefined, claimed: true });
		expect(await rowSize('wf-marks-1')).toBe(1);
		expect(await findMark(ctx, 'doc-a', NOW + 3 * DAY)).toEqual({ firstDay: '2026-11-26', claimed: false });
		expect(await rowSize('wf-marks-1'), 'the look-up took back what it recorded').toBe(1);
		expect(await findMark(ctx, 'doc-b', NOW)).toEqual({ firstDay: undefined, claimed: true });
	});

	it('a mark counts for 7 days after its day, then no more', async () => {
		const ctx = contextOf('wf-marks-2');
		await markExtracted(ctx, 'doc-c', NOW);
		expect((await findMark(ctx, 'doc-c', NOW + 7 * DAY)).firstDay).toBe('2026-11-26');
		expect((await findMark(ctx, 'doc-c', NOW + 8 * DAY)).firstDay).toBeUndefined();
	});

	it('reports the earliest day among several marks, and unmark takes them all away', async () => {
		const ctx = contextOf('wf-marks-3');
		await markExtracted(ctx, 'doc-d', NOW - 2 * DAY);
		await markExtracted(ctx, 'doc-d', NOW);
		expect((await findMark(ctx, 'doc-d', NOW)).firstDay).toBe('2026-11-24');
		await unmark(ctx, 'doc-d', NOW);
		expect(await rowSize('wf-marks-3')).toBe(0);
		expect((await findMark(ctx, 'doc-d', NOW)).firstDay).toBeUndefined();
	});

	it('without n8n\'s deduplication helpers, nothing is found and nothing fails', async () => {
		const ctx = { helpers: {} } as unknown as IExecuteFunctions;
		expect(await findMark(ctx, 'doc-e', NOW)).toEqual({ claimed: false });
		await expect(markExtracted(ctx, 'doc-e', NOW)).resolves.toBeUndefined();
		await expect(unmark(ctx, 'doc-e', NOW)).resolves.toBeUndefined();
	});
});
