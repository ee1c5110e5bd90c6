import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listScanners } from '../../shared/http/api';

/** The template picker's list: every template of the account, filtered by name or ID. */
export async function searchTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase() ?? '';
	const templates = await listScanners(this);
	return {
		results: templates
			.filter((template) => !needle || template.name.toLowerCase().includes(needle) || template.scanner_id.toLowerCase().includes(needle))
			.sort((a, b) => a.name.localeCompare(b.name))
			.map((template) => ({ name: template.name, value: template.scanner_id, description: template.description ?? undefined })),
	};
}
