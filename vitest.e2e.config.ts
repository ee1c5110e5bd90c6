import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: the packed package inside a real n8n (CLI), against the local sandbox.
 * Files run one after the other: they share one n8n user folder (one SQLite database), and each
 * n8n start takes both cores for seconds.
 */
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.test.ts'],
		globalSetup: ['test/e2e/globalSetup.ts'],
		fileParallelism: false,
		pool: 'forks',
		testTimeout: 5 * 60_000,
		// The first run installs n8n inside globalSetup (several minutes).
		hookTimeout: 20 * 60_000,
	},
});
