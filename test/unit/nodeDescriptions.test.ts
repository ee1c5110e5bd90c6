/**
 * What a user reads in n8n's editor, checked over every parameter of both nodes and the
 * credential, however deeply nested (collections, fixed collections, options, locator modes):
 * texts n8n would render as HTML, option lists out of n8n's alphabetical order, action names too
 * long for the canvas, subtitles that do not evaluate to a readable label.
 */
import type { ICredentialType, INode, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionApi } from '../../credentials/DocumentExtractionApi.credentials';
import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionPoller } from '../../nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.ts';
import { resources } from '../../nodes/DocumentExtraction/actions/router';
import { asTool, workflowWith } from '../harness/toolVariant';

const action = new DocumentExtraction();
const poller = new DocumentExtractionPoller();
const credential: ICredentialType = new DocumentExtractionApi();

type OptionEntry = INodePropertyOptions | INodeProperties | INodePropertyCollection;
const isParameter = (entry: OptionEntry): entry is INodeProperties => 'type' in entry && 'displayName' in entry;
const isCollectionGroup = (entry: OptionEntry): entry is INodePropertyCollection => 'values' in entry;

/** Every parameter, at any depth, with a readable path to it. */
function* parameters(list: INodeProperties[], path: string): Generator<{ parameter: INodeProperties; path: string }> {
	for (const parameter of list) {
		const here = `${path} > ${parameter.displayName || parameter.name}`;
		yield { parameter, path: here };
		for (const entry of (parameter.options ?? []) as OptionEntry[]) {
			if (isParameter(entry)) yield* parameters([entry], here);
			else if (isCollectionGroup(entry)) yield* parameters(entry.values, `${here} > ${entry.displayName}`);
		}
	}
}

/** Every text n8n shows for a parameter: label, description, hint, placeholder, notice, option names and descriptions, actions, locator modes. */
function* texts(list: INodeProperties[], path: string): Generator<{ text: string; where: string }> {
	for (const { parameter, path: here } of parameters(list, path)) {
		for (const key of ['displayName', 'description', 'hint', 'placeholder'] as const) {
			const value = parameter[key];
			if (typeof value === 'string') yield { text: value, where: `${here} (${key})` };
		}
		for (const entry of (parameter.options ?? []) as OptionEntry[]) {
			if (isParameter(entry) || isCollectionGroup(entry)) continue;
			for (const key of ['name', 'description', 'action'] as const) {
				const value = entry[key];
				if (typeof value === 'string') yield { text: value, where: `${here} > ${entry.name} (${key})` };
			}
		}
		for (const mode of parameter.modes ?? []) {
			const errorMessages = (mode.validation ?? []).map((rule) => (rule as { properties?: { errorMessage?: string } }).properties?.errorMessage);
			for (const value of [mode.displayName, mode.placeholder, mode.hint, ...errorMessages]) {
				if (typeof value === 'string') yield { text: value, where: `${here} > mode ${mode.name}` };
			}
		}
	}
}

const nodes: Array<[string, INodeTypeDescription]> = [
	['Document Extraction', action.description],
	['Document Extraction Poller', poller.description],
];

const allTexts = [
	...nodes.flatMap(([name, description]) => [{ text: description.description, where: `${name} (description)` }, ...texts(description.properties, name)]),
	...texts(credential.properties, credential.displayName),
	...(credential.test?.rules ?? []).map((rule, index) => ({ text: String((rule.properties as { message?: string }).message), where: `credential test rule ${index + 1}` })),
];

/** Tags n8n's own descriptions use on purpose; anything else that looks like a tag is text n8n would swallow. */
const DELIBERATE_TAGS = new Set(['a', 'b', 'br', 'code', 'em', 'i', 'strong']);

describe('texts in the editor', () => {
	it('walks a real number of texts, nested ones included', () => {
		expect(allTexts.length).toBeGreaterThan(150);
		expect(allTexts.some(({ where }) => where.includes('Fields > Field > Options > Examples'))).toBe(true);
		expect(allTexts.some(({ where }) => where.includes('mode id'))).toBe(true);
	});

	it('has no <...> that n8n would render as an HTML tag (e.g. "<prefix>_<secret>" showed as "_")', () => {
		const problems = allTexts.flatMap(({ text, where }) =>
			[...text.matchAll(/<\/?([A-Za-z][\w-]*)/g)].filter((match) => !DELIBERATE_TAGS.has(match[1].toLowerCase())).map((match) => `${where}: ${match[0]}`),
		);
		expect(problems).toEqual([]);
	});

	it('finds a tag that is not deliberate (the check can fail)', () => {
		const probe = [...texts([{ displayName: 'Key', name: 'key', type: 'string', default: '', description: 'It looks like <prefix>_<secret>' }], 'probe')];
		expect(probe.flatMap(({ text }) => [...text.matchAll(/<\/?([A-Za-z][\w-]*)/g)].map((match) => match[1]))).toEqual(['prefix', 'secret']);
	});
});

