import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadFixture } from '../../test/fixtures';
import { storedZip, winmailDat } from '../../test/fixtures/archives';
import { pngWithText } from '../../test/fixtures/images';
import { SAMPLES_DIR } from './paths';

/**
 * The sample mailbox of the demo and the end-to-end suite: real RFC 822 messages (MIME, base64
 * attachments) built from the project's own sample documents, as an accounts-payable inbox receives
 * them. Besides invoices it holds what such an inbox holds: a signature logo shown inline in the
 * HTML body, a calendar invite, a password-protected PDF beside an invoice, a newsletter without
 * attachment, an invoice sent a second time, a copier scan too large to send, a reply saying
 * thanks, a phone photo of a receipt, an invoice forwarded as an attachment, a zip of invoices and
 * Outlook's winmail.dat.
 */

export interface SampleEmail {
	subject: string;
	from: string;
	/** File names of the new documents: PDF, JPEG or PNG worth extracting, not sent before. */
	documents: string[];
	/** File names of what is not a document (logo, invite). */
	notDocuments: string[];
	/**
	 * Files that cannot be read (a password-protected PDF, a scan too large, a zip, winmail.dat),
	 * by name, with what the example's Needs Attention list says about each (part of its `error`).
	 */
	unreadable: Record<string, string>;
	/** File names of documents an earlier email already brought (same name and bytes). */
	repeated: string[];
	/** Every attached or inline file, by name. */
	files: Record<string, Buffer>;
	message: Buffer;
}

/**
 * The mailbox as it arrives: each list is what lands between two fetches of n8n's Email Trigger,
 * which hands all of it to one execution. The first is a morning's mail (after a night with n8n
 * stopped, say); the second arrives later that day.
 */
export type SampleMailbox = SampleEmail[][];

interface Part {
	headers: string[];
	body: Buffer | string;
}

const BRIGHTLINE = 'Brightline Studio Billing <billing@brightline.example>';
const FORWARDED_EMAIL = 'Invoice INV-2026-0042 from Brightline Studio.eml';
const MUELLER = 'Müller Büroausstattung <buchhaltung@mueller-buero.example>';
const SIGNATURE_LOGO = { fileName: 'brightline-logo.png', contentId: 'logo@brightline.example' };
export const PROTECTED_CONTRACT = 'framework-agreement-2026.pdf';
const COPIER = 'Office Copier <scanner@example.test>';
const COPIER_SCAN = 'scan_20260316_071204.pdf';
const TRAVEL = 'Sam Rivera <sam.rivera@example.test>';
const PHONE_PHOTO = 'IMG_2041.jpg';
const RICH_TEXT = 'Northwind Freight <accounts@northwind-freight.example>';
const INVITE = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Corner Cafe//Bookings//EN',
	'METHOD:REQUEST',
	'BEGIN:VEVENT',
	'UID:breakfast-2026-03-20@cornercafe.example',
	'DTSTART:20260320T080000Z',
	'DTEND:20260320T090000Z',
	'SUMMARY:Team breakfast',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');

export interface SampleMailboxOptions {
	/**
	 * A real phone photo of a receipt (the demo passes one from the real-world corpus when it is
	 * there): mailed in the afternoon as the phone names photos. What it yields depends on OCR, so
	 * the end-to-end suite, which checks every line, leaves it out.
	 */
	receiptPhoto?: Buffer;
}

/** The file name a phone gives the real receipt photo of `SampleMailboxOptions`. */
export const REAL_PHOTO = 'IMG_2187.jpg';

