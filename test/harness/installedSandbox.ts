/**
 * The sandbox as its users get it: sandbox/ packed as npm packs it for publishing (its prepack
 * builds dist/), the tarball installed with npm into an empty folder outside the repository (so
 * nothing resolves from the repository's node_modules: the package's own dependencies must be
 * enough), and its command started there with plain node, reading what it prints for the
 * credential. Used by the package's own test and by the end-to-end suite's real n8n.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const SANDBOX_DIR = join(ROOT, 'sandbox');
export const SANDBOX_COMMAND = 'document-extraction-sandbox';

export const run = promisify(execFile);

/** npm with the repository's own settings out of the way where they would change what users get. */
async function npm(args: string[], cwd: string): Promise<string> {
	const { stdout } = await run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
	return stdout;
}

export interface PackedSandbox {
	/** The tarball's name, in `folder`/pack. */
	filename: string;
	files: Array<{ path: string }>;
	/** Where it is installed: nothing but the tarball and its dependencies. */
	installDir: string;
}

/** Packs sandbox/ into `folder`/pack and installs the tarball into the empty `folder`/install. */
export async function packAndInstallSandbox(folder: string): Promise<PackedSandbox> {
	const packDir = join(folder, 'pack');
	const installDir = join(folder, 'install');
	mkdirSync(packDir);
	// --ignore-scripts=false: the repository's .npmrc skips scripts, but publishing runs prepack.
	const json = await npm(['pack', '--ignore-scripts=false', '--json', '--pack-destination', packDir], SANDBOX_DIR);
	const [packed] = JSON.parse(json.slice(json.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
	// An empty folder of its own: npm makes its package.json, nothing of the repository above it.
	mkdirSync(installDir);
	await npm(['install', join(packDir, packed.filename), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], installDir);
	return { ...packed, installDir };
}

export interface RunningSandbox {
	child: ChildProcess;
	/** What the start-up text tells the user to put in the credential, for n8n on this machine. */
	baseUrl: string;
	apiKey: string;
	output: () => string;
	exited: Promise<number | null>;
}

/** The installed command, started as a user's shell starts it (the bin's own `#!/usr/bin/env node`). */
export async function startInstalledSandbox(installDir: string, args: string[]): Promise<RunningSandbox> {
	const child = spawn(join(installDir, 'node_modules', '.bin', SANDBOX_COMMAND), args, { cwd: installDir, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const deadline = Date.now() + 45_000;
	while (!stdout.includes('Ctrl-C stops')) {
		if (child.exitCode !== null || Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`${SANDBOX_COMMAND} did not start:\n${stdout}${stderr}`);
		}
		await sleep(50);
	}
	const baseUrl = /^ {2}Base URL, n8n on this machine +: (http:\/\/\S+)$/m.exec(stdout)?.[1];
	const apiKey = /^ {2}API Key +: (dex_\S+)$/m.exec(stdout)?.[1];
	if (!baseUrl || !apiKey) throw new Error(`no Base URL or API Key line in:\n${stdout}`);
	return { child, baseUrl, apiKey, output: () => stdout, exited };
}

/** SIGTERM, as Ctrl-C or `docker stop` ends it; resolves with its exit code. */
export async function stopInstalledSandbox(running: RunningSandbox): Promise<number | null> {
	if (running.child.exitCode === null) running.child.kill('SIGTERM');
	return await running.exited;
}
