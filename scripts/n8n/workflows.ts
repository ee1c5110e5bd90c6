import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CredentialExport, WorkflowJson } from './cli';
import { EXAMPLES_DIR } from './paths';

/**
 * The credential every example refers to (by this id and name), so an imported example finds it.
 * A user importing an example picks their own credential in the node instead.
 */
export const EXAMPLE_CREDENTIAL = { id: 'DocExSandboxCred', name: 'Document Extraction (sandbox)' } as const;

export const EXAMPLES = {
	emailToSpreadsheet: 'email-attachments-to-spreadsheet.json',
	emailToDataTable: 'email-invoices-to-data-table.json',
	emailToGoogleSheets: 'email-invoices-to-google-sheets.json',
	folderThroughPoller: 'folder-of-pdfs-through-poller.json',
	aiAgentTool: 'ai-agent-document-tool.json',
	bankStatementLoop: 'long-bank-statement-wait-loop.json',
} as const;

export type ExampleName = keyof typeof EXAMPLES;

export function sandboxCredential(baseUrl: string, apiKey: string, credential: { id: string; name: string } = EXAMPLE_CREDENTIAL): CredentialExport {
	return { ...credential, type: 'documentExtractionApi', data: { apiKey, baseUrl } };
}

export function loadExample(name: ExampleName): WorkflowJson {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, EXAMPLES[name]), 'utf8')) as WorkflowJson;
}

/** Parameters to set, by node name and then by dotted parameter path (e.g. `options.timeout`). */
export type ParameterChanges = Record<string, Record<string, unknown>>;

/**
 * A copy of the workflow with some node parameters replaced: what a user edits after importing
 * an example (the folder to read, the template to use), done by the demo and the tests.
 */
export function withParameters(workflow: WorkflowJson, changes: ParameterChanges): WorkflowJson {
	const copy = structuredClone(workflow);
	for (const [nodeName, parameters] of Object.entries(changes)) {
		const node = copy.nodes.find((candidate) => candidate.name === nodeName);
		if (!node) throw new Error(`Workflow "${workflow.name}" has no node named "${nodeName}"`);
		for (const [path, value] of Object.entries(parameters)) setPath(node.parameters, path.split('.'), value);
	}
	return copy;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
	const [head, ...rest] = path;
	if (rest.length === 0) {
		target[head] = value;
		return;
	}
	const next = target[head];
	const child = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : {};
	target[head] = child;
	setPath(child, rest, value);
}

/** The value of a template resource locator pointing at one template, as the node's list mode saves it. */
export function templateLocatorValue(template: { id: string; name: string }): Record<string, unknown> {
	return { __rl: true, mode: 'list', value: template.id, cachedResultName: template.name };
}

/** A template's id by its name, asked from the service the way the node's template list does. */
export async function findTemplate(baseUrl: string, apiKey: string, name: string): Promise<{ id: string; name: string }> {
	const response = await fetch(`${baseUrl}/api/v1/scanners`, { headers: { 'X-API-Key': apiKey } });
	if (!response.ok) throw new Error(`GET /api/v1/scanners answered ${response.status}`);
	const body = (await response.json()) as { scanners: Array<{ scanner_id: string; name: string }> };
	const found = body.scanners.find((scanner) => scanner.name === name);
	if (!found) throw new Error(`The account has no template named "${name}"`);
	return { id: found.scanner_id, name: found.name };
}
