/**
 * The three parts `npm run bench:sandbox` measures (test/corpus/expected/README.md):
 *
 * - development: the `dev-invoices/` documents of test/corpus/manifest.json, with the values their
 *   sources state, in test/corpus/expected/dev-invoices/. Used while improving the extraction.
 * - second development part: the `dev-invoices-2/` documents (German, English and French e-invoices
 *   and two receipt photos), the same way, values in test/corpus/expected/dev-invoices-2/.
 * - held-out: the invoice2data documents of test/corpus/manifest.json, with the values the
 *   invoice2data authors wrote down, transcribed in test/corpus/expected/invoice2data/. Only
 *   measured, never used to tune. Its images without expected values (upstream has none for
 *   them) are read for "images read" only.
 *
 * Files are found through test/harness/corpusLocation.ts; nothing here names where they live. A
 * file whose sha256 is not the one recorded is left out, with the reason.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { corpusFile, corpusPlacesLooked, locateCorpus, MANIFEST } from '../../harness/corpusLocation';
import type { ExpectedLine, ExpectedValue } from './score';

export type PartKey = 'dev' | 'dev2' | 'held-out';

export interface BenchDocument {
	/** e.g. `dev-invoices/files/x.jpg`, `invoice2data/oyo.pdf`: the path under the corpus folder. */
	name: string;
	path: string;
	documentType: 'invoice' | 'receipt';
	/** Whether expected values exist: a document without them is only read (images read, time). */
	scored: boolean;
	fields: Record<string, ExpectedValue>;
	alsoAccepted: Record<string, ExpectedValue[]>;
	lineItems: ExpectedLine[];
}

export interface Part {
	key: PartKey;
	title: string;
	documents: BenchDocument[];
	/** Files left out (sha256 mismatch, file missing), each with why. */
	leftOut: string[];
}

export interface SkippedPart {
	key: PartKey;
	title: string;
	skipped: string;
}

export const PART_TITLES: Record<PartKey, string> = {
	dev: 'development part (dev-invoices)',
	dev2: 'second development part (dev-invoices-2)',
	'held-out': 'held-out part (invoice2data, measured only)',
};

/** The corpus folder whose manifest documents make the development part. */
export const DEV_INVOICES = 'dev-invoices';
/** The corpus folder whose manifest documents make the second development part. */
export const DEV_INVOICES_2 = 'dev-invoices-2';
/** The development parts' corpus folders. */
export const DEV_FOLDERS: Record<'dev' | 'dev2', string> = { dev: DEV_INVOICES, dev2: DEV_INVOICES_2 };
/** The corpus folder whose manifest documents make the held-out part. */
export const HELD_OUT_FOLDER = 'invoice2data';

const ROOT = join(__dirname, '..', '..', '..');
export const HELD_OUT_EXPECTED_DIR = join(ROOT, 'test', 'corpus', 'expected', HELD_OUT_FOLDER);
export const DEV_EXPECTED_DIR = join(ROOT, 'test', 'corpus', 'expected', DEV_INVOICES);
const expectedDirOf = (folder: string): string => join(ROOT, 'test', 'corpus', 'expected', folder);

const IMAGE = /\.(png|jpe?g)$/i;

/** An expected-values file, in dev-invoices' format (source.repo or source.repository). */
interface ExpectedFile {
	source?: { sha256?: string };
	file: string;
	document_type?: string;
	fields?: Record<string, ExpectedValue>;
	also_accepted?: Record<string, ExpectedValue[]>;
	line_items?: ExpectedLine[];
}

function readExpected(path: string): ExpectedFile {
	return JSON.parse(readFileSync(path, 'utf8')) as ExpectedFile;
}

const sha256Of = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

function documentOf(name: string, path: string, expected: ExpectedFile | undefined): BenchDocument {
	return {
		name,
		path,
		documentType: expected?.document_type?.startsWith('receipt') ? 'receipt' : 'invoice',
		scored: expected !== undefined,
		fields: expected?.fields ?? {},
		alsoAccepted: expected?.also_accepted ?? {},
		lineItems: expected?.line_items ?? [],
	};
}

