import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

import { prepareN8n } from '../../scripts/n8n/environment';
import { stopAllChildren } from '../../scripts/n8n/processes';

declare module 'vitest' {
	export interface ProvidedContext {
		n8nBin: string;
		n8nUserFolder: string;
	}
}

/**
 * Once per run: n8n installed (first time about 5 minutes, then cached in .n8n-cache/), the
 * package built, packed and installed from its tarball into a fresh n8n user folder that every
 * e2e file shares (they run one after the other).
 */
export default async function setup(project: TestProject): Promise<() => void> {
	const log = (message: string) => process.stdout.write(`[e2e setup] ${message}\n`);
	const cli = await prepareN8n(log, 'n8n-docx-e2e-');
	project.provide('n8nBin', cli.bin);
	project.provide('n8nUserFolder', cli.userFolder);
	return () => {
		stopAllChildren();
		rmSync(cli.userFolder, { recursive: true, force: true });
	};
}
