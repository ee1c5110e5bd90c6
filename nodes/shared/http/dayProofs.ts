import type { MarkSession } from './markRow';

/**
 * Day marks (a document extracted, an invoice seen, on a day) are asked for by recording them all,
 * and what that added is taken back; in n8n's unlocked row a write at the same moment can put
 * those by-products back for good, and a day a week early would then pass for the first one. So a
 * day mark that counts is written with its proof, a value no look-up asks for unless the day mark
 * is held: a by-product put back has none. Asking for the proofs of the held days records them too
 * (what that added is taken back as well); a day wrongly believed then needs two lost removals in a
 * row, of the day and of its proof.
 */

/** The value written beside a day mark that counts. */
export function proofOf(dayMark: string): string {
	return `${dayMark}#proof`;
}

/** The day (YYYY-MM-DD) a day mark (`...@YYYY-MM-DD`) names. */
export function dayNamed(dayMark: string): string {
	return dayMark.slice(dayMark.lastIndexOf('@') + 1);
}

export interface CountingDays {
	/** Per series, the day mark that counts first (oldest), or undefined when none is held. */
	first: Array<string | undefined>;
	/** What asking added, and held day marks of the past shown to be by-products: to be taken away. */
	byProducts: string[];
}

/**
 * The first day mark that counts in each series (one document's or one invoice key's held day
 * marks, oldest first), asking for all their proofs in one call. In a series where no held mark
 * has its proof, the marks may have been written before proofs were (earlier versions of this
 * node): the oldest is believed, as those did. Where one has, the others of the past without
 * proof are by-products put back, and go. `today` names today's day marks: one without proof may
 * be being written now, so it is never taken away.
 */
export async function countingDays(session: MarkSession, series: string[][], today: Set<string>): Promise<CountingDays | undefined> {
	const held = series.flat();
	if (held.length === 0) return { first: series.map(() => undefined), byProducts: [] };
	const probe = await session.record(held.map(proofOf));
	if (!probe) return undefined;
	const byProducts = [...probe.added];
	const first = series.map((marks) => {
		const proven = marks.filter((mark) => probe.held.has(proofOf(mark)));
		if (proven.length === 0) return marks[0];
		byProducts.push(...marks.filter((mark) => !proven.includes(mark) && !today.has(mark)));
		return proven[0];
	});
	return { first, byProducts };
}
