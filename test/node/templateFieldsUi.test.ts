/**
 * The template field editor (Template → Create / Update, "Using Fields Below"): name, type and
 * description in view, the rarely used settings under Options, and rows saved by version 0.1.0
 * (settings flat beside the name) still read. Checked with n8n's own parameter resolution, which
 * is what drops every value a description does not declare, in the editor and in a run alike.
 */
import nock from 'nock';
import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { NODE_TYPES } from '../harness/engine';
import { BASE, answer, jsonBody, runAction, trapAllRequests, useNock, type SeenRequest } from './actionNode.support';

useNock();

const description = new DocumentExtraction().description;
const node = (parameters: INodeParameters): INode => ({
	id: 'fields-ui',
	name: 'Document Extraction',
	type: NODE_TYPES.action,
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

/** What n8n keeps of the parameters: as the editor saves them (no defaults) and as a run sees them. */
function kept(parameters: INodeParameters, returnDefaults: boolean): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, parameters, returnDefaults, false, node(parameters), description) ?? {};
}

const createWith = (field: INodeParameters[]): INodeParameters => ({
	resource: 'template',
	operation: 'create',
	name: 'Supplier invoice',
	fieldsUi: { field },
});

/** Where in the field row n8n's editor would show `property` (by name; `options` by its own settings). */
function shownInRow(row: INodeParameters, name: string, predicate: (property: INodeProperties) => boolean = () => true): boolean {
	const fieldsUi = description.properties.find((property) => property.name === 'fieldsUi') as INodeProperties;
	const values = (fieldsUi.options as Array<{ values: INodeProperties[] }>)[0].values;
	const parameters = createWith([row]);
	return values
		.filter((property) => property.name === name && predicate(property))
		.some((property) => NodeHelpers.displayParameterPath(parameters, property, 'fieldsUi.field[0]', node(parameters), description));
}

describe('what the editor shows in a field row', () => {
	it('a new field: name, type, description and Options, none of the settings 0.1.0 kept beside them', () => {
		const row = { name: 'total', type: 'currency', description: '' };
		for (const name of ['name', 'type', 'description', 'options']) expect(shownInRow(row, name), name).toBe(true);
		for (const name of ['label', 'required', 'formatHint', 'examples', 'columns']) expect(shownInRow(row, name), name).toBe(false);
	});

	it('a table field: Columns, and Options without Format Hint and Examples', () => {
		const row = { name: 'lines', type: 'table' };
		expect(shownInRow(row, 'columns')).toBe(true);
		const tableOptions = (property: INodeProperties) => (property.options as INodeProperties[]).every((option) => !['formatHint', 'examples'].includes(option.name));
		expect(shownInRow(row, 'options', tableOptions)).toBe(true);
		expect(shownInRow(row, 'options', (property) => !tableOptions(property))).toBe(false);
	});

	it('a row saved by 0.1.0: the settings it holds stay in view (and editable) beside the name', () => {
		const row = { name: 'total', type: 'currency', label: 'Total', required: true, formatHint: '0.00', examples: '' };
		for (const name of ['label', 'required', 'formatHint']) expect(shownInRow(row, name), name).toBe(true);
		expect(shownInRow(row, 'examples')).toBe(false);
	});
});

