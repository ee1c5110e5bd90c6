import { UPLOAD_KINDS } from './fileTypes';
import { jpegSize, pngSize } from './imageSize';
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

export type AttachmentVerdict = { document: true } | { document: false; reason: string };

export function judgeAttachment(bytes: Uint8Array): AttachmentVerdict {
	if (bytes.byteLength === 0) return notDocument('the file is empty');
	const format = detectFormat(bytes);
	if (format.kind === 'pdf') return { document: true };
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
