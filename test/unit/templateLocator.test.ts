/**
 * The Template picker's "By ID" mode: the editor marks an ID that cannot be one (n8n's resource
 * locator validation, run here with n8n's own NodeHelpers), and the run-time check never refuses
 * an ID the editor accepted.
 */
import { describe, expect, it } from 'vitest';

import { TEMPLATE_ID_PATTERN } from '../../nodes/DocumentExtraction/actions/template/locator';
import { checkTemplateId } from '../../nodes/shared/preflight/ids';
import { seededRandom } from '../../sandbox/src/random';
import { templateEditorIssues } from '../harness/templateEditor';

/** The editor's issues for the Template parameter when `value` is typed into By ID. */
function editorIssues(value: string, operation = 'extractWithTemplate'): string[] {
	return templateEditorIssues('id', value, operation);
}

/** As n8n applies the pattern: anchored at both ends. */
const editorAccepts = (value: string) => new RegExp(`^${TEMPLATE_ID_PATTERN}$`).test(value);

describe('Template > By ID in the editor', () => {
	it.each(['3f1c2a9e-7b4d-4c1e-9a2f-0d6e5b8c1a7f', '3F1C2A9E-7B4D-4C1E-9A2F-0D6E5B8C1A7F', 'scn_1', 'invoice', 'tpl.2026~v2', ' scn_1 ', 'a1B2+c3D4==', 'org:tpl:7'])('accepts %j', (value) => {
		expect(editorIssues(value)).toEqual([]);
	});

	it.each([
		['a template name with spaces', 'Supplier invoice'],
		['a URL', 'https://app.example.com/scanners/3f1c2a9e'],
		['a path', 'scanners/3f1c2a9e'],
		['a Windows path', 'scanners\\3f1c2a9e'],
		['a query', 'scn_1?x=1'],
		['quotes', '"scn_1"'],
		['single quotes', "'scn_1'"],
		['a dot', '.'],
		['two dots', '..'],
		['a line break', 'scn_1\nscn_2'],
	])('marks %s as not a template ID', (_name, value) => {
		expect(editorIssues(value)).toEqual([expect.stringMatching(/^Not a template ID\. Pick the template from the list/)]);
		expect(editorAccepts(value)).toBe(false);
	});

	it('checks every operation that takes a template', () => {
		for (const operation of ['extractWithTemplate', 'get', 'update', 'delete']) expect(editorIssues('Supplier invoice', operation), operation).toHaveLength(1);
	});

	it('leaves an expression to the run-time check', () => {
		expect(editorIssues('={{ $json.template_id }}')).toEqual([]);
	});
});

describe('the run-time check and the editor agree', () => {
	it('accepts at run time every ID the editor accepts', () => {
		const random = seededRandom(11);
		const alphabet = 'aZ09-_.~ /:"\'\t\\%?#';
		const samples = Array.from({ length: 5000 }, () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
		const accepted = samples.filter(editorAccepts);
		expect(accepted.length).toBeGreaterThan(200);
		for (const id of accepted) expect(checkTemplateId(id), JSON.stringify(id)).toEqual({ ok: true, id: id.trim() });
	});

	it('refuses in the editor every ID the run-time check refuses', () => {
		for (const id of ['', ' ', '.', '..', ' .. ', 'scn\u0000', 'scn\u007f', '\t']) {
			expect(checkTemplateId(id).ok, JSON.stringify(id)).toBe(false);
			expect(editorAccepts(id), JSON.stringify(id)).toBe(false);
		}
	});
});
