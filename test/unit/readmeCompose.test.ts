import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { parseCliArgs } from '../../sandbox/src/cliOptions';

/**
 * The README's Docker Compose file for n8n and the sandbox side by side. No Docker engine runs on
 * our build machines, so what can be held here is held: it parses, it installs the tarball that
 * `npm pack --workspace sandbox` writes for this version, and the sandbox's command line is one the
 * sandbox accepts, listening beyond loopback with its state in the mounted volume.
 */
const ROOT = join(__dirname, '..', '..');

interface Compose {
	services: Record<string, { image: string; command?: string; working_dir?: string; volumes?: string[] }>;
}

function readmeCompose(): Compose {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const block = /```yaml\n((?: {2})?services:[\s\S]*?)\n *```/.exec(readme);
	if (!block) throw new Error('README.md has no Compose file');
	return parse(block[1].replace(/^ {2}/gm, '')) as Compose;
}

describe("README's Compose file for n8n and the sandbox", () => {
	it('mounts the tarball this version packs and starts the sandbox listening beyond loopback, its state in its volume', () => {
		const { services } = readmeCompose();
		const { version } = JSON.parse(readFileSync(join(ROOT, 'sandbox', 'package.json'), 'utf8')) as { version: string };
		const sandbox = services.sandbox;
		expect(sandbox.volumes).toContain(`./document-extraction-sandbox-${version}.tgz:/opt/sandbox.tgz:ro`);
		expect(sandbox.volumes).toContain('sandbox_data:/data');

		const start = /&& npx document-extraction-sandbox (.*?)"?$/.exec(sandbox.command ?? '');
		expect(start).not.toBeNull();
		const command = parseCliArgs(start![1].split(' '), sandbox.working_dir!);
		if (command.help) throw new Error('the command asks for help');
		expect(command.options.host).toBe('0.0.0.0');
		expect(command.options.stateFile).toBe('/data/sandbox-data/state.json');
	});

	it('gives n8n the folder n8n 2.x reads files from', () => {
		expect(readmeCompose().services.n8n.volumes).toContain('./n8n-files:/home/node/.n8n-files');
	});
});
