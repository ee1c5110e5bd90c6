import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionApi } from '../../credentials/DocumentExtractionApi.credentials';

const ROOT = join(__dirname, '..', '..');

interface Manifest {
	name: string;
	keywords: string[];
	homepage: string;
	author: { name: string; email: string };
	repository: { type: string; url: string };
	bugs: { url: string };
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/**
 * n8n's verification compares the npm package with its GitHub repository (repository URL, author,
 * links), and n8n lists packages by the `n8n-community-node-package` keyword. n8n's lint checks
 * that each field is there; this checks that they all name the same repository.
 */
describe('package.json metadata that n8n verification compares', () => {
	const repository = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository.url)?.[1];

	it('names a public GitHub repository as a git URL', () => {
		expect(manifest.repository.type).toBe('git');
		expect(repository).toBeDefined();
	});

	it('points homepage, bugs and the credential documentation at that repository', () => {
		expect(manifest.homepage).toBe(`${repository}#readme`);
		expect(manifest.bugs.url).toBe(`${repository}/issues`);
		expect(new DocumentExtractionApi().documentationUrl.startsWith(`${repository}#`)).toBe(true);
	});

	it('has an author with a name and an email, and the community-node keyword', () => {
		expect(manifest.author.name.trim()).not.toBe('');
		expect(manifest.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
		expect(manifest.keywords).toContain('n8n-community-node-package');
	});
});