export async function sampleMailbox(options: SampleMailboxOptions = {}): Promise<SampleMailbox> {
	const sample = (name: string) => readFileSync(join(SAMPLES_DIR, name));
	// A signature logo's size: under 300 px on a side.
	const logo = pngWithText([], 240, 80);
	const invite = Buffer.from(INVITE);
	const contract = (await loadFixture('encrypted')).bytes;
	const invoice = sample('invoice-en.pdf');
	const scan = (await loadFixture('oversize')).bytes;
	const photo = sample('ticket-es.jpg');
	const zipped = storedZip({ 'RE-2026-1201.pdf': sample('rechnung-de.pdf'), 'RE-2026-1202.pdf': sample('rechnung-de.pdf') });
	const richText = winmailDat();
	// The original invoice email, as a colleague forwards it as an attachment.
	const forwarded = message(
		{ from: BRIGHTLINE, subject: 'Invoice INV-2026-0042 from Brightline Studio', date: 'Thu, 05 Mar 2026 09:12:00 +0000' },
		multipart('mixed', [text('plain', 'Hello,\r\n\r\nPlease find attached invoice INV-2026-0042.\r\n'), file(invoice, 'application/pdf', 'invoice-en.pdf', 'attachment')]),
	);
	const morning: SampleEmail[] = [
		{
			subject: 'Invoice INV-2026-0042 from Brightline Studio',
			from: BRIGHTLINE,
			documents: ['invoice-en.pdf'],
			notDocuments: [SIGNATURE_LOGO.fileName],
			unreadable: {},
			repeated: [],
			files: { [SIGNATURE_LOGO.fileName]: logo, 'invoice-en.pdf': invoice },
			message: message(
				{ from: BRIGHTLINE, subject: 'Invoice INV-2026-0042 from Brightline Studio', date: 'Thu, 05 Mar 2026 09:12:00 +0000' },
				multipart('mixed', [
					multipart('related', [
						multipart('alternative', [
							text('plain', 'Hello,\r\n\r\nPlease find attached invoice INV-2026-0042.\r\n\r\nBrightline Studio\r\n'),
							text('html', `<p>Hello,</p><p>Please find attached invoice INV-2026-0042.</p><p><img src="cid:${SIGNATURE_LOGO.contentId}" alt="Brightline Studio"></p>`),
						]),
						file(logo, 'image/png', SIGNATURE_LOGO.fileName, 'inline', SIGNATURE_LOGO.contentId),
					]),
					file(invoice, 'application/pdf', 'invoice-en.pdf', 'attachment'),
				]),
			),
		},
		{
			subject: 'Your receipt from Corner Cafe, and Friday\'s breakfast',
			from: 'Corner Cafe <receipts@cornercafe.example>',
			documents: ['receipt.png'],
			notDocuments: ['invite.ics'],
			unreadable: {},
			repeated: [],
			files: { 'receipt.png': sample('receipt.png'), 'invite.ics': invite },
			message: message(
				{ from: 'Corner Cafe <receipts@cornercafe.example>', subject: 'Your receipt from Corner Cafe, and Friday\'s breakfast', date: 'Sat, 14 Mar 2026 08:45:00 +0000' },
				multipart('mixed', [
					text('plain', 'Thank you for your visit. Your receipt is attached, with the invitation for Friday.\r\n'),
					file(sample('receipt.png'), 'image/png', 'receipt.png', 'attachment'),
					file(invite, 'text/calendar; method=REQUEST', 'invite.ics', 'attachment'),
				]),
			),
		},
		{
			subject: 'Rechnung RE-2026-1187 und Rahmenvertrag',
			from: MUELLER,
			documents: ['rechnung-de.pdf'],
			notDocuments: [],
			unreadable: { [PROTECTED_CONTRACT]: 'The PDF is protected by a password that is needed to open it' },
			repeated: [],
			files: { [PROTECTED_CONTRACT]: contract, 'rechnung-de.pdf': sample('rechnung-de.pdf') },
			message: message(
				{ from: MUELLER, subject: 'Rechnung RE-2026-1187 und Rahmenvertrag', date: 'Mon, 16 Mar 2026 07:58:00 +0000' },
				multipart('mixed', [
					text('plain', 'Guten Tag,\r\n\r\nanbei unser Rahmenvertrag (das Passwort folgt telefonisch) und die Rechnung RE-2026-1187.\r\n'),
					file(contract, 'application/pdf', PROTECTED_CONTRACT, 'attachment'),
					file(sample('rechnung-de.pdf'), 'application/pdf', 'rechnung-de.pdf', 'attachment'),
				]),
			),
		},
		{
			subject: 'Office Supplies Weekly: spring offers',
			from: 'Office Supplies Weekly <news@office-supplies.example>',
			documents: [],
			notDocuments: [],
			unreadable: {},
			repeated: [],
			files: {},
			message: message(
				{ from: 'Office Supplies Weekly <news@office-supplies.example>', subject: 'Office Supplies Weekly: spring offers', date: 'Mon, 16 Mar 2026 06:00:00 +0000' },
				multipart('alternative', [
					text('plain', 'This week: 20 % off paper and toner. View online: https://office-supplies.example/news\r\n'),
					text('html', '<h1>Spring offers</h1><p>20 % off paper and toner.</p><img src="https://office-supplies.example/pixel.gif" width="1" height="1" alt="">'),
				]),
			),
		},
		{
			subject: 'Invoice INV-2026-0042 (sent again)',
			from: BRIGHTLINE,
			documents: [],
			notDocuments: [],
			unreadable: {},
			repeated: ['invoice-en.pdf'],
			files: { 'invoice-en.pdf': invoice },
			message: message(
				{ from: BRIGHTLINE, subject: 'Invoice INV-2026-0042 (sent again)', date: 'Mon, 16 Mar 2026 08:30:00 +0000' },
				multipart('mixed', [
					text('plain', 'Hello,\r\n\r\nsending our invoice again in case it got lost.\r\n\r\nBrightline Studio\r\n'),
					file(invoice, 'application/pdf', 'invoice-en.pdf', 'attachment'),
				]),
			),
		},
		// A copier's 600 dpi colour scan: over the service's 4.4 MB, so it is never sent.
		{
			subject: 'Scanned document from Office Copier',
			from: COPIER,
			documents: [],
			notDocuments: [],
			unreadable: { [COPIER_SCAN]: 'the service accepts files up to about 4.4 MB' },
			repeated: [],
			files: { [COPIER_SCAN]: scan },
			message: message(
				{ from: COPIER, subject: 'Scanned document from Office Copier', date: 'Mon, 16 Mar 2026 07:12:04 +0000' },
				multipart('mixed', [text('plain', 'Scanned with Office Copier. Pages: 14. Resolution: 600 dpi.\r\n'), file(scan, 'application/pdf', COPIER_SCAN, 'attachment')]),
			),
		},
	];
	const afternoon: SampleEmail[] = [
		{
			subject: 'Re: Invoice INV-2026-0042 from Brightline Studio',
			from: BRIGHTLINE,
			documents: [],
			notDocuments: [],
			unreadable: {},
			repeated: [],
			files: {},
			message: message(
				{ from: BRIGHTLINE, subject: 'Re: Invoice INV-2026-0042 from Brightline Studio', date: 'Mon, 16 Mar 2026 12:02:00 +0000' },
				text('plain', 'Thanks, received!\r\n\r\n> Please find attached invoice INV-2026-0042.\r\n'),
			),
		},
		// A receipt photographed with a phone and mailed from it, as the phone names photos.
		{
			subject: 'Receipt: bakery, Madrid trip',
			from: TRAVEL,
			documents: [PHONE_PHOTO],
			notDocuments: [],
			unreadable: {},
			repeated: [],
			files: { [PHONE_PHOTO]: photo },
			message: message(
				{ from: TRAVEL, subject: 'Receipt: bakery, Madrid trip', date: 'Mon, 16 Mar 2026 13:41:00 +0000' },
				multipart('mixed', [text('plain', 'Sent from my phone\r\n'), file(photo, 'image/jpeg', PHONE_PHOTO, 'attachment')]),
			),
		},
		// Invoices zipped by the supplier: the node does not unpack; the list says how (n8n's Compression node).
		{
			subject: 'March invoices (zip)',
			from: MUELLER,
			documents: [],
			notDocuments: [],
			unreadable: { 'invoices-march.zip': "a zip archive: unpack it first, e.g. with n8n's Compression node" },
			repeated: [],
			files: { 'invoices-march.zip': zipped },
			message: message(
				{ from: MUELLER, subject: 'March invoices (zip)', date: 'Mon, 16 Mar 2026 13:55:00 +0000' },
				multipart('mixed', [text('plain', 'Guten Tag,\r\n\r\nanbei alle Rechnungen aus dem März als Archiv.\r\n'), file(zipped, 'application/zip', 'invoices-march.zip', 'attachment')]),
			),
		},
		// Outlook in Rich Text mode: the attachment travels inside winmail.dat.
		{
			subject: 'Freight invoice NF-88120',
			from: RICH_TEXT,
			documents: [],
			notDocuments: [],
			unreadable: { 'winmail.dat': "Outlook's winmail.dat: ask the sender to send the attachment as a PDF" },
			repeated: [],
			files: { 'winmail.dat': richText },
			message: message(
				{ from: RICH_TEXT, subject: 'Freight invoice NF-88120', date: 'Mon, 16 Mar 2026 14:30:00 +0000' },
				multipart('mixed', [text('plain', 'Please see the attached invoice.\r\n'), file(richText, 'application/ms-tnef', 'winmail.dat', 'attachment')]),
			),
		},
		{
			subject: 'Facture FA-2026-0077',
			from: 'Atelier Technique <compta@atelier-technique.example>',
			documents: ['facture-fr.pdf'],
			notDocuments: [],
			unreadable: {},
			repeated: [],
			files: { 'facture-fr.pdf': sample('facture-fr.pdf') },
			message: message(
				{ from: 'Atelier Technique <compta@atelier-technique.example>', subject: 'Facture FA-2026-0077', date: 'Mon, 16 Mar 2026 14:05:00 +0000' },
				multipart('mixed', [
					text('plain', 'Bonjour,\r\n\r\nveuillez trouver ci-joint notre facture FA-2026-0077.\r\n'),
					file(sample('facture-fr.pdf'), 'application/pdf', 'facture-fr.pdf', 'attachment'),
				]),
			),
		},
		// Outlook's and Gmail's "Forward as attachment": the original email rides as a message/rfc822 part.
		{
			subject: 'Fwd: Invoice INV-2026-0042 from Brightline Studio',
			from: 'A Colleague <colleague@example.test>',
			documents: [],
			notDocuments: [],
			unreadable: {},
			repeated: ['invoice-en.pdf'],
			files: { [FORWARDED_EMAIL]: forwarded },
			message: message(
				{ from: 'A Colleague <colleague@example.test>', subject: 'Fwd: Invoice INV-2026-0042 from Brightline Studio', date: 'Mon, 16 Mar 2026 15:20:00 +0000' },
				multipart('mixed', [text('plain', 'Was this one paid? The original email is attached.\r\n'), attachedEmail(forwarded, FORWARDED_EMAIL)]),
			),
		},
	];
	if (options.receiptPhoto) {
		const subject = 'Lunch with the client (receipt photo)';
		afternoon.push({
			subject,
			from: TRAVEL,
			documents: [REAL_PHOTO],
			notDocuments: [],
			unreadable: {},
			repeated: [],
			files: { [REAL_PHOTO]: options.receiptPhoto },
			message: message(
				{ from: TRAVEL, subject, date: 'Mon, 16 Mar 2026 16:02:00 +0000' },
				multipart('mixed', [text('plain', 'Sent from my phone\r\n'), file(options.receiptPhoto, 'image/jpeg', REAL_PHOTO, 'attachment')]),
			),
		});
	}
	return [morning, afternoon];
}

