import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_BIN, N8N_INSTALL_DIR, N8N_READY_MARKER, N8N_VERSION } from './paths';
import { runChecked } from './processes';
import { withHeartbeat, type Log } from './progress';

/**
 * n8n's own folder (never the package's package.json: the community rules forbid `overrides`
 * there). The overrides replace two packages the npm registry here cannot serve as n8n pins them
 * (see /work/shared/notes/real-n8n.md).
 */
const RUNTIME_PACKAGE_JSON = {
	name: 'n8n-runtime-for-e2e',
	private: true,
	description: 'The n8n the demo and the end-to-end tests run in (installed by scripts/n8n/install.ts)',
	dependencies: { n8n: N8N_VERSION },
	overrides: { linkedom: '0.18.12', xlsx: 'npm:xlsx@0.18.5' },
};

/** Installs n8n into the cache folder unless a finished install is there; returns n8n's bin script. */
export async function ensureN8n(log: Log): Promise<string> {
	if (existsSync(N8N_READY_MARKER) && existsSync(N8N_BIN)) {
		log(`n8n ${N8N_VERSION}: using the install in ${N8N_INSTALL_DIR}`);
		return N8N_BIN;
	}
	mkdirSync(N8N_INSTALL_DIR, { recursive: true });
	writeFileSync(join(N8N_INSTALL_DIR, 'package.json'), `${JSON.stringify(RUNTIME_PACKAGE_JSON, null, 2)}\n`);

	// Install scripts stay off: isolated-vm's native build wants Node 24. sqlite3 is the one native
	// module n8n needs here, so it is built on its own below.
	await withHeartbeat(log, `Installing n8n ${N8N_VERSION} into ${N8N_INSTALL_DIR} (about 1,900 packages; 3-5 minutes the first time)`, () =>
		runChecked('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: N8N_INSTALL_DIR }),
	);
	await withHeartbeat(log, 'Building sqlite3 for n8n\'s database (about 75 seconds)', () =>
		runChecked('npx', ['--yes', 'node-gyp', 'rebuild'], { cwd: join(N8N_INSTALL_DIR, 'node_modules', 'sqlite3') }),
	);
	writeFileSync(N8N_READY_MARKER, `${new Date().toISOString()}\n`);
	log(`n8n ${N8N_VERSION} installed.`);
	return N8N_BIN;
}
