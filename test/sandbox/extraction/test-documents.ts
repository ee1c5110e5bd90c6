import { READY_MADE_TEMPLATES } from '../../../sandbox/src/templates';
import { extractData } from '../../../sandbox/src/extraction/extract';
import type { ExtractedData, FieldDefinition, ReadDocument, TemplateLike } from '../../../sandbox/src/extraction/types';

/**
 * What the extraction's unit tests share: the ready-made templates, a document made of text
 * lines, a field's value and confidence, and the line-items table of the Invoice template.
 */
export const TEMPLATES: TemplateLike[] = READY_MADE_TEMPLATES.map((template, index) => ({ ...template, scanner_id: `ready-${index}` }));

export function templateNamed(name: string): TemplateLike {
	const template = TEMPLATES.find((candidate) => candidate.name === name);
	if (!template) throw new Error(`no ready-made template named ${name}`);
	return template;
}

/** A one-page document of the given text, as a PDF text layer gives it unless `extra` says otherwise. */
export function textDocument(text: string, extra: Partial<ReadDocument> = {}): ReadDocument {
	return { kind: 'pdf', pages: 1, text, pageTexts: [text], language: 'en', ...extra };
}

export function extractText(template: TemplateLike, text: string, extra: Partial<ReadDocument> = {}): ExtractedData {
	const document = textDocument(text, extra);
	return extractData(template, document, { fileName: `x.${document.kind}`, fileType: document.kind });
}

export function fieldOf(data: ExtractedData, name: string) {
	const found = data.fields.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`no field ${name}`);
	return found;
}

export const valueOf = (data: ExtractedData, name: string) => fieldOf(data, name).value;
export const confidenceOf = (data: ExtractedData, name: string) => fieldOf(data, name).confidence;

export const LINE_ITEMS: FieldDefinition = {
	name: 'line_items',
	type: 'table',
	item_fields: [
		{ name: 'description', type: 'string' },
		{ name: 'quantity', type: 'number' },
		{ name: 'unit_price', type: 'currency' },
		{ name: 'amount', type: 'currency' },
	],
};
