/**
 * What every scenario of the fault suite shares: the sandbox, one fresh account per scenario,
 * distinct documents per item, runs through n8n's engine, the invariants of issue 7 checked after
 * every scenario, and the figures row the reporter prints (test/faults/report.ts).
 */
import { createHash } from 'node:crypto';
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, expect, type TestContext } from 'vitest';

import { RETRY } from '../../nodes/shared/http/transport';
import { minimalPdf } from '../harness/documents';
import { binaryItem, capturedLogs, runNode, startNode, visibleText, type RunOptions, type RunResult, type TestCredential } from '../harness/engine';
import { startSandbox, type AccountOptions, type Sandbox, type SandboxOptions, type SandboxStats } from '../../sandbox/src';

/** One line of the printed table. */
export interface ScenarioRow {
	scenario: string;
	/** Input items per run, in order. */
	itemsIn: number[];
	/** Items out per output, per run, e.g. `action 3 ok · 1 err | poller 3/0/0/0`. */
	itemsOut: string;
	/** Files the sandbox received on its upload operations. */
	uploads: number;
	requests: number;
	rateLimited: number;
	seconds: number;
}

declare module 'vitest' {
	interface TaskMeta {
		faultsRow?: ScenarioRow;
	}
}

/**
 * Where an input item is expected to leave. Poller: its four outputs; action node: an item or an
 * error item; both: 'errorOutput', n8n's own error output (On Error: Continue (using error output)).
 */
export type Route = 'ok' | 'error' | 'done' | 'rejected' | 'still' | 'errorOutput';
const POLLER_ROUTES: Route[] = ['done', 'rejected', 'error', 'still'];
/** Outputs of each node without n8n's error output. */
const MAIN_OUTPUTS: Record<RunOptions['nodeType'], number> = { action: 1, poller: 4 };

/**
 * The transport's backoff bases shortened (the waits are policy, the rules under test stay the
 * same). The spec's 2 s between reads of a result (idempotentMinDelayMs) is kept, so every
 * scenario can check it.
 */
export function useShortBackoff(overrides: Partial<typeof RETRY> = {}): void {
	const original = { ...RETRY };
	beforeAll(() => {
		Object.assign(RETRY, { busyBaseDelayMs: 200, idempotentBaseDelayMs: 200, maxBackoffMs: 2_000, ...overrides });
	});
	afterAll(() => {
		Object.assign(RETRY, original);
	});
}

/** One sandbox for the file (fast timing), stopped after it; read it through the getter. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ timing: 'fast', ...options });
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	return () => {
		if (!sandbox) throw new Error('the sandbox is not running');
		return sandbox;
	};
}

const pdfCache = new Map<string, Promise<Uint8Array>>();

/** A real one-page PDF whose text carries `tag` and `n`, so every item has its own content hash. */
export function numberedPdf(tag: string, n: number, pages = 1): Promise<Uint8Array> {
	const id = `${tag}-${n}-${pages}`;
	let pdf = pdfCache.get(id);
	if (!pdf) {
		pdf = minimalPdf([`Invoice Number: ${tag.toUpperCase()}-${String(n).padStart(4, '0')}`, `Total: ${n}.00 EUR`], pages);
		pdfCache.set(id, pdf);
	}
	return pdf;
}

export function sha256(bytes: Uint8Array): string {
	return createHash('sha256').update(bytes).digest('hex');
}

export interface RecordedRun {
	label: string;
	nodeType: RunOptions['nodeType'];
	itemsIn: number;
	result: RunResult;
}

export interface FinishOptions {
	/** Files the node must refuse before sending: none of them may reach the sandbox. */
	refusedBeforehand?: Uint8Array[];
	/** Template ids of this account another account's key must not see. */
	templateIds?: string[];
	/**
	 * Check the spec's 2 s between reads of one result (4.4). Off where two separate executions
	 * read the same result one after the other (nothing ties them together).
	 */
	readSpacing?: boolean;
}

/** The gap between two reads of a result is measured on the sandbox; allow for timer rounding. */
const MIN_READ_GAP_MS = 1_950;
/** Result reads another account's key makes, per scenario. */
const CROSS_ACCOUNT_PROBES = 3;

/**
 * One scenario: a fresh account and key, the runs made with them, then `finish()` checks the
 * invariants every scenario must keep and leaves its figures for the table.
 */
