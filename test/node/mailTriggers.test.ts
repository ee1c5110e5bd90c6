/**
 * Issue 42: the accounts-payable mailbox on Google Workspace or Microsoft 365. n8n's own Gmail
 * Trigger and Microsoft Outlook Trigger, run from the n8n installs of both lines (1.123.81 and
 * 2.41.1, harness/mailTriggers.ts: each install's trigger on its own n8n-core) against a fake
 * Gmail API and Microsoft Graph (harness/mailApis.ts) holding one morning's mail: a supplier's
 * invoice (a PDF its ERP declares as application/octet-stream, a signature logo shown inline), a
 * colleague's taxi receipt photo with her signature logo attached, a supplier's invoice forwarded
 * as an attachment, an email saved from Outlook (.msg) attached as a file, a reply with only a
 * signature logo, and a newsletter. One poll hands all six over. The items, exactly as the trigger emitted them, go into Extract (Every Attachment) against
 * the sandbox, with Input Fields to Include naming the sender, subject and date as each trigger
 * names them (a path where the trigger gives the sender as an object).
 */
import { cleanAll, disableNetConnect, enableNetConnect } from 'nock';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadFixture } from '../fixtures';
import { pngWithText } from '../fixtures/images';
import { runNode, type RunResult } from '../harness/engine';
import { outlookMessageFile } from '../harness/compoundFiles';
import { fakeGmail, fakeGraph, type Mail, type SeenApiRequest } from '../harness/mailApis';
import { ACCESS_TOKEN, installedN8nLines, newestVersion, pollTrigger, type MailTrigger } from '../harness/mailTriggers';
import { skipNotice } from '../harness/skipNotice';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { expectPairedItems } from './actionNode.support';

const installs = installedN8nLines();
if (installs.length < 2) skipNotice('the Gmail and Microsoft Outlook Trigger items of an n8n line that is not installed here (npm run n8n:install)');

const AP = { name: 'Accounts Payable', address: 'ap@buyer.example' };
const ANN = { name: 'Ann Lee', address: 'ann.lee@buyer.example' };
const NORTHWIND = { name: 'Northwind Billing', address: 'billing@northwind.example' };
const MUELLER = { name: 'Müller GmbH Buchhaltung', address: 'rechnung@mueller.example' };

const SUBJECTS = {
	invoice: 'Invoice INV-2026-0107',
	receipt: 'Taxi receipt',
	forwarded: 'Fwd: Rechnung RE-2026-0042',
	attached: 'Rechnung RE-2026-0042',
	saved: 'Contoso invoice, saved from Outlook',
	reply: 'RE: Invoice INV-2026-0107',
	newsletter: 'March offers',
} as const;

const MSG_FILE = 'Contoso invoice 2211.msg';
const signatureLogo = (fileName: string, inline: boolean) => ({ fileName, contentType: 'image/png', bytes: pngWithText([], 180, 60), inline });