/** Checks the file is there and is the one recorded; the reason when not. */
function problemWith(path: string, name: string, sha256: string | undefined): string | undefined {
	if (!existsSync(path)) return `${name}: file missing`;
	if (sha256 && sha256Of(path) !== sha256) return `${name}: sha256 differs from the recorded one`;
	return undefined;
}

/** The expected-values files of a folder of test/corpus/expected/, by the manifest name in their `file`. */
function expectedFiles(dir: string): Map<string, ExpectedFile> {
	const byName = new Map<string, ExpectedFile>();
	for (const file of readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		const expected = readExpected(join(dir, file));
		byName.set(expected.file, expected);
	}
	return byName;
}

/** A development part: `dev` (dev-invoices) or `dev2` (dev-invoices-2). */
export function developmentPart(key: 'dev' | 'dev2' = 'dev'): Part | SkippedPart {
	const folder = DEV_FOLDERS[key];
	const entries = MANIFEST.filter((entry) => entry.name.startsWith(`${folder}/`));
	const paths = new Map(entries.map((entry) => [entry.name, corpusFile(entry.name)]));
	if (![...paths.values()].some(Boolean)) {
		return {
			key,
			title: PART_TITLES[key],
			skipped: `none of the ${entries.length} ${folder}/ files of test/corpus/manifest.json is in the corpus folders looked at (${corpusPlacesLooked()}); \`npm run corpus\` fetches them`,
		};
	}
	const documents: BenchDocument[] = [];
	const leftOut: string[] = [];
	const expectedByName = expectedFiles(expectedDirOf(folder));
	// Documents with expected values in the order of their files (test/corpus/expected/<folder>/), then
	// the set's images without expected values, which still count for "images read".
	const ordered = [
		...[...expectedByName.keys()].map((name) => entries.find((entry) => entry.name === name) ?? name),
		...entries.filter((entry) => !expectedByName.has(entry.name) && IMAGE.test(entry.name)),
	];
	for (const item of ordered) {
		if (typeof item === 'string') {
			leftOut.push(`${item}: has expected values but is not in test/corpus/manifest.json`);
			continue;
		}
		const path = paths.get(item.name);
		if (!path) {
			leftOut.push(`${item.name}: file missing (looked in ${corpusPlacesLooked()})`);
			continue;
		}
		const problem = problemWith(path, item.name, item.sha256);
		if (problem) leftOut.push(problem);
		else documents.push(documentOf(item.name, path, expectedByName.get(item.name)));
	}
	return { key, title: PART_TITLES[key], documents, leftOut };
}

export function heldOutPart(): Part | SkippedPart {
	const key: PartKey = 'held-out';
	const located = locateCorpus();
	if ('why' in located) return { key, title: PART_TITLES[key], skipped: located.why };
	const documents: BenchDocument[] = [];
	const leftOut: string[] = [];
	const expectedByName = expectedFiles(HELD_OUT_EXPECTED_DIR);
	for (const entry of MANIFEST.filter((item) => item.name.startsWith(`${HELD_OUT_FOLDER}/`))) {
		const expected = expectedByName.get(entry.name);
		// A PDF without expected values (camelot-*) is not part of the measure; an image still is read.
		if (!expected && !IMAGE.test(entry.name)) continue;
		expectedByName.delete(entry.name);
		const path = join(located.dir, entry.name);
		const problem = problemWith(path, entry.name, entry.sha256);
		if (problem) leftOut.push(problem);
		else documents.push(documentOf(entry.name, path, expected));
	}
	for (const name of expectedByName.keys()) leftOut.push(`${name}: has expected values but is not in test/corpus/manifest.json`);
	return { key, title: PART_TITLES[key], documents, leftOut };
}