describe('option lists', () => {
	const lists = nodes.flatMap(([name, description]) =>
		[...parameters(description.properties, name)].filter(({ parameter }) => ['options', 'multiOptions'].includes(parameter.type) && Array.isArray(parameter.options)),
	);

	/**
	 * n8n's convention (eslint-plugin-n8n-nodes-base, node-param-options-type-unsorted-items):
	 * alphabetical by name. The rule checks only lists written inline with five or more entries;
	 * shorter lists and lists built by spreading or from a constant slip past it, so every list
	 * is checked here, whatever its length. None needs an exception: where the default should be
	 * first, it is named so that it sorts first ("Using Fields Below" before "Using JSON").
	 */
	it('are alphabetical by name, as n8n lists them', () => {
		expect(lists.length).toBeGreaterThanOrEqual(10);
		for (const { parameter, path } of lists) {
			const names = (parameter.options as INodePropertyOptions[]).map((option) => option.name);
			expect(names, path).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('collections offer their options alphabetically too, shared ones mixed in', () => {
		const collections = nodes.flatMap(([name, description]) => [...parameters(description.properties, name)].filter(({ parameter }) => parameter.type === 'collection'));
		expect(collections.length).toBeGreaterThanOrEqual(5);
		for (const { parameter, path } of collections) {
			const names = (parameter.options as INodeProperties[]).map((option) => option.displayName);
			expect(names, path).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});
});

describe('Template > Update', () => {
	const update = action.description.properties.filter((property) => {
		const show = property.displayOptions?.show ?? {};
		return (show.resource as string[] | undefined)?.includes('template') && (show.operation as string[] | undefined)?.includes('update');
	});

	it('starts with the template, then its name and description, then the field list', () => {
		expect(update.map((property) => property.name)).toEqual(['templateId', 'nameAndDescription', 'replaceFields', 'fieldsDefinedAs', 'fieldsUi', 'fieldsJson']);
	});

	it('names the name-and-description collection for what it holds, so only the field list says "Add Field"', () => {
		const collection = update.find((property) => property.name === 'nameAndDescription');
		expect(collection).toMatchObject({ displayName: 'Name and Description', placeholder: 'Add Name or Description' });
		expect((collection?.options as INodeProperties[]).map((option) => option.name)).toEqual(['description', 'name']);
		expect(update.filter((property) => property.placeholder === 'Add Field').map((property) => property.name)).toEqual(['fieldsUi']);
	});
});

describe('action names', () => {
	const actions = [...parameters(action.description.properties, 'Document Extraction')]
		.filter(({ parameter }) => parameter.name === 'operation')
		.flatMap(({ parameter }) => (parameter.options as INodePropertyOptions[]).map((option) => option.action ?? ''));

	/** n8n names a node added from the panel after its action; the canvas shows about 30 characters. */
	it('are at most 30 characters, so the node name they become fits on the canvas', () => {
		expect(actions.length).toBeGreaterThanOrEqual(8);
		for (const name of actions) expect(name.length, name).toBeLessThanOrEqual(30);
	});

	it('are distinct, and phrased like n8n\'s own ("Create a template")', () => {
		expect(new Set(actions).size).toBe(new Set(actions.map((name) => name.toLowerCase())).size);
		expect(new Set(actions)).toEqual(
			new Set([
				'Extract data automatically',
				'Extract data with a template',
				'Get an extraction result',
				'Create a template',
				'Delete a template',
				'Get a template',
				'Get the fields of a template',
				'Get many templates',
				'Update a template',
			]),
		);
	});
});

/** The canvas subtitle as n8n's editor computes it: an expression over the node in its workflow (defaults filled in). */
function subtitleOf(type: INodeType, parameters: INode['parameters']): unknown {
	const { workflow, node } = workflowWith(type, parameters);
	return workflow.expression.getSimpleParameterValue(node, type.description.subtitle as string, 'internal', {});
}

describe('canvas subtitle', () => {
	const toolType = asTool(action);

	it.each([
		['document', 'extract', 'Extract (Auto-Detect Template)'],
		['document', 'extractWithTemplate', 'Extract with Template'],
		['document', 'getResult', 'Get Result'],
		['template', 'create', 'Template: Create'],
		['template', 'get', 'Template: Get'],
		['template', 'getFields', 'Template: Get Fields'],
		['template', 'getMany', 'Template: Get Many'],
		['template', 'update', 'Template: Update'],
		['template', 'delete', 'Template: Delete'],
	])('%s / %s reads "%s", as a step and as a tool', (resource, operation, label) => {
		expect(subtitleOf(action, { resource, operation })).toBe(label);
		expect(subtitleOf(toolType, { resource, operation })).toBe(label);
	});

	it('covers every operation the node offers', () => {
		const pairs = [...parameters(action.description.properties, '')]
			.filter(({ parameter }) => parameter.name === 'operation')
			.flatMap(({ parameter }) => (parameter.displayOptions?.show?.resource as string[]).flatMap((resource) => (parameter.options as INodePropertyOptions[]).map((option) => [resource, String(option.value)])));
		for (const [resource, operation] of pairs) {
			const subtitle = subtitleOf(action, { resource, operation });
			expect(typeof subtitle === 'string' && /^[A-Z][\w ():-]+$/.test(subtitle), `${resource}/${operation}: ${String(subtitle)}`).toBe(true);
		}
	});

	it('reads the default operation of a new node, which is stored without resource or operation', () => {
		expect(subtitleOf(action, {})).toBe('Extract (Auto-Detect Template)');
		expect(subtitleOf(action, { resource: 'template' })).toBe('Template: Get Many');
		expect(subtitleOf(toolType, {})).toBe('Get Result');
	});
});

describe('every operation in the panel runs', () => {
	// The type map and the router agree by the type check; an operation added to the panel's
	// options but to neither would pass it and fail only when run ("… is not supported").
	it('the Operation options of each resource are exactly the operations the router runs', () => {
		const properties = action.description.properties;
		const resourceNames = (properties.find((property) => property.name === 'resource')?.options as INodePropertyOptions[]).map((option) => String(option.value));
		expect(resourceNames.sort()).toEqual(Object.keys(resources).sort());
		for (const resource of resourceNames) {
			const operation = properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource));
			const offered = (operation?.options as INodePropertyOptions[]).map((option) => String(option.value));
			expect(offered.sort(), resource).toEqual(Object.keys(resources[resource as keyof typeof resources]).sort());
		}
	});
});
