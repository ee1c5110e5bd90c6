import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/service-api.md is the contract every "spec N.N" of the repository points at, and the
 * repository names nothing outside itself. Read from the files a commit would hold (tracked, and
 * new ones git does not ignore):
 * - every "spec N.N" reference ("Spec 4.4", "(spec 7.2, 7.3)", "spec parts 2.2, 4 and 8",
 *   "spec 2.4-2.6", "spec 2.8/8") names a section the page has;
 * - no file names a folder of the build machines or one of the workshop notes.
 * This file is left out of both checks: it has to spell what it looks for.
 */

const ROOT = join(__dirname, '..', '..');
const DOC = 'docs/service-api.md';
const SELF = 'test/unit/serviceApiDoc.test.ts';

/** Tracked files and untracked ones that are not ignored, existing regular files only. */
function repositoryFiles(): string[] {
	const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	const files = [...new Set(listed.split('\0').filter(Boolean))];
	return files
		.filter((file) => {
			try {
				return statSync(join(ROOT, file)).isFile();
			} catch {
				return false; // deleted in the working tree, not yet in the index
			}
		})
		.sort();
}

/** The text of each file that is text (no NUL byte), by path. */
function textFiles(): Map<string, string> {
	const texts = new Map<string, string>();
	for (const file of repositoryFiles()) {
		const bytes = readFileSync(join(ROOT, file));
		if (!bytes.includes(0)) texts.set(file, bytes.toString('utf8'));
	}
	return texts;
}

/** `<a id="spec-4.4"></a>` anchors of the page, in order. */
function sectionsOf(doc: string): string[] {
	return [...doc.matchAll(/<a id="spec-(\d+(?:\.\d+)*)"><\/a>/g)].map((match) => match[1]);
}

