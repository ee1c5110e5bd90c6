import { formatMegabytes } from '../limits';
import { decodeEncodedWords } from './mime/encodedWords';
import { decodeBody, type MimeBody } from './mime/encodings';
import { readHeaderBlock } from './mime/headers';
import { MIME_LIMITS } from './mime/limits';
import { multipartBodies } from './mime/multipart';
import { fileNameIn, parseParameterized } from './mime/parameters';
import { plainBytes } from './mime/text';

/**
 * An email's files, read from its bytes (RFC 5322 / MIME, RFC 2045-2049): what Every Attachment
 * needs of an email sent as an attachment (Outlook's and Gmail's "Forward as attachment",
 * `message/rfc822`, `.eml`). One level deep: an email attached inside it is named, not opened.
 *
 * The bytes are untrusted. Every step moves forward through them, a few operations per byte and
 * no regular expression over the message; the headers, their parameters, the parts, the nesting
 * and the RFC 2231 sections are capped (mime/limits.ts), and a part is decoded only when asked,
 * into at most MAX_FILE_BYTES: the work is linear in the message's size (each level of nesting
 * scans its own parts once) and the memory bounded. The steps live in mime/: headers, parameters
 * (RFC 2231), encodings, encodedWords (RFC 2047), multipart, text (charsets).
 */

export { MIME_LIMITS } from './mime/limits';
/** A file of an email parsed before, decoded from its `body` in the email's bytes read again (the caller proves them the same). */
export { decodeBody as decodeFile, type MimeBody } from './mime/encodings';

/** A file inside the email, decoded only on `decode()`. */
export interface MimeFile {
	/** Its place among the email's files (the same on every read of the same bytes). */
	index: number;
	fileName: string | null;
	/** The declared type, lower case (`application/pdf`); the bytes decide what it is. */
	mimeType: string;
	/** Where it is in the email: `decodeFile` decodes it from the email's bytes read again, without parsing them again. */
	body: MimeBody;
	/**
	 * The decoded file. Over MAX_FILE_BYTES, or the cap `capFor` gives for its first bytes (a photo
	 * to shrink, a PDF to split), only its first bytes are kept (enough to tell its type) and `size`
	 * says the whole size, as a file read from n8n's binary data.
	 */
	decode(capFor?: (head: Uint8Array) => number): { bytes: Uint8Array; size?: number };
}

export interface MimeSkipped {
	fileName: string | null;
	reason: string;
}

export type OpenedEmail =
	| { ok: true; subject: string | null; files: MimeFile[]; skipped: MimeSkipped[] }
	| { ok: false; reason: string };

/**
 * Whether bytes that are not a document are an email: a header block of well-formed header lines
 * ending in an empty line, with `MIME-Version`, or `Content-Type` beside `From`, `Date` or
 * `Subject`. A text file does not pass by chance: its first line would have to be a header.
 */
export function looksLikeEmail(bytes: Uint8Array): boolean {
	const head = plainBytes(bytes).subarray(0, 64 * 1024);
	const block = readHeaderBlock(head, 0, head.byteLength, true);
	if ('problem' in block || !block.ended || block.count < 2) return false;
	const has = (name: string) => block.headers.has(name);
	return has('mime-version') || (has('content-type') && (has('from') || has('date') || has('subject')));
}

/** The email's subject and its files, or why it cannot be read. */
export function openEmail(email: Uint8Array): OpenedEmail {
	const bytes = plainBytes(email);
	if (bytes.byteLength > MIME_LIMITS.emailBytes) {
		return { ok: false, reason: `the email is ${formatMegabytes(bytes.byteLength)} MB, over the ${formatMegabytes(MIME_LIMITS.emailBytes, 0)} MB read` };
	}
	const top = readHeaderBlock(bytes, 0, bytes.byteLength, true);
	if ('problem' in top) return { ok: false, reason: top.problem };
	if (top.count === 0 || !top.ended) return { ok: false, reason: "it does not start with an email's headers" };
	const walk: Walk = { bytes, files: [], skipped: [], parts: 0, stopped: false };
	readPart(walk, top.headers, top.bodyStart, bytes.byteLength, 0);
	return { ok: true, subject: subjectOf(top.headers), files: walk.files, skipped: walk.skipped };
}

interface Walk {
	bytes: Uint8Array;
	files: MimeFile[];
	skipped: MimeSkipped[];
	parts: number;
	stopped: boolean;
}

/** One part: a multipart is walked (recursion bounded by MIME_LIMITS.depth), a leaf is a file, the body's text, or an email not opened. */
function readPart(walk: Walk, headers: Map<string, string>, start: number, end: number, depth: number): void {
	if (walk.stopped) return;
	if (++walk.parts > MIME_LIMITS.parts) {
		walk.stopped = true;
		walk.skipped.push({ fileName: null, reason: `the attached email has more than ${MIME_LIMITS.parts} parts: the rest were not read` });
		return;
	}
	const type = parseParameterized(headers.get('content-type') ?? 'text/plain');
	const disposition = parseParameterized(headers.get('content-disposition') ?? '');
	const mimeType = type.value.includes('/') ? type.value : 'text/plain';
	const fileName = fileNameIn(disposition) ?? fileNameIn(type) ?? null;

	if (mimeType.startsWith('multipart/')) {
		const boundary = type.params.get('boundary');
		if (!boundary || boundary.length > MIME_LIMITS.boundaryLength) {
			walk.skipped.push({ fileName, reason: `a ${mimeType} part without a usable boundary: it could not be read` });
			return;
		}
		if (depth >= MIME_LIMITS.depth) {
			walk.skipped.push({ fileName, reason: `parts nested more than ${MIME_LIMITS.depth} deep: they were not read` });
			return;
		}
		for (const [partStart, partEnd] of multipartBodies(walk.bytes, boundary, start, end)) {
			if (walk.stopped) return;
			const block = readHeaderBlock(walk.bytes, partStart, partEnd, false);
			if ('problem' in block) {
				walk.skipped.push({ fileName: null, reason: `a part whose headers could not be read: ${block.problem}` });
				continue;
			}
			readPart(walk, block.headers, block.bodyStart, partEnd, depth + 1);
		}
		return;
	}
	if (mimeType === 'message/rfc822' || mimeType === 'message/global') {
		walk.skipped.push({
			fileName: fileName ?? emailSubjectAt(walk.bytes, start, end),
			reason: 'an email attached inside the attached email: only one level of attached emails is opened; forward that email on its own',
		});
		return;
	}
	const isBodyText = (mimeType === 'text/plain' || mimeType === 'text/html') && fileName === null && disposition.value !== 'attachment';
	if (isBodyText) return;
	const body = { start, end, encoding: (headers.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase() };
	const bytes = walk.bytes;
	walk.files.push({ index: walk.files.length, fileName, mimeType, body, decode: (capFor) => decodeBody(bytes, body, capFor) });
}

/** An inner email's subject, to name it (its headers only are read, within the caps). */
function emailSubjectAt(bytes: Uint8Array, start: number, end: number): string | null {
	const block = readHeaderBlock(bytes, start, end, true);
	return 'problem' in block ? null : subjectOf(block.headers);
}

function subjectOf(headers: Map<string, string>): string | null {
	const subject = headers.get('subject');
	return subject === undefined ? null : decodeEncodedWords(subject).trim();
}
