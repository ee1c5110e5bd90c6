/**
 * The MIME reader behind attached emails (Every Attachment): messages written by real mail
 * software (nodemailer's MailComposer, used only by the tests; an Outlook-style message written
 * by hand after Outlook's own output), and hostile messages judged in linear time.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, describe, expect, it } from 'vitest';

import { MAX_FILE_BYTES } from '../../nodes/shared/limits';
import { decodeEncodedWords } from '../../nodes/shared/preflight/mime/encodedWords';
import { looksLikeEmail, MIME_LIMITS, openEmail, type MimeFile } from '../../nodes/shared/preflight/mimeMessage';
import { HOSTILE_EMAILS, timeJudgement } from '../fixtures/hostileEmails';
import { minimalPdf } from '../harness/documents';
import { pngWithText } from '../fixtures/images';

const compose = async (options: Mail.Options): Promise<Buffer> => await new MailComposer(options).compile().build();

function opened(bytes: Uint8Array) {
	const email = openEmail(bytes);
	if (!email.ok) throw new Error(`not opened: ${email.reason}`);
	return email;
}

const decoded = (file: MimeFile) => Buffer.from(file.decode().bytes);

const GERMAN_NAME = 'Rechnung Müller März.pdf';

describe('messages written by mail software (nodemailer)', () => {
	it('a PDF with a non-ASCII name beside a text and HTML body with an inline logo (mixed > alternative > related)', async () => {
		const pdf = Buffer.from(await minimalPdf(['Rechnung R-1']));
		const logo = pngWithText([], 120, 40);
		const message = await compose({
			from: 'Müller GmbH <billing@mueller.example>',
			to: 'ap@buyer.example',
			subject: 'Rechnung März für Müller – bitte prüfen',
			text: 'Grüße',
			html: '<p>Grüße <img src="cid:logo@mueller"></p>',
			attachments: [
				{ filename: GERMAN_NAME, content: pdf, contentType: 'application/pdf' },
				{ filename: 'logo.png', content: logo, cid: 'logo@mueller' },
			],
		});

		const email = opened(message);

		expect(email.subject).toBe('Rechnung März für Müller – bitte prüfen');
		expect(email.files.map((file) => [file.fileName, file.mimeType])).toEqual([
			['logo.png', 'image/png'],
			[GERMAN_NAME, 'application/pdf'],
		]);
		expect(decoded(email.files[1]).equals(pdf)).toBe(true);
		expect(decoded(email.files[0]).equals(logo)).toBe(true);
		expect(email.skipped).toEqual([]);
		expect(looksLikeEmail(message)).toBe(true);
	});

	it('a long non-ASCII name written as RFC 2231 continuations (filename*0*=, filename*1*=, filename*2=) and RFC 2047 words', async () => {
		const name = 'Rechnung Müller März Lieferung Nummer 2026-0042 für die Buchhaltung.pdf';
		const message = await compose({ from: 'a@b.example', subject: 'x', text: 'x', attachments: [{ filename: name, content: Buffer.from('%PDF-1.4\n%%EOF\n') }] });
		expect(message.toString()).toContain("filename*0*=utf-8''");

		expect(opened(message).files.map((file) => file.fileName)).toEqual([name]);
	});

	it('quoted-printable, base64, 7bit and 8bit parts decode to their bytes', async () => {
		const binary = Buffer.from(Array.from({ length: 4096 }, (_, n) => (n * 37) % 256));
		const message = await compose({
			from: 'a@b.example',
			subject: 'encodings',
			text: 'body',
			attachments: [
				{ filename: 'notes.txt', content: 'Grüße = gleich\r\n'.repeat(20) + 'a line longer than seventy-six characters so that it is broken by a soft line break', contentTransferEncoding: 'quoted-printable' },
				{ filename: 'data.bin', content: binary, contentTransferEncoding: 'base64' },
				{ filename: 'plain.txt', content: 'only ascii\r\n', contentTransferEncoding: '7bit' },
				{ filename: 'raw.txt', content: Buffer.from('Grüße\r\n'), contentTransferEncoding: '8bit' },
			],
		});

		const files = opened(message).files;

		expect(files.map((file) => file.fileName)).toEqual(['notes.txt', 'data.bin', 'plain.txt', 'raw.txt']);
		expect(decoded(files[0]).toString()).toBe('Grüße = gleich\r\n'.repeat(20) + 'a line longer than seventy-six characters so that it is broken by a soft line break');
		expect(decoded(files[1]).equals(binary)).toBe(true);
		expect(decoded(files[2]).toString()).toBe('only ascii\r\n');
		expect(decoded(files[3]).toString()).toBe('Grüße\r\n');
	});

	it('Gmail-style "Forward as attachment": the outer email names the attached email, not opened past one level', async () => {
		const inner = await compose({
			from: 'billing@supplier.example',
			subject: 'Invoice March',
			text: 'Attached.',
			attachments: [{ filename: 'invoice.pdf', content: Buffer.from(await minimalPdf()) }],
		});
		const outer = await compose({
			from: 'colleague@buyer.example',
			subject: 'Fwd: Invoice March',
			text: 'See the attached email.',
			attachments: [{ filename: 'Invoice March.eml', content: inner, contentType: 'message/rfc822' }],
		});

		// n8n's trigger gives the attached email as a binary field: that is what is opened.
		expect(opened(inner).files.map((file) => file.fileName)).toEqual(['invoice.pdf']);
		// An email inside the attached email is named with a reason, not opened.
		const email = opened(outer);
		expect(email.files).toEqual([]);
		expect(email.skipped).toEqual([{ fileName: 'Invoice March.eml', reason: expect.stringMatching(/^an email attached inside the attached email: only one level/) }]);
	});
});

/** As Outlook writes a message: CRLF, Latin-1 RFC 2047 Q names, size and dates in the disposition, base64 in 76-character lines. */
function outlookStyle(pdf: Buffer): Buffer {
	const base64Lines = pdf.toString('base64').match(/.{1,76}/g)!.join('\r\n');
	return Buffer.from(
		[
			'From: =?iso-8859-1?Q?J=FCrgen_M=FCller?= <juergen@mueller.example>',
			'To: "Accounts Payable" <ap@buyer.example>',
			'Subject: =?iso-8859-1?Q?WG:_Rechnung_f=FCr_M=E4rz?=',
			'Thread-Topic: Rechnung',
			'Date: Thu, 5 Mar 2026 09:00:00 +0000',
			'Message-ID: <AM0PR01MB1234@AM0PR01MB1234.eurprd01.prod.outlook.com>',
			'Content-Language: de-DE',
			'X-MS-Has-Attach: yes',
			'Content-Type: multipart/mixed;',
			'\tboundary="_004_AM0PR01MB1234_"',
			'MIME-Version: 1.0',
			'',
			'--_004_AM0PR01MB1234_',
			'Content-Type: multipart/alternative;',
			'\tboundary="_000_AM0PR01MB1234_"',
			'',
			'--_000_AM0PR01MB1234_',
			'Content-Type: text/plain; charset="iso-8859-1"',
			'Content-Transfer-Encoding: quoted-printable',
			'',
			'Anbei die Rechnung f=FCr M=E4rz.',
			'',
			'--_000_AM0PR01MB1234_',
			'Content-Type: text/html; charset="iso-8859-1"',
			'Content-Transfer-Encoding: quoted-printable',
			'',
			'<html><body>Anbei die Rechnung f=FCr M=E4rz.</body></html>',
			'',
			'--_000_AM0PR01MB1234_--',
			'',
			'--_004_AM0PR01MB1234_',
			'Content-Type: application/pdf; name="=?iso-8859-1?Q?Rechnung_M=FCller_M=E4rz.pdf?="',
			'Content-Description: =?iso-8859-1?Q?Rechnung_M=FCller_M=E4rz.pdf?=',
			`Content-Disposition: attachment; filename="=?iso-8859-1?Q?Rechnung_M=FCller_M=E4rz.pdf?="; size=${pdf.length};`,
			'\tcreation-date="Thu, 05 Mar 2026 08:59:00 GMT";',
			'\tmodification-date="Thu, 05 Mar 2026 09:00:00 GMT"',
			'Content-Transfer-Encoding: base64',
			'',
			base64Lines,
			'',
			'--_004_AM0PR01MB1234_--',
			'',
		].join('\r\n'),
		'latin1',
	);
}