/** Anchors whose heading or rule does not start with the anchor's own number. */
function mislabelledSections(doc: string): string[] {
	return [...doc.matchAll(/<a id="spec-(\d+(?:\.\d+)*)"><\/a>\s*(?:#+\s*|\*\*)?(\S+?)(?:\*\*|\s)/g)]
		.filter(([, id, label]) => id !== label)
		.map(([, id, label]) => `spec-${id} is labelled "${label}"`);
}

const NUMBER = String.raw`\d+(?:\.\d+)*`;
const SEPARATOR = String.raw`\s*(?:,|/|-|–|\band\b|\bor\b)\s*(?:(?:parts?|sections?)\s+)?`;
/** "spec" (or "spec's"), optionally "part(s)"/"section(s)"/"§", then one number or a list of them. */
const REFERENCE = new RegExp(String.raw`\bspec(?:'s)?\s+(?:(?:parts?|sections?)\s+|§\s*)?(${NUMBER}(?:${SEPARATOR}${NUMBER})*)`, 'gi');

interface Reference {
	file: string;
	line: number;
	section: string;
	text: string;
}

function referencesIn(file: string, text: string): Reference[] {
	return text.split('\n').flatMap((lineText, index) =>
		[...lineText.matchAll(REFERENCE)].flatMap((match) =>
			[...match[1].matchAll(new RegExp(NUMBER, 'g'))].map(([section]) => ({ file, line: index + 1, section, text: match[0] })),
		),
	);
}

/** Links into the page from elsewhere (`service-api.md#spec-8.5`). */
function anchorLinksIn(file: string, text: string): Reference[] {
	return text.split('\n').flatMap((lineText, index) =>
		[...lineText.matchAll(/service-api\.md#spec-(\d+(?:\.\d+)*)/g)].map((match) => ({ file, line: index + 1, section: match[1], text: match[0] })),
	);
}

/** What names the build machines or the workshop's notes: their folders and the notes' file names. */
const WORKSHOP_NAMES: Array<{ what: string; pattern: RegExp }> = [
	{ what: 'a folder of the build machines', pattern: /\/work\/|\/root\// },
	{ what: "the workshop's shared folders", pattern: /shared[\\/](?:spec|notes|hooks|corpus)\b|['"]\.\.['"],\s*['"]shared['"]/ },
	{ what: 'the spec file or a workshop note by name', pattern: /\b(?:service-interface|real-n8n|real-email|n8n-conventions|architecture)\.md\b/ },
];

/**
 * The one allowed mention: the corpus lookup looks for an optional local mirror of the corpus
 * beside the clone (see test/harness/corpusLocation.ts). Exactly this line of exactly this file.
 */
const ALLOWED = { file: 'test/harness/corpusLocation.ts', line: /^\s*\{ dir: join\(ROOT, '\.\.', 'shared', 'corpus'\), label: / };

describe('docs/service-api.md: the contract every "spec N.N" points at', () => {
	const doc = readFileSync(join(ROOT, DOC), 'utf8');
	const sections = sectionsOf(doc);
	const texts = textFiles();

	it('has the sections of the service description, each anchored once and labelled with its number', () => {
		const expected = [
			'1',
			...['2', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8'],
			...['3', '3.1', '3.2', '3.3', '3.4', '3.5'],
			...['4', '4.1', '4.2', '4.3', '4.4', '4.5', '4.6', '4.7', '4.8', '4.9'],
			...['5', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '5.7'],
			'6',
			...['7', '7.1', '7.2', '7.3', '7.3.1', '7.3.2', '7.4'],
			...['8', '8.1', '8.2', '8.3', '8.4', '8.5', '8.6', '8.7', '8.8'],
			'9',
		];
		expect(sections).toEqual(expected);
		expect(mislabelledSections(doc)).toEqual([]);
	});

	it('reads references the way the repository writes them', () => {
		const sectionsFound = (text: string) => referencesIn('x', text).map((reference) => reference.section);
		expect(sectionsFound('/** Spec 4.4: 2-3 s between reads. */')).toEqual(['4.4']);
		expect(sectionsFound('Every error answer (spec 7.2, 7.3) as a NodeApiError')).toEqual(['7.2', '7.3']);
		expect(sectionsFound('the service\'s numbers (spec parts 2.2, 4 and 8), each once')).toEqual(['2.2', '4', '8']);
		expect(sectionsFound('A done Result (spec 2.4-2.6) and (spec 2.8/8) and Spec 4.2 / 7.3')).toEqual(['2.4', '2.6', '2.8', '8', '4.2', '7.3']);
		expect(sectionsFound("describe('unknown paths (spec 7.3.2)'")).toEqual(['7.3.2']);
		// A status code after a section is not a section; nor is a word that only starts with "spec".
		expect(sectionsFound('rate limit per key (spec 7.2 429, 8)')).toEqual(['7.2']);
		expect(sectionsFound('respect 4 rules; inspect 2.1; specs of 1.2')).toEqual([]);
		expect(anchorLinksIn('x', '[rule 8.5](docs/service-api.md#spec-8.5)').map((link) => link.section)).toEqual(['8.5']);
	});

	it('has every section a "spec N.N" of the repository names, and every section a link into it names', () => {
		const known = new Set(sections);
		const references = [...texts]
			.filter(([file]) => file !== SELF)
			.flatMap(([file, text]) => [...referencesIn(file, text), ...anchorLinksIn(file, text)]);
		// Guards the regex: the code, the tests and the docs refer to the spec well over a hundred times.
		expect(references.length).toBeGreaterThan(150);
		const dangling = references.filter((reference) => !known.has(reference.section));
		expect(dangling.map(({ file, line, section, text }) => `${file}:${line}: "${text}" names section ${section}, which ${DOC} does not have`)).toEqual([]);
	});

	it('reads the files a commit would hold, this page among them', () => {
		expect(texts.has(DOC)).toBe(true);
		expect(texts.has('nodes/shared/limits.ts')).toBe(true);
		expect(texts.size).toBeGreaterThan(200);
	});
});

describe('no file names a path of the build machines or the workshop notes', () => {
	const texts = textFiles();

	it('finds them where they would be (the patterns work)', () => {
		const hits = (text: string) => WORKSHOP_NAMES.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what);
		// Built from parts, so that this file does not name such a path itself.
		const notePath = ['', 'work', 'shared', 'notes', 'real-n8n.md'].join('/');
		expect(hits(`see ${notePath}`)).toEqual(['a folder of the build machines', "the workshop's shared folders", 'the spec file or a workshop note by name']);
		expect(hits("join(ROOT, '..', 'shared', 'spec')")).toEqual(["the workshop's shared folders"]);
		expect(hits('../shared/corpus beside the clone')).toEqual(["the workshop's shared folders"]);
		// The package's own shared code is not the workshop's.
		expect(hits("import { itemError } from '../../shared/items/itemError';")).toEqual([]);
		expect(hits('an optional local mirror of the corpus beside the clone')).toEqual([]);
	});

	it('the one allowed mention is still where it is allowed, and only there', () => {
		const lines = (texts.get(ALLOWED.file) ?? '').split('\n');
		expect(lines.filter((line) => ALLOWED.line.test(line))).toHaveLength(1);
	});

	it('names none anywhere else', () => {
		const found = [...texts]
			.filter(([file]) => file !== SELF)
			.flatMap(([file, text]) =>
				text.split('\n').flatMap((line, index) => {
					if (file === ALLOWED.file && ALLOWED.line.test(line)) return [];
					return WORKSHOP_NAMES.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `${file}:${index + 1} names ${what}: ${line.trim().slice(0, 160)}`);
				}),
			);
		expect(found).toEqual([]);
	});
});
