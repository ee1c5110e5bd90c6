import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { pngWithText } from '../../test/fixtures/images';
import { SAMPLES_DIR } from './paths';

/**
 * The sample mailbox of the demo and the end-to-end suite: real RFC 822 messages (MIME, base64
 * attachments) built from the project's own sample documents, as a supplier's mail server sends
 * them. What each holds besides documents is what real mail holds: a signature logo shown inline
 * in the HTML body, a calendar invite, no attachment at all.
 */

export interface SampleEmail {
	subject: string;
	from: string;
	/** File names of the documents: PDF, JPEG or PNG worth extracting. */
	documents: string[];
	/** File names of what is not a document (logo, invite). */
	notDocuments: string[];
	/** Every attached or inline file, by name. */
	files: Record<string, Buffer>;
	message: Buffer;
}

interface Part {
	headers: string[];
	body: Buffer | string;
}

const SIGNATURE_LOGO = { fileName: 'brightline-logo.png', contentId: 'logo@brightline.example' };
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

export function sampleEmails(): SampleEmail[] {
	const sample = (name: string) => readFileSync(join(SAMPLES_DIR, name));
	// A signature logo's size: under 300 px on a side.
	const logo = pngWithText([], 240, 80);
	const invite = Buffer.from(INVITE);
	return [
		{
			subject: 'Invoice INV-2026-0042 from Brightline Studio',
			from: 'Brightline Studio Billing <billing@brightline.example>',
			documents: ['invoice-en.pdf'],
			notDocuments: [SIGNATURE_LOGO.fileName],
			files: { [SIGNATURE_LOGO.fileName]: logo, 'invoice-en.pdf': sample('invoice-en.pdf') },
			message: message(
				{ from: 'Brightline Studio Billing <billing@brightline.example>', subject: 'Invoice INV-2026-0042 from Brightline Studio', date: 'Thu, 05 Mar 2026 09:12:00 +0000' },
				multipart('mixed', [
					multipart('related', [
						multipart('alternative', [
							text('plain', 'Hello,\r\n\r\nPlease find attached invoice INV-2026-0042.\r\n\r\nBrightline Studio\r\n'),
							text('html', `<p>Hello,</p><p>Please find attached invoice INV-2026-0042.</p><p><img src="cid:${SIGNATURE_LOGO.contentId}" alt="Brightline Studio"></p>`),
						]),
						file(logo, 'image/png', SIGNATURE_LOGO.fileName, 'inline', SIGNATURE_LOGO.contentId),
					]),
					file(sample('invoice-en.pdf'), 'application/pdf', 'invoice-en.pdf', 'attachment'),
				]),
			),
		},
		{
			subject: 'Your receipt from Corner Cafe, and Friday\'s breakfast',
			from: 'Corner Cafe <receipts@cornercafe.example>',
			documents: ['receipt.png'],
			notDocuments: ['invite.ics'],
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
			subject: 'Lunch on Friday?',
			from: 'A Colleague <colleague@example.test>',
			documents: [],
			notDocuments: [],
			files: {},
			message: message(
				{ from: 'A Colleague <colleague@example.test>', subject: 'Lunch on Friday?', date: 'Mon, 16 Mar 2026 11:30:00 +0000' },
				text('plain', 'Are you free for lunch on Friday?\r\n'),
			),
		},
	];
}

function message(header: { from: string; subject: string; date: string }, body: Part): Buffer {
	const lines = [
		`From: ${header.from}`,
		'To: Accounts Payable <ops@example.test>',
		`Subject: ${header.subject}`,
		`Date: ${header.date}`,
		`Message-ID: <${randomBytes(8).toString('hex')}@example.test>`,
		'MIME-Version: 1.0',
		...body.headers,
		'',
		'',
	];
	return Buffer.concat([Buffer.from(lines.join('\r\n')), Buffer.from(body.body)]);
}

function multipart(kind: 'mixed' | 'related' | 'alternative', parts: Part[]): Part {
	const boundary = `=_${kind}_${randomBytes(8).toString('hex')}`;
	const chunks = parts.map((part) => Buffer.concat([Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`), Buffer.from(part.body), Buffer.from('\r\n')]));
	return {
		headers: [`Content-Type: multipart/${kind}; boundary="${boundary}"`],
		body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
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
