/**
 * The corpus manifest (test/corpus/manifest.json) and how `npm run corpus` gets an entry's bytes
 * (scripts/corpusSource.ts): the entries' shape, the development set's expected values beside it,
 * and the zip reader that extracts an entry kept inside a zip archive, on archives made here.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { entryBytes, sourceUrl, ZipError, zipMember } from '../../scripts/corpusSource';
import { storedZip, zipArchive } from '../fixtures/archives';
import { MANIFEST, type ManifestEntry } from '../harness/corpusLocation';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const EXPECTED = join(__dirname, '..', 'corpus', 'expected');

/** A zip of deflated entries (method 8), as zip tools write one, with a local extra field and an archive comment. */
const deflatedZip = (files: Record<string, Buffer>, comment = '') =>
	zipArchive(files, { deflate: true, localExtra: Buffer.from([0x55, 0x54, 0x01, 0x00, 0x00]), comment });

const pdf = Buffer.from(`%PDF-1.4\n${'Invoice 34278587 total 56,651.49\n'.repeat(200)}%%EOF\n`);
const other = Buffer.from('another member');

describe('npm run corpus: a member of a zip archive', () => {
	it('is read from a stored zip', () => {
		const zip = storedZip({ 'Train/Invoice_1.pdf': pdf, 'Train/Invoice_2.pdf': other });
		expect(zipMember(zip, 'Train/Invoice_1.pdf')).toEqual(pdf);
		expect(zipMember(zip, 'Train/Invoice_2.pdf')).toEqual(other);
	});

	it('is read from a deflated zip, past a local extra field and an archive comment', () => {
		const zip = deflatedZip({ 'sample_data_with_labels/v2_0/Train/Invoice_4.pdf': pdf, 'readme.txt': other }, 'made by a test');
		expect(zip.length).toBeLessThan(pdf.length);
		expect(zipMember(zip, 'sample_data_with_labels/v2_0/Train/Invoice_4.pdf')).toEqual(pdf);
		expect(zipMember(new Uint8Array(zip), 'readme.txt')).toEqual(other);
	});

	it('refuses what it cannot vouch for, saying what', () => {
		const zip = deflatedZip({ 'a.pdf': pdf });
		expect(() => zipMember(zip, 'b.pdf')).toThrow(/no member b\.pdf/);
		expect(() => zipMember(pdf, 'a.pdf')).toThrow(/not a zip archive/);
		expect(() => zipMember(zip, 'a.pdf', 100)).toThrow(/more than the 100 allowed/);
		// A flipped byte in the deflated data: it does not inflate, or not to the recorded bytes.
		const damaged = Buffer.from(zip);
		damaged[30 + 'a.pdf'.length + 5 + 10] ^= 0xff;
		expect(() => zipMember(damaged, 'a.pdf')).toThrow(ZipError);
		// A stored member whose bytes changed: its CRC-32 no longer matches.
		const stored = storedZip({ 'a.pdf': pdf });
		stored[30 + 'a.pdf'.length + 20] ^= 0x01;
		expect(() => zipMember(stored, 'a.pdf')).toThrow(/CRC-32 differs/);
		// A member that claims to be smaller than it inflates to.
		const lying = deflatedZip({ 'a.pdf': pdf });
		const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
		lying.writeUInt32LE(100, central + 24);
		expect(() => zipMember(lying, 'a.pdf')).toThrow(ZipError);
	});

	it('an entry with a member: the archive at its path is downloaded once for all its members, and the member returned', async () => {
		const zip = deflatedZip({ 'Train/Invoice_1.pdf': pdf, 'Train/Invoice_2.pdf': other });
		const entry = (member: string): ManifestEntry => ({
			name: `dev-invoices/files/${member}`,
			repository: 'owner/name',
			commit: 'a'.repeat(40),
			path: 'curl/form-recognizer/sample data.zip',
			member,
			license: 'MIT',
			bytes: 0,
			sha256: '',
		});
		const asked: string[] = [];
		const get = async (url: string) => {
			asked.push(url);
			return new Uint8Array(zip);
		};
		const archives = new Map<string, Promise<Uint8Array>>();
		const [first, second] = await Promise.all([entryBytes(entry('Train/Invoice_1.pdf'), get, archives), entryBytes(entry('Train/Invoice_2.pdf'), get, archives)]);
		expect(sha256(first)).toBe(sha256(pdf));
		expect(Buffer.from(second)).toEqual(other);
		expect(asked).toEqual([`https://github.com/owner/name/raw/${'a'.repeat(40)}/curl/form-recognizer/sample%20data.zip`]);
		// An entry without a member is the file itself.
		const plain = { ...entry('x'), member: undefined, path: 'tests/compare/oyo.pdf' };
		expect(await entryBytes(plain, async () => new Uint8Array(pdf))).toEqual(new Uint8Array(pdf));
		expect(sourceUrl(plain)).toBe(`https://github.com/owner/name/raw/${'a'.repeat(40)}/tests/compare/oyo.pdf`);
	});
});

