import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

import { prepareN8n } from '../../scripts/n8n/environment';
import type { N8nRuntime } from '../../scripts/n8n/install';
import { stopAllChildren } from '../../scripts/n8n/processes';
import { releaseOfLine } from '../../scripts/n8n/releases';

declare module 'vitest' {
	export interface ProvidedContext {
		n8nRuntime: N8nRuntime;
		n8nUserFolder: string;
	}
}

/**
 * Once per run: the n8n release named by N8N_LINE (default: the newest line; `npm run test:e2e`
 * runs every line, one after the other) installed or taken from the cache, the package installed
 * from its packed tarball (PACKED_TARBALL, else built and packed here) into a fresh n8n user folder
 * that every file of the suite shares (they run one after the other).
 */
export default async function setup(project: TestProject): Promise<() => void> {
	const release = releaseOfLine(process.env.N8N_LINE);
	const log = (message: string) => process.stdout.write(`[setup] ${message}\n`);
	log(`n8n ${release.version}`);
	const cli = await prepareN8n(release, log, { userFolderPrefix: 'n8n-docx-e2e-', tarball: process.env.PACKED_TARBALL });
	project.provide('n8nRuntime', cli.runtime);
	project.provide('n8nUserFolder', cli.userFolder);
	return () => {
		stopAllChildren();
		rmSync(cli.userFolder, { recursive: true, force: true });
	};
}
