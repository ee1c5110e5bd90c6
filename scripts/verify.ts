/**
 * `npm run verify`: builds and packs the package as npm would publish it, then runs the checks of
 * n8n's community-package scanner (@n8n/scan-community-package, what n8n runs before verifying a
 * package) offline, on the sources and on the tarball. Exits non-zero, with every finding
 * printed, if either has one.
 *
 * `npm run verify -- --source <folder> --tarball <file.tgz>` scans another package instead
 * (nothing is built): how the tests show that a bad package fails.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { buildAndPack } from './n8n/packageTarball';
import { REPO_ROOT } from './n8n/paths';
import { scanPackage } from './verify/scan';

async function main(): Promise<number> {
	const { values } = parseArgs({ options: { source: { type: 'string' }, tarball: { type: 'string' } } });
	if ((values.source === undefined) !== (values.tarball === undefined)) {
		throw new Error('--source and --tarball go together');
	}
	const started = Date.now();
	const sourceDir = values.source === undefined ? REPO_ROOT : resolve(values.source);
	const tarball = values.tarball === undefined ? await buildAndPack((message) => console.log(message)) : resolve(values.tarball);

	console.log(`Scanning with @n8n/scan-community-package (offline: the provenance check needs a published version)`);
	const parts = await scanPackage(sourceDir, tarball);
	for (const part of parts) {
		console.log(`${part.passed ? 'PASS' : 'FAIL'} ${part.label}`);
		if (part.report) console.log(part.report.replace(/^/gm, '    '));
	}
	const failed = parts.filter((part) => !part.passed).length;
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(failed === 0 ? `verify: no findings (${seconds} s)` : `verify: ${failed} of ${parts.length} scans failed (${seconds} s)`);
	return failed === 0 ? 0 : 1;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 2;
	},
);
