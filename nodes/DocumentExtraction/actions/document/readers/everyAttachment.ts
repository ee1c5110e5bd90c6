import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { judgeAttachment } from '../../../../shared/preflight/attachments';
import { insideAttachedEmail, isAttachedEmail, openAttachedEmail, type AttachedEmail } from './attachedEmail';
import { readBinaryFile } from './binaryData';
import { NOT_OPENED, skippedFile, textParameter, unopenedPackage, type Check, type DocumentReader, type FileOrigin, type Found, type ReadAgain, type ReadFile, type SkippedFile } from './reader';

/**
 * Document Source "Every Attachment": every binary field of the item (those starting with Only
 * Fields Starting With), an email's attachments. Each file is read and judged on its own: a
 * document, an attached email (opened, attachedEmail.ts), or no document (a signature logo, an
 * invite: listed with its reason, never sent). A document is read again from n8n's binary data
 * for its upload.
 */
export function everyAttachmentReader(ctx: IExecuteFunctions, i: number): DocumentReader {
	const prefix = textParameter(ctx, 'binaryPropertyPrefix', i, '');
	return { read: async (check) => await everyField(ctx, i, prefix, check), noDocument: (skipped) => noDocumentJson(prefix, skipped) };
}

async function everyField<Checked>(ctx: IExecuteFunctions, i: number, prefix: string, check: Check<Checked>): Promise<Array<Found<Checked>>> {
	const binary = ctx.getInputData()[i]?.binary ?? {};
	const found: Array<Found<Checked>> = [];
	for (const field of Object.keys(binary).filter((name) => name.startsWith(prefix))) {
		found.push(...(await fieldFound(ctx, i, { binary_field: field, file_name: binary[field]?.fileName ?? null, attached_email: null }, check)));
	}
	return found;
}

/** One field's file: read, judged and, when a document, checked; when an attached email, opened. Its bytes are let go on return. */
async function fieldFound<Checked>(ctx: IExecuteFunctions, i: number, origin: FileOrigin, check: Check<Checked>): Promise<Array<Found<Checked>>> {
	const field = origin.binary_field;
	const read = async () => await readBinaryFile(ctx, i, field);
	const seen = await judged(ctx, i, field, read);
	if ('document' in seen) return [{ document: await check({ origin, ownFile: { field }, read: { file: seen.document, readAgain: read } }) }];
	if ('error' in seen) return [{ document: await check({ origin, ownFile: { field }, read: seen }) }];
	if ('skip' in seen) return [{ skipped: skippedFile(origin, seen.skip) }];
	return await insideAttachedEmail(ctx, i, origin, seen.email, check);
}

/**
 * The field's file read and judged: a document, an attached email, no document (why), or not
 * readable. A package that may hold documents (a zip, winmail.dat) or an attached email that cannot
 * be opened is not skipped quietly: it fails as a document of its own, so it reaches the error
 * output (the example's Needs Attention) with what to do, while the item's other documents go on.
 */
async function judged(
	ctx: IExecuteFunctions,
	i: number,
	field: string,
	read: ReadAgain,
): Promise<{ document: ReadFile } | { email: AttachedEmail } | { skip: string } | { error: unknown }> {
	try {
		const file = await read();
		const verdict = judgeAttachment(file.bytes, file);
		if (verdict.document) return { document: file };
		const unopened = (reason: string, what: string) => ({ error: unopenedPackage(ctx, i, file.fileName ?? field, reason, what) });
		if (verdict.mayHoldDocuments) return unopened(verdict.reason, NOT_OPENED);
		if (!isAttachedEmail(file)) return { skip: verdict.reason };
		const email = await openAttachedEmail(ctx, i, field, file);
		if ('problem' in email) {
			return unopened(`an attached email that could not be opened: ${email.problem}`, 'The documents in it, if any, were not extracted: open it in a mail program and forward its attachments directly.');
		}
		return { email };
	} catch (error) {
		// A field without its file, or an attached email that could not be read whole: that document fails on its own.
		return { error };
	}
}

/** The JSON of an item that holds no document: it still leaves the node, once, saying why. */
function noDocumentJson(prefix: string, skipped: SkippedFile[]): IDataObject {
	const fields = prefix ? `binary fields starting with "${prefix}"` : 'binary fields';
	const message =
		skipped.length === 0
			? `No document: the item has no ${fields}`
			: `No document: none of the item's ${skipped.length} file${skipped.length === 1 ? ' is' : 's are'} a PDF, JPEG or PNG document (see skipped_files)`;
	return { status: 'no_document', message, document_source: 'binaryFields', skipped_files: skipped };
}
