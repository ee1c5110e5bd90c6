import { spawn } from 'node:child_process';

/** A system user to run a program as (e.g. PostgreSQL, whose server refuses to run as root). */
export interface SystemUser {
	uid: number;
	gid: number;
}

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Run as this user instead of the current one (only root may switch). */
	user?: SystemUser;
	/** Called with each line of stdout and stderr as it arrives (progress output). */
	onLine?: (line: string) => void;
	/** Kill the process (and its children) after this long. */
	timeoutMs?: number;
}

export interface RunResult {
	code: number | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
}

/** Children still running, by process-group id: every one is ended by `stopAllChildren`. */
const running = new Set<number>();

/**
 * Runs a command in its own process group, so that ending it also ends what it started (npm's
 * node-gyp, n8n's workers), and so that a Ctrl-C reaches this program first, which then stops
 * everything in order instead of leaving orphans.
 */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		// A development tool, never shipped (`files` is ["dist"]): it runs npm and n8n on purpose.
		const child = spawnDetached(command, args, options);
		const pid = child.pid;
		if (pid !== undefined) running.add(pid);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		const lines = (append: (text: string) => void) => {
			let partial = '';
			return (chunk: Buffer) => {
				const text = chunk.toString('utf8');
				append(text);
				if (!options.onLine) return;
				const parts = (partial + text).split('\n');
				partial = parts.pop() ?? '';
				for (const line of parts) options.onLine(line);
			};
		};
		child.stdout.on('data', lines((text) => (stdout += text)));
		child.stderr.on('data', lines((text) => (stderr += text)));
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						if (pid !== undefined) killGroup(pid);
					}, options.timeoutMs);
		child.on('error', (error) => {
			if (timer) clearTimeout(timer);
			if (pid !== undefined) running.delete(pid);
			reject(error);
		});
		child.on('close', (code) => {
			if (timer) clearTimeout(timer);
			if (pid !== undefined) running.delete(pid);
			resolve({ code, stdout, stderr, timedOut });
		});
	});
}

/** Like `run`, but a non-zero exit is an error that quotes the end of the output. */
export async function runChecked(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	const result = await run(command, args, options);
	if (result.code !== 0) {
		const tail = (result.stderr || result.stdout).trim().split('\n').slice(-15).join('\n');
		throw new Error(`${command} ${args.join(' ')} ${result.timedOut ? 'timed out' : `failed (exit ${result.code})`}:\n${tail}`);
	}
	return result;
}

/** Own process group (see `run`), pipes for the output, and the user to run as, if any. */
function spawnDetached(command: string, args: string[], options: RunOptions) {
	return spawn(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
	});
}

function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}

/** Ends every child started by `run` that is still running. */
export function stopAllChildren(): void {
	for (const pid of running) killGroup(pid);
	running.clear();
}

export interface Service {
	/** The process id, which is also its process-group id. */
	pid: number | undefined;
	/** Everything it printed so far (for error messages). */
	output(): string;
	/** True once the process has ended (e.g. it failed to start). */
	exited(): boolean;
	/** Ends it and its children (its stop signal, then SIGKILL after a grace period); resolves when it is gone. */
	stop(): Promise<void>;
	/** SIGKILL to it and its children at once, as a crash or an OOM killer would; resolves when it is gone. */
	kill(): Promise<void>;
}

export interface ServiceOptions extends Pick<RunOptions, 'cwd' | 'env' | 'user'> {
	/**
	 * How `stop` asks it to end (default SIGKILL). A database gets the chance to shut down cleanly
	 * (PostgreSQL: SIGINT, its "fast shutdown"), then SIGKILL after `STOP_GRACE_MS`.
	 */
	stopSignal?: NodeJS.Signals;
}

const STOP_GRACE_MS = 10_000;

/** Services whose stop signal is gentler than SIGKILL: `stopAllChildrenInOrder` gives each its chance. */
const gentleServices = new Set<Service>();

/** Starts a long-running program (e.g. `n8n start`) in its own process group, ended by `stop` or `stopAllChildren`. */
export function startService(command: string, args: string[], options: ServiceOptions = {}): Service {
	const child = spawnDetached(command, args, options);
	const pid = child.pid;
	if (pid !== undefined) running.add(pid);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	let ended = false;
	const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
	const stopSignal = options.stopSignal ?? 'SIGKILL';
	const alive = () => pid !== undefined && child.exitCode === null && child.signalCode === null;
	const kill = async () => {
		if (alive()) killGroup(pid!);
		await exited;
	};
	const service: Service = {
		pid,
		output: () => output,
		exited: () => ended,
		kill,
		stop: async () => {
			if (stopSignal === 'SIGKILL' || !alive()) return await kill();
			killGroup(pid!, stopSignal);
			const timer = setTimeout(() => killGroup(pid!), STOP_GRACE_MS);
			await exited;
			clearTimeout(timer);
		},
	};
	if (stopSignal !== 'SIGKILL') gentleServices.add(service);
	void exited.then(() => {
		ended = true;
		if (pid !== undefined) running.delete(pid);
		gentleServices.delete(service);
	});
	return service;
}

/**
 * Ends every child: first SIGKILL to those without a gentler stop signal (n8n, which may still be
 * using the database), then the others' clean shutdown (a database), SIGKILL after the grace period.
 */
export async function stopAllChildrenInOrder(): Promise<void> {
	const gentle = new Set([...gentleServices].map((service) => service.pid));
	for (const pid of running) if (!gentle.has(pid)) killGroup(pid);
	await Promise.all([...gentleServices].map((service) => service.stop()));
	stopAllChildren();
}

/** Polls `ready` until it is true; fails with the end of the service's output when it ends first or takes too long. */
export async function waitUntilReady(ready: () => Promise<boolean>, service: Service, name: string, timeoutMs = 30_000, pollMs = 250): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (service.exited()) throw new Error(`${name} ended before it was ready. Its output:\n${service.output().slice(-3000)}`);
		if (await ready()) return;
		await new Promise((resolve) => setTimeout(resolve, pollMs));
	}
	throw new Error(`${name} was not ready after ${Math.round(timeoutMs / 1000)} s. Its output:\n${service.output().slice(-3000)}`);
}
