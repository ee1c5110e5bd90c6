import { createAccountController, type AccountController } from './accountController';
import type { AccountOptions, AccountSettings } from './accounts';
import { createAdminHandler } from './admin';
import { createClock, type SandboxClock } from './clock';
import { DEFAULT_LINKS, type SandboxLinks } from './errors';
import { stopOcr } from './extraction/ocr';
import type { FaultConfig, FaultController } from './faults';
import { loadState, saveState } from './persistence';
import { SandboxServer } from './server';
import { DEFAULT_MAX_CONCURRENT_UPLOADS, KEY_PREFIX } from './spec';
import { SandboxState } from './state';
import type { SandboxStats } from './stats';
import { resolveTiming, type TimingConfig, type TimingOption } from './timing';

export type { AccountController } from './accountController';
export type { AccountOptions, AccountSettings, AccountSnapshot } from './accounts';
export type { SandboxClock } from './clock';
export type { Fault, FaultConfig, FaultController, FaultKind, FaultQueueEntry, FaultSnapshot, FaultTarget } from './faults';
export { FAULT_KINDS } from './faults';
export type { ResultStat, SandboxStats, UploadStat } from './stats';
export type { TimingConfig, TimingOption } from './timing';
export type { EndpointKey } from './types';
export { ENDPOINT_KEYS } from './types';
export { ADMIN_PREFIX } from './server';
export { StateFileError } from './persistence';
export * as SPEC from './spec';

/** The demo account's key: fixed, so a restarted sandbox keeps working with the same credential. */
export const DEMO_KEY = `${KEY_PREFIX}_sandbox_demo_key_0000000000000000`;
export const DEMO_ACCOUNT_ID = 'demo';

export interface SandboxOptions {
	/** 0 (default) picks a free port. The CLI uses 4010. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Key of the demo account (default DEMO_KEY). */
	demoKey?: string;
	/** Settings of the demo account (default: free plan). */
	demoAccount?: AccountSettings & { readyMadeTemplates?: boolean };
	/** More accounts, each with its keys (several keys may share one account). */
	accounts?: AccountOptions[];
	/** 'realistic' (default), 'fast' (20x quicker), a scale factor on realistic, or explicit numbers. */
	timing?: TimingOption;
	/** Default BUSY threshold of new accounts (upload requests of one account in flight at once). */
	maxConcurrentUploads?: number;
	/** Faults active from the start (default none). */
	faults?: FaultConfig;
	/**
	 * Persist accounts, templates and results (not file bytes) to this JSON file. Absent by default,
	 * so tests and benchmarks write nothing; the CLI sets it unless started with --no-state.
	 */
	stateFile?: string;
	/** URLs placed in error bodies' next_action. */
	links?: Partial<SandboxLinks>;
	/** Time source (default Date.now); `clock.advance()` moves the sandbox's time on top of it. */
	now?: () => number;
}

export interface Sandbox {
	/** 'http://127.0.0.1:<port>' (no /api/v1). */
	baseUrl: string;
	port: number;
	demoKey: string;
	demoAccountId: string;
	timing: TimingConfig;
	clock: SandboxClock;
	faults: FaultController;
	accounts: AccountController;
	stats(): SandboxStats;
	resetStats(): void;
	/** Closes the server and its sockets; cancels pending latency waits; writes the state file. */
	stop(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const state = new SandboxState({
		clock: createClock(options.now),
		timing: resolveTiming(options.timing),
		links: { ...DEFAULT_LINKS, ...options.links },
		maxConcurrentUploads: options.maxConcurrentUploads ?? DEFAULT_MAX_CONCURRENT_UPLOADS,
		faults: options.faults,
	});
	const persisted = options.stateFile ? loadState(options.stateFile) : undefined;
	if (persisted) state.restore(persisted);
	const persist = () => {
		if (options.stateFile) saveState(options.stateFile, state.serialize());
	};

	const demoKey = options.demoKey ?? DEMO_KEY;
	const demo = state.accounts.get(DEMO_ACCOUNT_ID);
	if (!demo) state.createAccount({ ...options.demoAccount, id: DEMO_ACCOUNT_ID, keys: [demoKey] });
	else {
		if (options.demoAccount) state.updateAccount(DEMO_ACCOUNT_ID, options.demoAccount);
		state.accounts.addKey(DEMO_ACCOUNT_ID, demoKey);
	}
	for (const account of options.accounts ?? []) {
		if (account.id === undefined || !state.accounts.get(account.id)) state.createAccount(account);
	}
	persist();

	const accounts = createAccountController(state, persist);
	const server = new SandboxServer(state, { admin: createAdminHandler(state, accounts, () => demoKey), changed: persist });
	const host = options.host ?? '127.0.0.1';
	const port = await server.listen(options.port ?? 0, host);
	const urlHost = host.includes(':') ? `[${host}]` : host;

	return {
		baseUrl: `http://${urlHost}:${port}`,
		port,
		demoKey,
		demoAccountId: DEMO_ACCOUNT_ID,
		timing: state.timing,
		clock: state.clock,
		faults: state.faults,
		accounts,
		stats: () => {
			state.settleReleases();
			return state.stats.snapshot();
		},
		resetStats: () => state.stats.reset(),
		stop: async () => {
			await server.stop();
			persist();
			// The OCR engine's worker threads (started by the first photo or scan read).
			await stopOcr();
		},
	};
}
