/**
 * `npm run n8n:install [-- --n8n 1|2|all]`: installs the n8n releases the demo and the end-to-end
 * suites run in (default: both lines), into the shared cache (see scripts/n8n/paths.ts).
 */
import { cleanUp, cleanUpOnSignals } from './n8n/cleanup';
import { ensureN8n } from './n8n/install';
import { selectReleases } from './n8n/releases';

cleanUpOnSignals();
const log = (message: string) => console.log(message);

async function main(): Promise<void> {
	for (const release of selectReleases(process.argv.slice(2), ['1', '2'])) await ensureN8n(release, log);
}

main()
	.catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	})
	.finally(() => cleanUp());
