import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The canvas subtitle: the chosen operation's own label ("Extract with Template", "Template:
 * Create") instead of raw values ("extractWithTemplate: document"). Built from the node's
 * resource and operation lists, so a renamed operation cannot leave a stale subtitle behind.
 * Operations of `unprefixedResource` are shown without their resource's name.
 *
 * n8n evaluates the subtitle as an expression in the editor, with `$parameter` holding the node's
 * parameters. The labels sit in one flat object literal, so no `}}` can end the expression early.
 */
export function operationSubtitle(properties: INodeProperties[], unprefixedResource: string): string {
	const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];
	const resourceProperty = properties.find((property) => property.name === 'resource');
	const resourceNames = new Map(optionsOf(resourceProperty ?? ({} as INodeProperties)).map((option) => [String(option.value), option.name]));
	const labels: Record<string, string> = {};
	for (const property of properties) {
		const resources = property.displayOptions?.show?.resource;
		if (property.name !== 'operation' || !Array.isArray(resources)) continue;
		for (const resource of resources.map(String)) {
			for (const option of optionsOf(property)) {
				labels[`${resource}:${String(option.value)}`] = resource === unprefixedResource ? option.name : `${resourceNames.get(resource) ?? resource}: ${option.name}`;
			}
		}
	}
	return `={{ ${JSON.stringify(labels)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}
