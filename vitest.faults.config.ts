import { defineConfig } from 'vitest/config';

import base from './vitest.config';

/**
 * `npm run test:faults`: the reliability and security suite (issue 7). It drives both nodes
 * through n8n's engine against the sandbox with fault injection, so it runs apart from `npm test`
 * and with long timeouts (one scenario paces 200 documents through a 60-requests-a-minute key).
 * The reporter prints the figures table at the end.
 */
export default defineConfig({
	...base,
	test: {
		...base.test,
		include: ['test/faults/**/*.faults.test.ts'],
		exclude: ['node_modules/**'],
		testTimeout: 300_000,
		hookTimeout: 60_000,
		// The files mostly wait (on the rate limit, Retry-After, timeouts), so two run side by side
		// even on a 2-core machine: the 200-document file alone takes about 3.5 minutes.
		maxWorkers: 2,
		reporters: ['default', './test/faults/report.ts', './test/harness/skipReport.ts'],
	},
});
