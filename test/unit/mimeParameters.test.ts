/**
 * The package's one reader of parameterized headers (mime/parameters.ts): RFC 2045 parameters,
 * RFC 2231 extended ones and why a malformed one is not read, and the file name of an HTTP
 * download's Content-Disposition (RFC 6266), which download.ts takes from it.
 */
import { describe, expect, it } from 'vitest';

import { fileNameFromDisposition, parseParameterized } from '../../nodes/shared/preflight/mime/parameters';

describe('parseParameterized', () => {
	it('the value lower case, parameters unquoted by lower-case name, the first of a name given twice', () => {
		const parsed = parseParameterized('Multipart/Mixed; Boundary="a \\"b\\" c"; charset=UTF-8 ; flag; charset=latin1; x="semi;colon"');
		expect(parsed.value).toBe('multipart/mixed');
		expect(Object.fromEntries(parsed.params)).toEqual({ boundary: 'a "b" c', charset: 'UTF-8', x: 'semi;colon' });
		expect(parsed.extended('boundary')).toBeUndefined();
	});

	it('RFC 2231: sections joined in their order and decoded, beside the plain parameters', () => {
		const parsed = parseParameterized("attachment; filename*1*=%A4rz.pdf; filename=\"plain.pdf\"; filename*0*=UTF-8'de'M%C3; title*=us-ascii'en'This%20is%20%2A%2A%2Afun%2A%2A%2A");
		expect([parsed.extended('filename'), parsed.extended('title')]).toEqual([{ text: 'März.pdf' }, { text: 'This is ***fun***' }]);
		expect(parsed.params.get('filename')).toBe('plain.pdf');
	});

	it.each([
		['a section missing', "filename*0*=utf-8''a; filename*2*=b", 'its RFC 2231 section 1 is missing'],
		['no section 0', 'filename*1=b', 'its RFC 2231 section 0 is missing'],
		['a section given twice', 'filename*0=a; filename*0=b', 'its RFC 2231 section 0 is given twice'],
		['a section given encoded and plain', "filename*0*=utf-8''a; filename*0=b", 'its RFC 2231 section 0 is given twice'],
		['whole and in sections', "filename*=utf-8''a; filename*0=b", 'it is given whole and in RFC 2231 sections, or whole twice'],
		['whole twice', "filename*=utf-8''a; filename*=utf-8''b", 'it is given whole and in RFC 2231 sections, or whole twice'],
		['a bad percent-encoding', "filename*=utf-8''a%2", 'its RFC 2231 value has a malformed percent-encoding'],
		['a section number over the cap', 'filename*0=a; filename*100=b', 'it has over 100 RFC 2231 sections'],
		['thousands of sections', Array.from({ length: 5000 }, (_, n) => `filename*${n}=a`).join('; '), 'it has over 100 RFC 2231 sections'],
		['sections after 200 other parameters', `${'x=y; '.repeat(199)}filename*0=a; filename*1=b`, 'its header has over 200 parameters: its RFC 2231 sections were not all read'],
		['a section of 1 MB', `filename*0="${'a'.repeat(1_000_000)}"`, 'its RFC 2231 value is over 4,000 characters'],
		['sections over 4,000 characters together', Array.from({ length: 50 }, (_, n) => `filename*${n}*=${'%41'.repeat(30)}`).join('; '), 'its RFC 2231 value is over 4,000 characters'],
	])('%s: not read, and why', (_case, parameters, reason) => {
		expect(parseParameterized(`attachment; ${parameters}`).extended('filename')).toEqual({ unreadable: reason });
	});

	it('section names RFC 2231 does not write (a leading zero, a letter) are no sections', () => {
		const parsed = parseParameterized('attachment; filename*00=a; filename*x=b; filename*0=c');
		expect(parsed.extended('filename')).toEqual({ text: 'c' });
	});

	it('the first 200 parameters are read: 4 MB of them cost those only', () => {
		const header = `attachment${'; a="x\\"y"; b*7*=%41'.repeat(200_000)}; c=late`;
		const started = performance.now();
		const parsed = parseParameterized(header);
		const ms = performance.now() - started;
		expect(parsed.params.get('a')).toBe('x"y');
		expect(parsed.params.has('c')).toBe(false);
		expect(parsed.extended('b')).toEqual({ unreadable: 'its RFC 2231 section 7 is given twice' });
		expect(ms).toBeLessThan(100);
	});
});

describe('fileNameFromDisposition (a download\'s Content-Disposition)', () => {
	it.each([
		['attachment; filename="Rechnung 7.pdf"', 'Rechnung 7.pdf'],
		['attachment; filename=plain.pdf', 'plain.pdf'],
		['attachment; filename="fallback.pdf"; filename*=UTF-8\'\'Rechnung%20M%C3%BCller.pdf', 'Rechnung Müller.pdf'],
		["attachment; filename*=utf-8''%E2%82%AC%20rates.pdf", '€ rates.pdf'],
		["attachment; filename*=iso-8859-1'en'%A3%20rates.pdf", '£ rates.pdf'],
		['attachment; filename="a \\"quoted\\" name.pdf"', 'a "quoted" name.pdf'],
		['attachment; filename="=?UTF-8?B?UmVjaG51bmcgTcO8bGxlci5wZGY=?="', 'Rechnung Müller.pdf'],
		["attachment; filename*0*=utf-8''Rechnung%20; filename*1*=M%C3%BCller.pdf", 'Rechnung Müller.pdf'],
		["attachment; filename*=utf-8''bad%zz.pdf; filename=\"good.pdf\"", 'good.pdf'],
	])('%s: %s', (header, name) => {
		expect(fileNameFromDisposition(header)).toBe(name);
	});

	it.each([
		['no header', undefined],
		['no file name', 'inline'],
		['an empty name', 'attachment; filename="   "'],
		['only a malformed RFC 2231 name', "attachment; filename*=utf-8''bad%zz.pdf"],
		['a name of 200 KB', `attachment; filename="${'a'.repeat(200_000)}"`],
	])('%s: none', (_case, header) => {
		expect(fileNameFromDisposition(header)).toBeUndefined();
	});
});
