/**
 * Document Source "Every Attachment": a whole email in, each document attachment its own output
 * item paired with the email, what is not a document (a signature logo, a calendar invite) not
 * sent and listed, the email's fields kept; through n8n's engine against nock. The item is shaped
 * as n8n's Email Trigger (IMAP) gives it: `from`, `subject`, `date` and binary `attachment_<n>`.
 */
import nock from 'nock';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { minimalPdf } from '../harness/documents';
import { runNode } from '../harness/engine';
import { jpegWithComment, pngWithText } from '../fixtures/images';
import {
	BASE,
	answer,
	credential,
	doneResult,
	expectPairedItems,
	failedResult,
	multipartParts,
	resultId,
	runAction,
	trapAllRequests,
	uploadAccepted,
	useNock,
	type SeenRequest,
} from './actionNode.support';

useNock();

const INVITE = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Invoice review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

type Attachment = { bytes: Uint8Array | Buffer; fileName: string; mimeType: string };

/** An item as n8n's Email Trigger (IMAP) gives it, attachments in MIME order. */
function email(attachments: Attachment[], json: IDataObject = {}, extraBinary: Record<string, Attachment> = {}): INodeExecutionData {
	const binary: NonNullable<INodeExecutionData['binary']> = {};
	const put = (field: string, { bytes, fileName, mimeType }: Attachment) => {
		binary[field] = { data: Buffer.from(bytes).toString('base64'), fileName, mimeType, fileSize: String(bytes.length) };
	};
	attachments.forEach((attachment, n) => put(`attachment_${n}`, attachment));
	for (const [field, attachment] of Object.entries(extraBinary)) put(field, attachment);
	return { json: { from: 'Billing <billing@supplier.example>', subject: 'Invoice INV-7', date: '2026-03-05T09:00:00.000Z', textPlain: 'Please find attached.', ...json }, binary };
}

const pdf = async (name = 'invoice.pdf', lines = ['Invoice INV-7', 'Total 120.00']) => ({ bytes: await minimalPdf(lines), fileName: name, mimeType: 'application/pdf' });
const logo = (): Attachment => ({ bytes: pngWithText([], 120, 40), fileName: 'logo.png', mimeType: 'image/png' });
const pixel = (): Attachment => ({ bytes: pngWithText([], 1, 1), fileName: 'pixel.png', mimeType: 'image/png' });
const invite = (): Attachment => ({ bytes: Buffer.from(INVITE), fileName: 'invite.ics', mimeType: 'text/calendar' });
const receiptPhoto = (): Attachment => ({ bytes: jpegWithComment('Receipt R-1 Total 8.05', 1200, 1600), fileName: 'receipt.jpg', mimeType: 'image/jpeg' });

const everyAttachment = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'document',
	operation: 'extract',
	documentSource: 'binaryFields',
	...parameters,
});

/** Uploads answered 202 with result ids 1, 2, ... in turn, and each result read answered done. */
function service(count: number, results: (n: number) => IDataObject = (n) => doneResult(resultId(n)), path = '/api/v1/process') {
	const uploads: SeenRequest[] = [];
	const reads: SeenRequest[] = [];
	for (let n = 1; n <= count; n++) {
		answer(nock(BASE).post(path), uploads, [202, uploadAccepted(resultId(n))]);
		answer(nock(BASE).get(`/api/v1/results/${resultId(n)}`), reads, [200, results(n)]);
	}
	return { uploads, reads, unexpected: trapAllRequests() };
}

const SKIPPED_LOGO_AND_INVITE = [
	{ binary_field: 'attachment_1', file_name: 'logo.png', reason: expect.stringMatching(/^an image of 120 x 40 px, too small to be a document/) },
	{ binary_field: 'attachment_2', file_name: 'invite.ics', reason: 'not a PDF, JPEG or PNG: a text file' },
];

