import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { countingDays, dayNamed, proofOf } from '../http/dayProofs';
import { MarkSession } from '../http/markRow';
import { lookups, invoiceKeys, type DuplicateLevel, type InvoiceFacts, type KeyParts } from './invoiceKey';

/**
 * The duplicate-invoice check: an invoice's keys (invoiceKey.ts) looked up among the workflow's
 * earlier extractions, then recorded, in the row of n8n's database that holds the charge marks
 * (markRow.ts: scope workflow, read-then-write with no lock, made to hold when the run settles).
 * As for the charge marks (chargeMarks.ts), a key has a seen mark and one mark per day (UTC) it
 * was seen, so that the last INVOICE_DAYS + 1 days' marks tell the day it was first seen; the row
 * holds hashes only, so another n8n process can only learn that day. This process also remembers
 * the first document's result ID and file name, and says them.
 *
 * A document is known by its upload's `document_key` (the same file through the same node) or
 * else its result ID: a document checked before (the same file reused, a Poller reading the
 * receipt again, a Retry) says what its first check said, and never flags itself. Its verdict is
 * in the row too (a checked mark, and one value per level), for another process.
 *
 * The helpers can only check by recording, and a write at the same moment can put back what a
 * look-up took away. So a look-up asks first for the seen marks and the checked mark only (those
 * of the document's own keys are true from then on and stay), and asks for day marks and levels
 * in a second call only for what the first found: a new invoice, the usual case, leaves no day or
 * level behind that a lost removal could turn into a false duplicate. A day mark counts only
 * beside its proof (dayProofs.ts), written with it: days a lost removal put back have none.
 */

/** How many days back an invoice is looked for (a reminder comes after a 30-day payment term). */
export const INVOICE_DAYS = 35;
/** Entries this process remembers (first documents, verdicts), the oldest forgotten first. */
const MEMORY_ENTRIES = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const LEVELS = ['none', 'possible', 'likely'] as const;

export interface InvoiceVerdict {
	level: DuplicateLevel | null;
	/** The day (YYYY-MM-DD, UTC) the matching invoice was first seen. */
	firstSeen: string | null;
	/** The first document's result ID and file name, when this n8n process extracted it. */
	resultId: string | null;
	fileName: string | null;
}

/** What the check says of one document besides its facts. */
export interface CheckedDocument {
	/** The upload's document_key, else the result ID. */
	identity: string;
	resultId: string;
	fileName: string | null;
}

interface FirstSeen {
	day: string;
	resultId: string;
	fileName: string | null;
}

const NOT_A_DUPLICATE: InvoiceVerdict = {
	level: null,
	firstSeen: null,
	resultId: null,
	fileName: null,
};

/** Keys (hashed) -> the first document seen with it, in this process. */
const firstSeen = new Map<string, FirstSeen>();
/** Document identities -> their verdict, in this process. */
const verdicts = new Map<string, Promise<InvoiceVerdict>>();

/** Forgets what this process remembers, as a restart does (tests). */
export function forgetInvoiceMemory(): void {
	firstSeen.clear();
	verdicts.clear();
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
	map.set(key, value);
	if (map.size > MEMORY_ENTRIES) map.delete(map.keys().next().value as string);
}

function hash(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 40);
}

