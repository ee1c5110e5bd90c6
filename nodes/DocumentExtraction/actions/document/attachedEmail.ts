import type { IExecuteFunctions } from 'n8n-workflow';

import { MAX_FILE_BYTES } from '../../../shared/limits';
import { judgeAttachment } from '../../../shared/preflight/attachments';
import { extensionOf } from '../../../shared/preflight/fileTypes';
import { looksLikeEmail, MIME_LIMITS, openEmail, type MimeFile } from '../../../shared/preflight/mimeMessage';
import { checkUploadFile, readBinaryFile, type CheckedFile, type ReadFile } from './file';

/**
 * Every Attachment: an email attached to the item's email (Outlook's and Gmail's "Forward as
 * attachment": `message/rfc822`, a `.eml` file) is opened, one level deep. Each PDF, JPEG or PNG
 * inside is a document of the item, named by the field, its file name and the attached email's
 * subject; what inside is not a document is listed with its reason.
 */

/** A document found inside the attached email: checked like any file, read again for its upload. */
export interface EmailDocument {
	fileName: string | null;
	load(): Promise<CheckedFile>;
}

export interface EmailSkipped {
	fileName: string | null;
	reason: string;
}

export interface OpenedAttachedEmail {
	/** The attached email's subject, decoded (RFC 2047); null when it has none. */
	subject: string | null;
	documents: EmailDocument[];
	skipped: EmailSkipped[];
}

/**
 * Whether the field's file, which is not a document, is an email: declared as one
 * (`message/rfc822`, `.eml`), or its content is an email's headers (`looksLikeEmail`).
 */
export function isAttachedEmail(file: ReadFile): boolean {
	const mimeType = file.mimeType?.split(';')[0].trim().toLowerCase();
	if (mimeType === 'message/rfc822' || mimeType === 'message/global' || extensionOf(file.fileName ?? '') === 'eml') return true;
	return looksLikeEmail(file.bytes);
}

/** The attached email in the field, opened; `file` is the field as read (whole up to MAX_FILE_BYTES). */
export async function openAttachedEmail(ctx: IExecuteFunctions, i: number, field: string, file: ReadFile): Promise<OpenedAttachedEmail | { problem: string }> {
	const whole = await readWholeEmail(ctx, i, field, file);
	if ('problem' in whole) return whole;
	const opened = openEmail(whole.bytes);
	if (!opened.ok) return { problem: opened.reason };
	const documents: EmailDocument[] = [];
	const skipped: EmailSkipped[] = [...opened.skipped];
	for (const inner of opened.files) {
		const judged = await judgedInnerFile(ctx, i, field, inner);
		if ('skip' in judged) skipped.push({ fileName: inner.fileName, reason: judged.skip });
		else documents.push({ fileName: inner.fileName, load: judged.load });
	}
	return { subject: opened.subject, documents, skipped };
}

/**
 * One file of the attached email decoded, judged and, if a document, checked; then let go. Its
 * upload reads the email again and decodes the same file, proven the same by the check's hash.
 */
async function judgedInnerFile(ctx: IExecuteFunctions, i: number, field: string, inner: MimeFile): Promise<{ skip: string } | { load: () => Promise<CheckedFile> }> {
	const asRead = (decoded: { bytes: Uint8Array; size?: number }): ReadFile => ({
		bytes: decoded.bytes,
		...(decoded.size === undefined ? {} : { size: decoded.size }),
		...(inner.fileName ? { fileName: inner.fileName } : {}),
		mimeType: inner.mimeType,
	});
	try {
		const file = asRead(inner.decode());
		const verdict = judgeAttachment(file.bytes);
		if (!verdict.document) return { skip: verdict.reason };
		const readAgain = async (): Promise<ReadFile> => {
			const again = await readWholeEmail(ctx, i, field, await readBinaryFile(ctx, i, field));
			if ('problem' in again) throw new Error(again.problem);
			const opened = openEmail(again.bytes);
			const same = opened.ok ? opened.files[inner.index] : undefined;
			if (!same) throw new Error('the attached email no longer holds the file');
			return asRead(same.decode());
		};
		const checked = await checkUploadFile(ctx, i, file, '', readAgain);
		return { load: async () => checked };
	} catch (error) {
		// A file the check refuses (damaged, too large): that document fails on its own.
		return { load: async () => await Promise.reject(error) };
	}
}

/** The whole email: the field as read, or, when larger than a document may be, read whole (capped). */
async function readWholeEmail(ctx: IExecuteFunctions, i: number, field: string, file: ReadFile): Promise<{ bytes: Uint8Array } | { problem: string }> {
	if (file.size === undefined || file.size <= MAX_FILE_BYTES) return { bytes: file.bytes };
	if (file.size > MIME_LIMITS.emailBytes) {
		return { problem: `the email is over ${MIME_LIMITS.emailBytes / 1_000_000} MB, more than any mail server sends` };
	}
	return { bytes: await ctx.helpers.getBinaryDataBuffer(i, field) };
}