/** One morning's mail, oldest first (the services list it newest first). */
async function morningMail(): Promise<Mail[]> {
	const invoice = await loadFixture('invoiceEn');
	const rechnung = await loadFixture('invoiceDe');
	const receipt = await loadFixture('receiptPng');
	return [
		{
			id: 'msg-invoice',
			from: NORTHWIND,
			to: AP,
			subject: SUBJECTS.invoice,
			receivedAt: '2026-03-05T08:58:00Z',
			text: 'Dear customer, please find our invoice attached.',
			html: '<p>Dear customer, please find our invoice attached.</p><p><img src="cid:part1.msg-invoice@mail.example"></p>',
			// An ERP system's PDF, declared as application/octet-stream.
			files: [{ fileName: invoice.fileName, contentType: 'application/octet-stream', bytes: invoice.bytes }, signatureLogo('image001.png', true)],
		},
		{
			id: 'msg-receipt',
			from: ANN,
			to: AP,
			subject: SUBJECTS.receipt,
			receivedAt: '2026-03-05T09:03:00Z',
			text: 'Receipt from yesterday.',
			// A phone's mail program attaches the signature logo as a file of its own.
			files: [{ fileName: receipt.fileName, contentType: 'image/png', bytes: receipt.bytes }, signatureLogo('logo.png', false)],
		},
		{
			id: 'msg-forwarded',
			from: ANN,
			to: AP,
			subject: SUBJECTS.forwarded,
			receivedAt: '2026-03-05T09:10:00Z',
			text: 'This came to me, please book it.',
			attachedMails: [
				{
					id: 'msg-mueller',
					from: MUELLER,
					to: ANN,
					subject: SUBJECTS.attached,
					receivedAt: '2026-03-04T16:20:00Z',
					text: 'Sehr geehrte Damen und Herren, anbei unsere Rechnung.',
					html: '<p>Sehr geehrte Damen und Herren, anbei unsere Rechnung.</p><img src="cid:part1.msg-mueller@mail.example">',
					files: [{ fileName: rechnung.fileName, contentType: 'application/pdf', bytes: rechnung.bytes }, signatureLogo('mueller-logo.png', true)],
				},
			],
		},
		{
			id: 'msg-saved',
			from: ANN,
			to: AP,
			subject: SUBJECTS.saved,
			receivedAt: '2026-03-05T09:15:00Z',
			text: 'I saved it from Outlook, here it is.',
			// An email saved from Outlook to disk and attached as a file.
			files: [{ fileName: MSG_FILE, contentType: 'application/octet-stream', bytes: outlookMessageFile() }],
		},
		{
			id: 'msg-reply',
			from: NORTHWIND,
			to: AP,
			subject: SUBJECTS.reply,
			receivedAt: '2026-03-05T09:20:00Z',
			text: 'Thank you for your payment.',
			html: '<p>Thank you for your payment.</p><img src="cid:part0.msg-reply@mail.example">',
			files: [signatureLogo('image001.png', true)],
		},
		{
			id: 'msg-newsletter',
			from: { name: 'Office Supplies Weekly', address: 'news@supplies.example' },
			to: AP,
			subject: SUBJECTS.newsletter,
			receivedAt: '2026-03-05T09:30:00Z',
			text: 'Our March offers.',
			html: '<p>Our March offers.</p><img src="https://supplies.example/banner.png">',
		},
	];
}

/** A trigger's settings as its editor saves them, and how Extract is set up after it. */
interface Setup {
	name: string;
	trigger: MailTrigger;
	parameters: INodeParameters;
	/** Input Fields to Include: the sender, subject and date under the trigger's own names. */
	inputFields: string;
	/** Extract's "Only Fields Starting With" (the trigger's attachment prefix). */
	prefix?: string;
}

const SETUPS: Setup[] = [
	{
		name: 'Gmail Trigger, Simplify off, Download Attachments on',
		trigger: 'gmail',
		parameters: { simple: false, filters: {}, options: { downloadAttachments: true } },
		inputFields: 'from.text, from.value[0].address, subject, date',
	},
	{
		name: 'Gmail Trigger, Simplify off, Download Attachments on, Attachment Prefix "gmail_"',
		trigger: 'gmail',
		parameters: { simple: false, filters: {}, options: { downloadAttachments: true, dataPropertyAttachmentsPrefixName: 'gmail_' } },
		inputFields: 'from.value[0].address, subject, date',
		prefix: 'gmail_',
	},
	{
		name: 'Gmail Trigger, Simplify on (its default)',
		trigger: 'gmail',
		parameters: { simple: true, filters: {}, options: {} },
		inputFields: 'From, Subject',
	},
	{
		name: 'Microsoft Outlook Trigger, Output Raw, Download Attachments on',
		trigger: 'outlook',
		parameters: { output: 'raw', filters: {}, options: { downloadAttachments: true } },
		inputFields: 'from.emailAddress.address, from.emailAddress.name, subject, receivedDateTime',
	},
	{
		name: 'Microsoft Outlook Trigger, Output Simplified (its default), Download Attachments on, Attachments Prefix "outlook_"',
		trigger: 'outlook',
		parameters: { output: 'simple', filters: {}, options: { downloadAttachments: true, attachmentsPrefix: 'outlook_' } },
		inputFields: 'from, subject',
		prefix: 'outlook_',
	},
	{
		name: 'Microsoft Outlook Trigger, Output Select Included Fields, Download Attachments on',
		trigger: 'outlook',
		parameters: { output: 'fields', fields: ['from', 'subject', 'receivedDateTime'], filters: {}, options: { downloadAttachments: true } },
		inputFields: 'from.emailAddress.address, subject, receivedDateTime',
	},
];