function dayOf(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** The days looked at, oldest first. */
function days(now: number): string[] {
	return Array.from({ length: INVOICE_DAYS + 1 }, (_, back) => dayOf(now - (INVOICE_DAYS - back) * DAY_MS));
}

const keyMark = (hashed: string, day: string) => `invoice:${hashed}@${day}`;
const seenMark = (hashed: string) => `invoice:${hashed}#seen`;
const checkedMark = (identity: string) => `invoice-document:${hash(identity)}#checked`;
const documentMark = (identity: string, level: (typeof LEVELS)[number]) => `invoice-document:${hash(identity)}#${level}`;

/**
 * One run's checks (one execution of a node): each in turn, their marks made to hold by settle().
 */
export class InvoiceCheck {
	private readonly session: MarkSession;

	private queue: Promise<unknown> = Promise.resolve();

	/** Keys and documents are the workflow's, as the row that holds them (this process remembers every workflow's). */
	private readonly workflow: string;

	constructor(
		ctx: IExecuteFunctions,
		private readonly clock: () => number = Date.now,
	) {
		this.session = new MarkSession(ctx);
		this.workflow = JSON.stringify(ctx.getWorkflow().id ?? '');
	}

	/** The verdict on one document; never throws (the check is advice: a failed look-up says nothing). */
	async check(document: CheckedDocument, facts: InvoiceFacts, parts: KeyParts): Promise<InvoiceVerdict> {
		const identity = `${this.workflow} ${document.identity}`;
		const known = verdicts.get(identity);
		if (known) return await known;
		const verdict = this.decide(document, facts, parts);
		remember(verdicts, identity, verdict);
		return await verdict;
	}

	/** Makes the run's records hold; says how many could not be made to. */
	async settle(): Promise<number> {
		await this.queue.catch(() => undefined);
		return await this.session.settle().catch(() => 0);
	}

	private async decide(document: CheckedDocument, facts: InvoiceFacts, parts: KeyParts): Promise<InvoiceVerdict> {
		const now = this.clock();
		const today = dayOf(now);
		const oldest = days(now)[0];
		const wanted = lookups(facts, parts).map((lookup) => ({
			...lookup,
			hashed: hash(`${this.workflow} ${lookup.key}`),
		}));
		const recorded = Object.values(invoiceKeys(facts)).map((key) => hash(`${this.workflow} ${key}`));

		// This process first, at once (no await before it): two documents of one invoice in runs at the same time see each other.
		let best: { level: DuplicateLevel; day: string; first?: FirstSeen } | undefined;
		const consider = (level: DuplicateLevel, day: string, first?: FirstSeen) => {
			if (!best || rank(level) > rank(best.level) || (level === best.level && day < best.day)) best = { level, day, first };
			else if (level === best.level && day === best.day && !best.first) best.first = first;
		};
		for (const { hashed, level } of wanted) {
			const first = firstSeen.get(hashed);
			if (first && first.day >= oldest) consider(level, first.day, first);
		}
		for (const hashed of recorded)
			if (!firstSeen.has(hashed))
				remember(firstSeen, hashed, {
					day: today,
					resultId: document.resultId,
					fileName: document.fileName,
				});

		// Then n8n's database: one look-up at a time in a run (calls at once on the row lose each other's changes).
		const inStore = this.queue.then(async () => await this.lookUp(document, wanted, recorded, now)).catch(() => undefined);
		this.queue = inStore;
		const found = await inStore;
		if (found?.checkedBefore) {
			// Checked in another process: what it said then, with the day its match was first seen.
			const level = found.checkedBefore === 'none' ? null : found.checkedBefore;
			const day = level
				? found.days
						.filter((match) => match.level === level)
						.map((match) => match.day)
						.sort()[0]
				: undefined;
			return level && day ? { level, firstSeen: day, resultId: null, fileName: null } : NOT_A_DUPLICATE;
		}
		for (const match of found?.days ?? []) consider(match.level, match.day);
		const verdict: InvoiceVerdict = best
			? {
					level: best.level,
					firstSeen: best.day,
					resultId: best.first?.resultId ?? null,
					fileName: best.first?.fileName ?? null,
				}
			: NOT_A_DUPLICATE;
		if (found) {
			this.queue = this.queue.then(async () => await this.session.keep([documentMark(document.identity, verdict.level ?? 'none')])).catch(() => undefined);
		}
		return verdict;
	}

	/**
	 * Two writes at most. The first: the seen marks of the keys looked for, and the document's own
	 * records (its keys' seen and today's marks, its checked mark), which stay. The second, only
	 * for what the first found: the days of the keys seen before, the levels of a document checked
	 * before. What was added and is not the document's own is taken back.
	 */
	private async lookUp(
		document: CheckedDocument,
		wanted: Array<{ hashed: string; level: DuplicateLevel }>,
		recorded: string[],
		now: number,
	): Promise<
		| {
				days: Array<{ level: DuplicateLevel; day: string }>;
				checkedBefore?: (typeof LEVELS)[number];
		  }
		| undefined
	> {
		const looked = days(now);
		const today = looked[looked.length - 1];
		const checked = checkedMark(document.identity);
		const ownDays = recorded.map((hashed) => keyMark(hashed, today));
		const own = [...recorded.map(seenMark), ...ownDays, ...ownDays.map(proofOf), checked];
		const first = await this.session.record([...new Set([...wanted.map(({ hashed }) => seenMark(hashed)), ...own])]);
		if (!first) return undefined;
		const seenBefore = wanted.filter(({ hashed }) => first.held.has(seenMark(hashed)));
		const levels = first.held.has(checked) ? LEVELS.map((level) => documentMark(document.identity, level)) : [];
		const asked = new Set([...seenBefore.flatMap(({ hashed }) => looked.map((day) => keyMark(hashed, day))), ...levels].filter((value) => !own.includes(value)));
		const second = asked.size > 0 ? await this.session.record([...asked]) : { held: new Set<string>(), added: [] };
		if (!second) return undefined;
		const held = (value: string) => first.held.has(value) || second.held.has(value);
		// Checked before, but its process stopped before its verdict: its own keys are all that is known.
		const checkedBefore = levels.length > 0 ? (LEVELS.find((level) => held(documentMark(document.identity, level))) ?? 'none') : undefined;
		// A day counts only with its proof (dayProofs.ts): a by-product put back by a lost removal has none.
		const heldDays = seenBefore.map(({ hashed }) => looked.map((day) => keyMark(hashed, day)).filter(held));
		const counting = await countingDays(this.session, heldDays, new Set(seenBefore.map(({ hashed }) => keyMark(hashed, today))));
		if (!counting) return undefined;
		const matches: Array<{ level: DuplicateLevel; day: string }> = [];
		seenBefore.forEach(({ level }, index) => {
			const mark = counting.first[index];
			if (mark) matches.push({ level, day: dayNamed(mark) });
		});
		const keep = checkedBefore ? [] : own;
		await this.session.remove([...first.added, ...second.added, ...counting.byProducts].filter((value) => !keep.includes(value)));
		if (keep.length > 0) await this.session.keep(keep);
		return { days: matches, ...(checkedBefore ? { checkedBefore } : {}) };
	}
}

/** The node's warning when some of a run's records did not hold. */
export function unsettledInvoiceWarning(count: number): string {
	return `n8n's database did not keep the record of ${count === 1 ? '1 invoice' : `${count} invoices`} of this run (it was busy with other executions): a later file of the same invoice may not be flagged as a duplicate in another n8n process.`;
}

function rank(level: DuplicateLevel): number {
	return level === 'likely' ? 2 : 1;
}
