import { REUSE_DAYS } from '../limits';
import { waitFor } from '../wait';
import { countingDays, dayNamed, proofOf } from './dayProofs';
import type { MarkSession } from './markRow';

/**
 * What was charged, marked in n8n's own database (markRow.ts) so that another n8n process (a
 * queue-mode worker, n8n after a restart) knows a document was extracted already. The row keeps
 * hashes only, so a mark can only say "this document was extracted" (its extracted mark), "...
 * on this day (UTC)" (a day mark) or "this document, being uploaded in this ten-minute slot" (a
 * claim). Looking for the last REUSE_DAYS + 1 days' marks tells when it was first extracted.
 *
 * The helpers can only check by recording, so a look-up records every mark it asks about and
 * takes back at once what it added; in n8n's unlocked row another write at the same moment can
 * put those by-products back, for good. So a look-up first asks only for the claims and the
 * extracted mark, and asks for day marks only when the extracted mark was there: a new document
 * (the usual case) leaves no day behind that could later pass for an extraction, and an extracted
 * mark alone is no extraction (it stays, written by the look-up that claims the upload; an upload
 * that then fails leaves it harmlessly). A day other than today that this look-up found missing
 * cannot have been written since, so it is never believed afterwards. And a day mark counts only
 * beside its proof (dayProofs.ts), which no look-up adds unless the day is held: a look-up's
 * by-products put back for good by a lost removal never pass for the first day.
 *
 * Its claims stand beside the marks it added until then: a look-up that finds a live claim never
 * believes the days beside it, and waits for the claim to end instead (the document is being
 * uploaded, or looked up, elsewhere).
 *
 * A claim is not an extraction: a day mark is written only once the service accepted the upload,
 * and a claim whose process died (a worker killed during its upload) stops counting after the
 * longest time an upload can take (rate-limit waits, retries of a busy service, the request).
 *
 * Scope "workflow", so that the Poller or Get Result of the same workflow can take a mark away when
 * the document's result ended in `error` (a document key names the uploading node).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim counts in its slot and the next one: 10 to 20 minutes, past the longest upload. */
const CLAIM_SLOT_MS = 10 * 60 * 1000;
/** Between look-ups of a document claimed elsewhere: its upload usually takes seconds. */
const CLAIM_WAIT_MS = { first: 1_000, max: 15_000 };
/**
 * A look-up's by-products last a few database round trips; a claim still beside a day mark after
 * this long belongs to an extraction that finished but whose claim's removal was lost.
 */
const CLAIM_BESIDE_MARK_MS = 10_000;

function dayOf(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** Written with the first claim of a document, kept with its day marks: day marks are asked for only then. */
function extractedMark(documentKey: string): string {
	return `${documentKey}#extracted`;
}

function dayMark(documentKey: string, ms: number): string {
	return `${documentKey}@${dayOf(ms)}`;
}

/** The day marks a document may have, oldest day first. */
function dayMarks(documentKey: string, now: number): string[] {
	return Array.from({ length: REUSE_DAYS + 1 }, (_, back) => dayMark(documentKey, now - (REUSE_DAYS - back) * DAY_MS));
}

/** The claims that count now: this slot's and the one before. */
function liveClaims(documentKey: string, now: number): [current: string, previous: string] {
	const slot = Math.floor(now / CLAIM_SLOT_MS);
	return [`${documentKey}#claim@${slot}`, `${documentKey}#claim@${slot - 1}`];
}

export type MarkLookup =
	/** Extracted before, first on this day (YYYY-MM-DD). */
	| { firstDay: string }
	/** Not extracted: `claimed` when this run now holds the document's claim (the caller uploads). */
	| { firstDay?: undefined; claimed: boolean };

/** Looks for the document's marks, waiting while another process holds its claim. */
export async function findMark(session: MarkSession, documentKey: string, signal?: AbortSignal, clock: () => number = Date.now): Promise<MarkLookup> {
	const extracted = extractedMark(documentKey);
	const missingPastDays = new Set<string>();
	let waitedBesideMark = 0;
	for (let pause = CLAIM_WAIT_MS.first; ; pause = Math.min(pause * 2, CLAIM_WAIT_MS.max)) {
		const now = clock();
		const claims = liveClaims(documentKey, now);
		const probe = await session.record([...claims, extracted]);
		if (!probe) return { claimed: false };
		// The extracted mark stays whatever comes: alone, it says nothing.
		const byProducts = probe.added.filter((value) => value !== extracted);
		const claimedElsewhere = claims.some((claim) => probe.held.has(claim));
		let firstDay: string | undefined;
		if (probe.held.has(extracted)) {
			const days = await findDays(session, documentKey, now, missingPastDays);
			if (!days) return { claimed: false };
			firstDay = days.firstDay;
			byProducts.push(...days.added);
		}
		if (claimedElsewhere || firstDay) {
			await session.remove(byProducts);
			if (!claimedElsewhere || (firstDay && waitedBesideMark >= CLAIM_BESIDE_MARK_MS)) return { firstDay: firstDay as string };
			const waited = pause * (0.75 + Math.random() / 2);
			await waitFor(waited, signal);
			waitedBesideMark = firstDay ? waitedBesideMark + waited : 0;
			continue;
		}
		// Not extracted: this slot's claim stays (until the mark of the upload holds), the rest goes now.
		await session.remove(byProducts.filter((value) => value !== claims[0]));
		session.removeAtSettle([claims[0]]);
		return { claimed: true };
	}
}

/**
 * The first day the document's day marks name, and what asking added. `missingPastDays` collects
 * the days before today found missing, across the look-up's rounds: they are never believed after.
 * A day counts only with its proof (dayProofs.ts): a look-up's by-products put back have none.
 */
async function findDays(session: MarkSession, documentKey: string, now: number, missingPastDays: Set<string>): Promise<{ firstDay?: string; added: string[] } | undefined> {
	const days = dayMarks(documentKey, now);
	const probe = await session.record(days);
	if (!probe) return undefined;
	const today = days[days.length - 1];
	const held = days.filter((day) => probe.held.has(day) && !missingPastDays.has(day));
	for (const day of probe.added) if (day !== today) missingPastDays.add(day);
	const counting = await countingDays(session, [held], new Set([today]));
	if (!counting) return undefined;
	const first = counting.first[0];
	return { firstDay: first && dayNamed(first), added: [...probe.added, ...counting.byProducts] };
}

/** Marks the document as extracted today; the session makes the mark hold. */
export async function markExtracted(session: MarkSession, documentKey: string, now = Date.now()): Promise<void> {
	const day = dayMark(documentKey, now);
	await session.keep([extractedMark(documentKey), day, proofOf(day)]);
}

/** Takes the document's marks and claims away: its result ended in error, or its claimed upload was refused. */
export async function unmark(session: MarkSession, documentKey: string, now = Date.now()): Promise<void> {
	const days = dayMarks(documentKey, now);
	await session.remove([extractedMark(documentKey), ...days, ...days.map(proofOf), ...liveClaims(documentKey, now)]);
}
