/**
 * What the Gmail Trigger's and the Microsoft Outlook Trigger's items asked of the node (issue 42,
 * test/node/mailTriggers.test.ts runs the triggers themselves):
 * - the sender is an object there (mailparser's `{ value, html, text }`, Graph's
 *   `{ emailAddress: { name, address } }`), so Input Fields to Include reads a path into a field;
 * - an email saved from Outlook and attached as a file (.msg) is a Compound File like an older
 *   Word file: told apart by its directory, it goes to the error output instead of being skipped.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { inputFieldValue, pathSteps } from '../../nodes/shared/output/inputFieldPath';
import { readInputFields } from '../../nodes/shared/output/inputFields';
import { ATTACHMENT_ADVICE, judgeAttachment } from '../../nodes/shared/preflight/attachments';
import { isOutlookMessage } from '../../nodes/shared/preflight/outlookMessage';
import { compoundFile, OUTLOOK_MESSAGE_CLSID, outlookMessageFile, wordDocumentFile } from '../harness/compoundFiles';

/** A Gmail Trigger item (Simplify off) as n8n 1.123.81 and 2.41.1 emit it, trimmed. */
const GMAIL_ITEM: IDataObject = {
	id: '18e0c1f2a3b4c5d6',
	subject: 'Invoice INV-2026-0107',
	date: '2026-03-05T08:58:00.000Z',
	from: {
		value: [{ address: 'billing@northwind.example', name: 'Northwind Billing' }],
		html: '<span class="mp_address_group"><span class="mp_address_name">Northwind Billing</span></span>',
		text: '"Northwind Billing" <billing@northwind.example>',
	},
	headers: { from: 'From: Northwind Billing <billing@northwind.example>' },
};

/** Input Fields to Include as the node reads it. */
function inputFields(names: string, json: IDataObject): IDataObject | undefined {
	const ctx = { getNodeParameter: () => names, getInputData: () => [{ json }] } as unknown as IExecuteFunctions;
	return readInputFields(ctx, 0);
}

describe('Input Fields to Include: a path into a field', () => {
	it('reads the sender inside the Gmail and Outlook triggers\' objects, under the path\'s steps joined by _ (a column name Data Tables and SQL take)', () => {
		expect(inputFields('from.text, from.value[0].address, subject, date', GMAIL_ITEM)).toEqual({
			from_text: '"Northwind Billing" <billing@northwind.example>',
			from_value_0_address: 'billing@northwind.example',
			subject: 'Invoice INV-2026-0107',
			date: '2026-03-05T08:58:00.000Z',
		});
		const outlook = { from: { emailAddress: { name: 'Northwind Billing', address: 'billing@northwind.example' } }, receivedDateTime: '2026-03-05T08:58:00Z' };
		expect(inputFields('from.emailAddress.address, from.emailAddress.name, receivedDateTime', outlook)).toEqual({
			from_emailAddress_address: 'billing@northwind.example',
			from_emailAddress_name: 'Northwind Billing',
			receivedDateTime: '2026-03-05T08:58:00Z',
		});
	});

	it('a whole object or list is copied, not shared with the input; a path that leads nowhere gives null', () => {
		const fields = inputFields('from.value, from.value[1].address, from.text.length, to.text, headers.from', GMAIL_ITEM)!;
		expect(fields.from_value).toEqual([{ address: 'billing@northwind.example', name: 'Northwind Billing' }]);
		expect(fields.from_value).not.toBe((GMAIL_ITEM.from as IDataObject).value);
		expect(fields).toMatchObject({ from_value_1_address: null, from_text_length: null, to_text: null, headers_from: 'From: Northwind Billing <billing@northwind.example>' });
	});

	it('a field whose own name has a dot is that field; the path is read only when there is none', () => {
		expect(inputFieldValue({ 'from.text': 'own', from: { text: 'inside' } }, 'from.text')).toBe('own');
		expect(inputFieldValue({ from: { text: 'inside' } }, 'from.text')).toBe('inside');
		expect(inputFields('subject', { subject: undefined })).toEqual({ subject: null });
		expect(inputFields('from.text', { 'from.text': 'own', from: { text: 'inside' } })).toEqual({ 'from.text': 'own' });
	});

	it('never reads through the prototype, and only own keys', () => {
		const json = { from: { text: 'x' }, list: [1] };
		for (const name of ['from.constructor', 'from.__proto__', 'from.toString', 'from.hasOwnProperty', 'list.length', 'list.map', 'from.text.constructor']) {
			expect(inputFieldValue(json, name)).toBeUndefined();
		}
		expect(inputFields('from.constructor.name', json)).toEqual({ from_constructor_name: null });
	});

	it('what is a path', () => {
		expect(pathSteps('from.text')).toEqual(['from', 'text']);
		expect(pathSteps('from.value[0].address')).toEqual(['from', 'value', 0, 'address']);
		expect(pathSteps('attachments[2]')).toEqual(['attachments', 2]);
		expect(pathSteps('from.emailAddress.address')).toEqual(['from', 'emailAddress', 'address']);
		for (const name of ['subject', '', '.from', 'from.', 'from..text', 'from[x]', 'from[0', '[0]', 'from[-1]']) expect(pathSteps(name)).toBeUndefined();
	});
});