export class Scenario {
	readonly credential: TestCredential;
	readonly accountId: string;
	private readonly runs: RecordedRun[] = [];
	/** Keys that must never be visible: the scenario's own, and any other key it uses. */
	private readonly secrets: string[];
	private readonly logMark = capturedLogs.length;
	private readonly startedAt = Date.now();

	private constructor(
		readonly sandbox: Sandbox,
		private readonly context: TestContext,
		readonly key: string,
		accountId: string,
	) {
		this.credential = { apiKey: key, baseUrl: sandbox.baseUrl };
		this.accountId = accountId;
		this.secrets = [key];
	}

	/** A fresh account (free plan unless told), faults off, the sandbox's counters at zero. */
	static open(sandbox: Sandbox, context: TestContext, account: AccountOptions = {}): Scenario {
		sandbox.faults.clear();
		sandbox.resetStats();
		const created = sandbox.accounts.create(account);
		return new Scenario(sandbox, context, created.keys[0], created.id);
	}

	/** Another key of this scenario's account (e.g. for uploads), watched like the main one. */
	addKey(): TestCredential {
		const key = this.sandbox.accounts.addKey(this.accountId);
		this.secrets.push(key);
		return { apiKey: key, baseUrl: this.sandbox.baseUrl };
	}

	async run(options: Omit<RunOptions, 'credential'> & { credential?: TestCredential; label?: string }): Promise<RunResult> {
		const result = await runNode({ ...options, credential: options.credential ?? this.credential });
		this.remember(options, result);
		return result;
	}

	/** For runs started elsewhere (startNode, e.g. concurrent executions): counted like `run`. */
	async track(options: RunOptions & { label?: string }, running: ReturnType<typeof startNode>): Promise<RunResult> {
		const result = await running.result;
		this.remember(options, result);
		return result;
	}

	private remember(options: Pick<RunOptions, 'nodeType' | 'input'> & { label?: string }, result: RunResult): void {
		this.runs.push({ label: options.label ?? options.nodeType, nodeType: options.nodeType, itemsIn: (options.input ?? [{ json: {} }]).length, result });
		this.recordRow(this.sandbox.stats());
	}

	/** Invariant 1, see `expectRoutes`. */
	expectRoutes(result: RunResult, nodeType: RunOptions['nodeType'], expected: Route[], rowsPerItem: 'one' | 'many' = 'one'): void {
		expectRoutes(result, nodeType, expected, rowsPerItem);
	}

	/** The invariants every scenario keeps, and its row of the table. Call last. */
	async finish(options: FinishOptions = {}): Promise<SandboxStats> {
		const stats = this.sandbox.stats();
		this.recordRow(stats);

		// No upload is sent twice: the sandbox counts the files it received by content hash.
		for (const [hash, count] of Object.entries(stats.uploadsByHash)) {
			expect(count.received, `file ${hash.slice(0, 12)} reached the sandbox ${count.received} times`).toBeLessThanOrEqual(1);
		}
		// Nothing the node could refuse beforehand reached the service (and so was never charged).
		for (const bytes of options.refusedBeforehand ?? []) {
			expect(stats.uploadsByHash[sha256(bytes)], 'a file the preflight refuses reached the sandbox').toBeUndefined();
		}
		this.expectPagesMatchUploads(stats);
		if (options.readSpacing !== false) expectReadSpacing(stats);
		this.expectOwnResultsOnly(stats);
		this.expectNoSecretVisible();
		// Last, as it makes requests of its own: another account's key sees none of this account's data.
		await this.expectInvisibleToOtherAccounts(stats, options.templateIds ?? []);
		return stats;
	}

	/** Charged pages = pages of accepted uploads, once each; results the node reported rejected were given back. */
	private expectPagesMatchUploads(stats: SandboxStats): void {
		const accepted = stats.uploads.filter((upload) => upload.accountId === this.accountId && upload.resultId !== null);
		const acceptedPages = accepted.reduce((sum, upload) => sum + stats.results[upload.resultId as string].pages, 0);
		const pages = stats.pages[this.accountId] ?? { charged: 0, released: 0 };
		expect(pages.charged, 'pages charged beyond the accepted uploads').toBe(acceptedPages);
		const rejectedPages = [...this.resultIdsShown('rejected')].reduce((sum, id) => sum + (stats.results[id]?.pages ?? 0), 0);
		expect(pages.released, 'a rejected document kept its pages').toBeGreaterThanOrEqual(rejectedPages);
	}

