/**
 * A running sandbox process seen from outside: its API's base URL and demo key, and its admin
 * endpoints (/__sandbox/, loopback only, see sandbox/src/admin.ts) for what a test reads and sets.
 * Nothing of the sandbox runs in the test's process: the types below describe the admin API's JSON.
 * `startSandboxProcess` starts the installed package's command (test/harness/installedSandbox.ts)
 * with the options a test asks for and returns the client, whose `stop()` ends the process.
 */
import type { AccountOptions, AccountSettings, AccountSnapshot, Fault, FaultKind, FaultSnapshot, FaultTarget, SandboxStats } from '../../sandbox/src';
import { startInstalledSandbox, stopInstalledSandbox, type RunningSandbox } from './installedSandbox';

export type { AccountSnapshot, SandboxStats } from '../../sandbox/src';

/** What a test may ask of a sandbox process; each maps to the command's options (sandbox/src/cliOptions.ts). */
export interface SandboxProcessOptions {
	/** `--timing`: 'fast' (default here), 'realistic' or a scale factor. */
	timing?: 'fast' | 'realistic' | number;
	/** The demo account: plan and monthly pages by `--plan` and `--pages`, any other setting over the admin API once started. */
	demoAccount?: AccountSettings;
	/** `--data`: keep the state in this folder. Absent: `--no-state`, nothing written. */
	dataFolder?: string;
	/** `--max-concurrent-uploads`. */
	maxConcurrentUploads?: number;
}

export class RemoteSandbox {
	readonly faults = {
		/** Adds to the scripted queue: the next `count` requests to `endpoint` get `fault`. */
		enqueue: (endpoint: FaultTarget, fault: FaultKind | Fault, count?: number): Promise<FaultSnapshot> =>
			this.admin<FaultSnapshot>('POST', 'faults/queue', { endpoint, fault, count }),
		snapshot: (): Promise<FaultSnapshot> => this.admin<FaultSnapshot>('GET', 'faults'),
	};

	readonly accounts = {
		/** A new account (ready-made templates and a key unless told otherwise). */
		create: (options: Omit<AccountOptions, 'id'> = {}): Promise<AccountSnapshot> => this.admin<AccountSnapshot>('POST', 'accounts', options),
		update: (accountId: string, settings: AccountSettings): Promise<AccountSnapshot> => this.admin<AccountSnapshot>('POST', 'accounts', { ...settings, id: accountId }),
		get: async (accountId: string): Promise<AccountSnapshot | undefined> => (await this.accounts.list()).find((account) => account.id === accountId),
		list: (): Promise<AccountSnapshot[]> => this.admin<AccountSnapshot[]>('GET', 'accounts'),
	};

	private constructor(
		/** 'http://127.0.0.1:<port>' (no /api/v1). */
		readonly baseUrl: string,
		readonly demoKey: string,
		readonly demoAccountId: string,
		private readonly stopProcess: () => Promise<void>,
	) {}

	/** A client for the sandbox at `baseUrl`; `stop` ends whatever runs it (nothing by default). */
	static async connect(baseUrl: string, stop: () => Promise<void> = async () => undefined): Promise<RemoteSandbox> {
		const { demoKey } = await adminRequest<{ demoKey: string }>(baseUrl, 'GET', 'health');
		const accounts = await adminRequest<AccountSnapshot[]>(baseUrl, 'GET', 'accounts');
		const demo = accounts.find((account) => account.keys.includes(demoKey));
		if (!demo) throw new Error(`The sandbox at ${baseUrl} has no account with its demo key`);
		return new RemoteSandbox(baseUrl, demoKey, demo.id, stop);
	}

	/** Counters and records since the start or the last `resetStats()`. */
	stats(): Promise<SandboxStats> {
		return this.admin<SandboxStats>('GET', 'stats');
	}

	async resetStats(): Promise<void> {
		await this.admin('POST', 'reset-stats');
	}

	/** Moves the sandbox's time forward. */
	async advanceClock(ms: number): Promise<number> {
		return (await this.admin<{ now: number }>('POST', 'clock', { advanceMs: ms })).now;
	}

	stop(): Promise<void> {
		return this.stopProcess();
	}

	private admin<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
		return adminRequest<T>(this.baseUrl, method, route, body);
	}
}

async function adminRequest<T>(baseUrl: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
	const response = await fetch(`${baseUrl}/__sandbox/${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /__sandbox/${route} answered ${response.status}: ${text}`);
	return JSON.parse(text) as T;
}

/** The command's arguments for what the test asked: any free port, and nothing kept unless a data folder is given. */
export function sandboxProcessArgs(options: SandboxProcessOptions): string[] {
	const args = ['--port', '0', '--timing', String(options.timing ?? 'fast')];
	args.push(...(options.dataFolder === undefined ? ['--no-state'] : ['--data', options.dataFolder]));
	const { plan, monthlyPages } = options.demoAccount ?? {};
	if (plan !== undefined) args.push('--plan', plan);
	if (monthlyPages !== undefined) args.push('--pages', String(monthlyPages));
	if (options.maxConcurrentUploads !== undefined) args.push('--max-concurrent-uploads', String(options.maxConcurrentUploads));
	return args;
}

/**
 * The installed command (in `installDir`) started as a process of its own; the client's `stop()`
 * sends it SIGTERM and waits for it to exit. Should the test process end first, the sandbox ends
 * with it.
 */
export async function startSandboxProcess(installDir: string, options: SandboxProcessOptions = {}): Promise<RemoteSandbox> {
	const running: RunningSandbox = await startInstalledSandbox(installDir, sandboxProcessArgs(options));
	const killOnExit = () => running.child.kill('SIGKILL');
	process.once('exit', killOnExit);
	const stop = async () => {
		process.removeListener('exit', killOnExit);
		const code = await stopInstalledSandbox(running);
		if (code !== 0) throw new Error(`The sandbox process exited with ${code}:\n${running.output()}`);
	};
	try {
		const sandbox = await RemoteSandbox.connect(running.baseUrl, stop);
		// What the command has no option for (a rate limit, pages used, ...) is set over the admin API.
		const otherSettings = Object.fromEntries(Object.entries(options.demoAccount ?? {}).filter(([name]) => name !== 'plan' && name !== 'monthlyPages'));
		if (Object.keys(otherSettings).length > 0) await sandbox.accounts.update(sandbox.demoAccountId, otherSettings as AccountSettings);
		return sandbox;
	} catch (error) {
		await stop().catch(() => undefined);
		throw error;
	}
}
