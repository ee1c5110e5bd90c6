import { defineConfig } from 'vitest/config';

/**
 * The editor suite: the packed package in a real `n8n start`, driven in Debian's Chromium as a
 * user would (node panel, parameter panels, credential modal, Execute step, output panel). One
 * file at a time: each holds an n8n server and a browser, and the machine has two cores.
 * Screenshots of every step are written to test-output/ui/<n8n version>/.
 */
export default defineConfig({
	test: {
		include: ['test/ui/**/*.test.ts'],
		globalSetup: ['test/e2e/globalSetup.ts'],
		fileParallelism: false,
		pool: 'forks',
		testTimeout: 3 * 60_000,
		hookTimeout: 20 * 60_000,
	},
});
