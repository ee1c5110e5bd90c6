import { createRequire } from 'node:module';
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
		exclude: ['test/e2e/**', 'test/ui/**', 'test/faults/**', 'node_modules/**'],
		// n8n-core writes `<folder>/.n8n`: a temporary folder per run, removed afterwards.
		globalSetup: ['test/harness/userFolder.setup.ts'],
		// In each test process: a settle time for charge marks fit for the test store.
		setupFiles: ['test/harness/markTiming.setup.ts'],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		pool: 'forks',
		// Most node tests wait on the sandbox's clock, not the CPU: two files at once, not
		// vitest's default of cores - 1 (one at a time on a 2-core machine): about 16 -> 9 min here.
		maxWorkers: 2,
		// Lists at the end what was skipped and why (qpdf or the real-world corpus missing).
		reporters: ['default', './test/harness/skipReport.ts'],
	},
});
