/**
 * The Template picker's "By Name" mode: the editor takes any name (no ID check), in every
 * operation that has the picker; the pure matching rules (trimmed, exact, capital letters
 * included) and what an unknown, ambiguous or unusable name says.
 */
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { checkTemplateName, findTemplateByName } from '../../nodes/DocumentExtraction/actions/template/byName';
import { templateEditorIssues } from '../harness/templateEditor';

const { description } = new DocumentExtraction();

const OPERATIONS = ['extractWithTemplate', 'get', 'getFields', 'update', 'delete'];

/** The editor's issues for the Template parameter when `value` is typed into By Name. */
function editorIssues(value: string, operation = 'extractWithTemplate'): string[] {
	return templateEditorIssues('name', value, operation);
}

describe('Template > By Name in the editor', () => {
	it('is the third mode of every template picker, after From List and By ID', () => {
		const pickers = description.properties.filter((property) => property.name === 'templateId');
		expect(pickers.map((picker) => picker.displayOptions?.show?.operation)).toEqual(expect.arrayContaining(OPERATIONS.map((operation) => [operation])));
		for (const picker of pickers) {
			expect(picker.modes?.map((mode) => [mode.name, mode.displayName, mode.type])).toEqual([
				['list', 'From List', 'list'],
				['id', 'By ID', 'string'],
				['name', 'By Name', 'string'],
			]);
			expect(picker.modes?.[2].placeholder).toBe('e.g. Invoice');
		}
	});

	it.each(OPERATIONS)('takes a name with spaces in %s (what By ID refuses)', (operation) => {
		expect(editorIssues('Supplier invoice', operation)).toEqual([]);
		expect(editorIssues('={{ $json.template }}', operation)).toEqual([]);
	});
});

const templates = (...names: string[]) => names.map((name, index) => ({ scanner_id: `scn_${index + 1}`, name }));
const READY_MADE = templates('Invoice', 'Receipt', 'Delivery note', 'Quote', 'Purchase order', 'ID and passport', 'Business card', 'Bank statement');

describe('findTemplateByName', () => {
	it('finds the one template of that name', () => {
		expect(findTemplateByName(READY_MADE, 'Bank statement')).toEqual({ ok: true, id: 'scn_8' });
	});

	it('ignores blanks around the name, on either side', () => {
		expect(findTemplateByName(READY_MADE, '  Invoice\t')).toEqual({ ok: true, id: 'scn_1' });
		expect(findTemplateByName(templates(' Supplier order '), 'Supplier order')).toEqual({ ok: true, id: 'scn_1' });
	});

	it('matches capital letters and inner spaces exactly, and suggests the name that differs only in case', () => {
		const lower = findTemplateByName(READY_MADE, 'invoice');
		expect(lower).toMatchObject({ ok: false, message: 'No template in this account is named "invoice"' });
		expect(lower.ok || lower.description).toMatch(/^Did you mean "Invoice"\? Names must match exactly, capital letters included\./);
		expect(findTemplateByName(READY_MADE, 'Bank  statement').ok).toBe(false);
	});

	it('suggests a name one or two typos away, never a short name far from it', () => {
		expect(findTemplateByName(READY_MADE, 'Invoce')).toMatchObject({ ok: false, description: expect.stringMatching(/^Did you mean "Invoice"\? /) });
		expect(findTemplateByName(READY_MADE, 'Bank statment')).toMatchObject({ ok: false, description: expect.stringMatching(/^Did you mean "Bank statement"\? /) });
		expect(findTemplateByName(READY_MADE, 'Supplier bill')).toMatchObject({ ok: false, description: expect.stringMatching(/^Names must match exactly/) });
		expect(findTemplateByName(templates('ID'), 'IT')).toMatchObject({ ok: false, description: expect.stringMatching(/^Names must match exactly/) });
	});

	it('names at most five of the account\'s templates, the closest first, and says how to create one', () => {
		const result = findTemplateByName(READY_MADE, 'statement');
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.message).toBe('No template in this account is named "statement"');
		expect(result.description).toBe(
			'Names must match exactly, capital letters included. This account\'s templates include "Bank statement", "Business card", "Delivery note", "ID and passport", "Invoice" and 3 more. ' +
				'Create the template with Template > Create (or in the service\'s app), or pick one From List.',
		);
	});

	it('says when the account has no template at all', () => {
		const result = findTemplateByName([], 'Invoice');
		expect(result.ok || result.description).toMatch(/^This account has no templates\. Create the template with Template > Create/);
	});

	it('refuses a name several templates share: how many, their IDs, and to pick From List or By ID', () => {
		const result = findTemplateByName([...READY_MADE, { scanner_id: 'scn_own', name: 'Invoice ' }], 'Invoice');
		expect(result).toEqual({
			ok: false,
			message: '2 templates in this account are named "Invoice"',
			description: 'A name must lead to one template. Pick the one you mean From List, or By ID (their IDs: scn_1, scn_own), or rename the others with Template > Update.',
		});
	});

	it('lists at most five IDs of templates sharing a name', () => {
		const many = Array.from({ length: 7 }, (_, index) => ({ scanner_id: `id_${index}`, name: 'Copy' }));
		const result = findTemplateByName(many, 'Copy');
		expect(result).toMatchObject({ ok: false, message: '7 templates in this account are named "Copy"' });
		expect(result.ok || result.description).toContain('(their IDs: id_0, id_1, id_2, id_3, id_4 and 2 more)');
	});

	it('shows names without control characters and shortens long ones', () => {
		const result = findTemplateByName(templates('Receipt'), `Bad\u0007name ${'x'.repeat(80)}`);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.message).toBe(`No template in this account is named "Bad?name ${'x'.repeat(48)}..."`);
	});
});

describe('checkTemplateName', () => {
	it('trims the name; a number from an expression is its text', () => {
		expect(checkTemplateName('  Invoice ')).toEqual({ ok: true, name: 'Invoice' });
		expect(checkTemplateName(2024)).toEqual({ ok: true, name: '2024' });
	});

	it.each([[''], ['   '], [undefined], [null]])('refuses an empty name (%j)', (value) => {
		expect(checkTemplateName(value)).toEqual({
			ok: false,
			message: 'No template name was given',
			description: 'Type the template\'s name as the list shows it (e.g. Invoice), or map it with an expression (e.g. {{ $json.template }})',
		});
	});

	it('says what an expression gave where one name belongs', () => {
		expect(checkTemplateName(['Invoice', 'Receipt'])).toMatchObject({ ok: false, message: 'The template name is a list of 2 values, not one name' });
		expect(checkTemplateName({ name: 'Invoice' })).toMatchObject({ ok: false, message: 'The template name is an object (with "name"), not a name' });
		expect(checkTemplateName(true)).toMatchObject({ ok: false, message: 'The template name is true, not a name' });
	});
});
