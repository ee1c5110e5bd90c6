/**
 * A fake Gmail API and a fake Microsoft Graph mailbox (nock), serving the same mails as those
 * services serve them to n8n's Gmail Trigger and Microsoft Outlook Trigger (mailTriggers.ts):
 *
 * - Gmail: `users.messages.list` (ids, newest first), `users.messages.get` with `format=raw` (the
 *   whole MIME message, base64url) or `format=metadata` (the asked-for headers), `users.labels.list`.
 * - Graph: `GET /me/messages` (the message resource, `$select` honoured, `hasAttachments` false
 *   when the only attachments are inline, as Exchange reports it), `GET .../attachments` (file
 *   attachments with the content type the sender's mail program declared; a mail forwarded as an
 *   attachment from Outlook is an `itemAttachment` named by its subject, content type null) and
 *   `GET .../attachments/{id}/$value` (the file's bytes; an item attachment's MIME message).
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import nock from 'nock';

/** A file in a mail, as the sender's mail program put it there. */
export interface MailFile {
	fileName: string;
	/** The type the sender declared, which may not be the file's (ERP systems send PDFs as application/octet-stream). */
	contentType: string;
	bytes: Uint8Array;
	/** Shown in the body (a signature logo): Content-Disposition inline, with a Content-ID. */
	inline?: boolean;
}

export interface Mail {
	id: string;
	from: { name: string; address: string };
	to: { name: string; address: string };
	subject: string;
	/** When the mailbox received it (ISO 8601, whole seconds). */
	receivedAt: string;
	text: string;
	html?: string;
	files?: MailFile[];
	/** Mails forwarded as attachments (Gmail "Forward as attachment", Outlook "Forward as Attachment"). */
	attachedMails?: Mail[];
}

const address = ({ name, address: email }: Mail['from']) => ({ name, address: email });

/** The mail as its sender's mail program sends it (RFC 5322, MIME). */
export async function mimeOf(mail: Mail): Promise<Buffer> {
	const attachments = [
		...(mail.files ?? []).map((file, n) => ({
			filename: file.fileName,
			content: Buffer.from(file.bytes),
			contentType: file.contentType,
			...(file.inline ? { cid: `part${n}.${mail.id}@mail.example`, contentDisposition: 'inline' as const } : {}),
		})),
		// As Gmail's and Outlook's "Forward as attachment" send it: `Content-Disposition: attachment`
		// (nodemailer would write `inline`, which mailparser opens into the outer email's parts).
		...(await Promise.all(
			(mail.attachedMails ?? []).map(async (inner) => ({ filename: `${inner.subject}.eml`, content: await mimeOf(inner), contentType: 'message/rfc822', contentDisposition: 'attachment' as const })),
		)),
	];
	return await new MailComposer({
		from: address(mail.from),
		to: address(mail.to),
		subject: mail.subject,
		date: new Date(mail.receivedAt),
		messageId: `<${mail.id}@mail.example>`,
		text: mail.text,
		...(mail.html ? { html: mail.html } : {}),
		attachments,
	})
		.compile()
		.build();
}

const GMAIL = 'https://www.googleapis.com';
const GMAIL_LABELS = [
	{ id: 'INBOX', name: 'INBOX', type: 'system' },
	{ id: 'UNREAD', name: 'UNREAD', type: 'system' },
	{ id: 'IMPORTANT', name: 'IMPORTANT', type: 'system' },
	{ id: 'CATEGORY_PERSONAL', name: 'CATEGORY_PERSONAL', type: 'system' },
	{ id: 'Label_7', name: 'Invoices', type: 'user' },
];

export interface SeenApiRequest {
	method: string;
	path: string;
	authorization: string | undefined;
}

/**
 * Gmail's API for one mailbox holding `mails` (newest first in the list, as Gmail lists them).
 * Persistent interceptors: a poll may list and fetch as often as it likes; every request is recorded.
 */
