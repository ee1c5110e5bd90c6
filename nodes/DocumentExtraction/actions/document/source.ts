import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { DocumentSlot } from '../../../shared/output/itemSink';
import { itemError } from '../../../shared/items/itemError';
import { readBoolean, readChoice } from '../../../shared/items/parameters';
import { parseAllowedHosts } from '../../../shared/preflight/addresses';
import { judgeAttachment, SMALL_IMAGE_RULE } from '../../../shared/preflight/attachments';
import { isAttachedEmail, openAttachedEmail, type OpenedAttachedEmail } from './attachedEmail';
import { downloadFile, shownUrl, type LinkRules } from './download';
import { checkUploadFile, readBinaryFile, type CheckedFile } from './file';

/**
 * Where an item's documents come from: one named binary field (one document), every binary field
 * of the item (an email's attachments: one document each, what is not a document skipped and
 * listed), or a URL.
 */

export const DOCUMENT_SOURCES = ['binaryField', 'binaryFields', 'url'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

export function sourceProperties(operation: string): INodeProperties[] {
	const show = (source: DocumentSource) => ({ show: { resource: ['document'], operation: [operation], documentSource: [source] } });
	return [
		...documentSourceProperties(operation),
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: show('binaryField'),
			hint: 'The name of the input binary field that holds the PDF, JPEG or PNG file',
			description: 'Email triggers name their attachments attachment_0, attachment_1 and so on; to read them all, set Document Source to "Every Attachment"',
		},
		{
			displayName: 'Only Fields Starting With',
			name: 'binaryPropertyPrefix',
			type: 'string',
			default: '',
			placeholder: 'attachment_',
			displayOptions: show('binaryFields'),
			hint: 'Leave empty to read every binary field of the item',
			description: `Only binary fields whose names start with this text are read (email triggers use attachment_). Skipped without a charge: files that are not PDF, JPEG or PNG, and ${SMALL_IMAGE_RULE}.`,
		},
		{
			displayName: 'File URL',
			name: 'fileUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/invoice.pdf',
			displayOptions: { ...show('url'), hide: { '@tool': [true] } },
			description: 'Direct link to a PDF, JPEG or PNG file of at most 4.4 MB. The link is downloaded without your API key.',
		},
		{
			// As an AI agent's tool the model gives the link: an agent cannot hand a tool a file.
			displayName: 'File URL',
			name: 'fileUrl',
			type: 'string',
			default: "={{ $fromAI('file_url', 'Direct link to the PDF, JPEG or PNG document to extract', 'string') }}",
			required: true,
			displayOptions: { show: { ...show('url').show, '@tool': [true] } },
			description: 'Direct link to a PDF, JPEG or PNG file of at most 4.4 MB. By default the AI model fills it in.',
		},
	];
}

/** As an AI agent's tool, a document can only come by URL: that is the default there. */
function documentSourceProperties(operation: string): INodeProperties[] {
	const property: INodeProperties = {
		displayName: 'Document Source',
		name: 'documentSource',
		type: 'options',
		default: 'binaryField',
		options: [
			{
				name: 'Binary Field',
				value: 'binaryField',
				description: 'One file, in the binary field you name',
			},
			{
				name: 'Every Attachment (All Binary Fields)',
				value: 'binaryFields',
				description:
					'Each file of the item is its own document, e.g. every attachment of an email. Logos, invites and other files that are not documents are skipped at no cost and listed.',
			},
			{
				name: 'URL',
				value: 'url',
				description: 'Download the file from a web address (the API key is never sent there)',
			},
		],
		description: 'Where the PDF, JPEG or PNG files to extract are',
	};
	const show = { resource: ['document'], operation: [operation] };
	return [
		{ ...property, displayOptions: { show, hide: { '@tool': [true] } } },
		{ ...property, default: 'url', displayOptions: { show: { ...show, '@tool': [true] } } },
	];
}

/**
 * One document of an item, read and checked by `load` (which fails that document alone). A file
 * from n8n's binary data is let go once checked and read again for its upload; a download is kept.
 */
export interface ItemDocument {
	/** Which of the item's documents, when it holds several. */
	slot?: DocumentSlot;
	/** Where it came from, on its output items (binary field and file name, or URL). */
	origin?: IDataObject;
	/** The binary field, when only that one is passed through ("Include Input Binary"). */
	binaryField?: string;
	load(): Promise<CheckedFile>;
}

/** A file of the item that is not a document, listed on the item's output items. */
export interface SkippedFile extends IDataObject {
	binary_field: string;
	file_name: string | null;
	/** Set when the file was inside an attached email: that email's subject ('' without one). */
	attached_email?: string;
	reason: string;
}

export interface ItemDocuments {
	source: DocumentSource;
	documents: ItemDocument[];
	skipped: SkippedFile[];
	/** The item's output when it holds no document (Every Attachment). */
	noDocument?: IDataObject;
}