describe('an Outlook-style message and hand-written RFC examples', () => {
	it('Outlook: Latin-1 encoded words in the subject and the name, base64 in lines', async () => {
		const pdf = Buffer.from(await minimalPdf());
		const email = opened(outlookStyle(pdf));

		expect(email.subject).toBe('WG: Rechnung für März');
		expect(email.files.map((file) => file.fileName)).toEqual([GERMAN_NAME]);
		expect(decoded(email.files[0]).equals(pdf)).toBe(true);
		expect(looksLikeEmail(outlookStyle(pdf))).toBe(true);
	});

	it('RFC 2231 section 4 (filename*=UTF-8\'\'...) and raw UTF-8 names; base64 with stray white space', () => {
		const message = [
			'MIME-Version: 1.0',
			'Subject: plain',
			'Content-Type: multipart/mixed; boundary=simple',
			'',
			'preamble, ignored',
			'--simple',
			"Content-Disposition: attachment; filename*=UTF-8''Rechnung%20M%C3%BCller%20M%C3%A4rz.pdf",
			'Content-Type: application/octet-stream',
			'Content-Transfer-Encoding: BASE64',
			'',
			' JVBE Ri0x\tLjQK',
			'  JSVF T0YK ',
			'--simple',
			'Content-Type: image/jpeg; name="Quittung Café.jpg"',
			'Content-Transfer-Encoding: binary',
			'',
			'\xff\xd8\xff',
			'--simple--',
			'epilogue, ignored',
		].join('\n');
		const email = opened(Buffer.from(message, 'utf8'));

		expect(email.files.map((file) => [file.fileName, file.mimeType])).toEqual([
			[GERMAN_NAME, 'application/octet-stream'],
			['Quittung Café.jpg', 'image/jpeg'],
		]);
		expect(decoded(email.files[0]).toString()).toBe('%PDF-1.4\n%%EOF\n');
	});

	it('decodes RFC 2047 words: B and Q, charsets, the space between adjacent words dropped (RFC 2047 section 8)', () => {
		expect(decodeEncodedWords('=?ISO-8859-1?Q?a?= b')).toBe('a b');
		expect(decodeEncodedWords('=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=')).toBe('ab');
		expect(decodeEncodedWords('=?ISO-8859-1?Q?a_b?=')).toBe('a b');
		expect(decodeEncodedWords('=?UTF-8?B?UmVjaG51bmcgTcO8bGxlci5wZGY=?=')).toBe('Rechnung Müller.pdf');
		expect(decodeEncodedWords('=?UTF-8*de?Q?M=C3=A4rz?=')).toBe('März');
		expect(decodeEncodedWords('no words =? here ?=')).toBe('no words =? here ?=');
		// A character's bytes split between two adjacent words (RFC 2047 section 5 forbids it; software does it).
		expect(decodeEncodedWords('=?UTF-8?Q?M=C3?= =?UTF-8?Q?=BCller?= =?ISO-8859-1?Q?_M=E4rz?=')).toBe('Müller März');
	});

	it('a single-part message whose body is the PDF is itself the file', () => {
		const message = ['MIME-Version: 1.0', 'Content-Type: application/pdf; name=scan.pdf', 'Content-Transfer-Encoding: base64', '', 'JVBERi0xLjQK'].join('\r\n');
		expect(opened(Buffer.from(message)).files.map((file) => file.fileName)).toEqual(['scan.pdf']);
	});

	it('a part over the per-file limit keeps only its beginning and says its size', () => {
		const big = Buffer.alloc(MAX_FILE_BYTES + 10, 0x41);
		big.write('%PDF-1.4');
		const message = Buffer.concat([
			Buffer.from('MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/pdf; name=big.pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n'),
			Buffer.from(big.toString('base64').replace(/.{76}/g, '$&\r\n')),
			Buffer.from('\r\n--b--\r\n'),
		]);
		const file = opened(message).files[0].decode();
		expect(file.size).toBe(MAX_FILE_BYTES + 10);
		expect(file.bytes.byteLength).toBeLessThanOrEqual(1024);
		expect(Buffer.from(file.bytes.subarray(0, 8)).toString()).toBe('%PDF-1.4');
	});

	/** A message of one base64 (or quoted-printable) part holding `body`. */
	const onePart = (body: Buffer, encoding: 'base64' | 'quoted-printable' = 'base64') =>
		Buffer.concat([
			Buffer.from(`MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/octet-stream; name=f\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n`),
			encoding === 'base64' ? Buffer.from(body.toString('base64').replace(/.{76}/g, '$&\r\n')) : Buffer.from(body.toString('latin1').replace(/.{70}/g, '$&=\r\n'), 'latin1'),
			Buffer.from('\r\n--b--\r\n'),
		]);
	/** What Every Attachment asks with Shrink Large Photos on: a JPEG whole up to 40 MB, anything else up to 4.4 MB. */
	const photoCap = (head: Uint8Array) => (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff ? 40_000_000 : MAX_FILE_BYTES);

	it.each(['base64', 'quoted-printable'] as const)('a cap chosen by the first bytes (%s): a 9 MB photo to shrink is decoded whole, a 9 MB file of another type keeps only its beginning', (encoding) => {
		const photo = Buffer.alloc(9_000_000, 0x41);
		photo.set([0xff, 0xd8, 0xff, 0xe0]);
		const whole = opened(onePart(photo, encoding)).files[0].decode(photoCap);
		expect(whole.size).toBeUndefined();
		expect(Buffer.from(whole.bytes).equals(photo)).toBe(true);

		const other = Buffer.alloc(9_000_000, 0x41);
		other.write('GIF89a');
		const head = opened(onePart(other, encoding)).files[0].decode(photoCap);
		expect(head.size).toBe(9_000_000);
		expect(head.bytes.byteLength).toBe(1024);
		expect(Buffer.from(head.bytes.subarray(0, 6)).toString()).toBe('GIF89a');
	});

	it('a part over the cap of its type (a 25 MB photo, a cap of 10 MB for photos): only its beginning kept, decoded in one pass', () => {
		// An email holds at most 40 MB (MIME_LIMITS.emailBytes), about 29 MB of base64 file: a photo over the real cap of 40 MB cannot be in one.
		const photo = Buffer.alloc(25_000_000, 0x41);
		photo.set([0xff, 0xd8, 0xff, 0xe0]);
		const message = onePart(photo);
		expect(message.byteLength).toBeLessThan(MIME_LIMITS.emailBytes);
		const started = performance.now();
		const file = opened(message).files[0].decode((head) => (photoCap(head) > MAX_FILE_BYTES ? 10_000_000 : MAX_FILE_BYTES));
		const elapsed = performance.now() - started;
		expect(file.size).toBe(25_000_000);
		expect(file.bytes.byteLength).toBe(1024);
		// 34 MB of base64 decoded once, not once per kilobyte: well under a few seconds on a busy machine.
		expect(elapsed).toBeLessThan(5_000);
	});
});