export async function fakeGmail(mails: Mail[]): Promise<SeenApiRequest[]> {
	const seen: SeenApiRequest[] = [];
	const raw = new Map(await Promise.all(mails.map(async (mail) => [mail.id, await mimeOf(mail)] as const)));
	const record = (req: { method?: string; path?: string; headers: Record<string, unknown> }, path: string) =>
		seen.push({ method: req.method ?? 'GET', path, authorization: req.headers.authorization as string | undefined });
	const byNewest = [...mails].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
	const scope = nock(GMAIL).persist();
	scope.get('/gmail/v1/users/me/messages').query(true).reply(function (path) {
		record(this.req, path);
		return [200, { messages: byNewest.map((mail) => ({ id: mail.id, threadId: mail.id })), resultSizeEstimate: mails.length }];
	});
	scope.get('/gmail/v1/users/me/labels').query(true).reply(function (path) {
		record(this.req, path);
		return [200, { labels: GMAIL_LABELS }];
	});
	scope.get(/^\/gmail\/v1\/users\/me\/messages\/[^/?]+/).query(true).reply(function (path) {
		record(this.req, path);
		const url = new URL(path, GMAIL);
		const mail = mails.find((candidate) => url.pathname.endsWith(`/${candidate.id}`));
		if (!mail) return [404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } }];
		const bytes = raw.get(mail.id)!;
		const base = {
			id: mail.id,
			threadId: mail.id,
			labelIds: ['UNREAD', 'IMPORTANT', 'CATEGORY_PERSONAL', 'INBOX'],
			snippet: mail.text.slice(0, 100),
			sizeEstimate: bytes.length + 200,
			historyId: '4711',
			internalDate: String(Date.parse(mail.receivedAt)),
		};
		if (url.searchParams.get('format') === 'raw') return [200, { ...base, raw: bytes.toString('base64url') }];
		const wanted = url.searchParams.getAll('metadataHeaders');
		const headers = [
			{ name: 'From', value: `${mail.from.name} <${mail.from.address}>` },
			{ name: 'To', value: `${mail.to.name} <${mail.to.address}>` },
			{ name: 'Subject', value: mail.subject },
		].filter((header) => wanted.includes(header.name));
		return [200, { ...base, payload: { partId: '', mimeType: 'multipart/mixed', filename: '', headers } }];
	});
	return seen;
}

const GRAPH = 'https://graph.microsoft.com';

/** A mail as Graph's message resource gives it. */
function graphMessage(mail: Mail): Record<string, unknown> {
	const person = ({ name, address: email }: Mail['from']) => ({ emailAddress: { name, address: email } });
	const sentAt = new Date(Date.parse(mail.receivedAt) - 4000).toISOString().replace('.000Z', 'Z');
	return {
		'@odata.etag': `W/"CQAAABYAAAB${mail.id}"`,
		id: mail.id,
		createdDateTime: mail.receivedAt,
		lastModifiedDateTime: mail.receivedAt,
		changeKey: `CQAAABYAAAB${mail.id}`,
		categories: [],
		receivedDateTime: mail.receivedAt,
		sentDateTime: sentAt,
		hasAttachments: (mail.files ?? []).some((file) => !file.inline) || (mail.attachedMails ?? []).length > 0,
		internetMessageId: `<${mail.id}@mail.example>`,
		subject: mail.subject,
		bodyPreview: mail.text.slice(0, 255),
		importance: 'normal',
		parentFolderId: 'AQMkADAwATM0MDAAMS1iNTcwLWExZDItMDACLTAwCgAuAAAD',
		conversationId: `AAQkAD${mail.id}`,
		conversationIndex: 'AQHaTRv5',
		isDeliveryReceiptRequested: false,
		isReadReceiptRequested: false,
		isRead: false,
		isDraft: false,
		webLink: `https://outlook.office365.com/owa/?ItemID=${mail.id}&exvsurl=1&viewmodel=ReadMessageItem`,
		inferenceClassification: 'focused',
		body: mail.html ? { contentType: 'html', content: mail.html } : { contentType: 'text', content: mail.text },
		sender: person(mail.from),
		from: person(mail.from),
		toRecipients: [person(mail.to)],
		ccRecipients: [],
		bccRecipients: [],
		replyTo: [],
		flag: { flagStatus: 'notFlagged' },
	};
}

