import { UPLOAD_KINDS } from './fileTypes';
import { jpegSize, pngSize } from './imageSize';
import { isOutlookMessage } from './outlookMessage';
import { detectFormat } from './upload';

/**
 * Which of an item's files are documents, when the node reads every binary field of an item (an
 * email's attachments). Emails also carry signature logos, tracking pixels, calendar invites and
 * text parts; each upload costs a page of quota, so what is not a document is not sent. A file that
 * is a document but cannot be sent (a damaged PDF) is NOT judged here: the preflight fails it.
 */

/**
 * Images smaller than this are not documents. Signature logos and icons are typically under 300 px
 * on a side and tracking pixels 1 px; a phone photo of a receipt is 1,000 px or more, and a page
 * scanned at 72 dpi is 595 x 842 px. A banner logo can be wide, hence the rule on the short side.
 */
export const MIN_DOCUMENT_IMAGE_PX = { longSide: 500, shortSide: 200 } as const;

export const SMALL_IMAGE_RULE = `images under ${MIN_DOCUMENT_IMAGE_PX.longSide} px on their longer side or ${MIN_DOCUMENT_IMAGE_PX.shortSide} px on their shorter side are taken for logos, icons and tracking pixels`;

/**
 * `mayHoldDocuments`: not a document itself, but a package the node does not open (a zip, Outlook's
 * winmail.dat) in which the sender's documents may be: someone has to act on it, so it is not
 * skipped quietly like a logo.
 */
export type AttachmentVerdict = { document: true } | { document: false; reason: string; mayHoldDocuments?: true };

/**
 * What to do with files people often attach instead of a document: said in the reason, since the
 * person reading `skipped_files` is the one who can fix it.
 */
export const ATTACHMENT_ADVICE = {
	zip: "a zip archive: unpack it first, e.g. with n8n's Compression node",
	winmailDat: "Outlook's winmail.dat: ask the sender to send the attachment as a PDF, or turn off Rich Text in Outlook",
	outlookMessage:
		"an Outlook message file (.msg), which the node does not open: open it in Outlook and forward it with Forward as Attachment (that sends it as an email the node opens), or send its attachments directly",
} as const;

/** `declared` (the file's name and type) only tells an Outlook message whose directory lies past `bytes` (isOutlookMessage). */
export function judgeAttachment(bytes: Uint8Array, declared: { fileName?: string; mimeType?: string } = {}): AttachmentVerdict {
	if (bytes.byteLength === 0) return notDocument('the file is empty');
	// Before the PDF check, which finds "%PDF-" anywhere in the first KB: a zip that stores a PDF
	// uncompressed has it there too.
	if (isZipArchive(bytes)) return { document: false, reason: ATTACHMENT_ADVICE.zip, mayHoldDocuments: true };
	// TNEF (Outlook's Rich Text attachments), signature 0x223E9F78 little-endian.
	if (bytes[0] === 0x78 && bytes[1] === 0x9f && bytes[2] === 0x3e && bytes[3] === 0x22) return { document: false, reason: ATTACHMENT_ADVICE.winmailDat, mayHoldDocuments: true };
	// An email saved from Outlook (.msg), attached as a file: a Compound File like an older Word file.
	if (isOutlookMessage(bytes, declared)) return { document: false, reason: ATTACHMENT_ADVICE.outlookMessage, mayHoldDocuments: true };
	const format = detectFormat(bytes);
	if (format.kind === 'pdf') return { document: true };
	// Spec 4.2: HEIC "may or may not be read". Sent with the preflight's warning, as Binary Field
	// sends it: an iPhone receipt photo is a document, and one the service cannot read is rejected
	// (NO_TEXT) without a page charged. Its size is not read: a logo is never HEIC.
	if (format.kind === 'heic') return { document: true };
	if (format.kind !== 'jpeg' && format.kind !== 'png') {
		const label = format.kind === 'unsupported' ? format.label : `a ${UPLOAD_KINDS[format.kind].label}`;
		return notDocument(`not a PDF, JPEG or PNG: ${label.startsWith('in a format') ? `a file ${label}` : label}`);
	}
	const size = format.kind === 'png' ? pngSize(bytes) : jpegSize(bytes);
	// A size that cannot be read is no reason to skip: the preflight and the service decide.
	if (!size) return { document: true };
	const longSide = Math.max(size.width, size.height);
	const shortSide = Math.min(size.width, size.height);
	if (longSide < MIN_DOCUMENT_IMAGE_PX.longSide || shortSide < MIN_DOCUMENT_IMAGE_PX.shortSide) {
		return notDocument(`an image of ${size.width} x ${size.height} px, too small to be a document (${SMALL_IMAGE_RULE})`);
	}
	return { document: true };
}

function notDocument(reason: string): AttachmentVerdict {
	return { document: false, reason };
}

/**
 * A zip archive, not an Office document (also zip files, told by their first entry:
 * `[Content_Types].xml` or a `word/`, `xl/`, `ppt/` part for Office, `mimetype` for OpenDocument).
 */
function isZipArchive(bytes: Uint8Array): boolean {
	const at = (n: number) => bytes[n] ?? 0;
	if (at(0) !== 0x50 || at(1) !== 0x4b) return false;
	// An empty archive is only its end record.
	if (at(2) === 0x05 && at(3) === 0x06) return true;
	if (at(2) !== 0x03 || at(3) !== 0x04) return false;
	const nameLength = at(26) | (at(27) << 8);
	const name = String.fromCharCode(...bytes.subarray(30, 30 + Math.min(nameLength, 64)));
	return !/^(\[Content_Types\]\.xml|word\/|xl\/|ppt\/|docProps\/|_rels\/|mimetype)/.test(name);
}
