import { spawn } from 'node:child_process';

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
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
		const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

function killGroup(pid: number): void {
	try {
		process.kill(-pid, 'SIGKILL');
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
	/** Everything it printed so far (for error messages). */
	output(): string;
	/** True once the process has ended (e.g. it failed to start). */
	exited(): boolean;
	/** Ends it and its children; resolves when it is gone. */
	stop(): Promise<void>;
}

/** Starts a long-running program (e.g. `n8n start`) in its own process group, ended by `stop` or `stopAllChildren`. */
export function startService(command: string, args: string[], options: Pick<RunOptions, 'cwd' | 'env'> = {}): Service {
	const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const pid = child.pid;
	if (pid !== undefined) running.add(pid);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	let ended = false;
	const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
	void exited.then(() => {
		ended = true;
		if (pid !== undefined) running.delete(pid);
	});
	return {
		output: () => output,
		exited: () => ended,
		stop: async () => {
			if (pid !== undefined && child.exitCode === null && child.signalCode === null) killGroup(pid);
			await exited;
		},
	};
}
