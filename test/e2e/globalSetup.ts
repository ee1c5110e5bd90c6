import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

import { prepareN8n } from '../../scripts/n8n/environment';
import type { N8nRuntime } from '../../scripts/n8n/install';
import { stopAllChildren } from '../../scripts/n8n/processes';
import { releaseOfLine } from '../../scripts/n8n/releases';
import { packAndInstallSandbox } from '../harness/installedSandbox';

declare module 'vitest' {
	export interface ProvidedContext {
		n8nRuntime: N8nRuntime;
		n8nUserFolder: string;
		/** Where the sandbox package is installed from its packed tarball; its command runs from there. */
		sandboxInstallDir: string;
	}
}

/**
 * Once per run: the n8n release named by N8N_LINE (default: the newest line; `npm run test:e2e`
 * runs every line, one after the other) installed or taken from the cache, the package installed
 * from its packed tarball (PACKED_TARBALL, else built and packed here) into a fresh n8n user folder
 * that every file of the suite shares (they run one after the other), and the sandbox package packed
 * and installed into an empty folder as its users get it (test/harness/installedSandbox.ts): each
 * file starts its command as a process of its own (`sandboxWithCredential` in support.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
	const release = releaseOfLine(process.env.N8N_LINE);
	const log = (message: string) => process.stdout.write(`[setup] ${message}\n`);
	log(`n8n ${release.version}`);
	const sandboxFolder = realpathSync(mkdtempSync(join(tmpdir(), 'n8n-docx-e2e-sandbox-')));
	const installSandbox = async () => {
		const { installDir } = await packAndInstallSandbox(sandboxFolder);
		log(`Installed document-extraction-sandbox into ${installDir}`);
		return installDir;
	};
	const removeSandbox = () => rmSync(sandboxFolder, { recursive: true, force: true });
	try {
		const tarball = process.env.PACKED_TARBALL;
		// Without a packed tarball prepareN8n builds the package, sandbox/ included: not beside the sandbox's own build.
		const [cli, sandboxInstallDir] = tarball
			? await Promise.all([prepareN8n(release, log, { userFolderPrefix: 'n8n-docx-e2e-', tarball }), installSandbox()])
			: [await prepareN8n(release, log, { userFolderPrefix: 'n8n-docx-e2e-' }), await installSandbox()];
		project.provide('n8nRuntime', cli.runtime);
		project.provide('n8nUserFolder', cli.userFolder);
		project.provide('sandboxInstallDir', sandboxInstallDir);
		return () => {
			stopAllChildren();
			rmSync(cli.userFolder, { recursive: true, force: true });
			removeSandbox();
		};
	} catch (error) {
		removeSandbox();
		throw error;
	}
}
