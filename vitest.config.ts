import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
	resolve: {
		// n8n-workflow ships ESM and CJS builds; the package's own code is CJS, so tests must
		// see the CJS build too or `instanceof NodeApiError` compares two different classes.
		alias: { 'n8n-workflow': require.resolve('n8n-workflow') },
	},
	test: {
		include: ['test/**/*.test.ts'],
		exclude: ['test/e2e/**', 'test/faults/**', 'node_modules/**'],
		env: {
			// n8n-core writes `<folder>/.n8n`; keep it out of the user's home.
			N8N_USER_FOLDER: mkdtempSync(join(tmpdir(), 'n8n-docx-test-')),
		},
		testTimeout: 30_000,
		hookTimeout: 30_000,
		pool: 'forks',
	},
});