describe('Every Attachment: one output item per document, paired with its email', () => {
	it('sends the PDF and the photo, not the logo or the invite, and lists those on each document', async () => {
		const { uploads, unexpected } = service(2);
		const input = [email([await pdf(), logo(), invite(), receiptPhoto()])];

		const { outputs, error } = await runAction(everyAttachment({ options: { inputFields: 'from, subject, date' } }), input);

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(uploads.map((upload) => multipartParts(upload)[0].filename)).toEqual(['invoice.pdf', 'receipt.jpg']);
		const items = outputs[0];
		expect(items).toHaveLength(2);
		expectPairedItems(items, [0, 0]);
		expect(items.map((item) => [item.json.binary_field, item.json.file_name])).toEqual([
			['attachment_0', 'invoice.pdf'],
			['attachment_3', 'receipt.jpg'],
		]);
		for (const item of items) {
			expect(item.json).toMatchObject({ from: 'Billing <billing@supplier.example>', subject: 'Invoice INV-7', date: '2026-03-05T09:00:00.000Z', invoice_number: 'INV-1' });
			expect(item.json.skipped_files).toEqual(SKIPPED_LOGO_AND_INVITE);
			expect(item.json).not.toHaveProperty('textPlain');
		}
		// The sheet's columns: the email's fields first, then where the document came from, then its
		// data; `attached_email` on every item (null here), so the columns never depend on the file.
		expect(Object.keys(items[0].json).slice(0, 7)).toEqual(['from', 'subject', 'date', 'binary_field', 'file_name', 'attached_email', 'skipped_files']);
		expect(items.map((item) => item.json.attached_email)).toEqual([null, null]);
	});

	it('reads only the fields starting with the prefix', async () => {
		const { uploads } = service(1);
		const input = [email([await pdf()], {}, { signature: await pdf('signature.pdf') })];

		const { outputs, error } = await runAction(everyAttachment({ binaryPropertyPrefix: 'attachment_' }), input);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		expect(outputs[0].map((item) => item.json.binary_field)).toEqual(['attachment_0']);
	});

	it('an email of only a logo and a tracking pixel leaves once, saying so, with nothing sent and the workflow going on', async () => {
		const unexpected = trapAllRequests();
		const input = [email([logo(), pixel()]), email([])];

		const { outputs, error } = await runAction(everyAttachment({ options: { inputFields: 'subject' } }), input);

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expectPairedItems(outputs[0], [0, 1]);
		expect(outputs[0][0].json).toMatchObject({
			subject: 'Invoice INV-7',
			status: 'no_document',
			message: "No document: none of the item's 2 files are a PDF, JPEG or PNG document (see skipped_files)",
			skipped_files: [
				{ binary_field: 'attachment_0', file_name: 'logo.png', reason: expect.stringContaining('120 x 40 px') },
				{ binary_field: 'attachment_1', file_name: 'pixel.png', reason: expect.stringContaining('1 x 1 px') },
			],
		});
		expect(outputs[0][1].json).toMatchObject({ status: 'no_document', message: 'No document: the item has no binary fields', skipped_files: [] });
	});

	it('one row per invoice line for every document, each row saying its file; skipped files as JSON text in a cell', async () => {
		service(2);
		const input = [email([await pdf('a.pdf'), logo(), await pdf('b.pdf', ['Invoice INV-8'])])];

		const { outputs, error } = await runAction(everyAttachment({ output: 'tableRows' }), input);

		expect(error).toBeUndefined();
		expect(outputs[0].map((row) => [row.json.file_name, row.json.line_number])).toEqual([
			['a.pdf', 1],
			['a.pdf', 2],
			['b.pdf', 1],
			['b.pdf', 2],
		]);
		expectPairedItems(outputs[0], [0, 0, 0, 0]);
		expect(JSON.parse(outputs[0][0].json.skipped_files as string)).toEqual([
			{ binary_field: 'attachment_1', file_name: 'logo.png', reason: expect.stringContaining('120 x 40 px') },
		]);
	});

	it('raw output and Extract with Template work the same way', async () => {
		const { uploads } = service(2, (n) => doneResult(resultId(n)), '/api/v1/scanners/scn_invoice/upload');
		const input = [email([await pdf('a.pdf'), await pdf('b.pdf')])];

		const { outputs, error } = await runAction(
			everyAttachment({ operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value: 'scn_invoice' }, output: 'raw' }),
			input,
		);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(2);
		expect(outputs[0].map((item) => [item.json.file_name, item.json.result_id])).toEqual([
			['a.pdf', resultId(1)],
			['b.pdf', resultId(2)],
		]);
	});

	it('without waiting, each receipt says which field and file it is, for the Poller', async () => {
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(resultId(1))]);
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(resultId(2))]);
		const unexpected = trapAllRequests();

		const { outputs } = await runAction(everyAttachment({ waitForResult: false }), [email([await pdf('a.pdf'), invite(), await pdf('b.pdf')])]);

		expect(unexpected).toEqual([]);
		expect(outputs[0].map((item) => [item.json.binary_field, item.json.file_name, item.json.result_id])).toEqual([
			['attachment_0', 'a.pdf', resultId(1)],
			['attachment_2', 'b.pdf', resultId(2)],
		]);
		expect(outputs[0][0].json.skipped_files).toEqual([{ binary_field: 'attachment_1', file_name: 'invite.ics', reason: 'not a PDF, JPEG or PNG: a text file' }]);
	});

	it('Include Input Binary passes each document its own file only', async () => {
		service(2);
		const { outputs } = await runAction(everyAttachment({ options: { includeBinary: true } }), [email([await pdf('a.pdf'), logo(), await pdf('b.pdf')])]);

		expect(outputs[0].map((item) => Object.keys(item.binary ?? {}))).toEqual([['attachment_0'], ['attachment_2']]);
	});
});

