import type { IExecuteFunctions } from 'n8n-workflow';

import { MAX_FILE_BYTES } from '../../../../shared/limits';
import { judgeAttachment } from '../../../../shared/preflight/attachments';
import { extensionOf } from '../../../../shared/preflight/fileTypes';
import { decodeFile, looksLikeEmail, MIME_LIMITS, openEmail, type MimeFile, type MimeSkipped } from '../../../../shared/preflight/mimeMessage';
import { largestToRead, readPreparation } from '../preparation';
import { readBinaryFile } from './binaryData';
import { NOT_OPENED, skippedFile, unopenedPackage, type Check, type FileOrigin, type Found, type ReadAgain, type ReadFile } from './reader';

/**
 * Every Attachment: an email attached to the item's email (Outlook's and Gmail's "Forward as
 * attachment": `message/rfc822`, a `.eml` file) is opened, one level deep. Each PDF, JPEG or PNG
 * inside is a document of the item, named by the field, its file name and the attached email's
 * subject; what inside is not a document is listed with its reason.
 */

/** An attached email, opened: its files are decoded one at a time, when their turn comes. */
export interface AttachedEmail {
	/** The attached email's subject, decoded (RFC 2047); null when it has none. */
	subject: string | null;
	files: MimeFile[];
	/** What the MIME reader did not take as a file (an email inside it, parts over the cap). */
	skipped: MimeSkipped[];
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
export async function openAttachedEmail(ctx: IExecuteFunctions, i: number, field: string, file: ReadFile): Promise<AttachedEmail | { problem: string }> {
	const whole = await readWholeEmail(ctx, i, field, file);
	if ('problem' in whole) return whole;
	const opened = openEmail(whole.bytes);
	if (!opened.ok) return { problem: opened.reason };
	return { subject: opened.subject, files: opened.files, skipped: opened.skipped };
}

/**
 * What the attached email in `origin`'s field holds, in order: each file decoded and judged (a
 * document or not); a document is checked and let go before the next is decoded. Its upload reads
 * the email's bytes again and decodes the same file from where the one parse found it, proven the
 * same by the check's hash. An email with nothing inside is listed itself.
 */
export async function insideAttachedEmail<Checked>(ctx: IExecuteFunctions, i: number, origin: FileOrigin, email: AttachedEmail, check: Check<Checked>): Promise<Array<Found<Checked>>> {
	const field = origin.binary_field;
	const found: Array<Found<Checked>> = email.skipped.map((file) => ({ skipped: skippedFile(inside(field, email, file.fileName), file.reason) }));
	for (const inner of email.files) found.push(await innerFound(ctx, i, field, email, inner, check));
	if (email.files.length === 0 && email.skipped.length === 0) found.push({ skipped: skippedFile(origin, 'an attached email with no file inside') });
	return found;
}

/** Where a file inside the attached email came from: the email's field, its own name, the email's subject. */
function inside(field: string, email: AttachedEmail, fileName: string | null): FileOrigin {
	return { binary_field: field, file_name: fileName, attached_email: email.subject ?? '' };
}

/** One file of the email decoded, judged and, when a document, checked; its bytes are let go on return. */
async function innerFound<Checked>(ctx: IExecuteFunctions, i: number, field: string, email: AttachedEmail, inner: MimeFile, check: Check<Checked>): Promise<Found<Checked>> {
	const origin = inside(field, email, inner.fileName);
	const capFor = sizeToDecode(ctx, i);
	const decoded = decodedAndJudged(ctx, i, inner, capFor);
	if ('skip' in decoded) return { skipped: skippedFile(origin, decoded.skip) };
	// Not decoded: that document fails on its own (its email passes through with it).
	if ('error' in decoded) return { document: await check({ origin, ownFile: { field }, read: decoded }) };
	// Include Input Binary passes the file on as taken out of the email; over the size the service
	// takes only its beginning was decoded, so the email it is in passes instead.
	const ownFile = { field, extracted: decoded.file.size === undefined };
	return { document: await check({ origin, ownFile, read: { file: decoded.file, readAgain: readAgainFromEmail(ctx, i, field, inner, capFor) } }) };
}

/**
 * Reads the email's bytes in the field again and decodes the same file from the same place, without
 * parsing the email again (a 4 MB email with many documents cost a parse per document). Built from
 * the file's place, name and type only: holding `inner` would hold the whole email (its `decode`
 * reads the email's bytes) until the upload.
 */
function readAgainFromEmail(ctx: IExecuteFunctions, i: number, field: string, { body, fileName, mimeType }: MimeFile, capFor: CapFor): ReadAgain {
	return async () => {
		const again = await readWholeEmail(ctx, i, field, await readBinaryFile(ctx, i, field));
		if ('problem' in again) throw new Error(again.problem);
		if (again.bytes.byteLength < body.end) throw new Error('the attached email no longer holds the file');
		return asRead({ fileName, mimeType }, decodeFile(again.bytes, body, capFor));
	};
}

type CapFor = (head: Uint8Array) => number;

/**
 * How much of a file inside the email is decoded, by its first bytes: a photo that Shrink Large
 * Photos makes small enough, or a PDF that Split PDFs cuts into parts, whole up to their caps;
 * any other file up to the service's limit (preparation.ts `largestToRead`).
 */
function sizeToDecode(ctx: IExecuteFunctions, i: number): CapFor {
	const preparation = readPreparation(ctx, i);
	return (head) => largestToRead(head, preparation);
}

/** One file of the email decoded and judged: a document (its bytes), no document (why), or not decoded. */
function decodedAndJudged(ctx: IExecuteFunctions, i: number, inner: MimeFile, capFor: CapFor): { file: ReadFile } | { skip: string } | { error: unknown } {
	try {
		const file = asRead(inner, inner.decode(capFor));
		const verdict = judgeAttachment(file.bytes, file);
		if (verdict.document) return { file };
		// A zip or winmail.dat in the forwarded email: someone has to act on it, as on a direct one.
		if (verdict.mayHoldDocuments) return { error: unopenedPackage(ctx, i, inner.fileName ?? 'a file', verdict.reason, NOT_OPENED) };
		return { skip: verdict.reason };
	} catch (error) {
		return { error };
	}
}

function asRead(inner: Pick<MimeFile, 'fileName' | 'mimeType'>, decoded: { bytes: Uint8Array; size?: number }): ReadFile {
	return {
		bytes: decoded.bytes,
		...(decoded.size === undefined ? {} : { size: decoded.size }),
		...(inner.fileName ? { fileName: inner.fileName } : {}),
		mimeType: inner.mimeType,
	};
}

/** The whole email: the field as read, or, when larger than a document may be, read whole (capped). */
async function readWholeEmail(ctx: IExecuteFunctions, i: number, field: string, file: ReadFile): Promise<{ bytes: Uint8Array } | { problem: string }> {
	if (file.size === undefined || file.size <= MAX_FILE_BYTES) return { bytes: file.bytes };
	if (file.size > MIME_LIMITS.emailBytes) {
		return { problem: `the email is over ${MIME_LIMITS.emailBytes / 1_000_000} MB, more than any mail server sends` };
	}
	return { bytes: await ctx.helpers.getBinaryDataBuffer(i, field) };
}