interface Polled {
	items: INodeExecutionData[];
	requests: SeenApiRequest[];
}

let sandbox: Sandbox;
let mails: Mail[];
/** Each install's poll of each setup, taken one after another (nock's interceptors are global). */
const polled = new Map<string, Polled>();
const key = (version: string, setup: Setup) => `${version} ${setup.name}`;

beforeAll(async () => {
	disableNetConnect();
	// The sandbox is a real HTTP server on loopback; Gmail and Graph are nock's.
	enableNetConnect((host) => host.startsWith('127.0.0.1'));
	sandbox = await startSandbox({ timing: 'fast' });
	mails = await morningMail();
	for (const n8n of installs) {
		for (const setup of SETUPS) {
			const requests = setup.trigger === 'gmail' ? await fakeGmail(mails) : await fakeGraph(mails);
			const items = await pollTrigger({ n8n, trigger: setup.trigger, parameters: setup.parameters });
			polled.set(key(n8n.version, setup), { items, requests });
			cleanAll();
		}
	}
}, 60_000);
afterAll(async () => {
	cleanAll();
	enableNetConnect();
	await sandbox?.stop();
});

/** Extract with Every Attachment, through n8n's engine against the sandbox, on an account of its own. */
async function extract(items: INodeExecutionData[], setup: Setup): Promise<RunResult & { uploaded: string[] }> {
	const account = sandbox.accounts.create();
	const result = await runNode({
		nodeType: 'action',
		parameters: {
			resource: 'document',
			operation: 'extract',
			documentSource: 'binaryFields',
			...(setup.prefix ? { binaryPropertyPrefix: setup.prefix } : {}),
			options: { inputFields: setup.inputFields },
		},
		credential: { apiKey: account.keys[0], baseUrl: sandbox.baseUrl },
		input: items,
		onError: 'continueErrorOutput',
	});
	const uploaded = sandbox
		.stats()
		.uploads.filter((upload) => upload.accountId === account.id && upload.status === 202)
		.map((upload) => upload.filename);
	return { ...result, uploaded };
}

/** The trigger's item of the mail with `subject`. */
const mailItem = (items: INodeExecutionData[], subject: string) => items.find((item) => item.json.subject === subject || item.json.Subject === subject)!;
const outputOf = (items: INodeExecutionData[], subject: string) => items.filter((item) => item.json.subject === subject);
const files = (item: INodeExecutionData) => Object.fromEntries(Object.entries(item.binary ?? {}).map(([field, file]) => [field, [file.fileName, file.mimeType]]));
/** The binary field the trigger put a file in, by its file name. */
const fieldOf = (item: INodeExecutionData, fileName: string) => Object.entries(item.binary ?? {}).find(([, file]) => file.fileName === fileName)?.[0];
const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
const LOGO_REASON = expect.stringMatching(/^an image of 180 x 60 px, too small to be a document/);
const NEWEST_FIRST = [SUBJECTS.newsletter, SUBJECTS.reply, SUBJECTS.saved, SUBJECTS.forwarded, SUBJECTS.receipt, SUBJECTS.invoice];