describe('a document the preflight refuses, among good ones', () => {
	const damaged = async (): Promise<Attachment> => {
		const bytes = await minimalPdf(['Invoice INV-9']);
		return { bytes: bytes.subarray(0, Math.floor(bytes.length / 2)), fileName: 'damaged.pdf', mimeType: 'application/pdf' };
	};

	it('On Error = Continue: that document fails alone, naming its attachment; the others are extracted', async () => {
		const { uploads } = service(1);
		const input = [email([await damaged(), await pdf('good.pdf')])];

		const { outputs, error } = await runAction(everyAttachment({ options: { inputFields: 'subject' } }), input, { continueOnFail: true });

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		expectPairedItems(outputs[0], [0, 0]);
		expect(outputs[0][0].json).toMatchObject({
			subject: 'Invoice INV-7',
			binary_field: 'attachment_0',
			file_name: 'damaged.pdf',
			error: 'Item 1 (damaged.pdf): The PDF file is damaged or incomplete',
		});
		expect(outputs[0][1].json).toMatchObject({ file_name: 'good.pdf', invoice_number: 'INV-1' });
	});

	it('On Error = Continue (using error output): that document goes to the error output, named; the other to the main output', async () => {
		const { uploads } = service(1);

		const { outputs, error } = await runNode({
			nodeType: 'action',
			parameters: everyAttachment(),
			credential: credential(),
			input: [email([await damaged(), await pdf('good.pdf')])],
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		expect(outputs[0].map((item) => item.json.file_name)).toEqual(['good.pdf']);
		expect(outputs[1]).toHaveLength(1);
		// n8n puts the email's own fields next to `message` and `error` on the error output.
		expect(outputs[1][0].json).toMatchObject({
			subject: 'Invoice INV-7',
			message: 'Item 1 (damaged.pdf): The PDF file is damaged or incomplete',
			error: { binary_field: 'attachment_0', file_name: 'damaged.pdf', error: 'Item 1 (damaged.pdf): The PDF file is damaged or incomplete' },
		});
		expectPairedItems([...outputs[0], ...outputs[1]], [0, 0]);
	});

	it('On Error = Stop: the node stops before anything is sent, so nothing is paid for', async () => {
		const unexpected = trapAllRequests();

		const { error } = await runAction(everyAttachment(), [email([await pdf('good.pdf'), await damaged()])]);

		expect(error?.message).toBe('Item 1 (damaged.pdf): The PDF file is damaged or incomplete');
		expect(unexpected).toEqual([]);
	});

	it('a document the service rejects fails alone, named by its attachment; under Stop the error lists every document', async () => {
		const { uploads } = service(2, (n) => (n === 1 ? failedResult(resultId(1), 'rejected', 'NO_TEXT', 'No readable text') : doneResult(resultId(2))));

		const { error } = await runAction(everyAttachment(), [email([await pdf('blank.pdf'), await pdf('good.pdf')])]);

		expect(uploads).toHaveLength(2);
		expect(error?.message).toMatch(/^Item 1 \(attachment_0, blank\.pdf\): /);
		const description = (error as { description?: string }).description ?? '';
		expect(description).toContain(`- item 1 (attachment_0, blank.pdf): result ID ${resultId(1)} (failed)`);
		expect(description).toContain(`- item 1 (attachment_1, good.pdf): result ID ${resultId(2)} (done)`);
	});
});

describe('Retry On Fail with Every Attachment', () => {
	it('an email whose second attachment is rejected, with 3 tries: each attachment is uploaded once', async () => {
		const uploads: SeenRequest[] = [];
		// Answers by content: the retries may read the results again, but must not upload again.
		answer(nock(BASE).post('/api/v1/process').times(10), uploads, () => [202, uploadAccepted(resultId(uploads.length))]);
		nock(BASE).get(`/api/v1/results/${resultId(1)}`).times(10).reply(200, doneResult(resultId(1)));
		const rejectedReads: SeenRequest[] = [];
		answer(nock(BASE).get(`/api/v1/results/${resultId(2)}`).times(10), rejectedReads, [200, failedResult(resultId(2), 'rejected', 'NO_TEXT', 'No readable text')]);

		const { error } = await runNode({
			nodeType: 'action',
			parameters: everyAttachment(),
			credential: credential(),
			input: [email([await pdf('a.pdf'), logo(), await pdf('b.pdf', ['Scan'])])],
			retry: { maxTries: 3, waitBetweenTries: 0 },
		});

		expect(error?.message).toMatch(/^Item 1 \(attachment_2, b\.pdf\): /);
		expect(uploads.map((upload) => multipartParts(upload)[0].filename)).toEqual(['a.pdf', 'b.pdf']);
		// n8n did run the node three times: each try read the rejected result again.
		expect(rejectedReads).toHaveLength(3);
	});
});

/** A zip whose first entry is a PDF: what a supplier sends when it zips its invoices. */
function zipOfInvoices(): Buffer {
	const name = 'invoices/INV-8.pdf';
	const header = Buffer.alloc(30);
	header.writeUInt32LE(0x04034b50, 0);
	header.writeUInt16LE(Buffer.byteLength(name), 26);
	return Buffer.concat([header, Buffer.from(name), Buffer.from('%PDF-1.4 zipped')]);
}

describe('Every Attachment opens an attached email (forwarded as attachment, message/rfc822)', () => {
	const attachedEmail = async (): Promise<Attachment> => {
		const bytes = await new MailComposer({
			from: 'Müller GmbH <billing@mueller.example>',
			to: 'colleague@buyer.example',
			subject: 'Rechnung März',
			text: 'Anbei die Rechnung.',
			html: '<p>Anbei die Rechnung.</p>',
			attachments: [
				{ filename: 'Rechnung Müller März.pdf', content: Buffer.from(await minimalPdf(['Rechnung R-3', 'Total 99.00'])), contentType: 'application/pdf' },
				{ filename: 'invoices.zip', content: zipOfInvoices(), contentType: 'application/zip' },
			],
		})
			.compile()
			.build();
		return { bytes, fileName: 'Rechnung März.eml', mimeType: 'message/rfc822' };
	};

	it('the invoice inside is extracted, paired with the outer email and named by it; the logo is listed, the zip inside goes to the error output with what to do', async () => {
		const { uploads, unexpected } = service(1);
		const input = [email([logo(), await attachedEmail()], { subject: 'Fwd: Rechnung März' })];

		const { outputs, error } = await runNode({
			nodeType: 'action',
			parameters: everyAttachment({ options: { inputFields: 'subject' } }),
			credential: credential(),
			input,
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(uploads).toHaveLength(1);
		const [part] = multipartParts(uploads[0]);
		expect(part.filename).toBe('Rechnung Müller März.pdf');
		expect(outputs[0]).toHaveLength(1);
		expectPairedItems([...outputs[0], ...outputs[1]], [0, 0]);
		expect(outputs[0][0].json).toMatchObject({
			subject: 'Fwd: Rechnung März',
			binary_field: 'attachment_1',
			file_name: 'Rechnung Müller März.pdf',
			attached_email: 'Rechnung März',
			invoice_number: 'INV-1',
			skipped_files: [{ binary_field: 'attachment_0', file_name: 'logo.png', reason: expect.stringMatching(/^an image of 120 x 40 px, too small to be a document/) }],
		});
		// A zip may hold the sender's invoices: someone has to unpack it, so it is not skipped quietly.
		expect(outputs[1]).toHaveLength(1);
		expect(outputs[1][0].json).toMatchObject({
			subject: 'Fwd: Rechnung März',
			error: {
				binary_field: 'attachment_1',
				file_name: 'invoices.zip',
				attached_email: 'Rechnung März',
				error: "Item 1 (invoices.zip): a zip archive: unpack it first, e.g. with n8n's Compression node",
				error_description: expect.stringContaining('does not open archives: the documents in it were not extracted. Nothing was sent to the service and no page was used.'),
			},
		});
	});

	it('an .eml without a declared type is known by its headers; beside a direct PDF each is its own document', async () => {
		const { uploads } = service(2);
		const eml = { ...(await attachedEmail()), mimeType: 'application/octet-stream', fileName: 'forwarded' };

		const { outputs, error } = await runNode({ nodeType: 'action', parameters: everyAttachment(), credential: credential(), input: [email([await pdf('direct.pdf'), eml])], onError: 'continueErrorOutput' });

		expect(error).toBeUndefined();
		expect(uploads.map((upload) => multipartParts(upload)[0].filename)).toEqual(['direct.pdf', 'Rechnung Müller März.pdf']);
		expectPairedItems(outputs[0], [0, 0]);
		expect(outputs[0].map((item) => [item.json.binary_field, item.json.file_name, item.json.attached_email])).toEqual([
			['attachment_0', 'direct.pdf', null],
			['attachment_1', 'Rechnung Müller März.pdf', 'Rechnung März'],
		]);
		expect(outputs[1].map((item) => (item.json.error as IDataObject).file_name)).toEqual(['invoices.zip']);
	});

	it('On Error = Stop: a zip stops the node before anything is sent, naming the file and what to do', async () => {
		const unexpected = trapAllRequests();
		const zip: Attachment = { bytes: zipOfInvoices(), fileName: 'invoices.zip', mimeType: 'application/zip' };

		const { error } = await runAction(everyAttachment(), [email([await pdf('good.pdf'), zip])]);

		expect(error?.message).toBe("Item 1 (invoices.zip): a zip archive: unpack it first, e.g. with n8n's Compression node");
		expect(unexpected).toEqual([]);
	});

	it('a hostile .eml (4 MB of garbage header lines) is judged quickly and goes to the error output with a reason; nothing is sent', async () => {
		const unexpected = trapAllRequests();
		const garbage = Buffer.from(`From: a@b.example\r\n${'X-Garbage: aaaaaaaa\r\n'.repeat(4 * 1024 * 1024 / 21)}`);
		const hostile: Attachment = { bytes: garbage, fileName: 'evil.eml', mimeType: 'message/rfc822' };

		const started = performance.now();
		const { outputs, error } = await runNode({ nodeType: 'action', parameters: everyAttachment(), credential: credential(), input: [email([hostile])], onError: 'continueErrorOutput' });
		const ms = performance.now() - started;

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(outputs[0]).toEqual([]);
		expect(outputs[1][0].json.error).toMatchObject({
			binary_field: 'attachment_0',
			file_name: 'evil.eml',
			error: expect.stringMatching(/^Item 1 \(evil\.eml\): an attached email that could not be opened: its headers run over/),
			error_description: expect.stringContaining('open it in a mail program and forward its attachments directly'),
		});
		// The whole run through n8n's engine, the 4 MB read from n8n's binary data included.
		expect(ms).toBeLessThan(3000);
	});
});
