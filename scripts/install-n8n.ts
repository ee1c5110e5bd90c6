/** `npm run n8n:install`: installs the n8n the demo and the end-to-end tests run in (cached in .n8n-cache/). */
import { ensureN8n } from './n8n/install';
import { cleanUp, cleanUpOnSignals } from './n8n/cleanup';

cleanUpOnSignals();
ensureN8n((message) => console.log(message))
	.catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	})
	.finally(() => cleanUp());
