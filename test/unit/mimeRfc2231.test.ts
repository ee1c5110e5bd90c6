/**
 * RFC 2231 file names in an attached email's parts (`filename*0*=utf-8''...`, `filename*1*=...`):
 * well-formed ones decoded whatever the order of their sections, malformed ones (a section missing
 * or given twice, a bad percent-encoding, an unknown charset, thousands of sections, sections of
 * 200 KB or 1 MB) giving each file a defined outcome: the next name the part declares, no name
 * (the node then names the document), or the part skipped with its reason. Never an exception.
 */
import { describe, expect, it } from 'vitest';

import { openEmail } from '../../nodes/shared/preflight/mimeMessage';

/** An email of one part with these headers and a PDF's first bytes; what openEmail made of it. */
function onePart(...headers: string[]) {
	const message = ['MIME-Version: 1.0', 'Subject: names', 'Content-Type: multipart/mixed; boundary=b', '', '--b', ...headers, '', '%PDF-1.4', '--b--', ''].join('\r\n');
	const email = openEmail(Buffer.from(message, 'utf8'));
	if (!email.ok) throw new Error(`not opened: ${email.reason}`);
	return { files: email.files.map((file) => ({ fileName: file.fileName, mimeType: file.mimeType })), skipped: email.skipped };
}

/** The name the one file of such an email was given. */
function nameOf(disposition: string, contentType = 'application/pdf'): string | null {
	const { files, skipped } = onePart(`Content-Type: ${contentType}`, `Content-Disposition: ${disposition}`);
	expect(skipped).toEqual([]);
	expect(files).toHaveLength(1);
	return files[0].fileName;
}

describe('well-formed RFC 2231 names', () => {
	it('encoded sections (*0*, *1*), a UTF-8 character split between two sections', () => {
		expect(nameOf("attachment; filename*0*=utf-8''Rechnung%20M%C3; filename*1*=%BCller%20M%C3%A4rz.pdf")).toBe('Rechnung Müller März.pdf');
	});

	it('plain sections (*0, *1), quoted', () => {
		expect(nameOf('attachment; filename*0="Rechnung Mueller "; filename*1="Maerz.pdf"')).toBe('Rechnung Mueller Maerz.pdf');
	});

	it('encoded and plain sections mixed; only the encoded ones are percent-decoded', () => {
		expect(nameOf("attachment; filename*0*=utf-8''Rechnung%20M%C3%BCller; filename*1=\" 100%25 \"; filename*2*=M%C3%A4rz.pdf")).toBe('Rechnung Müller 100%25 März.pdf');
	});

	it('sections out of order (RFC 2231 section 3 allows any order)', () => {
		expect(nameOf("attachment; filename*2*=rz.pdf; filename*0*=utf-8''Rechnung%20M%C3%BCller%20; filename*1*=M%C3%A4")).toBe('Rechnung Müller März.pdf');
	});

	it('a language tag, a Latin-1 charset, a section 0 without charset', () => {
		expect(nameOf("attachment; filename*=utf-8'de'M%C3%A4rz.pdf")).toBe('März.pdf');
		expect(nameOf("attachment; filename*=iso-8859-1''M%FCller.pdf")).toBe('Müller.pdf');
		expect(nameOf('attachment; filename*0*=Rechnung%20A; filename*1*=.pdf')).toBe('Rechnung A.pdf');
	});

	it('an RFC 2231 name in the Content-Type (name*0*=)', () => {
		expect(nameOf('attachment', "application/pdf; name*0*=utf-8''R%C3%A9; name*1*=sum%C3%A9.pdf")).toBe('Résumé.pdf');
	});

	it('an unknown charset: UTF-8 when the bytes are, else Latin-1', () => {
		expect(nameOf("attachment; filename*=x-unknown''M%C3%BCller.pdf")).toBe('Müller.pdf');
		expect(nameOf("attachment; filename*=x-unknown''M%FCller.pdf")).toBe('Müller.pdf');
		// Declared UTF-8 but written in Latin-1, as some software does.
		expect(nameOf("attachment; filename*=utf-8''M%FCller.pdf")).toBe('Müller.pdf');
	});
});

describe('malformed RFC 2231 names: the next name the part declares, else none', () => {
	const FALLBACK = 'application/pdf; name="fallback.pdf"';

	it.each([
		['a section missing (0 and 2, no 1)', "attachment; filename*0*=utf-8''Rechnung; filename*2*=.pdf"],
		['no section 0', 'attachment; filename*1*=Rechnung.pdf'],
		['a section given twice', "attachment; filename*0*=utf-8''a.pdf; filename*0*=utf-8''b.pdf"],
		['a section given encoded and plain', "attachment; filename*0*=utf-8''a.pdf; filename*0=b.pdf"],
		['a whole value beside sections', "attachment; filename*=utf-8''a.pdf; filename*0*=utf-8''b.pdf"],
		['a bad percent-encoding', "attachment; filename*=utf-8''100%zz.pdf"],
		['a percent sign at the end', "attachment; filename*=utf-8''100%"],
		['thousands of sections', `attachment${Array.from({ length: 3000 }, (_, n) => `; filename*${n}*=a`).join('')}`],
		['a section of 200 KB, encoded', `attachment; filename*0*=utf-8''${'a'.repeat(200_000)}; filename*1*=.pdf`],
		['a section of 200 KB, plain', `attachment; filename*0="${'a'.repeat(200_000)}"; filename*1=".pdf"`],
	])('%s: the Content-Type\'s name, or no name', (_case, disposition) => {
		expect(nameOf(disposition, FALLBACK)).toBe('fallback.pdf');
		expect(nameOf(disposition)).toBeNull();
	});

	it('the plain filename comes before the Content-Type\'s name', () => {
		expect(nameOf("attachment; filename*0*=utf-8''a; filename*2*=.pdf; filename=\"plain.pdf\"", FALLBACK)).toBe('plain.pdf');
		expect(nameOf("attachment; filename*=utf-8''100%zz.pdf; filename=\"100 percent.pdf\"", FALLBACK)).toBe('100 percent.pdf');
	});

	it('a plain name of 200 KB is no name either', () => {
		expect(nameOf(`attachment; filename="${'a'.repeat(200_000)}.pdf"`, FALLBACK)).toBe('fallback.pdf');
	});

	it('a section of 1 MB: the part\'s headers are over the cap, the part is skipped with the reason', () => {
		const reason = "a part whose headers could not be read: its headers run over 4,000 lines or 256 KB, which no email's do";
		expect(onePart('Content-Type: application/pdf', `Content-Disposition: attachment; filename*0*=utf-8''${'a'.repeat(1_000_000)}`)).toEqual({ files: [], skipped: [{ fileName: null, reason }] });
		expect(onePart('Content-Type: application/pdf', `Content-Disposition: attachment; filename*0="${'a'.repeat(1_000_000)}"`)).toEqual({ files: [], skipped: [{ fileName: null, reason }] });
	});

	it('a 1 MB section in the email\'s own headers: the email is not opened, with the reason', () => {
		const message = `MIME-Version: 1.0\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename*0*=utf-8''${'%41'.repeat(350_000)}\r\n\r\n%PDF-1.4`;
		expect(openEmail(Buffer.from(message))).toEqual({ ok: false, reason: "its headers run over 4,000 lines or 256 KB, which no email's do" });
	});
});
