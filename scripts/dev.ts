/**
 * `npm run dev [-- --n8n 1] [-- --check]`: a real n8n with this package loaded and the sandbox of
 * the service running, for trying a change by hand, as n8n-nodes-starter's `n8n-node dev` does.
 *
 * - n8n: the newest 2.x by default (`--n8n 1` for 1.x), installed once into the cache.
 * - The package: built, then copied (not linked: linked, it would load this repository's own
 *   n8n-workflow, whose error classes are not n8n's) into the user folder's `.n8n/custom/`, where
 *   `tsc --watch` keeps compiling into it and n8n (N8N_DEV_RELOAD) reloads the nodes on each change.
 *   n8n names nodes found there `CUSTOM.documentExtraction` (as with n8n-node dev), so workflows
 *   made in this n8n use those type names.
 * - The sandbox, with a credential "Document Extraction (sandbox)" pointing at it.
 * - A user folder kept in the cache between runs (workflows and the owner survive); the owner is
 *   dev@example.com with the password printed below.
 *
 * `--check` starts everything, checks that n8n lists the package's nodes, and stops (the e2e
 * suite runs it).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { MANIFEST, corpusFile } from '../test/harness/corpusLocation';
import { startSandbox } from '../sandbox/src';
import { cleanUp, cleanUpOnSignals, onCleanup } from './n8n/cleanup';
import { N8nCli } from './n8n/cli';
import { ensureN8n } from './n8n/install';
import { CACHE_DIR, NODE_TYPES, PACKAGE_NAME, REPO_ROOT, SAMPLES_DIR } from './n8n/paths';
import { runChecked, startService } from './n8n/processes';
import { NEWEST_LINE, selectReleases } from './n8n/releases';
import { ownerSession, setUpOwner, startN8nServer, type Owner } from './n8n/server';
import { sandboxCredential } from './n8n/workflows';

const log = (message: string) => console.log(message);
const OWNER: Owner = { email: 'dev@example.com', password: 'Dev-password-1', firstName: 'Dev', lastName: 'Owner' };
const CREDENTIAL = { id: 'devSandboxCredential', name: 'Document Extraction (sandbox)' };

async function main(): Promise<void> {
	cleanUpOnSignals();
	const args = process.argv.slice(2);
	const check = args.includes('--check');
	const [release] = selectReleases(args.filter((arg) => arg !== '--check'), [NEWEST_LINE]);
	const runtime = await ensureN8n(release, log);

	const userFolder = join(CACHE_DIR, `dev-user-${release.line}`);
	const packageFolder = join(userFolder, '.n8n', 'custom', 'node_modules', PACKAGE_NAME);
	log('Building the package...');
	await runChecked('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT });
	rmSync(packageFolder, { recursive: true, force: true });
	mkdirSync(packageFolder, { recursive: true });
	writeFileSync(join(packageFolder, 'package.json'), readFileSync(join(REPO_ROOT, 'package.json')));
	cpSync(join(REPO_ROOT, 'dist'), join(packageFolder, 'dist'), { recursive: true });

	const sandbox = await startSandbox({ timing: 'realistic' });
	onCleanup(() => sandbox.stop());
	const cli = new N8nCli(runtime, userFolder);
	// The sample documents where a Read/Write Files node may read them at n8n's default file access,
	// and real photos of receipts and invoices when the real-world corpus is here (read by OCR).
	cpSync(SAMPLES_DIR, join(cli.filesFolder, 'samples'), { recursive: true });
	const photos = MANIFEST.filter((entry) => entry.name.startsWith('dev-invoices/') && /\.(jpe?g|png)$/i.test(entry.name)).flatMap((entry) => {
		const path = corpusFile(entry.name);
		return path ? [{ path, name: basename(entry.name) }] : [];
	});
	mkdirSync(join(cli.filesFolder, 'samples', 'photos'), { recursive: true });
	for (const photo of photos) cpSync(photo.path, join(cli.filesFolder, 'samples', 'photos', photo.name));
	await cli.importCredentials([sandboxCredential(sandbox.baseUrl, sandbox.demoKey, CREDENTIAL)]);

	const server = await startN8nServer(cli, { N8N_DEV_RELOAD: 'true' });
	onCleanup(() => server.stop());
	const freshOwner = !existsSync(join(userFolder, '.n8n', 'dev-owner'));
	if (freshOwner) {
		await setUpOwner(server, OWNER);
		writeFileSync(join(userFolder, '.n8n', 'dev-owner'), `${OWNER.email}\n`);
	}
	const nodeTypes = await listedNodeTypes(server.url, await ownerSession(server, OWNER));
	// n8n names the nodes of its custom folder CUSTOM.<node>, as with n8n-node dev.
	const expected = Object.values(NODE_TYPES).map((type) => type.replace(`${PACKAGE_NAME}.`, 'CUSTOM.'));
	const missing = expected.filter((type) => !nodeTypes.includes(type));
	if (missing.length > 0) throw new Error(`n8n did not load ${missing.join(', ')}:\n${server.service.output().slice(-3000)}`);

	log(`\nn8n ${release.version} is running with ${PACKAGE_NAME} loaded from ${packageFolder} (as ${expected.join(', ')})`);
	log(`  Editor:     ${server.url}  (sign in as ${OWNER.email} / ${OWNER.password})`);
	log(`  Sandbox:    ${sandbox.baseUrl}  (credential "${CREDENTIAL.name}", demo account, free plan)`);
	log(`  User folder ${userFolder} (kept between runs)`);
	log(`  Files:      ${cli.filesFolder} (n8n's ~/.n8n-files; the samples are in .n8n-files/samples, e.g. .n8n-files/samples/invoice-en.pdf)`);
	log(photos.length > 0 ? `              ${photos.length} real photos of receipts and invoices in .n8n-files/samples/photos, read by the sandbox's OCR` : '              No real photos: the corpus is not here (npm run corpus fetches it)');
	if (check) return;

	// Compiles each change straight into the copy n8n loads; N8N_DEV_RELOAD picks it up.
	const watcher = startService('npx', ['tsc', '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput', '--outDir', join(packageFolder, 'dist')], { cwd: REPO_ROOT });
	onCleanup(() => watcher.stop());
	openInBrowser(server.url);
	log('\nWatching nodes/ and credentials/: save a file and reload the editor page. Ctrl+C stops everything.');
	await new Promise<never>(() => undefined);
}

/** The node types the editor lists (what the node panel shows). */
async function listedNodeTypes(url: string, cookie: string): Promise<string[]> {
	const response = await fetch(`${url}/types/nodes.json`, { headers: { cookie } });
	if (!response.ok) throw new Error(`GET /types/nodes.json answered ${response.status}`);
	return ((await response.json()) as Array<{ name: string }>).map((type) => type.name);
}

/** Opens the editor where there is a desktop (macOS, or Linux with a display); elsewhere the URL is printed. */
function openInBrowser(url: string): void {
	if (process.platform === 'darwin') startService('open', [url]);
	else if (process.platform === 'linux' && process.env.DISPLAY && existsSync('/usr/bin/xdg-open')) startService('/usr/bin/xdg-open', [url]);
}

main()
	.catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	})
	.finally(async () => {
		if (process.argv.includes('--check') || process.exitCode) await cleanUp();
	});
