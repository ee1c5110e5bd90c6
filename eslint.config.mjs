// Mirrors what `n8n-node lint` (@n8n/node-cli) runs; that CLI does not install on our build
// machines, so its configuration is spelt out here.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import importX from 'eslint-plugin-import-x';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const communityRecommended = n8nCommunityNodesPlugin.configs.recommended;

/** package.json is linted as a JavaScript expression, as n8n's own config does. */
const packageJson = {
	files: ['package.json'],
	languageOptions: {
		parser: tseslint.parser,
		parserOptions: { extraFileExtensions: ['.json'] },
	},
	plugins: { '@n8n/community-nodes': communityRecommended.plugins['@n8n/community-nodes'], 'n8n-nodes-base': n8nNodesBase },
	rules: {
		...Object.fromEntries(
			Object.entries(communityRecommended.rules).filter(([name]) =>
				/package|dependencies|overrides|lifecycle|author|homepage|files-array|peer/.test(name),
			),
		),
		...n8nNodesBase.configs.community.rules,
	},
};

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-cache/**', 'demo-output/**', 'coverage/**', 'gulpfile.js', '**/*.mjs', '**/*.js'] },
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, ...tseslint.configs.recommended, communityRecommended, importX.flatConfigs.recommended, importX.flatConfigs.typescript],
		settings: { 'import-x/resolver': { typescript: true, node: true } },
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// As in n8n-node lint: documentation URLs may be full URLs.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// As in n8n-node lint: NodeConnectionTypes.Main (the community rule) replaces ['main'].
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		// The sandbox, the test harness and the scripts are Node programs that never ship
		// (`files` is ["dist"], and tsc builds only nodes/ and credentials/). The runtime rules
		// that guard code running inside n8n (no Node built-ins, no timers, no process) do not
		// apply to a stand-alone HTTP server or a test runner; everything else still does.
		files: ['test/**/*.ts', 'scripts/**/*.ts', '*.config.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			// The demo, the e2e tests and the benchmark start n8n and the sandbox as child processes.
			'@n8n/community-nodes/no-dangerous-functions': 'off',
		},
	},
	{
		// Command-line entry points talk to their user on the terminal.
		files: ['test/sandbox/cli.ts', 'scripts/**/*.ts', 'test/**/*.bench.ts', 'test/faults/report.ts'],
		rules: { 'no-console': 'off' },
	},
	packageJson,
);
