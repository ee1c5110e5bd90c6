import { join, resolve } from 'node:path';

/** The n8n release the package is tested in: the newest that installs here (see the README's Compatibility). */
export const N8N_VERSION = '1.123.81';

export const PACKAGE_NAME = 'n8n-nodes-document-extraction';

/** Node types as n8n names the nodes of an installed community package. */
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.documentExtraction`,
	poller: `${PACKAGE_NAME}.documentExtractionPoller`,
} as const;

export const REPO_ROOT = resolve(__dirname, '..', '..');

/** Ignored by git: the n8n install and the packed tarball, reused between runs. */
export const CACHE_DIR = join(REPO_ROOT, '.n8n-cache');
export const N8N_INSTALL_DIR = join(CACHE_DIR, 'n8n');
/** Written last by the installer: its presence means the install finished. */
export const N8N_READY_MARKER = join(N8N_INSTALL_DIR, `.ready-${N8N_VERSION}`);
export const N8N_BIN = join(N8N_INSTALL_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
export const PACK_DIR = join(CACHE_DIR, 'pack');

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
export const SAMPLES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'samples');
export const DEMO_OUTPUT_DIR = join(REPO_ROOT, 'demo-output');
