import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** How every message about one input item begins ("Item 3"), so the user can find the item. */
export function itemLabel(itemIndex: number): string {
	return `Item ${itemIndex + 1}`;
}

/** A message about one input item with its label in front, unless it already begins with it ("Item 3 has no ..."). */
export function withItemLabel(message: string, itemIndex: number): string {
	return new RegExp(`^${itemLabel(itemIndex)}\\b`).test(message) ? message : `${itemLabel(itemIndex)}: ${message}`;
}

/** An error about one input item: "Item n: message", with the item index n8n uses for error outputs and the editor. */
export function itemError(node: INode, itemIndex: number, message: string, description?: string): NodeOperationError {
	return new NodeOperationError(node, withItemLabel(message, itemIndex), { itemIndex, ...(description === undefined ? {} : { description }) });
}
