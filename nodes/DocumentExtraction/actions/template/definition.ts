import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../../shared/items/itemError';
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
			throw itemError(ctx.getNode(), itemIndex, 'the template fields are not valid JSON', parsed.message);
		}
		return parsed.fields;
	}
	return fieldsFromUi(source.fieldsUi as IDataObject | undefined);
}

export function validatedBody(ctx: IExecuteFunctions, itemIndex: number, input: IDataObject, mode: 'create' | 'update'): IDataObject {
	const checked = validateTemplateInput(input, mode);
	if (!checked.ok) {
		throw itemError(
			ctx.getNode(),
			itemIndex,
			`${checked.path ? `${checked.path}: ` : ''}${checked.message}`,
			'Fix the template definition and run again. Nothing was sent to the service.',
		);
	}
	return checked.value as IDataObject;
}