describe('the corpus manifest (test/corpus/manifest.json)', () => {
	it('names each file once, with its source, license, size and sha256', () => {
		expect(new Set(MANIFEST.map((entry) => entry.name)).size).toBe(MANIFEST.length);
		for (const entry of MANIFEST) {
			expect(entry.name, entry.name).toMatch(/^(invoice2data|pdflib|dev-invoices\/files|dev-invoices-2\/files)\/[\w.-]+$/);
			expect(entry.repository, entry.name).toMatch(/^[\w.-]+\/[\w.-]+$/);
			expect(entry.commit, entry.name).toMatch(/^[0-9a-f]{7,40}$/);
			expect(entry.path, entry.name).not.toMatch(/^\/|!/);
			expect(entry.license, entry.name).not.toBe('');
			expect(entry.bytes, entry.name).toBeGreaterThan(0);
			expect(entry.sha256, entry.name).toMatch(/^[0-9a-f]{64}$/);
			// A member is a path inside the zip archive the entry's path names.
			if (entry.member !== undefined) {
				expect(entry.path, entry.name).toMatch(/\.zip$/);
				expect(entry.member, entry.name).toMatch(/^[^/].*[^/]$/);
			}
		}
	});

	it('holds the development set: 18 documents from 4 repositories at full commits, 6 of them inside zip archives', () => {
		const dev = MANIFEST.filter((entry) => entry.name.startsWith('dev-invoices/'));
		expect(dev).toHaveLength(18);
		expect(dev.filter((entry) => entry.member !== undefined)).toHaveLength(6);
		expect(new Set(dev.map((entry) => entry.repository))).toEqual(
			new Set(['Azure-Samples/cognitive-services-REST-api-samples', 'mindee/client-lib-test-data', 'open-mmlab/mmocr', 'rossumai/docile']),
		);
		for (const entry of dev) expect(entry.commit, entry.name).toMatch(/^[0-9a-f]{40}$/);
	});

	it('holds the second development set: 28 documents from 12 repositories at full commits', () => {
		const dev2 = MANIFEST.filter((entry) => entry.name.startsWith('dev-invoices-2/'));
		expect(dev2).toHaveLength(28);
		expect(new Set(dev2.map((entry) => entry.repository)).size).toBe(12);
		for (const entry of dev2) expect(entry.commit, entry.name).toMatch(/^[0-9a-f]{40}$/);
	});

	it.each(['dev-invoices', 'dev-invoices-2'])("the development set %s's expected values: one file per document, naming it and its source as the manifest does", (set) => {
		const dev = new Map(MANIFEST.filter((entry) => entry.name.startsWith(`${set}/`)).map((entry) => [entry.name, entry]));
		const files = readdirSync(join(EXPECTED, set)).filter((file) => file.endsWith('.json'));
		expect(files).toHaveLength(dev.size);
		for (const file of files) {
			const expected = JSON.parse(readFileSync(join(EXPECTED, set, file), 'utf8')) as {
				file: string;
				source: { repo: string; commit: string; path: string; sha256: string };
				fields: Record<string, unknown>;
			};
			const entry = dev.get(expected.file);
			expect(entry, `${file}: ${expected.file}`).toBeDefined();
			expect(expected.file).toBe(`${set}/files/${file.replace(/\.json$/, '')}${expected.file.slice(expected.file.lastIndexOf('.'))}`);
			expect(expected.source).toMatchObject({ repo: entry!.repository, commit: entry!.commit, sha256: entry!.sha256 });
			expect(expected.source.path).toBe(entry!.member === undefined ? entry!.path : `${entry!.path}!${entry!.member}`);
			expect(Object.keys(expected.fields).length, file).toBeGreaterThan(0);
		}
	});

	it('every held-out expected-values file names a document of the manifest', () => {
		const names = new Set(MANIFEST.map((entry) => entry.name));
		for (const file of readdirSync(join(EXPECTED, 'invoice2data')).filter((name) => name.endsWith('.json'))) {
			expect(names.has((JSON.parse(readFileSync(join(EXPECTED, 'invoice2data', file), 'utf8')) as { file: string }).file), file).toBe(true);
		}
	});
});
