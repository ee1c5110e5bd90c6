/** Every error about one input item names it once: "Item n: ...", never "Item n: Item n ...". */
import type { INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { itemError, withItemLabel } from '../../nodes/shared/items/itemError';

const node: INode = { id: '1', name: 'Document Extraction', type: 'n8n-nodes-document-extraction.documentExtraction', typeVersion: 1, position: [0, 0], parameters: {} };

describe('item labels', () => {
	it('puts the item number (counting from 1) in front of a message', () => {
		expect(withItemLabel('the file is empty', 0)).toBe('Item 1: the file is empty');
	});

	it('keeps a message that already names the item, in any wording', () => {
		expect(withItemLabel('Item 3 has no binary property "data"', 2)).toBe('Item 3 has no binary property "data"');
		expect(withItemLabel('Item 3: rejected', 2)).toBe('Item 3: rejected');
	});

	it('does not take another item for this one ("Item 10" is not item 1)', () => {
		expect(withItemLabel('Item 10: rejected', 0)).toBe('Item 1: Item 10: rejected');
	});

	it('gives the error its item index and description', () => {
		const error = itemError(node, 4, 'the template fields are not valid JSON', 'Unexpected token');
		expect(error.message).toBe('Item 5: the template fields are not valid JSON');
		expect(error.description).toBe('Unexpected token');
		expect(error.context.itemIndex).toBe(4);
	});
});
