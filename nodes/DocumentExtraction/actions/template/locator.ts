import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listScanners } from '../../../shared/http/api';
import { itemError } from '../../../shared/items/itemError';
import { checkTemplateId } from '../../../shared/preflight/ids';
import { checkTemplateName, findTemplateByName, type NamedTemplate, type NameMatch } from './byName';

/**
 * What n8n accepts as a template ID typed into By ID (n8n anchors it with ^ and $; n8n's engine
 * applies the same check before a run, expressions excepted). The spec gives IDs no format (the
 * sandbox issues UUIDs), so the check refuses only what cannot be one and what users paste by
 * mistake: spaces (a template's name), quotes, the URL characters / \ ? # (a link), control
 * characters, and '.' or '..'. `checkTemplateId`, the run-time check, refuses nothing this accepts.
 */
export const TEMPLATE_ID_PATTERN = '\\s*(?!\\.{1,2}\\s*$)[^\\s"\'/\\\\?#<>\\x00-\\x1f\\x7f]+\\s*';

/** The template picker: a searchable list of the account's templates, an ID, or a name (looked up at run time). */
export function templateLocator(displayOptions: IDisplayOptions, description: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f1c2a9e-7b4d-4c1e-9a2f-0d6e5b8c1a7f',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: TEMPLATE_ID_PATTERN,
							errorMessage:
								'Not a template ID. Pick the template from the list, or enter its ID (the scanner_id that Template > Get Many returns): one word, without spaces, quotes or the characters / \\ ? #. A template\'s name goes in By Name.',
						},
					},
				],
			},
			{
				// As n8n's own nodes name it (Slack's channel, Data Table's table): resolved when the node runs.
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: 'e.g. Invoice',
				hint: 'The template\'s name as the list shows it, capital letters included. Looked up in the credential\'s account when the node runs.',
			},
		],
	};
}

/**
 * The template ID the picker gives for an item. By Name is looked up in the account of the
 * node's credential (GET /scanners, spec 4.5, through the transport and its rate budget like any
 * request); the extract operations ask for every item before their first upload, Update and
 * Delete before their first change.
 */
export async function templateIdOf(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const picked = ctx.getNodeParameter('templateId', itemIndex, '') as unknown;
	if (isByName(picked)) {
		const name = checkTemplateName(picked.value);
		if (!name.ok) throw itemError(ctx.getNode(), itemIndex, name.message, name.description);
		const match = await namesOf(ctx).match(name.name, itemIndex);
		if (!match.ok) throw itemError(ctx.getNode(), itemIndex, match.message, match.description);
		return match.id;
	}
	const raw = ctx.getNodeParameter('templateId', itemIndex, '', { extractValue: true });
	const checked = checkTemplateId(raw);
	if (!checked.ok) {
		throw itemError(ctx.getNode(), itemIndex, checked.message, checked.description);
	}
	return checked.id;
}

function isByName(picked: unknown): picked is { mode: 'name'; value: unknown } {
	return typeof picked === 'object' && picked !== null && (picked as { mode?: unknown }).mode === 'name';
}

/**
 * The names of one run of the node: the account's list is asked for once, when the first item
 * needs it, and serves every item and every name of the run (the service returns every template
 * in one answer, spec 4.5); each name is matched once. A refused list request is not repeated
 * for the next item: each item that needs it fails with that error (ItemSink labels it per item).
 * A new run (another execution, Retry On Fail) asks again, so a template created or renamed since
 * is found.
 */
class TemplateNames {
	private list?: Promise<NamedTemplate[]>;
	private readonly matched = new Map<string, Promise<NameMatch>>();

	constructor(private readonly ctx: IExecuteFunctions) {}

	async match(name: string, itemIndex: number): Promise<NameMatch> {
		let match = this.matched.get(name);
		if (!match) {
			match = this.templates(itemIndex).then((templates) => findTemplateByName(templates, name));
			this.matched.set(name, match);
		}
		return await match;
	}

	private async templates(itemIndex: number): Promise<NamedTemplate[]> {
		// Only what the match needs is kept: a list entry carries every field of its template.
		this.list ??= listScanners(this.ctx, itemIndex).then((templates) => templates.map(({ scanner_id, name }) => ({ scanner_id, name })));
		return await this.list;
	}
}

/** n8n gives each run of a node its own execute context, the same for all of its items. */
const namesByRun = new WeakMap<IExecuteFunctions, TemplateNames>();

function namesOf(ctx: IExecuteFunctions): TemplateNames {
	let names = namesByRun.get(ctx);
	if (!names) {
		names = new TemplateNames(ctx);
		namesByRun.set(ctx, names);
	}
	return names;
}
