/**
 * `npm run dev`, as a contributor starts it: the package built and loaded into a real n8n next to
 * the sandbox. `--check` starts everything, checks that n8n's editor lists both nodes, and stops.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { REPO_ROOT } from '../../scripts/n8n/paths';
import { n8n } from './support';

describe(`npm run dev on n8n ${n8n().version}`, () => {
	it('starts n8n with the package loaded and the sandbox running, and says where', { timeout: 600_000 }, () => {
		const line = n8n().version.split('.')[0];
		const run = spawnSync('npx', ['tsx', 'scripts/dev.ts', '--check', '--n8n', line], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 580_000 });
		const output = `${run.stdout}\n${run.stderr}`;
		expect(run.status, output.slice(-3000)).toBe(0);
		expect(output).toMatch(new RegExp(`n8n ${n8n().version.replace(/\./g, '\\.')} is running with n8n-nodes-document-extraction loaded from \\S+ \\(as CUSTOM\\.documentExtraction, CUSTOM\\.documentExtractionPoller\\)`));
		expect(output).toMatch(/Editor: +http:\/\/127\.0\.0\.1:\d+ +\(sign in as dev@example\.com/);
		expect(output).toMatch(/Sandbox: +http:\/\/127\.0\.0\.1:\d+ +\(credential "Document Extraction \(sandbox\)"/);
	});
});
