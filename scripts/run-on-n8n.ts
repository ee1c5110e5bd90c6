/**
 * `npm run test:e2e` and `npm run test:ui`: a real-n8n suite run once per n8n release.
 *
 *   tsx scripts/run-on-n8n.ts <e2e|ui> [--n8n 1|2|1,2|all] [more vitest arguments]
 *
 * Installs each release on first use (cached, see scripts/n8n/paths.ts), packs the package once,
 * then runs the suite's vitest config with N8N_LINE set, and prints `n8n <version>` and the outcome
 * for every release it ran on. Exits non-zero when any run failed.
 */
import { spawnSync } from 'node:child_process';

import { cleanUp, cleanUpOnSignals } from './n8n/cleanup';
import { ensureN8n } from './n8n/install';
import { buildAndPack } from './n8n/packageTarball';
import { REPO_ROOT } from './n8n/paths';
import { selectReleases } from './n8n/releases';

const SUITES = { e2e: 'vitest.e2e.config.ts', ui: 'vitest.ui.config.ts' } as const;

const log = (message: string) => console.log(message);

async function main(): Promise<void> {
	cleanUpOnSignals();
	const [suite, ...rest] = process.argv.slice(2);
	const config = SUITES[suite as keyof typeof SUITES];
	if (!config) throw new Error(`Usage: run-on-n8n.ts <${Object.keys(SUITES).join('|')}> [--n8n 1|2|all] [vitest arguments]`);
	const releases = selectReleases(rest, ['1', '2']);
	const vitestArgs = withoutN8nFlag(rest);

	const tarball = await buildAndPack(log);
	const outcomes: string[] = [];
	for (const release of releases) {
		log(`\n== n8n ${release.version}: ${suite} suite`);
		const installStarted = Date.now();
		await ensureN8n(release, log);
		const started = Date.now();
		const result = spawnSync('npx', ['vitest', 'run', '--config', config, ...vitestArgs], {
			cwd: REPO_ROOT,
			stdio: 'inherit',
			env: { ...process.env, N8N_LINE: release.line, PACKED_TARBALL: tarball },
		});
		const passed = result.status === 0;
		const line = `n8n ${release.version}: ${suite} ${passed ? 'passed' : 'FAILED'} in ${minutes(Date.now() - started)} (install check ${minutes(started - installStarted)})`;
		log(line);
		outcomes.push(line);
		if (!passed) process.exitCode = 1;
	}
	log(`\n== ${suite} suite summary`);
	for (const outcome of outcomes) log(outcome);
}

function withoutN8nFlag(args: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--n8n') i++;
		else if (!args[i].startsWith('--n8n=')) out.push(args[i]);
	}
	return out;
}

function minutes(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

main()
	.catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	})
	.finally(() => cleanUp());
