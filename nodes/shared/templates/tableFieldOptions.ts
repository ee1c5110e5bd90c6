import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listScanners } from '../http/api';
import type { FieldDefinition, Scanner } from '../schemas';

/**
 * The list behind "Table Field" (both nodes). Extract with Template lists the chosen template's
 * table fields; everywhere else (auto-detect, Get Result, the Poller: the template is only known
 * from the result) it lists the table fields of every template of the account, each labelled
 * with the templates that have it. The value is the field's name, a plain string, as the
 * parameter held when it was free text.
 */
export async function getTableFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const templates = await listScanners(this);
	const chosenId = chosenTemplateId(this);
	const chosen = templates.filter((template) => template.scanner_id === chosenId);
	const listed = chosen.length > 0 ? chosen : templates;

	const tables = new Map<string, { templates: string[]; columns: string[] }>();
	for (const template of listed) {
		for (const field of tableFieldsOf(template)) {
			const entry = tables.get(field.name) ?? { templates: [], columns: [] };
			entry.templates.push(template.name);
			for (const column of field.item_fields ?? []) if (!entry.columns.includes(column.name)) entry.columns.push(column.name);
			tables.set(field.name, entry);
		}
	}
	const fields = [...tables.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, { templates: owners, columns }]) => ({
			name: chosen.length > 0 ? name : `${name} (${[...new Set(owners)].sort((a, b) => a.localeCompare(b)).join(', ')})`,
			value: name,
			description: columns.length > 0 ? `Columns: ${columns.join(', ')}` : undefined,
		}));
	// The empty value is the parameter's default: the first table field of each result.
	return [{ name: 'First Table Field of the Result', value: '', description: 'Whichever table field comes first in the result' }, ...fields];
}

/** The template picked in Extract with Template, when it is a plain ID (not an expression). */
function chosenTemplateId(ctx: ILoadOptionsFunctions): string | undefined {
	if (ctx.getCurrentNodeParameter('operation') !== 'extractWithTemplate') return undefined;
	const locator = ctx.getCurrentNodeParameter('templateId') as { value?: unknown } | string | undefined;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	if (typeof value !== 'string' || value.trim() === '' || value.startsWith('=')) return undefined;
	return value.trim();
}

function tableFieldsOf(template: Scanner): FieldDefinition[] {
	return (template.fields ?? []).filter((field) => (field.type ?? field.value_type) === 'table' || Array.isArray(field.item_fields));
}
