import type { IExecuteFunctions } from 'n8n-workflow';

import { REUSE_DAYS } from '../limits';

/**
 * What this n8n process sent the service and how it was answered, so that n8n running a node
 * again (Retry On Fail, n8n's Retry of a failed execution, a second "Execute step") reuses the
 * answer instead of paying or writing twice. Each entry remembers the execution that sent it: the
 * callers decide which other executions may reuse it (uploadLedger.ts, templateWrites.ts).
 *
 * It lives in this process only: n8n offers nodes no shared store that fits. Workflow static data
 * is saved only after non-manual executions and written back whole (checked in n8n 1.123.81 and
 * 2.41.1, execution-lifecycle-hooks.js), and the deduplication helpers keep hashes, not answers.
 */
export type SentEntry<T> =
	| { kind: 'accepted'; answer: T; executionId: string }
	/** Sent, but the answer does not say whether the service took it. */
	| { kind: 'uncertain'; message: string; executionId: string };

const LIFETIME_MS = REUSE_DAYS * 24 * 60 * 60 * 1000;
/** Bounds the memory: the oldest entries go first. */
const MAX_ENTRIES = 10_000;

export class SentLedger<T> {
	private readonly entries = new Map<string, { entry: SentEntry<T>; at: number; bytes: number }>();

	private bytes = 0;

	/** `maxBytes`: a bound on the entries' size (their JSON), where an answer can be large (a template's). */
	constructor(private readonly limits: { maxBytes?: number } = {}) {}

	get(key: string, now = Date.now()): SentEntry<T> | undefined {
		const found = this.entries.get(key);
		if (found && now - found.at > LIFETIME_MS) this.delete(key);
		return found && now - found.at <= LIFETIME_MS ? found.entry : undefined;
	}

	set(key: string, entry: SentEntry<T>, now = Date.now()): void {
		this.delete(key);
		const bytes = this.limits.maxBytes === undefined ? 0 : key.length + JSON.stringify(entry).length;
		this.entries.set(key, { entry, at: now, bytes });
		this.bytes += bytes;
		// A Map iterates in insertion order: the first keys are the oldest.
		for (const oldest of this.entries.keys()) {
			if (this.entries.size <= MAX_ENTRIES && this.bytes <= (this.limits.maxBytes ?? Infinity)) break;
			this.delete(oldest);
		}
	}

	/** The newest entry that matches, by a scan: for look-ups by part of the key. */
	find(matches: (entry: SentEntry<T>, key: string) => boolean, now = Date.now()): SentEntry<T> | undefined {
		let found: SentEntry<T> | undefined;
		for (const [key, { entry, at }] of this.entries) if (now - at <= LIFETIME_MS && matches(entry, key)) found = entry;
		return found;
	}

	/** Forgets the matching entries and says which keys they had. */
	forgetWhere(matches: (entry: SentEntry<T>, key: string) => boolean): string[] {
		const forgotten = [...this.entries].filter(([key, { entry }]) => matches(entry, key)).map(([key]) => key);
		for (const key of forgotten) this.delete(key);
		return forgotten;
	}

	delete(key: string): void {
		this.bytes -= this.entries.get(key)?.bytes ?? 0;
		this.entries.delete(key);
	}

	get size(): number {
		return this.entries.size;
	}
}

/** Which run of the node this is in the execution (a loop runs it several times; a retry keeps it). */
export function runIndexOf(ctx: IExecuteFunctions): number {
	try {
		const runIndex = ctx.getWorkflowDataProxy(0).$runIndex;
		return typeof runIndex === 'number' ? runIndex : 0;
	} catch {
		return 0;
	}
}
