import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';

import { waitFor } from '../wait';

/**
 * The row of n8n's database that holds the charge marks, written with the care its helpers need.
 * n8n's deduplication helpers (what the Remove Duplicates node uses) keep one row per workflow;
 * every call reads it, changes its copy and writes the whole row back, with no lock, so a call
 * made at the same moment as another loses one call's change, whatever values each touched, and
 * the first two calls on a new row collide on its key. A community node gets nothing better that
 * works on queue-mode workers and on n8n Cloud. So, per run of the node (a MarkSession):
 * - what must stay (a document's extracted mark) is checked again once every write that could
 *   have overlapped it is over (SETTLE_MS after the last write: far longer than a database round
 *   trip), and recorded again until it is seen;
 * - what was taken away (a claim, a look-up's by-products) is taken away again then, in case a
 *   write at the same moment put it back;
 * - a call that failed (the first two calls on a new row) is made again.
 * Where n8n has no such database, or a Remove Duplicates node uses the row in another mode (the
 * helpers then refuse our calls), the marks are skipped and this process's memory is all there is.
 */

const SCOPE = 'workflow';
const OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };

export const MARK_TIMING = {
	/** From the run's last write to the check of what must stay. */
	settleMs: 1_000,
	/** Rounds of checking what must stay before giving up on it (a warning says so); two at least. */
	settleRounds: 8,
	/** Tries of a call that fails (a new row's first insert collides), with a short random pause. */
	tries: 3,
	retryPauseMs: 150,
};

export interface Probe {
	/** Values the row already held. */
	held: Set<string>;
	/** Values this call added. */
	added: string[];
}

export class MarkSession {
	/** Values that must be in the row: checked again at settle. */
	private readonly kept = new Set<string>();

	/** Values taken away: taken away again at settle. */
	private readonly removed = new Set<string>();

	private lastWriteAt = 0;

	constructor(private readonly ctx: IExecuteFunctions) {}

	/** Records the values and says which the row held before; undefined when the helpers are not there. */
	async record(values: string[]): Promise<Probe | undefined> {
		const found = await this.call(async (helpers) => await helpers.checkProcessedAndRecord(values, SCOPE, OPTIONS));
		if (!found) return undefined;
		return { held: new Set(found.processed.map(String)), added: found.new.map(String) };
	}

	/** Records values that must stay: settle checks them. */
	async keep(values: string[]): Promise<void> {
		for (const value of values) {
			this.kept.add(value);
			this.removed.delete(value);
		}
		await this.record(values);
	}

	async remove(values: string[]): Promise<void> {
		if (values.length === 0) return;
		for (const value of values) {
			this.removed.add(value);
			this.kept.delete(value);
		}
		await this.call(async (helpers) => await helpers.removeProcessed(values, SCOPE, OPTIONS));
	}

	/** Takes the values away at settle, after what must stay is seen (a claim, once its document's mark holds). */
	removeAtSettle(values: string[]): void {
		for (const value of values) this.removed.add(value);
	}

	/**
	 * Makes what this run wrote hold: see the comment above. Says how many values that must stay
	 * could not be made to (a warning). Never throws but for a cancel.
	 */
	async settle(): Promise<number> {
		if (this.lastWriteAt === 0) return 0;
		for (let round = 1; round <= MARK_TIMING.settleRounds; round++) {
			// At random within two more settle times, so that runs that wrote at once do not settle at once.
			await waitFor(this.lastWriteAt + MARK_TIMING.settleMs * (1 + 2 * Math.random()) - Date.now(), this.ctx.getExecutionCancelSignal?.());
			if (this.kept.size > 0) {
				const probe = await this.record([...this.kept]);
				if (!probe) return 0;
				for (const value of probe.held) this.kept.delete(value);
			}
			// Taken away again, twice at least: a write at the same moment may have put them back.
			if (this.removed.size > 0) await this.call(async (helpers) => await helpers.removeProcessed([...this.removed], SCOPE, OPTIONS));
			if (this.kept.size === 0 && round >= 2) break;
		}
		const unsettled = this.kept.size;
		this.kept.clear();
		this.removed.clear();
		return unsettled;
	}

	private async call<T>(write: (helpers: IExecuteFunctions['helpers']) => Promise<T>): Promise<T | undefined> {
		const helpers = this.ctx.helpers;
		if (typeof helpers.checkProcessedAndRecord !== 'function' || typeof helpers.removeProcessed !== 'function') return undefined;
		for (let attempt = 1; ; attempt++) {
			try {
				this.lastWriteAt = Date.now();
				const answer = await write(helpers);
				this.lastWriteAt = Date.now();
				return answer;
			} catch {
				if (attempt >= MARK_TIMING.tries) return undefined;
				await waitFor(MARK_TIMING.retryPauseMs * (0.5 + Math.random()), this.ctx.getExecutionCancelSignal?.());
			}
		}
	}
}
