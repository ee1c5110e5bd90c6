/**
 * n8n 3.0 ships only as a Docker image, so it cannot run here; these are the checks of its upgrade
 * rules (packages/cli/src/modules/breaking-changes/rules/v3/ in n8n's repository) that apply to a
 * community package, made on this package. The binary-data rule (no in-memory mode: the file is
 * read by id) is held by the engine tests in test/node/actionNode.storedBinary.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node';
import { DocumentExtractionPoller } from '../../nodes/DocumentExtractionPoller/DocumentExtractionPoller.node';

const ROOT = join(__dirname, '..', '..');
const descriptions: INodeTypeDescription[] = [new DocumentExtraction().description, new DocumentExtractionPoller().description];

describe('what n8n 3.0 changes, checked on this package', () => {
	it('declares n8nNodesApiVersion 1 (n8n 2.x refuses a package declaring 3)', () => {
		const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { n8n: { n8nNodesApiVersion: number } };
		expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
	});

	it.each(descriptions.map((description) => [description.displayName, description] as const))(
		'%s: no defaults.color (removed from node descriptions in 3.0)',
		(_name, description) => {
			expect(description.defaults).not.toHaveProperty('color');
		},
	);

	it('the example workflows call no $getPairedItem (removed in 3.0)', () => {
		const examples = readdirSync(join(ROOT, 'examples')).filter((file) => file.endsWith('.json'));
		expect(examples.length).toBeGreaterThan(0);
		for (const file of examples) expect(readFileSync(join(ROOT, 'examples', file), 'utf8'), file).not.toContain('$getPairedItem');
	});
});
