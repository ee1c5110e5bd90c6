import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';

import { REUSE_DAYS } from '../limits';

/**
 * What was charged, marked in n8n's own database through its deduplication helpers (what the
 * Remove Duplicates node uses), so that another n8n process (a queue-mode worker, n8n after a
 * restart) knows a document was extracted already. The helpers keep hashes only, no value, so a
 * mark says "this document, on this day (UTC)": looking for the last REUSE_DAYS + 1 days' marks
 * tells when it was first extracted. They take no lock: two processes at the very same moment can
 * both miss each other's mark (a claim keeps that window to the database's round trip).
 *
 * Scope "workflow", so that the Poller or Get Result of the same workflow can take a mark away when
 * the document's result ended in `error` (a document key names the uploading node). A Remove
 * Duplicates node set to the workflow scope shares the row: in its own mode "entries" it may push
 * the oldest marks out; in another mode the helpers refuse our calls, and the marks are skipped.
 * Where n8n has no such database (a host without the helpers), they are skipped too and this
 * process's own memory is all there is.
 */

const SCOPE = 'workflow';
const OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };
const DAY_MS = 24 * 60 * 60 * 1000;

function dayOf(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** The marks a document may have, oldest day first, today last. */
function marks(documentKey: string, now: number): string[] {
	return Array.from({ length: REUSE_DAYS + 1 }, (_, back) => `${documentKey}@${dayOf(now - (REUSE_DAYS - back) * DAY_MS)}`);
}

export interface MarkLookup {
	/** The first day (YYYY-MM-DD) the document was marked, if it was. */
	firstDay?: string;
	/** Today's mark was left in place as a claim: the caller uploads now. */
	claimed: boolean;
}

/**
 * Looks for the document's marks. When none is found the caller uploads, and today's mark stays as
 * a claim, so another process that meets the document from now on sees it. The helpers can only
 * check by recording, so every other mark recorded by the look-up is taken away again.
 */
export async function findMark(ctx: IExecuteFunctions, documentKey: string, now = Date.now()): Promise<MarkLookup> {
	const values = marks(documentKey, now);
	try {
		const found = await ctx.helpers.checkProcessedAndRecord(values, SCOPE, OPTIONS);
		const processed = new Set(found.processed.map(String));
		const firstDay = values.find((value) => processed.has(value))?.split('@')[1];
		const claimed = firstDay === undefined;
		const undo = found.new.map(String).filter((value) => !(claimed && value === values[values.length - 1]));
		if (undo.length > 0) await ctx.helpers.removeProcessed(undo, SCOPE, OPTIONS);
		return { firstDay, claimed };
	} catch {
		return { claimed: false };
	}
}

/** Marks the document as extracted today (after an upload the look-up did not claim). */
export async function markExtracted(ctx: IExecuteFunctions, documentKey: string, now = Date.now()): Promise<void> {
	try {
		await ctx.helpers.checkProcessedAndRecord([marks(documentKey, now).pop() as string], SCOPE, OPTIONS);
	} catch {
		// No database for marks: this process's memory still knows the upload.
	}
}

/** Takes the document's marks away: its result ended in error, or a claimed upload was refused. */
export async function unmark(ctx: IExecuteFunctions, documentKey: string, now = Date.now()): Promise<void> {
	try {
		await ctx.helpers.removeProcessed(marks(documentKey, now), SCOPE, OPTIONS);
	} catch {
		// As above.
	}
}