/** One plain email with one file attached, as a supplier sends an invoice. */
export function emailWithAttachment(header: { from: string; subject: string; date: string }, body: string, attachment: { bytes: Buffer; contentType: string; fileName: string }): Buffer {
	return message(header, multipart('mixed', [text('plain', body), file(attachment.bytes, attachment.contentType, attachment.fileName, 'attachment')]));
}

function message(header: { from: string; subject: string; date: string }, body: Part): Buffer {
	const lines = [
		`From: ${encodedWords(header.from)}`,
		'To: Accounts Payable <ops@example.test>',
		`Subject: ${encodedWords(header.subject)}`,
		`Date: ${header.date}`,
		`Message-ID: <${randomBytes(8).toString('hex')}@example.test>`,
		'MIME-Version: 1.0',
		...body.headers,
		'',
		'',
	];
	return Buffer.concat([Buffer.from(lines.join('\r\n')), Buffer.from(body.body)]);
}

/** A header with non-ASCII text as mail software writes it (RFC 2047); the address stays plain. */
function encodedWords(value: string): string {
	if (/^[\x20-\x7e]*$/.test(value)) return value;
	const address = /\s*<[^>]*>$/.exec(value)?.[0] ?? '';
	const words = value.slice(0, value.length - address.length);
	return `=?UTF-8?B?${Buffer.from(words).toString('base64')}?=${address}`;
}

