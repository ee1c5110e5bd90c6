import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import type { N8nRelease } from './releases';

export const PACKAGE_NAME = 'n8n-nodes-document-extraction';

/** Node types as n8n names the nodes of an installed community package. */
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.documentExtraction`,
	poller: `${PACKAGE_NAME}.documentExtractionPoller`,
} as const;

export const REPO_ROOT = resolve(__dirname, '..', '..');

/**
 * The n8n installs (1.7 to 2.6 GB each) live outside the clone, so every clone, the demo and the
 * test suites share one install per release. `N8N_CACHE_DIR` moves it (e.g. to measure a fresh install).
 */
export const CACHE_DIR = process.env.N8N_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), PACKAGE_NAME);

export function installDirOf(release: N8nRelease): string {
	return join(CACHE_DIR, `n8n-${release.version}`);
}

export function nodeRuntimeDirOf(nodeVersion: string): string {
	return join(CACHE_DIR, `node-${nodeVersion}`);
}

/** Ignored by git: the packed tarball of this clone. */
export const PACK_DIR = join(REPO_ROOT, '.n8n-cache', 'pack');

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
export const SAMPLES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'samples');
export const DEMO_OUTPUT_DIR = join(REPO_ROOT, 'demo-output');