describe.each(installs)('n8n $version', (n8n) => {
	const items = (setup: Setup) => polled.get(key(n8n.version, setup))!.items;
	const requests = (setup: Setup) => polled.get(key(n8n.version, setup))!.requests;
	const [gmail, gmailPrefix, gmailSimple, outlookRaw, outlookSimple, outlookFields] = SETUPS;

	describe('what the triggers emit', () => {
		it('Gmail Trigger (Simplify off): one item per mail, newest first; the sender an object, the date ISO; every MIME attachment a binary field, inline logos and .eml files included', () => {
			expect(newestVersion(n8n, 'gmail')).toBe(n8n.line === '1' ? 1.3 : 1.4);
			const emitted = items(gmail);
			expect(emitted.map((item) => item.json.subject)).toEqual(NEWEST_FIRST);
			const invoice = mailItem(emitted, SUBJECTS.invoice);
			expect(invoice.json).toMatchObject({
				id: 'msg-invoice',
				from: { value: [{ address: NORTHWIND.address, name: NORTHWIND.name }], text: `"${NORTHWIND.name}" <${NORTHWIND.address}>`, html: expect.any(String) },
				subject: SUBJECTS.invoice,
				date: '2026-03-05T08:58:00.000Z',
				headers: expect.objectContaining({ from: `From: ${NORTHWIND.name} <${NORTHWIND.address}>` }),
			});
			// The inline logo comes first (it sits beside the body); a file declared as
			// application/octet-stream is typed by its name (mailparser): the ERP's PDF arrives as application/pdf.
			expect(files(invoice)).toEqual({ attachment_0: ['image001.png', 'image/png'], attachment_1: ['invoice-en.pdf', 'application/pdf'] });
			expect(files(mailItem(emitted, SUBJECTS.receipt))).toEqual({ attachment_0: ['receipt.png', 'image/png'], attachment_1: ['logo.png', 'image/png'] });
			// Forwarded as an attachment: the supplier's email as a whole, a .eml file.
			expect(files(mailItem(emitted, SUBJECTS.forwarded))).toEqual({ attachment_0: [`${SUBJECTS.attached}.eml`, 'message/rfc822'] });
			expect(files(mailItem(emitted, SUBJECTS.saved))).toEqual({ attachment_0: [MSG_FILE, 'application/vnd.ms-outlook'] });
			expect(files(mailItem(emitted, SUBJECTS.reply))).toEqual({ attachment_0: ['image001.png', 'image/png'] });
			expect(mailItem(emitted, SUBJECTS.newsletter).binary).toBeUndefined();
			expect(Object.keys(mailItem(items(gmailPrefix), SUBJECTS.invoice).binary ?? {})).toEqual(['gmail_0', 'gmail_1']);
			expect(requests(gmail).every((request) => request.authorization === `Bearer ${ACCESS_TOKEN}`)).toBe(true);
			expect(requests(gmail).filter((request) => request.path.includes('format=raw'))).toHaveLength(6);
		});

		it('Gmail Trigger (Simplify on): no attachments at all (Download Attachments is not offered), the headers as From and Subject, no date', () => {
			const emitted = items(gmailSimple);
			expect(emitted).toHaveLength(6);
			for (const item of emitted) expect(item.binary).toBeUndefined();
			const invoice = mailItem(emitted, SUBJECTS.invoice);
			expect(invoice.json).toMatchObject({ From: `${NORTHWIND.name} <${NORTHWIND.address}>`, Subject: SUBJECTS.invoice, internalDate: String(Date.parse('2026-03-05T08:58:00Z')) });
			expect(invoice.json).not.toHaveProperty('date');
			expect(requests(gmailSimple).filter((request) => request.path.includes('format=metadata'))).toHaveLength(6);
		});

		it('Microsoft Outlook Trigger (Raw): the sender as Graph gives it, receivedDateTime; declared types kept (application/octet-stream), an attached Outlook item as text/plain named by its subject; inline files only beside a real attachment', () => {
			const emitted = items(outlookRaw);
			expect(emitted.map((item) => item.json.subject)).toEqual(NEWEST_FIRST);
			const invoice = mailItem(emitted, SUBJECTS.invoice);
			expect(invoice.json).toMatchObject({
				from: { emailAddress: { name: NORTHWIND.name, address: NORTHWIND.address } },
				subject: SUBJECTS.invoice,
				receivedDateTime: '2026-03-05T08:58:00Z',
				hasAttachments: true,
			});
			expect(files(invoice)).toEqual({ attachment_0: ['invoice-en.pdf', 'application/octet-stream'], attachment_1: ['image001.png', 'image/png'] });
			expect(files(mailItem(emitted, SUBJECTS.forwarded))).toEqual({ attachment_0: [SUBJECTS.attached, 'text/plain'] });
			expect(files(mailItem(emitted, SUBJECTS.saved))).toEqual({ attachment_0: [MSG_FILE, 'application/octet-stream'] });
			// Graph counts no inline file in hasAttachments: the reply's logo is never downloaded.
			const reply = mailItem(emitted, SUBJECTS.reply);
			expect(reply.json.hasAttachments).toBe(false);
			expect(reply.binary).toBeUndefined();
			expect(mailItem(emitted, SUBJECTS.newsletter).binary).toBeUndefined();
			const attachmentLists = requests(outlookRaw).filter((request) => request.path.endsWith('/attachments?$top=100'));
			expect(attachmentLists.map((request) => request.path.split('/')[4])).toEqual(['msg-saved', 'msg-forwarded', 'msg-receipt', 'msg-invoice']);
			expect(requests(outlookRaw).every((request) => request.authorization === `Bearer ${ACCESS_TOKEN}`)).toBe(true);
		});

		it('Microsoft Outlook Trigger (Simplified): the sender as an address, no date; the same files. Select Included Fields: those and hasAttachments', () => {
			const invoice = mailItem(items(outlookSimple), SUBJECTS.invoice);
			expect(invoice.json).toEqual({
				id: 'msg-invoice',
				conversationId: 'AAQkADmsg-invoice',
				subject: SUBJECTS.invoice,
				bodyPreview: 'Dear customer, please find our invoice attached.',
				from: NORTHWIND.address,
				to: [AP.address],
				categories: [],
				hasAttachments: true,
			});
			expect(files(invoice)).toEqual({ outlook_0: ['invoice-en.pdf', 'application/octet-stream'], outlook_1: ['image001.png', 'image/png'] });
			expect(Object.keys(mailItem(items(outlookFields), SUBJECTS.invoice).json).sort()).toEqual(['@odata.etag', 'from', 'hasAttachments', 'id', 'receivedDateTime', 'subject']);
		});
	});

	describe.concurrent('into Extract (Every Attachment)', () => {
		it.each([gmail, gmailPrefix, outlookRaw, outlookSimple, outlookFields])('$name: each document extracted once, logos skipped and listed, the .msg to the error output, the email fields on every item', async (setup) => {
			const input = items(setup);
			const invoiceEn = await loadFixture('invoiceEn');
			const invoiceDe = await loadFixture('invoiceDe');
			const receipt = await loadFixture('receiptPng');

			const { outputs, error, uploaded } = await extract(input, setup);

			expect(error).toBeUndefined();
			expect(uploaded.sort()).toEqual(['invoice-en.pdf', 'receipt.png', 'rechnung-de.pdf']);
			const [out, needsAttention] = outputs;
			// One item per document and one per email without one, each paired with its email; the .msg on the error output.
			expect(out).toHaveLength(5);
			expect(needsAttention).toHaveLength(1);
			expectPairedItems([...out, ...needsAttention], [0, 1, 2, 3, 4, 5]);
			for (const item of [...out, ...needsAttention]) expect(input[pairedIndex(item)].json.subject).toBe(item.json.subject);

			const [invoice] = outputOf(out, SUBJECTS.invoice);
			const invoiceMail = mailItem(input, SUBJECTS.invoice);
			expect(invoice.json).toMatchObject({ binary_field: fieldOf(invoiceMail, 'invoice-en.pdf'), file_name: 'invoice-en.pdf', attached_email: null, invoice_number: invoiceEn.expected?.invoice_number });
			expect(invoice.json.skipped_files).toEqual([{ binary_field: fieldOf(invoiceMail, 'image001.png'), file_name: 'image001.png', reason: LOGO_REASON }]);

			const [photo] = outputOf(out, SUBJECTS.receipt);
			const receiptMail = mailItem(input, SUBJECTS.receipt);
			expect(photo.json).toMatchObject({ binary_field: fieldOf(receiptMail, 'receipt.png'), file_name: 'receipt.png', receipt_number: receipt.expected?.receipt_number });
			expect(photo.json.skipped_files).toEqual([{ binary_field: fieldOf(receiptMail, 'logo.png'), file_name: 'logo.png', reason: LOGO_REASON }]);

			// Forwarded as an attachment (a .eml from Gmail, an Outlook item as text/plain): the invoice inside is the document, named by the attached email.
			const [forwarded] = outputOf(out, SUBJECTS.forwarded);
			const field = Object.keys(mailItem(input, SUBJECTS.forwarded).binary ?? {})[0];
			expect(forwarded.json).toMatchObject({ binary_field: field, file_name: 'rechnung-de.pdf', attached_email: SUBJECTS.attached, invoice_number: invoiceDe.expected?.invoice_number });
			expect(forwarded.json.skipped_files).toEqual([{ binary_field: field, file_name: 'mueller-logo.png', attached_email: SUBJECTS.attached, reason: LOGO_REASON }]);

			// A saved Outlook message (.msg) may hold an invoice the node cannot open: it is not skipped quietly.
			const savedIndex = input.indexOf(mailItem(input, SUBJECTS.saved));
			expect(outputOf(out, SUBJECTS.saved)).toEqual([]);
			expect(pairedIndex(needsAttention[0])).toBe(savedIndex);
			expect(needsAttention[0].json.error).toMatchObject({
				binary_field: fieldOf(mailItem(input, SUBJECTS.saved), MSG_FILE),
				file_name: MSG_FILE,
				error: `Item ${savedIndex + 1} (${MSG_FILE}): an Outlook message file (.msg), which the node does not open: open it in Outlook and forward it with Forward as Attachment (that sends it as an email the node opens), or send its attachments directly`,
				error_description: expect.stringContaining('Nothing was sent to the service and no page was used.'),
			});

			// No document: one item each, as the node's rule says. Gmail hands the reply's inline logo over, Outlook does not.
			const [reply] = outputOf(out, SUBJECTS.reply);
			const replyLogo = fieldOf(mailItem(input, SUBJECTS.reply), 'image001.png');
			expect(replyLogo).toBe(setup.trigger === 'gmail' ? `${setup.prefix ?? 'attachment_'}0` : undefined);
			expect(reply.json).toMatchObject({ status: 'no_document', skipped_files: replyLogo ? [{ binary_field: replyLogo, file_name: 'image001.png', reason: LOGO_REASON }] : [] });
			const noFields = `No document: the item has no ${setup.prefix ? `binary fields starting with "${setup.prefix}"` : 'binary fields'}`;
			expect(reply.json.message).toBe(replyLogo ? "No document: none of the item's 1 file is a PDF, JPEG or PNG document (see skipped_files)" : noFields);
			const [newsletter] = outputOf(out, SUBJECTS.newsletter);
			expect(newsletter.json).toMatchObject({ status: 'no_document', message: noFields, skipped_files: [] });

			// The sender, subject and date on every item, as plain values a spreadsheet cell shows.
			for (const item of out) {
				const mail = mails.find((candidate) => candidate.subject === item.json.subject)!;
				expect(emailFields(item.json, setup)).toEqual(expectedEmailFields(mail, setup));
			}
		});

		it('Gmail Trigger, Simplify on: no attachments reach Extract; every email leaves once as no_document, nothing sent', async () => {
			const input = items(gmailSimple);
			const { outputs, error, uploaded } = await extract(input, gmailSimple);

			expect(error).toBeUndefined();
			expect(uploaded).toEqual([]);
			expectPairedItems(outputs[0], [0, 1, 2, 3, 4, 5]);
			for (const item of outputs[0]) {
				expect(item.json).toMatchObject({ status: 'no_document', message: 'No document: the item has no binary fields', skipped_files: [] });
				expect(item.json.From).toBe(input[pairedIndex(item)].json.From);
			}
			expect(outputs[0].map((item) => item.json.Subject)).toEqual(input.map((item) => item.json.Subject));
		});
	});
});

/** A path's column: its steps joined by `_` (from.value[0].address -> from_value_0_address). */
function columnOf(name: string): string {
	return name.replace(/\[(\d+)\]/g, '.$1').split('.').join('_');
}

/** The email fields an output item carries: those Input Fields to Include named, by the name given. */
function emailFields(json: IDataObject, setup: Setup): IDataObject {
	return Object.fromEntries(setup.inputFields.split(',').map((name) => [name.trim(), json[columnOf(name.trim())]]));
}

function expectedEmailFields(mail: Mail, setup: Setup): IDataObject {
	const values: IDataObject = {
		'from.text': `"${mail.from.name}" <${mail.from.address}>`,
		'from.value[0].address': mail.from.address,
		'from.emailAddress.address': mail.from.address,
		'from.emailAddress.name': mail.from.name,
		// The Simplified Outlook output's sender is the address alone.
		from: mail.from.address,
		subject: mail.subject,
		date: new Date(mail.receivedAt).toISOString(),
		receivedDateTime: mail.receivedAt,
	};
	return Object.fromEntries(setup.inputFields.split(',').map((name) => [name.trim(), values[name.trim()]]));
}