function multipart(kind: 'mixed' | 'related' | 'alternative', parts: Part[]): Part {
	const boundary = `=_${kind}_${randomBytes(8).toString('hex')}`;
	const chunks = parts.map((part) => Buffer.concat([Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`), Buffer.from(part.body), Buffer.from('\r\n')]));
	return {
		headers: [`Content-Type: multipart/${kind}; boundary="${boundary}"`],
		body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
	};
}

/** An email attached to an email (message/rfc822), as mail software forwards one "as attachment". */
function attachedEmail(bytes: Buffer, fileName: string): Part {
	return {
		headers: [`Content-Type: message/rfc822; name="${fileName}"`, 'Content-Transfer-Encoding: 7bit', `Content-Disposition: attachment; filename="${fileName}"`],
		body: bytes,
	};
}

function text(kind: 'plain' | 'html', content: string): Part {
	return { headers: [`Content-Type: text/${kind}; charset=utf-8`, 'Content-Transfer-Encoding: 8bit'], body: content };
}

function file(bytes: Buffer, contentType: string, fileName: string, disposition: 'attachment' | 'inline', contentId?: string): Part {
	const base64 = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
	return {
		headers: [
			`Content-Type: ${contentType}; name="${fileName}"`,
			'Content-Transfer-Encoding: base64',
			`Content-Disposition: ${disposition}; filename="${fileName}"`,
			...(contentId ? [`Content-ID: <${contentId}>`] : []),
		],
		body: base64,
	};
}