	/** Every result id the outputs show that the service knows belongs to this scenario's account (an unknown id, given as input, is nobody's). */
	private expectOwnResultsOnly(stats: SandboxStats): void {
		for (const id of this.resultIdsShown()) {
			if (stats.results[id]) expect(stats.results[id].accountId, `result ${id} shown to this key`).toBe(this.accountId);
		}
	}

	private expectNoSecretVisible(): void {
		expectSecretsHidden(this.secrets, this.runs, this.logMark);
	}

	/** Cross-account reads: the results and templates of this account are 404 for another account's key. */
	private async expectInvisibleToOtherAccounts(stats: SandboxStats, templateIds: string[]): Promise<void> {
		const resultIds = stats.uploads.filter((upload) => upload.accountId === this.accountId && upload.resultId).map((upload) => upload.resultId as string);
		const sample = resultIds.slice(0, CROSS_ACCOUNT_PROBES);
		if (sample.length === 0 && templateIds.length === 0) return;
		const intruder = this.sandbox.accounts.create({ plan: 'paid', rateLimitPerMinute: 100_000 });
		const credential = { apiKey: intruder.keys[0], baseUrl: this.sandbox.baseUrl };
		const probes: Array<{ result: RunResult; code: string }> = [];
		if (sample.length > 0) {
			const result = await runNode({
				nodeType: 'action',
				parameters: { resource: 'document', operation: 'getResult', resultId: '={{ $json.id }}' },
				credential,
				input: sample.map((id) => ({ json: { id } })),
				onError: 'continueRegularOutput',
			});
			probes.push({ result, code: 'RESULT_NOT_FOUND' });
		}
		if (templateIds.length > 0) {
			const result = await runNode({
				nodeType: 'action',
				parameters: { resource: 'template', operation: 'get', templateId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
				credential,
				input: templateIds.map((id) => ({ json: { id } })),
				onError: 'continueRegularOutput',
			});
			probes.push({ result, code: 'SCANNER_NOT_FOUND' });
		}
		for (const { result, code } of probes) {
			const items = result.outputs[0] ?? [];
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) expect(item.json, 'another account read this account\'s data').toMatchObject({ http_status: 404, error_code: code });
			for (const secret of [...this.secrets, credential.apiKey]) expect(visibleText(result).includes(secret)).toBe(false);
		}
	}

	/** Result ids appearing in the outputs of this scenario's runs (optionally only those with `status`). */
	private resultIdsShown(status?: string): Set<string> {
		const ids = new Set<string>();
		for (const run of this.runs) {
			for (const items of run.result.outputs) {
				for (const item of items) {
					const json = item.json as Record<string, unknown>;
					const extraction = json.extraction as Record<string, unknown> | undefined;
					// An item on n8n's error output carries the failure's fields under `error`.
					const failure = typeof json.error === 'object' && json.error !== null ? (json.error as Record<string, unknown>) : undefined;
					const id = json.result_id ?? extraction?.result_id ?? failure?.result_id;
					if (typeof id !== 'string') continue;
					if (status === undefined || json.status === status) ids.add(id);
				}
			}
		}
		return ids;
	}

	private recordRow(stats: SandboxStats): void {
		const requests = Object.values(stats.requests).reduce((sum, count) => sum + count, 0) + stats.unknownPathRequests;
		saveRow(this.context, this.runs, { uploads: stats.uploads.length, requests, rateLimited: stats.rateLimited }, this.startedAt);
	}
}

/** Leaves the scenario's figures on the test for the reporter. */
export function saveRow(context: TestContext, runs: RecordedRun[], counts: Pick<ScenarioRow, 'uploads' | 'requests' | 'rateLimited'>, startedAt: number): void {
	context.task.meta.faultsRow = {
		scenario: context.task.name,
		itemsIn: runs.map((run) => run.itemsIn),
		itemsOut: runs.map(describeOutputs).join(' | '),
		...counts,
		seconds: Math.round((Date.now() - startedAt) / 100) / 10,
	};
}

