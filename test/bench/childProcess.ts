import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** A TypeScript file of this repository run by Node with tsx, as `npm run` scripts do (`nodeOptions`: e.g. `--expose-gc`). */
export function spawnTs(file: string, args: string[], nodeOptions: string[] = []): ChildProcess {
	// A fixed script of this repository with arguments the benchmark builds itself, never user input.
	return spawn(process.execPath, [...nodeOptions, '--import', 'tsx', join(REPO_ROOT, file), ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with everything the child printed once it exits; rejects on a non-zero exit. */
export function outputOf(child: ChildProcess): Promise<string> {
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`child exited with ${code}: ${stderr.slice(-2000)}`))));
	});
}

/** Resolves with the first match of `pattern` in the child's output (e.g. "listening on <url>"). */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
	return new Promise((resolve, reject) => {
		let seen = '';
		const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output: ${seen.slice(-1000)}`)), timeoutMs);
		child.stdout?.on('data', (chunk: Buffer) => {
			seen += chunk.toString('utf8');
			const match = seen.match(pattern);
			if (match) {
				clearTimeout(timer);
				resolve(match);
			}
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`child exited with ${code} before ${pattern}; output: ${seen.slice(-1000)}`));
		});
	});
}