interface GraphAttachment {
	meta: Record<string, unknown>;
	bytes: Buffer;
	contentType: string;
}

async function graphAttachments(mail: Mail): Promise<GraphAttachment[]> {
	const files = (mail.files ?? []).map((file, n) => ({
		meta: {
			'@odata.type': '#microsoft.graph.fileAttachment',
			'@odata.mediaContentType': file.contentType,
			id: `${mail.id}-att${n}`,
			lastModifiedDateTime: mail.receivedAt,
			name: file.fileName,
			contentType: file.contentType,
			size: file.bytes.byteLength,
			isInline: file.inline === true,
			contentId: file.inline ? `part${n}.${mail.id}@mail.example` : null,
			contentLocation: null,
			contentBytes: Buffer.from(file.bytes).toString('base64'),
		},
		bytes: Buffer.from(file.bytes),
		contentType: file.contentType,
	}));
	const items = await Promise.all(
		(mail.attachedMails ?? []).map(async (inner, n) => {
			const bytes = await mimeOf(inner);
			// An attached Outlook item: named by its subject, no content type (Graph: "null if not explicitly set").
			const meta = { '@odata.type': '#microsoft.graph.itemAttachment', id: `${mail.id}-item${n}`, lastModifiedDateTime: mail.receivedAt, name: inner.subject, contentType: null, size: bytes.length, isInline: false };
			return { meta, bytes, contentType: 'message/rfc822' };
		}),
	);
	return [...files, ...items];
}

function selected(message: Record<string, unknown>, select: string | null): Record<string, unknown> {
	if (!select) return message;
	const fields = new Set(['@odata.etag', 'id', ...select.split(',')]);
	return Object.fromEntries(Object.entries(message).filter(([key]) => fields.has(key)));
}

/** Graph's `/me` mailbox holding `mails` (newest first). Persistent interceptors; every request is recorded. */
export async function fakeGraph(mails: Mail[]): Promise<SeenApiRequest[]> {
	const seen: SeenApiRequest[] = [];
	const attachments = new Map(await Promise.all(mails.map(async (mail) => [mail.id, await graphAttachments(mail)] as const)));
	const record = (req: { method?: string; headers: Record<string, unknown> }, path: string) =>
		seen.push({ method: req.method ?? 'GET', path: decodeURIComponent(path), authorization: req.headers.authorization as string | undefined });
	const byNewest = [...mails].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
	const scope = nock(GRAPH).persist();
	scope.get('/v1.0/me/messages').query(true).reply(function (path) {
		record(this.req, path);
		const select = new URL(path, GRAPH).searchParams.get('$select');
		return [200, { '@odata.context': `${GRAPH}/v1.0/$metadata#users('me')/messages`, value: byNewest.map((mail) => selected(graphMessage(mail), select)) }];
	});
	scope.get(/^\/v1\.0\/me\/messages\/[^/]+\/attachments(\?.*)?$/).reply(function (path) {
		record(this.req, path);
		const id = new URL(path, GRAPH).pathname.split('/')[4];
		return [200, { '@odata.context': `${GRAPH}/v1.0/$metadata#users('me')/messages('${id}')/attachments`, value: (attachments.get(id) ?? []).map((attachment) => attachment.meta) }];
	});
	scope.get(/^\/v1\.0\/me\/messages\/[^/]+\/attachments\/[^/]+\/\$value/).reply(function (path) {
		record(this.req, path);
		const [, , , , id, , attachmentId] = new URL(path, GRAPH).pathname.split('/');
		const attachment = (attachments.get(id) ?? []).find((candidate) => candidate.meta.id === attachmentId);
		if (!attachment) return [404, { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } }];
		return [200, attachment.bytes, { 'Content-Type': attachment.contentType }];
	});
	return seen;
}
