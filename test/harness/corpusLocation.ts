/**
 * Where the real-world corpus is (test/corpus/manifest.json names each file, its public source and
 * its sha256): `CORPUS_DIR`, else an optional local mirror of the corpus in a folder beside the
 * clone (the first of `corpusCandidates`), else the cache `npm run corpus` fills. Used by the tests
 * and by `npm run corpus`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ManifestEntry {
	/** e.g. `pdflib/normal.pdf`: the path under the corpus folder */
	name: string;
	/** GitHub owner/name */
	repository: string;
	commit: string;
	/** the file's path in that repository at that commit (for a `member`, the zip archive's path) */
	path: string;
	/** when the file is inside a zip archive: its path inside the archive (`npm run corpus` extracts it) */
	member?: string;
	license: string;
	bytes: number;
	sha256: string;
}

const ROOT = join(__dirname, '..', '..');

export const MANIFEST: ManifestEntry[] = (
	JSON.parse(readFileSync(join(ROOT, 'test', 'corpus', 'manifest.json'), 'utf8')) as { files: ManifestEntry[] }
).files;

/** The folder `npm run corpus` fetches into: outside the repository, kept between runs. */
export const CORPUS_CACHE =
	process.env.CORPUS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-document-extraction', 'corpus');

/** The places looked at, in order, with what each is called in messages. */
export function corpusCandidates(): Array<{ dir: string; label: string }> {
	const candidates = [
		// An optional local mirror of the corpus in a folder beside the clone.
		{ dir: join(ROOT, '..', 'shared', 'corpus'), label: 'the local mirror beside the clone (../shared/corpus)' },
		{ dir: CORPUS_CACHE, label: `the cache (${CORPUS_CACHE})` },
	];
	const chosen = process.env.CORPUS_DIR;
	return chosen ? [{ dir: chosen, label: `CORPUS_DIR (${chosen})` }] : candidates;
}

export const missingFiles = (dir: string): ManifestEntry[] => MANIFEST.filter((entry) => !existsSync(join(dir, entry.name)));

/**
 * Where one file of the manifest (by its name, e.g. `dev-invoices/files/x.jpg`) is: in the first
 * candidate that holds it, or undefined when none does (the caller skips and says why, with
 * `corpusCandidates()`' labels).
 */
export function corpusFile(name: string): string | undefined {
	for (const candidate of corpusCandidates()) {
		const path = join(candidate.dir, name);
		if (existsSync(path)) return path;
	}
	return undefined;
}

/** Where the files looked for were looked for, for a message saying why they were not found. */
export const corpusPlacesLooked = (): string => corpusCandidates().map((candidate) => candidate.label).join('; ');

/** The first candidate that holds every file of the manifest, or why there is none. */
export function locateCorpus(): { dir: string; label: string } | { why: string } {
	const looked: string[] = [];
	for (const candidate of corpusCandidates()) {
		const missing = missingFiles(candidate.dir).length;
		if (missing === 0) return candidate;
		looked.push(`${candidate.label}: ${missing === MANIFEST.length ? 'absent' : `${missing} of ${MANIFEST.length} files missing`}`);
	}
	return { why: `the real-world corpus is not here (${looked.join('; ')}); \`npm run corpus\` fetches it` };
}
