import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
	const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
	const tarball = join(PACK_DIR, filename);
	log(`Packed ${tarball}`);
	return tarball;
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
