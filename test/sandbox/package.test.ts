/**
 * The sandbox as its users get it: sandbox/ packed as npm packs it for publishing (its prepack
 * builds dist/), the tarball installed with npm into an empty folder outside the repository (so
 * nothing resolves from the repository's node_modules: the package's own dependencies must be
 * enough), and its command started there with plain node. It prints what goes into the
 * credential, answers with the demo key, serves the repository's docs/openapi.json unchanged, stops
 * on SIGTERM and keeps a template id across a new start on the same data folder.
 *
 * About 10 s: tsc, and npm installing from its cache (`--prefer-offline`: `npm ci` of the
 * repository has put every dependency there, tesseract.js's language data included).
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../contract/documents';
import { call, fileForm, waitForResult, type Target } from '../contract/target';
import { packAndInstallSandbox, run, SANDBOX_COMMAND as COMMAND, startInstalledSandbox, stopInstalledSandbox, type PackedSandbox, type RunningSandbox } from '../harness/installedSandbox';

const ROOT = join(__dirname, '..', '..');

interface Running extends RunningSandbox {
	target: Target;
}

async function start(installDir: string, data: string): Promise<Running> {
	const running = await startInstalledSandbox(installDir, ['--port', '0', '--timing', 'fast', '--data', data]);
	return { ...running, target: { baseUrl: running.baseUrl, apiKey: running.apiKey } };
}

async function stop(running: Running): Promise<void> {
	expect(await stopInstalledSandbox(running)).toBe(0);
	expect(running.output()).toContain('Sandbox stopped; its state is in');
}

describe('the sandbox package (document-extraction-sandbox) packed, installed and run as users do', () => {
	const folder = realpathSync(mkdtempSync(join(tmpdir(), 'sandbox-package-')));
	const data = join(folder, 'data');
	let packed: PackedSandbox;
	let installDir: string;
	let running: Running | undefined;

	beforeAll(async () => {
		packed = await packAndInstallSandbox(folder);
		installDir = packed.installDir;
	}, 300_000);

	afterAll(async () => {
		if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
		rmSync(folder, { recursive: true, force: true });
	});

	it('packs its bin, its compiled dist/ and openapi.json, and no TypeScript source or test', () => {
		const files = packed.files.map((file) => file.path).sort();
		expect(files).toContain(`bin/${COMMAND}.js`);
		expect(files).toContain('dist/cli.js');
		expect(files).toContain('dist/index.js');
		expect(files).toContain('dist/index.d.ts');
		expect(files).toContain('dist/openapi.json');
		expect(files).toContain('package.json');
		expect(files).toContain('LICENSE');
		expect(files).toContain('README.md');
		expect(files.filter((path) => !/^(bin|dist)\//.test(path) && !['package.json', 'README.md', 'LICENSE'].includes(path))).toEqual([]);
		expect(files.filter((path) => /\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
		expect(files.filter((path) => /test/i.test(path))).toEqual([]);
	});

	it('installs with its own dependencies: the PDF readers and the OCR engine with its four languages', async () => {
		const installed = JSON.parse(readFileSync(join(installDir, 'node_modules', COMMAND, 'package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		};
		const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
		for (const name of ['pdf-lib', 'pdfjs-dist']) expect(installed.dependencies[name], name).toBe(root.devDependencies[name]);
		// Loaded from the install folder, where nothing of the repository can be found.
		const { stdout } = await run(
			process.execPath,
			[
				'-e',
				`const ocr = require('${COMMAND}/dist/extraction/ocr');
				 ocr.ocrAvailable().then((available) => {
				   console.log(JSON.stringify({ available, languages: ['eng', 'deu', 'fra', 'spa'].map((l) => ocr.languageDataFolder(l) ?? null), main: typeof require('${COMMAND}').startSandbox }));
				   return ocr.stopOcr();
				 });`,
			],
			{ cwd: installDir },
		);
		const found = JSON.parse(stdout) as { available: boolean; languages: Array<string | null>; main: string };
		expect(found.available).toBe(true);
		expect(found.main).toBe('function');
		for (const languageFolder of found.languages) {
			expect(languageFolder).not.toBeNull();
			expect(languageFolder!.startsWith(join(installDir, 'node_modules'))).toBe(true);
			expect(existsSync(languageFolder!)).toBe(true);
		}
	});

	it('its command prints the credential lines, answers with the demo key, serves docs/openapi.json, and keeps a template id across SIGTERM and a new start', { timeout: 120_000 }, async () => {
		running = await start(installDir, data);
		const first = running;
		expect(first.output()).toContain(`State        : kept in ${join(data, 'state.json')}`);
		const scanners = await call(first.target, 'GET', '/api/v1/scanners');
		expect(scanners.status).toBe(200);
		const list = scanners.body.scanners as Array<{ scanner_id: string; name: string }>;
		const invoiceId = list.find((scanner) => scanner.name === 'Invoice')?.scanner_id;
		expect(invoiceId).toBeDefined();
		const mineId = (await call(first.target, 'POST', '/api/v1/scanners', { json: { name: 'Mine' } })).body.scanner_id as string;

		const openapi = await fetch(`${first.target.baseUrl}/openapi.json`);
		expect(openapi.status).toBe(200);
		expect(await openapi.text()).toBe(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));

		// A PDF read through the installed pdfjs-dist.
		const upload = await call(first.target, 'POST', `/api/v1/scanners/${invoiceId}/upload`, { body: fileForm(await textPdf(), 'a.pdf', 'application/pdf') });
		expect(upload.status).toBe(202);
		const result = await waitForResult(first.target, upload.body.result_id as string);
		expect(result.body.status).toBe('done');
		const fields = (result.body.extracted_data as { fields: Array<{ name: string; value: unknown }> }).fields;
		expect(fields.find((field) => field.name === 'invoice_number')?.value).toBe('INV-2024-0042');
		await stop(first);

		running = await start(installDir, data);
		const second = running;
		try {
			const again = (await call(second.target, 'GET', '/api/v1/scanners')).body.scanners as Array<{ scanner_id: string; name: string }>;
			expect(again.find((scanner) => scanner.name === 'Invoice')?.scanner_id).toBe(invoiceId);
			expect(again.find((scanner) => scanner.name === 'Mine')?.scanner_id).toBe(mineId);
		} finally {
			await stop(second);
		}
	});

	it('npx finds the installed command', async () => {
		const { stdout } = await run('npx', ['--no-install', COMMAND, '--help'], { cwd: installDir });
		expect(stdout).toContain(`Usage: ${COMMAND} [options]`);
	});
});
