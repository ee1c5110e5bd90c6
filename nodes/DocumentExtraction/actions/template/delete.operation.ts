import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { deleteScanner } from '../../../shared/http/api';
import { templateIdOf, templateLocator } from './locator';
import { templateWrite } from './write';

export const description: INodeProperties[] = [
	templateLocator(
		{ show: { resource: ['template'], operation: ['delete'] } },
		'The template to delete. Documents already processed with it keep their data and can still be read.',
	),
];

/** DELETE /scanners/{id} (spec 4.9). */
export const { executeAll } = templateWrite(async (ctx, itemIndex) => {
	const templateId = await templateIdOf(ctx, itemIndex);
	return {
		done: `deleted template ${templateId}`,
		identity: ['delete', templateId],
		changesTemplate: templateId,
		send: async () => (await deleteScanner(ctx, templateId, itemIndex)) as IDataObject,
	};
});
