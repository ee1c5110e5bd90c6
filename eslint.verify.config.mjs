// Offline equivalent of `@n8n/scan-community-package`: the community plugin's recommended config
// plus no-console over what ships (package.json, nodes/, credentials/). Run with
// `--no-inline-config`, so an eslint-disable comment cannot hide a finding.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

export default [
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tseslint.parser },
		...n8nCommunityNodesPlugin.configs.recommended,
		rules: { ...n8nCommunityNodesPlugin.configs.recommended.rules, 'no-console': 'error' },
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: n8nCommunityNodesPlugin.configs.recommended.plugins,
		rules: n8nCommunityNodesPlugin.configs.recommended.rules,
	},
];
