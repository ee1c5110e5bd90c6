import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseFieldsJson } from '../../../shared/templates/fieldsJson';
import { fieldsFromUi } from '../../../shared/templates/fieldsUi';
import { validateTemplateInput } from '../../../shared/templates/validation';

/**
 * Reads the template fields as the user defined them (UI rows or JSON) and checks every limit of
 * spec 2.2 / 8 before the request, so the error names the exact field path.
 */
export function readFields(ctx: IExecuteFunctions, itemIndex: number, source: IDataObject): unknown {
	if (source.fieldsDefinedAs === 'json') {
		// As given: an expression such as {{ $json.fields }} hands over the list itself, not its text.
		const parsed = parseFieldsJson(source.fieldsJson ?? '');
		if (!parsed.ok) {
			throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: the template fields are not valid JSON`, {
				itemIndex,
				description: parsed.message,
			});
		}
		return parsed.fields;
	}
	return fieldsFromUi(source.fieldsUi as IDataObject | undefined);
}

export function validatedBody(ctx: IExecuteFunctions, itemIndex: number, input: IDataObject, mode: 'create' | 'update'): IDataObject {
	const checked = validateTemplateInput(input, mode);
	if (!checked.ok) {
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}: ${checked.path ? `${checked.path}: ` : ''}${checked.message}`, {
			itemIndex,
			description: 'Fix the template definition and run again. Nothing was sent to the service.',
		});
	}
	return checked.value as IDataObject;
}
