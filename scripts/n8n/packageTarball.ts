import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACK_DIR, PACKAGE_NAME, REPO_ROOT } from './paths';
import { runChecked } from './processes';
import type { Log } from './progress';

/** Builds the package and packs it as npm publishes it; returns the tarball's path. */
export async function buildAndPack(log: Log): Promise<string> {
	log('Building the package (npm run build)...');
	await runChecked('npm', ['run', 'build'], { cwd: REPO_ROOT });
	rmSync(PACK_DIR, { recursive: true, force: true });
	mkdirSync(PACK_DIR, { recursive: true });
	const packed = await runChecked('npm', ['pack', '--json', '--pack-destination', PACK_DIR], { cwd: REPO_ROOT });
	const [{ filename, files }] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
	checkPackedFiles(files.map((file) => file.path));
	const tarball = join(PACK_DIR, filename);
	log(`Packed ${tarball}`);
	return tarball;
}

/**
 * What n8n loads from the package must be in the tarball: every file the `n8n` section names, each
 * node's codex file next to it, and the light and dark icons. A build step that forgets one would
 * otherwise only show in the n8n editor.
 */
function checkPackedFiles(packed: string[]): void {
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
	const codex = manifest.n8n.nodes.map((node) => node.replace(/\.js$/, '.json'));
	const icons = readdirSync(join(REPO_ROOT, 'icons')).map((icon) => `dist/icons/${icon}`);
	const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials, ...codex, ...icons].filter((path) => !packed.includes(path));
	if (missing.length > 0) throw new Error(`The packed package lacks: ${missing.join(', ')}`);
	const stray = packed.filter((path) => !path.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(path));
	if (stray.length > 0) throw new Error(`The packed package holds files outside dist/: ${stray.join(', ')}`);
}

/**
 * Installs the tarball where n8n installs community packages (`<user folder>/.n8n/nodes`), as a
 * user gets it. Peer dependencies stay out (`--legacy-peer-deps`): the nodes must use the
 * n8n-workflow of the n8n that loads them, not a second copy next to them.
 */
export async function installTarball(userFolder: string, tarball: string, log: Log): Promise<void> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(join(nodesDir, 'package.json'), `${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`);
	await runChecked('npm', ['install', tarball, '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: nodesDir });
	if (existsSync(join(nodesDir, 'node_modules', 'n8n-workflow'))) {
		throw new Error(`A second n8n-workflow was installed next to ${PACKAGE_NAME}: its errors would not be n8n's own classes`);
	}
	log(`Installed ${PACKAGE_NAME} into ${nodesDir}`);
}
