/**
 * "Table Field" (One Item per Table Row) as a list, called as n8n's editor calls it: the node
 * type's loadOptions method on n8n-core's LoadOptionsContext, with the node's current parameters.
 * And the value it stores: a plain field name, as the free-text parameter of 0.1.0 held.
 */
import nock from 'nock';
import { LoadOptionsContext } from 'n8n-core';
import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodePropertyOptions, type INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionPoller } from '../../nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.ts';
import { buildAdditionalData, NODE_TYPES } from '../harness/engine';
import { BASE, credential, doneResult, resultId, runAction, useNock } from './actionNode.support';

useNock();

const action = new DocumentExtraction();
const poller = new DocumentExtractionPoller();

const column = (name: string) => ({ name, type: 'string' });
const TEMPLATES = [
	{ scanner_id: 'scn_invoice', name: 'Invoice', fields: [{ name: 'total', type: 'currency' }, { name: 'line_items', type: 'table', item_fields: [column('description'), column('quantity')] }] },
	{ scanner_id: 'scn_receipt', name: 'Receipt', fields: [{ name: 'line_items', value_type: 'table', item_fields: [column('description'), column('price')] }] },
	{ scanner_id: 'scn_statement', name: 'Bank statement', fields: [{ name: 'transactions', type: 'table', item_fields: [column('date'), column('amount')] }, { name: 'iban' }] },
	{ scanner_id: 'scn_card', name: 'Business card', fields: [{ name: 'email', type: 'email' }] },
];

async function tableFieldList(type: INodeType, nodeType: string, parameters: INodeParameters): Promise<INodePropertyOptions[]> {
	const listed = nock(BASE).get('/api/v1/scanners').reply(200, { success: true, scanners: TEMPLATES });
	const node: INode = { id: 'n', name: 'Node', type: nodeType, typeVersion: 1, position: [0, 0], parameters, credentials: { documentExtractionApi: { id: 'c', name: 'c' } } };
	const nodeTypes = { getByName: () => type, getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(type, 1), getKnownTypes: () => ({}) };
	const workflow = new Workflow({ id: 'w', nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = { ...buildAdditionalData(credential()), currentNodeParameters: parameters };
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.tableField');
	const options = await (type.methods?.loadOptions?.getTableFields as (this: LoadOptionsContext) => Promise<INodePropertyOptions[]>).call(context);
	expect(listed.isDone()).toBe(true);
	return options;
}

const FIRST = { name: 'First Table Field of the Result', value: '', description: 'Whichever table field comes first in the result' };

describe('Table Field list', () => {
	it('Extract with Template: the chosen template\'s table fields, with their columns', async () => {
		const options = await tableFieldList(action, NODE_TYPES.action, {
			resource: 'document',
			operation: 'extractWithTemplate',
			templateId: { __rl: true, mode: 'list', value: 'scn_invoice', cachedResultName: 'Invoice' },
			output: 'tableRows',
		});
		expect(options).toEqual([FIRST, { name: 'line_items', value: 'line_items', description: 'Columns: description, quantity' }]);
	});

	it('auto-detect and Get Result: the table fields of every template, labelled with the templates that have them', async () => {
		for (const operation of ['extract', 'getResult']) {
			const options = await tableFieldList(action, NODE_TYPES.action, { resource: 'document', operation, output: 'tableRows' });
			expect(options, operation).toEqual([
				FIRST,
				{ name: 'line_items (Invoice, Receipt)', value: 'line_items', description: 'Columns: description, quantity, price' },
				{ name: 'transactions (Bank statement)', value: 'transactions', description: 'Columns: date, amount' },
			]);
		}
	});

	it('the Poller: the table fields of every template', async () => {
		const options = await tableFieldList(poller, NODE_TYPES.poller, { output: 'tableRows' });
		expect(options.map((option) => option.value)).toEqual(['', 'line_items', 'transactions']);
	});

	it('a template given by an expression, or one that no longer exists: every template\'s table fields', async () => {
		for (const value of ['={{ $json.template }}', 'scn_deleted']) {
			const options = await tableFieldList(action, NODE_TYPES.action, { resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value } });
			expect(options.map((option) => option.value), value).toEqual(['', 'line_items', 'transactions']);
		}
	});
});

describe('Table Field value', () => {
	it('is a list with an expression escape, stored as the field name', () => {
		const property = action.description.properties.find((candidate) => candidate.name === 'tableField');
		expect(property).toMatchObject({ type: 'options', default: '', typeOptions: { loadOptionsMethod: 'getTableFields', loadOptionsDependsOn: ['templateId.value'] } });
		expect(property?.noDataExpression).toBeUndefined();
		expect(poller.description.properties.find((candidate) => candidate.name === 'tableField')).toMatchObject({ type: 'options', typeOptions: { loadOptionsMethod: 'getTableFields' } });
	});

	it('a workflow saved by 0.1.0 with the name typed in still picks that table', async () => {
		const id = resultId(1);
		nock(BASE).get(`/api/v1/results/${id}`).reply(200, doneResult(id));
		const { outputs, error } = await runAction({ resource: 'document', operation: 'getResult', resultId: id, output: 'tableRows', tableField: 'taxes' }, [{ json: {} }]);
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.line_number)).toEqual([1]);
		expect(outputs[0][0].json).toMatchObject({ rate: 20, amount: 205.76 });
	});
});
