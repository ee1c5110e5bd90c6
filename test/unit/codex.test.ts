import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionPoller } from '../../nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.ts';

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string };

interface Codex {
	node: string;
	categories: string[];
	subcategories?: Record<string, string[]>;
	alias?: string[];
}

const nodes = [
	{ codex: 'nodes/DocumentExtraction/DocumentExtraction.node.json', description: new DocumentExtraction().description },
	{ codex: 'nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.json', description: new DocumentExtractionPoller().description },
];

/**
 * The codex decides where n8n's node panel lists a node. Filed under AI > Tools, a node is offered
 * only from an AI Agent's tool connector and vanishes from the panel a user searches (issue 11);
 * n8n derives the agents' tool variant from `usableAsTool` on its own. The editor suite checks the
 * panel itself; this catches the mistake in a second.
 */
describe.each(nodes)('codex $codex', ({ codex, description }) => {
	const data = JSON.parse(readFileSync(join(ROOT, codex), 'utf8')) as Codex;

	it('names the node as n8n registers it (<package>.<name>)', () => {
		expect(data.node).toBe(`${manifest.name}.${description.name}`);
	});

	it('is listed in the ordinary node panel, not only among AI tools', () => {
		expect(data.categories).not.toContain('AI');
		expect(data.subcategories ?? {}).toEqual({});
		expect(data.categories.length).toBeGreaterThan(0);
	});

	it('is found by the words users search for', () => {
		expect(data.alias?.map((word) => word.toLowerCase())).toEqual(expect.arrayContaining(['ocr', 'invoice']));
	});
});