describe('what is taken for an email', () => {
	it.each([
		['a plain text note', 'Meeting notes\nContent-Type: is discussed here\n'],
		['a CSV file', 'date,amount\n2026-03-05,120.00\n'],
		['an HTTP response saved to a file', 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html></html>'],
		['a text with one header-like line only', 'Subject: hello\n\nbody'],
		['a calendar invite', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n'],
	])('%s is not', (_name, text) => {
		expect(looksLikeEmail(Buffer.from(text))).toBe(false);
	});

	it('a message with MIME-Version, or Content-Type with From, is', () => {
		expect(looksLikeEmail(Buffer.from('MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nhi'))).toBe(true);
		expect(looksLikeEmail(Buffer.from('From: a@b.example\nContent-Type: text/plain\n\nhi'))).toBe(true);
		expect(looksLikeEmail(Buffer.from('From a@b.example Thu Mar  5 09:00:00 2026\nFrom: a@b.example\nMIME-Version: 1.0\n\nhi'))).toBe(true);
	});
});

/**
 * 4 MB hostile messages, each judged (opened, taken for an email or not, every file decoded) with
 * its exact outcome, in linear time: the median of five judgements under 300 ms of CPU on a 2-core
 * machine (the slowest shape takes about a quarter of that), whatever the shape.
 */
describe('hostile messages', () => {
	const FOUR_MB = 4 * 1024 * 1024;
	const fill = (head: string, unit: string, tail = '') => Buffer.from(head + unit.repeat(Math.floor((FOUR_MB - head.length - tail.length) / unit.length)) + tail, 'latin1');
	const TOO_LONG = { reason: "its headers run over 4,000 lines or 256 KB, which no email's do" };
	const PART_CAP = { fileName: null, reason: 'the attached email has more than 100 parts: the rest were not read' };
	const times: Array<[string, number, number]> = [];
	// The figures, printed: on a loaded machine the budget may hold while the margin shrinks.
	afterAll(() => process.stdout.write(`hostile 4 MB emails, median of 5 judgements (clock, CPU):\n${times.map(([name, ms, cpuMs]) => `${ms.toFixed(1).padStart(7)} ms ${cpuMs.toFixed(1).padStart(7)} ms  ${name}\n`).join('')}`));

	/** `count` PDFs of 8 bytes named `name(n)`, as outcome() lists them. */
	const pdfs = (count: number, name: (n: number) => string | null = () => null) => Array.from({ length: count }, (_, n) => [name(n), 'application/pdf', 8]);

	const head = 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n';
	const base64Head = 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n';
	const qpHead = 'MIME-Version: 1.0\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n';
	const brokenWords = '=?a?B?'.repeat(33_000);
	const expected: Record<string, unknown> = {
		'millions of header lines': TOO_LONG,
		'one 4 MB header line': TOO_LONG,
		'a 4 MB folded header': TOO_LONG,
		'4 MB of parameters': TOO_LONG,
		'4 MB of empty lines after a header': { subject: null, files: [], skipped: [] },
		'a multipart with no closing boundary, one 4 MB part': { subject: null, files: [[null, 'application/pdf', 3 * Math.floor((FOUR_MB - base64Head.length) / 4)]], skipped: [] },
		'4 MB of boundary prefixes on one line': { subject: null, files: [], skipped: [] },
		'4 MB of boundary lines (part cap)': { subject: null, files: pdfs(99).map(([name, type]) => [name, type, 1]), skipped: [PART_CAP] },
		'4 MB of nested multiparts': { subject: null, files: [], skipped: [PART_CAP] },
		'a 200 KB subject of broken encoded words': { subject: ` ${brokenWords}`.slice(0, MIME_LIMITS.textChars).trim(), files: [], skipped: [] },
		'4 MB of quoted-printable equals signs': { subject: null, files: [[null, 'application/pdf', 2 * Math.floor((FOUR_MB - qpHead.length) / 2)]], skipped: [] },
		'RFC 2231 names of 250 KB, encoded sections (filename*0*=utf-8\'\'...)': { subject: 'hostile', files: pdfs(17), skipped: [] },
		'RFC 2231 names of 250 KB, plain sections (filename*0="...")': { subject: 'hostile', files: pdfs(17), skipped: [] },
		'thousands of RFC 2231 sections per name': { subject: 'hostile', files: pdfs(20), skipped: [] },
		'names of 250 KB of RFC 2047 encoded words': { subject: 'hostile', files: pdfs(17), skipped: [] },
		'thousands of RFC 2231 parameters in unknown charsets per part': { subject: 'hostile', files: pdfs(24), skipped: [] },
		'names of thousands of empty encoded words in unknown charsets, four per part': { subject: 'hostile', files: pdfs(99).map(([name, type]) => [name, type, 20_008]), skipped: [PART_CAP] },
		'thousands of kept header lines in Latin-1 in every part': { subject: 'hostile', files: pdfs(90, (n) => `${n}.pdf`), skipped: [] },
		'a Content-Disposition folded over thousands of Latin-1 lines in every part': { subject: 'hostile', files: pdfs(68), skipped: [] },
		'header names of 99 characters, up to the header cap in every part': { subject: 'hostile', files: pdfs(17), skipped: [] },
		'thousands of parts': { subject: 'hostile', files: pdfs(99, (n) => `${n}.pdf`), skipped: [PART_CAP] },
		'multiparts nested 12 deep around 4 MB of base64': { subject: 'hostile', files: [], skipped: [{ fileName: null, reason: 'parts nested more than 8 deep: they were not read' }] },
		'multiparts nested 8 deep, every line starting like each boundary': { subject: 'hostile', files: [], skipped: [{ fileName: null, reason: 'parts nested more than 8 deep: they were not read' }] },
		'4 MB of short lines starting like the boundary': { subject: 'hostile', files: [], skipped: [] },
		'Content-Type lines of 250 KB of parameters in every part': { subject: 'hostile', files: pdfs(17, (n) => `${n}.pdf`), skipped: [] },
		'one base64 line of 4 MB': { subject: 'hostile', files: [['big.pdf', 'application/pdf', 3 * (FOUR_MB / 4)]], skipped: [] },
		'a boundary of 70 dashes over 4 MB of dashes': { subject: 'hostile', files: [], skipped: [] },
		'4 MB of lines that almost start with the boundary': { subject: 'hostile', files: [], skipped: [] },
		'4 MB of quoted-printable "=" each before a CR alone': { subject: null, files: [[null, 'application/pdf', FOUR_MB]], skipped: [] },
	};

	const cases: Array<[string, () => Buffer]> = [
		['millions of header lines', () => fill('From: a@b.example\r\n', 'X-A: b\n')],
		['one 4 MB header line', () => fill('Subject: ', 'a')],
		['a 4 MB folded header', () => fill('Subject: x\r\n', ' a\r\n')],
		['4 MB of parameters', () => fill('MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b', '; a="x"', '\r\n\r\n--b--')],
		['4 MB of empty lines after a header', () => fill(head, '\r\n')],
		['a multipart with no closing boundary, one 4 MB part', () => fill(base64Head, 'QUJD')],
		['4 MB of boundary prefixes on one line', () => fill(head, '--b-')],
		['4 MB of boundary lines (part cap)', () => fill(head, '--b\r\nContent-Type: application/pdf\r\n\r\nx\r\n')],
		['4 MB of nested multiparts', () => fill(head, '--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n')],
		['a 200 KB subject of broken encoded words', () => Buffer.from(`MIME-Version: 1.0\r\nSubject: ${brokenWords}\r\n\r\n`)],
		['4 MB of quoted-printable equals signs', () => fill(qpHead, '=\r')],
		...HOSTILE_EMAILS.map(({ name, bytes }): [string, () => Buffer] => [name, bytes]),
	];

	it.each(cases)('%s', (name, bytes) => {
		const { outcome, ms, cpuMs } = timeJudgement(bytes());
		times.push([name, ms, cpuMs]);

		expect(outcome).toEqual(expected[name]);
		// The CPU time: on a loaded machine other processes stretch the clock's.
		expect(cpuMs).toBeLessThan(300);
	});
});
