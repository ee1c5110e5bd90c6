import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ItemSink } from '../../shared/output/itemSink';
import * as document from './document';
import type { DocumentExtractionMap, Operation } from './node.type';
import * as template from './template';

/** Every operation the node offers, by resource; `test/unit/nodeDescriptions.test.ts` checks it against the panel's options. */
export const resources: { [R in keyof DocumentExtractionMap]: Record<DocumentExtractionMap[R], Operation> } = {
	document: { extract: document.extract, extractWithTemplate: document.extractWithTemplate, getResult: document.getResult },
	template: { create: template.create, get: template.get, getFields: template.getFields, getMany: template.getMany, update: template.update, delete: template.delete },
};

/**
 * One loop over the items with one try/catch per item: pairedItem and continueOnFail are handled
 * here (through ItemSink) and in no operation.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as keyof DocumentExtractionMap;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = (resources[resource] as Record<string, Operation> | undefined)?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}
	const sink = new ItemSink(this);
	if ('executeAll' in operation) {
		await operation.executeAll.call(this, sink);
	} else {
		for (let i = 0; i < items.length; i++) {
			try {
				await operation.execute.call(this, sink, i);
			} catch (error) {
				sink.fail(i, error);
			}
		}
	}
	return sink.result(items.length);
}
