// `npm run lint` runs `n8n-node lint` (@n8n/node-cli), which runs `eslint .` in the package folder:
// ESLint loads this file. What ships (nodes/, credentials/, package.json) gets n8n's stock config
// for community packages (`@n8n/node-cli/eslint`, the n8n Cloud one) unchanged; the extensions
// below only touch files that never ship (`files` in package.json is ["dist"], and tsc builds only
// nodes/ and credentials/). `npm run verify` lints what ships again with the scanner n8n runs,
// with inline eslint-disable comments ignored.
import { config } from '@n8n/node-cli/eslint';

export default [
	...config,
	{
		// Generated or downloaded, never written by hand: the packed package (.n8n-cache), the demo's
		// output, coverage reports, the generated sample documents, the editor suite's screenshots.
		// The sandbox package's build output (sandbox/dist, compiled from sandbox/src).
		ignores: ['.n8n-cache/**', 'demo-output/**', 'coverage/**', 'test/fixtures/generated/**', 'test-output/**', 'sandbox/dist/**'],
	},
	{
		// The sandbox (its own package in sandbox/), the test harness, the benchmark and the scripts
		// are Node programs (an HTTP server, test runners, n8n launchers), not code that runs inside
		// n8n. The rules that guard code running inside n8n (no node:* imports, no process, no
		// timers) do not apply to them; every other rule of the stock config still does.
		files: ['sandbox/**/*.{ts,js}', 'test/**/*.ts', 'scripts/**/*.ts', '*.config.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			// The demo, the e2e tests and the benchmark start n8n and the sandbox as child processes.
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			// NodeApiError/NodeOperationError are how a node reports to n8n's UI; a test helper that
			// retries a browser click re-throws the browser's own error to the test runner.
			'@n8n/community-nodes/require-node-api-error': 'off',
		},
	},
	{
		// Command-line entry points talk to their user on the terminal.
		files: ['sandbox/src/cli.ts', 'scripts/**/*.ts', 'test/**/*.bench.ts', 'test/faults/report.ts'],
		rules: { 'no-console': 'off' },
	},
];