describe('an Outlook message file (.msg) among an email\'s files', () => {
	it('is told apart from an older Word file by its directory, and goes to the error output with what to do', () => {
		expect(isOutlookMessage(outlookMessageFile())).toBe(true);
		expect(judgeAttachment(outlookMessageFile())).toEqual({ document: false, reason: ATTACHMENT_ADVICE.outlookMessage, mayHoldDocuments: true });
		expect(isOutlookMessage(wordDocumentFile())).toBe(false);
		expect(judgeAttachment(wordDocumentFile())).toEqual({ document: false, reason: 'not a PDF, JPEG or PNG: an older Office document (Word, Excel)' });
	});

	it('by its class id or by its entries\' names alone; the content wins over a name or type that says otherwise', () => {
		expect(isOutlookMessage(compoundFile(OUTLOOK_MESSAGE_CLSID, []))).toBe(true);
		expect(isOutlookMessage(compoundFile(Buffer.alloc(16), [{ name: '__substg1.0_0037001F', type: 'stream' }]))).toBe(true);
		expect(isOutlookMessage(compoundFile(Buffer.alloc(16), [{ name: '__attach_version1.0_#00000000', type: 'storage' }]))).toBe(true);
		expect(isOutlookMessage(wordDocumentFile(), { fileName: 'invoice.msg', mimeType: 'application/vnd.ms-outlook' })).toBe(false);
		expect(isOutlookMessage(Buffer.from('%PDF-1.7'), { fileName: 'invoice.msg' })).toBe(false);
	});

	it('when only the file\'s beginning was read (too large to send), its name or declared type decides', () => {
		const head = outlookMessageFile().subarray(0, 1024);
		expect(isOutlookMessage(head)).toBe(false);
		expect(isOutlookMessage(head, { fileName: 'Contoso invoice.MSG' })).toBe(true);
		expect(isOutlookMessage(head, { fileName: 'forwarded', mimeType: 'application/vnd.ms-outlook; name="x"' })).toBe(true);
		expect(judgeAttachment(head, { fileName: 'Contoso invoice.msg' })).toMatchObject({ mayHoldDocuments: true, reason: ATTACHMENT_ADVICE.outlookMessage });
		expect(judgeAttachment(head, { fileName: 'old.doc' })).toEqual({ document: false, reason: 'not a PDF, JPEG or PNG: an older Office document (Word, Excel)' });
	});

	it('a damaged header is no Outlook message and no error', () => {
		const file = outlookMessageFile();
		const badShift = Buffer.from(file);
		badShift.writeUInt16LE(7, 0x1e);
		const directoryPastEnd = Buffer.from(file);
		directoryPastEnd.writeUInt32LE(0xfffffff0, 0x30);
		const hugeSector = Buffer.from(file);
		hugeSector.writeUInt32LE(0x7fffffff, 0x30);
		for (const bytes of [file.subarray(0, 8), file.subarray(0, 600), badShift, directoryPastEnd, hugeSector]) expect(isOutlookMessage(bytes)).toBe(false);
	});
});
