import { N8nCli, createUserFolder } from './cli';
import { ensureN8n } from './install';
import { buildAndPack, installTarball } from './packageTarball';
import type { Log } from './progress';

/**
 * A ready n8n with the package installed from its packed tarball, in a fresh user folder:
 * installs n8n on first use (cached), builds and packs the package, installs the tarball.
 */
export async function prepareN8n(log: Log, userFolderPrefix?: string): Promise<N8nCli> {
	const bin = await ensureN8n(log);
	const tarball = await buildAndPack(log);
	const userFolder = createUserFolder(userFolderPrefix);
	await installTarball(userFolder, tarball, log);
	return new N8nCli(bin, userFolder);
}
