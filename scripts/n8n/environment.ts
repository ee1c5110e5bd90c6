import { N8nCli, createUserFolder } from './cli';
import { ensureN8n } from './install';
import { buildAndPack, installTarball } from './packageTarball';
import type { Log } from './progress';
import type { N8nRelease } from './releases';

/**
 * A ready n8n of `release` with the package installed from its packed tarball, in a fresh user
 * folder: installs n8n on first use (cached), builds and packs the package unless `tarball` is
 * given (a suite running several releases packs once), installs the tarball.
 */
export async function prepareN8n(release: N8nRelease, log: Log, options: { userFolderPrefix?: string; tarball?: string } = {}): Promise<N8nCli> {
	const runtime = await ensureN8n(release, log);
	const tarball = options.tarball ?? (await buildAndPack(log));
	const userFolder = createUserFolder(options.userFolderPrefix);
	await installTarball(userFolder, tarball, log);
	return new N8nCli(runtime, userFolder);
}
