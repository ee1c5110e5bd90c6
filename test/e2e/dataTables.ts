/**
 * n8n's data tables through its REST API, as the editor's Data tables tab reads and makes them, and
 * the Data Table example's nodes: shared by the example's end-to-end tests (dataTableExample.test.ts,
 * reviewExample.test.ts).
 */
import { expect } from 'vitest';

import type { WorkflowJson } from '../../scripts/n8n/cli';
import type { N8nRestApi } from '../../scripts/n8n/restApi';

export type Row = Record<string, unknown>;

/** The example's nodes the tests read or, on n8n 1.x, change as its sticky note says. */
export const DATA_TABLE_NODES = {
	createLines: 'Create Invoice Lines Table',
	createAttention: 'Create Needs Attention Table',
	lineColumns: 'Invoice Line Columns',
	reviewedLineColumns: 'Reviewed Line Columns',
	attentionColumns: 'Needs Attention',
	addLines: 'Add to Invoice Lines',
	addReviewedLines: 'Add Reviewed Lines',
	addAttention: 'Add to Needs Attention',
	tablesNote: 'The Two Tables',
} as const;

export interface TableSpec {
	name: string;
	columns: Array<{ name: string; type: string }>;
}

export interface DataTable {
	id: string;
	name: string;
	projectId: string;
}

export function exampleNode(workflow: WorkflowJson, name: string): WorkflowJson['nodes'][number] {
	const found = workflow.nodes.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`The example has no node named "${name}"`);
	return found;
}

/** The table a Create node of the example makes: its name and columns. */
export function tableOf(workflow: WorkflowJson, createNode: string): TableSpec {
	const parameters = exampleNode(workflow, createNode).parameters as { tableName: string; columns: { column: Array<{ name: string; type: string }> } };
	return { name: parameters.tableName, columns: parameters.columns.column.map(({ name, type }) => ({ name, type })) };
}

/** The columns an Edit Fields (Set) node of the example keeps. */
export function setColumns(workflow: WorkflowJson, setNode: string): string[] {
	const parameters = exampleNode(workflow, setNode).parameters as { assignments: { assignments: Array<{ name: string }> }; includeOtherFields?: boolean };
	expect(parameters.includeOtherFields ?? false, `${setNode} keeps only its own columns`).toBe(false);
	return parameters.assignments.assignments.map((assignment) => assignment.name);
}

/** `{ data: x }` as n8n's REST API wraps its answers. */
export const unwrap = <T>(body: { data: T }): T => body.data;

export async function personalProject(api: N8nRestApi): Promise<string> {
	return unwrap(await api.json<{ data: { id: string } }>('GET', '/rest/projects/personal')).id;
}

export async function tablesNamed(api: N8nRestApi, projectId: string, name: string): Promise<DataTable[]> {
	const filter = encodeURIComponent(JSON.stringify({ name }));
	const { data } = unwrap(await api.json<{ data: { data: DataTable[] } }>('GET', `/rest/projects/${projectId}/data-tables?filter=${filter}&take=250`));
	return data.filter((table) => table.name === name);
}

export async function columnsOf(api: N8nRestApi, table: DataTable): Promise<Array<{ name: string; type: string; index: number }>> {
	const columns = unwrap(await api.json<{ data: Array<{ name: string; type: string; index: number }> }>('GET', `/rest/projects/${table.projectId}/data-tables/${table.id}/columns`));
	return [...columns].sort((a, b) => a.index - b.index);
}

export async function rowsOf(api: N8nRestApi, table: DataTable): Promise<Row[]> {
	const rows: Row[] = [];
	for (;;) {
		const page = unwrap(await api.json<{ data: { count: number; data: Row[] } }>('GET', `/rest/projects/${table.projectId}/data-tables/${table.id}/rows?take=250&skip=${rows.length}`));
		rows.push(...page.data);
		if (page.data.length === 0 || rows.length >= page.count) return rows;
	}
}

/** Deletes a data table, as its menu in the Data tables tab does. */
export async function deleteTable(api: N8nRestApi, table: DataTable): Promise<void> {
	await api.json('DELETE', `/rest/projects/${table.projectId}/data-tables/${table.id}`);
}

/**
 * What the example's sticky note "The Two Tables" has an n8n 1.x user do, done as the editor does
 * it: both tables created in the project (Data tables → Create, with the note's columns), the two
 * Create nodes deactivated, each Add node's table picked From List.
 */
export async function setUpAsOnN8n1(api: N8nRestApi, projectId: string, workflowId: string, tables: { lines: TableSpec; attention: TableSpec }): Promise<void> {
	const created: Record<string, DataTable> = {};
	for (const spec of [tables.lines, tables.attention]) {
		created[spec.name] = unwrap(await api.json<{ data: DataTable }>('POST', `/rest/projects/${projectId}/data-tables`, { name: spec.name, columns: spec.columns }));
	}
	const saved = unwrap(await api.json<{ data: { versionId: string; nodes: Array<{ name: string; disabled?: boolean; parameters: Record<string, unknown> }> } }>('GET', `/rest/workflows/${workflowId}`));
	const picked: Record<string, DataTable | undefined> = {
		[DATA_TABLE_NODES.addLines]: created[tables.lines.name],
		[DATA_TABLE_NODES.addReviewedLines]: created[tables.lines.name],
		[DATA_TABLE_NODES.addAttention]: created[tables.attention.name],
	};
	const nodes = saved.nodes.map((candidate) => {
		if (candidate.name === DATA_TABLE_NODES.createLines || candidate.name === DATA_TABLE_NODES.createAttention) return { ...candidate, disabled: true };
		const table = picked[candidate.name];
		return table ? { ...candidate, parameters: { ...candidate.parameters, dataTableId: { __rl: true, mode: 'list', value: table.id, cachedResultName: table.name } } } : candidate;
	});
	await api.json('PATCH', `/rest/workflows/${workflowId}`, { versionId: saved.versionId, nodes });
}