/** Security: no key in any output, error message, description, error context or log line since `logMark`. */
export function expectSecretsHidden(secrets: string[], runs: RecordedRun[], logMark: number): void {
	const logs = capturedLogs.slice(logMark).join('\n');
	for (const secret of secrets) {
		expect(logs.includes(secret), 'an API key appears in the logs').toBe(false);
		for (const run of runs) {
			expect(visibleText(run.result).includes(secret), `an API key appears in what ${run.label} shows`).toBe(false);
		}
	}
}

/**
 * Invariant 1: every input item leaves exactly once, by the expected route, with pairedItem.
 * `rowsPerItem` allows several items per input (table rows); by default exactly one.
 */
export function expectRoutes(result: RunResult, nodeType: RunOptions['nodeType'], expected: Route[], rowsPerItem: 'one' | 'many' = 'one'): void {
	expect(result.error, 'the execution itself must not fail').toBeUndefined();
	const seen = new Map<number, { routes: Set<Route>; count: number }>();
	const withErrorOutput = result.outputs.length > MAIN_OUTPUTS[nodeType];
	result.outputs.forEach((items, output) => {
		for (const item of items) {
			const paired = pairedIndex(item);
			expect(paired, `an item on output ${output} has no pairedItem`).toBeTypeOf('number');
			const onErrorOutput = withErrorOutput && output === MAIN_OUTPUTS[nodeType];
			// With an error output, an error item anywhere else is the bug of issue 12 (blank rows downstream).
			if (withErrorOutput && !onErrorOutput) expect(item.json.error, `an error item on output ${output}`).toBeUndefined();
			const route = onErrorOutput ? 'errorOutput' : nodeType === 'poller' ? POLLER_ROUTES[output] : item.json.error !== undefined ? 'error' : 'ok';
			const entry = seen.get(paired as number) ?? { routes: new Set<Route>(), count: 0 };
			entry.routes.add(route);
			entry.count += 1;
			seen.set(paired as number, entry);
		}
	});
	expect([...seen.keys()].sort((a, b) => a - b), 'every input item, and only those, comes out').toEqual(expected.map((_, index) => index));
	expected.forEach((route, index) => {
		const entry = seen.get(index);
		expect([...(entry?.routes ?? [])], `item ${index + 1} leaves by one route`).toEqual([route]);
		if (rowsPerItem === 'one') expect(entry?.count, `item ${index + 1} leaves exactly once`).toBe(1);
	});
}

function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired !== null ? paired.item : typeof paired === 'number' ? paired : undefined;
}

function describeOutputs(run: RecordedRun): string {
	if (run.result.error && run.result.outputs.every((items) => items.length === 0)) return `${run.label}: stopped`;
	const errorOutput = run.result.outputs[MAIN_OUTPUTS[run.nodeType]];
	const onErrorOutput = errorOutput ? `, ${errorOutput.length} on error output` : '';
	if (run.nodeType === 'poller') {
		const [done, rejected, error, still] = [0, 1, 2, 3].map((output) => run.result.outputs[output]?.length ?? 0);
		return `${run.label}: ${done} done, ${rejected} rej, ${error} err, ${still} still${onErrorOutput}`;
	}
	const items = run.result.outputs[0] ?? [];
	const errors = items.filter((item) => item.json.error !== undefined).length;
	return `${run.label}: ${items.length - errors} ok, ${errors} err${onErrorOutput}`;
}

/** Spec 4.4 / 8.8: reads of one result at least 2 s apart, retries included. */
function expectReadSpacing(stats: SandboxStats): void {
	for (const [id, result] of Object.entries(stats.results)) {
		for (let i = 1; i < result.reads.length; i++) {
			expect(result.reads[i] - result.reads[i - 1], `reads ${i} and ${i + 1} of result ${id}`).toBeGreaterThanOrEqual(MIN_READ_GAP_MS);
		}
	}
}

/** Upload items for the action node, one distinct PDF each, numbered from 1. */
export function pdfItems(files: Uint8Array[], namePrefix = 'document'): INodeExecutionData[] {
	return files.map((bytes, index) => binaryItem(bytes, `${namePrefix}-${index + 1}.pdf`, 'application/pdf', 'data', { n: index + 1 }));
}

/** Parameters of the action node's extract operations. */
export function extractParameters(waitForResult: boolean, extra: Record<string, unknown> = {}) {
	return { resource: 'document', operation: 'extract', waitForResult, ...extra };
}