export async function itemDocuments(ctx: IExecuteFunctions, i: number): Promise<ItemDocuments> {
	const source = readChoice(ctx, 'documentSource', i, 'binaryField', DOCUMENT_SOURCES, 'Document Source');
	const fileName = source === 'binaryFields' ? '' : textParameter(ctx, 'options.fileName', i, '');
	if (source === 'url') {
		const url = textParameter(ctx, 'fileUrl', i, '');
		const rules = readLinkRules(ctx, i);
		return {
			source,
			documents: [{ origin: { file_url: shownUrl(url) }, load: async () => await checkUploadFile(ctx, i, await downloadFile(ctx, i, url, rules), fileName) }],
			skipped: [],
		};
	}
	if (source === 'binaryField') {
		const field = textParameter(ctx, 'binaryPropertyName', i, 'data');
		const read = async () => await readBinaryFile(ctx, i, field);
		return { source, documents: [{ load: async () => await checkUploadFile(ctx, i, await read(), fileName, read) }], skipped: [] };
	}

	const prefix = textParameter(ctx, 'binaryPropertyPrefix', i, '');
	const binary = ctx.getInputData()[i]?.binary ?? {};
	const documents: ItemDocument[] = [];
	const skipped: SkippedFile[] = [];
	for (const field of Object.keys(binary).filter((name) => name.startsWith(prefix))) {
		const name = binary[field]?.fileName ?? null;
		const origin = { binary_field: field, file_name: name };
		const judged = await judgedAttachment(ctx, i, field);
		if ('skip' in judged) skipped.push({ ...origin, reason: judged.skip });
		else if ('email' in judged) emailDocuments(field, origin, judged.email, documents, skipped);
		else documents.push({ origin, binaryField: field, load: judged.load });
	}
	if (documents.length > 1) {
		documents.forEach((document, part) => {
			document.slot = { item: i, part, label: slotLabel(document.origin ?? {}) };
		});
	}
	return { source, documents, skipped, ...(documents.length === 0 ? { noDocument: noDocumentJson(source, prefix, skipped) } : {}) };
}

/**
 * One of the item's files read, judged (a document or not) and, if a document, checked, then let
 * go: an email's attachments are read one at a time, not held together until their uploads.
 */
async function judgedAttachment(
	ctx: IExecuteFunctions,
	i: number,
	field: string,
): Promise<{ skip: string } | { email: OpenedAttachedEmail } | Pick<ItemDocument, 'load'>> {
	const read = async () => await readBinaryFile(ctx, i, field);
	try {
		const file = await read();
		const verdict = judgeAttachment(file.bytes);
		if (!verdict.document) {
			if (!isAttachedEmail(file)) return { skip: verdict.reason };
			const email = await openAttachedEmail(ctx, i, field, file);
			return 'problem' in email ? { skip: `an attached email that could not be opened: ${email.problem}` } : { email };
		}
		const checked = await checkUploadFile(ctx, i, file, '', read);
		return { load: async () => checked };
	} catch (error) {
		// A field without its file, or a file the check refuses: that document fails on its own.
		return { load: async () => await Promise.reject(error) };
	}
}

/**
 * The documents of an attached email, each its own document of the item, named by the field, its
 * own file name and the email's subject; what inside is not a document listed likewise. An email
 * with nothing inside is listed itself.
 */
function emailDocuments(field: string, origin: SkippedFile | IDataObject, email: OpenedAttachedEmail, documents: ItemDocument[], skipped: SkippedFile[]): void {
	const inside = (fileName: string | null) => ({ binary_field: field, file_name: fileName, attached_email: email.subject ?? '' });
	for (const document of email.documents) documents.push({ origin: inside(document.fileName), binaryField: field, load: document.load });
	for (const file of email.skipped) skipped.push({ ...inside(file.fileName), reason: file.reason });
	if (email.documents.length === 0 && email.skipped.length === 0) {
		skipped.push({ binary_field: field, file_name: (origin.file_name as string | null) ?? null, reason: 'an attached email with no file inside' });
	}
}

/** How errors name a document: its field and file, and the attached email it was in. */
function slotLabel(origin: IDataObject): string {
	const label = [origin.binary_field, origin.file_name].filter(Boolean).join(', ');
	return typeof origin.attached_email === 'string' ? `${label}, in the attached email "${origin.attached_email}"` : label;
}

/** The JSON of an item that holds no document: it still leaves the node, once, saying why. */
function noDocumentJson(source: DocumentSource, prefix: string, skipped: SkippedFile[]): IDataObject {
	const fields = prefix ? `binary fields starting with "${prefix}"` : 'binary fields';
	const message =
		skipped.length === 0
			? `No document: the item has no ${fields}`
			: `No document: none of the item's ${skipped.length} file${skipped.length === 1 ? ' is' : 's are'} a PDF, JPEG or PNG document (see skipped_files)`;
	return { status: 'no_document', message, document_source: source, skipped_files: skipped };
}

/** Options → Allow Private Network Addresses and Allowed Hosts (see download.ts). */
function readLinkRules(ctx: IExecuteFunctions, i: number): LinkRules {
	const allowPrivateNetwork = readBoolean(ctx, 'options.allowPrivateNetworkAddresses', i, false, 'Allow Private Network Addresses');
	const { hosts, invalid } = parseAllowedHosts(textParameter(ctx, 'options.allowedHosts', i, ''));
	if (invalid.length > 0) {
		throw itemError(ctx.getNode(), i, `"Allowed Hosts" holds what is not a host name: ${invalid.map((entry) => JSON.stringify(entry)).join(', ')}`, 'List host names separated by commas, e.g. files.example.com, *.example.org.');
	}
	return { allowPrivateNetwork, allowedHosts: hosts };
}

/** A text parameter; an expression giving a number is taken as its text, anything else as empty. */
function textParameter(ctx: IExecuteFunctions, name: string, i: number, fallback: string): string {
	const value = ctx.getNodeParameter(name, i, fallback) as unknown;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}
