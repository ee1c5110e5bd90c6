import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

import { installDirOf, nodeRuntimeDirOf } from './paths';
import { runChecked } from './processes';
import { withHeartbeat, type Log } from './progress';
import type { N8nRelease } from './releases';

/** An installed n8n and the Node binary that runs it. */
export interface N8nRuntime {
	release: N8nRelease;
	/** The Node.js binary n8n runs under (Node 24 for n8n 2.x, from the npm package `node`). */
	node: string;
	/** n8n's bin script. */
	bin: string;
	installDir: string;
}

const READY_MARKER = '.ready';

/**
 * Installs `release` into the shared cache unless a finished install is there. Install scripts
 * stay off for n8n (isolated-vm's native build is not needed: n8n 1.x runs with the legacy
 * expression engine, see `n8nEnvironment`, and isolated-vm ships a prebuilt binary for the Node 24
 * that n8n 2.x runs on); sqlite3, the one native module n8n needs here, is built on its own against
 * the Node that will run it.
 */
export async function ensureN8n(release: N8nRelease, log: Log): Promise<N8nRuntime> {
	const installDir = installDirOf(release);
	const node = release.nodeVersion ? await ensureNodeRuntime(release.nodeVersion, log) : process.execPath;
	const runtime: N8nRuntime = { release, node, bin: join(installDir, 'node_modules', 'n8n', 'bin', 'n8n'), installDir };
	if (isReady(installDir)) {
		log(`n8n ${release.version}: using the install in ${installDir}`);
		return runtime;
	}
	await withLock(installDir, log, async () => {
		if (isReady(installDir)) return;
		rmSync(installDir, { recursive: true, force: true });
		mkdirSync(installDir, { recursive: true });
		const manifest = {
			name: `n8n-${release.version}-for-tests`,
			private: true,
			description: 'The n8n the demo and the end-to-end suites run in (installed by scripts/n8n/install.ts)',
			dependencies: { n8n: release.version },
			...(release.overrides ? { overrides: release.overrides } : {}),
		};
		writeFileSync(join(installDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
		const env = withNodeFirst(node);
		await withHeartbeat(log, `Installing n8n ${release.version} into ${installDir} (2,000+ packages; 2-5 minutes the first time)`, () =>
			runChecked('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: installDir, env }),
		);
		// The headers of the Node that runs this n8n, never a download from nodejs.org: for n8n 1.x
		// that is the Node running this script (its prefix holds include/node).
		const nodedir = release.nodeVersion ? nodeHeadersDir(release.nodeVersion) : dirname(dirname(process.execPath));
		await withHeartbeat(log, `Building sqlite3 for n8n ${release.version}'s database (about 75 seconds)`, () =>
			runChecked('npx', ['--yes', 'node-gyp', 'rebuild', `--nodedir=${nodedir}`], { cwd: join(installDir, 'node_modules', 'sqlite3'), env }),
		);
		writeFileSync(join(installDir, READY_MARKER), `${new Date().toISOString()}\n`);
		log(`n8n ${release.version} installed.`);
	});
	return runtime;
}

/**
 * Node from the npm package `node` (its preinstall script fetches the platform binary from the
 * registry, so scripts must run for this one install). Returns the binary's path.
 */
async function ensureNodeRuntime(version: string, log: Log): Promise<string> {
	const dir = nodeRuntimeDirOf(version);
	const binary = join(dir, 'node_modules', 'node', 'bin', 'node');
	if (isReady(dir) && existsSync(binary)) return binary;
	await withLock(dir, log, async () => {
		if (isReady(dir)) return;
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `node-${version}`, private: true, dependencies: { node: version } }, null, 2)}\n`);
		// `npm run` passes the project's ignore-scripts=true on to children: switch it back on here.
		await withHeartbeat(log, `Installing Node ${version} for n8n (npm package "node")`, () =>
			runChecked('npm', ['install', '--ignore-scripts=false', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir }),
		);
		writeFileSync(join(dir, READY_MARKER), `${new Date().toISOString()}\n`);
	});
	return binary;
}

function nodeHeadersDir(version: string): string {
	return join(nodeRuntimeDirOf(version), 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
}

/** The environment with `node`'s folder first on PATH, so npm, npx and node-gyp use that Node. */
export function withNodeFirst(node: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	return { ...env, PATH: `${dirname(node)}${delimiter}${env.PATH ?? ''}` };
}

function isReady(dir: string): boolean {
	return existsSync(join(dir, READY_MARKER));
}

const LOCK_STALE_MS = 30 * 60_000;

/** One installer per folder at a time (the demo, a test suite and a second clone may start together). */
async function withLock(dir: string, log: Log, step: () => Promise<void>): Promise<void> {
	const lock = `${dir}.lock`;
	mkdirSync(dirname(lock), { recursive: true });
	let told = false;
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch {
			const held = statSync(lock, { throwIfNoEntry: false });
			if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
				rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (!told) log(`Waiting for another install into ${dir} to finish...`);
			told = true;
			await new Promise((resolve) => setTimeout(resolve, 2000));
		}
	}
	try {
		await step();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}