describe('what n8n keeps of a field row', () => {
	it('keeps the settings under Options, and drops Format Hint and Examples a table field cannot have', () => {
		const parameters = createWith([
			{ name: 'total', type: 'currency', options: { label: 'Total', formatHint: '0.00' } },
			{ name: 'lines', type: 'table', options: { label: 'Lines', formatHint: 'ignored', examples: 'ignored' }, columns: { column: [{ name: 'qty' }] } },
		]);
		expect((kept(parameters, false).fieldsUi as { field: unknown[] }).field).toEqual([
			{ name: 'total', type: 'currency', options: { label: 'Total', formatHint: '0.00' } },
			{ name: 'lines', type: 'table', options: { label: 'Lines' }, columns: { column: [{ name: 'qty' }] } },
		]);
	});

	it('keeps the flat settings of a row saved by 0.1.0, for fields and columns', () => {
		const saved = [
			{ name: 'invoice_number', type: 'date', label: 'Invoice Date', required: true, formatHint: 'YYYY-MM-DD', examples: '2026-01-31' },
			{ name: 'lines', type: 'table', label: 'Lines', columns: { column: [{ name: 'qty', type: 'number', label: 'Qty', examples: '1, 2' }] } },
		];
		expect((kept(createWith(saved), false).fieldsUi as { field: unknown[] }).field).toEqual(saved);
	});

	it('adds no 0.1.0 settings to a new row when defaults are filled in for a run', () => {
		const [row] = (kept(createWith([{ name: 'total', type: 'currency' }]), true).fieldsUi as { field: Array<Record<string, unknown>> }).field;
		expect(Object.keys(row).sort()).toEqual(['description', 'name', 'options', 'type']);
	});
});

describe('Create through the engine', () => {
	const SCANNER = { success: true, scanner_id: 'scn_1', name: 'Supplier invoice', fields: [], created_at: '2026-01-01T00:00:00.000Z' };

	async function sentFields(field: INodeParameters[]): Promise<unknown> {
		const requests: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/scanners'), requests, [201, SCANNER]);
		const unexpected = trapAllRequests();
		const { error } = await runAction(createWith(field), [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(requests).toHaveLength(1);
		return (jsonBody(requests[0]) as { fields: unknown }).fields;
	}

	it('sends the settings given under Options', async () => {
		const fields = await sentFields([
			{ name: 'invoice_number', type: 'string', description: 'Top right', options: { label: 'Invoice Number', required: true, formatHint: 'INV-0000', examples: 'INV-0001, INV-0002' } },
			{
				name: 'line_items',
				type: 'table',
				options: { label: 'Lines', required: true },
				columns: { column: [{ name: 'quantity', type: 'number', options: { examples: '1\n12' } }] },
			},
		]);
		expect(fields).toEqual([
			{ name: 'invoice_number', label: 'Invoice Number', type: 'string', required: true, description: 'Top right', format_hint: 'INV-0000', examples: ['INV-0001', 'INV-0002'] },
			{ name: 'line_items', label: 'Lines', type: 'table', required: true, item_fields: [{ name: 'quantity', type: 'number', examples: ['1', '12'] }] },
		]);
	});

	it('sends the settings of a workflow saved by 0.1.0 (flat beside the name) unchanged', async () => {
		const fields = await sentFields([
			{ name: 'invoice_number', type: 'string', label: 'Invoice Number', required: true, formatHint: 'INV-0000', examples: 'INV-0001, INV-0002' },
			{ name: 'line_items', type: 'table', label: 'Lines', columns: { column: [{ name: 'unit_price', type: 'currency', examples: '1,234.56\n9.99' }] } },
		]);
		expect(fields).toEqual([
			{ name: 'invoice_number', label: 'Invoice Number', type: 'string', required: true, format_hint: 'INV-0000', examples: ['INV-0001', 'INV-0002'] },
			{ name: 'line_items', label: 'Lines', type: 'table', item_fields: [{ name: 'unit_price', type: 'currency', examples: ['1,234.56', '9.99'] }] },
		]);
	});

	it('Required turned off under Options overrides a flat 0.1.0 Required on; left out there, the flat value stays', async () => {
		const fields = await sentFields([
			{ name: 'invoice_number', type: 'string', required: true, options: { required: false } },
			{ name: 'total', type: 'currency', required: true, options: { label: 'Total' } },
			{ name: 'date', type: 'date', required: true, options: { required: '={{ "false" }}' } },
		]);
		expect(fields).toEqual([
			{ name: 'invoice_number', type: 'string' },
			{ name: 'total', label: 'Total', type: 'currency', required: true },
			{ name: 'date', type: 'date' },
		]);
	});
});
