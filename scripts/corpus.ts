/**
 * npm run corpus: makes the real-world corpus (test/corpus/manifest.json) available to the tests
 * and checks every file's sha256. Where CORPUS_DIR or an optional local mirror of the corpus beside
 * the clone (test/harness/corpusLocation.ts) already holds every file, it only checks them;
 * otherwise it fetches each missing file from its public repository, at the commit the manifest
 * names, into the cache outside the repository (CORPUS_CACHE to move it). An entry with a `member`
 * is a file inside a zip archive: the archive at `path` is downloaded and that member extracted
 * (scripts/corpusSource.ts); the member's sha256 is the one checked.
 * Exits 1 when a file cannot be had or does not match its hash.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { CORPUS_CACHE, MANIFEST, locateCorpus, missingFiles, type ManifestEntry } from '../test/harness/corpusLocation';
import { entryBytes, sourceUrl } from './corpusSource';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Archives downloaded for one member, kept for the other members of the same archive. */
const archives = new Map<string, Promise<Uint8Array>>();

async function fetchInto(dir: string, entry: ManifestEntry): Promise<string | undefined> {
	const from = `${sourceUrl(entry)}${entry.member === undefined ? '' : ` (member ${entry.member})`}`;
	let bytes: Uint8Array;
	try {
		bytes = await entryBytes(entry, undefined, archives);
	} catch (error) {
		return `${entry.name}: ${from} could not be had (${(error as Error).cause ?? (error as Error).message})`;
	}
	if (sha256(bytes) !== entry.sha256) return `${entry.name}: ${from} is not the file the manifest names (sha256 differs)`;
	const target = join(dir, entry.name);
	mkdirSync(dirname(target), { recursive: true });
	writeFileSync(`${target}.part`, bytes);
	renameSync(`${target}.part`, target);
	return undefined;
}

async function main(): Promise<void> {
	const started = Date.now();
	let located = locateCorpus();
	if ('why' in located) {
		if (process.env.CORPUS_DIR) throw new Error(located.why);
		const missing = missingFiles(CORPUS_CACHE);
		console.log(`corpus: fetching ${missing.length} file(s) into ${CORPUS_CACHE}`);
		const problems: string[] = [];
		// A few at a time: 83 small files, and a refused network fails fast on the first ones.
		for (let start = 0; start < missing.length; start += 6) {
			const failed = await Promise.all(missing.slice(start, start + 6).map((entry) => fetchInto(CORPUS_CACHE, entry)));
			problems.push(...failed.filter((problem): problem is string => problem !== undefined));
			if (problems.length > 0 && start === 0 && failed.every(Boolean)) break;
		}
		if (problems.length > 0) {
			throw new Error(`${problems.join('\n')}\nWith no network, copy the files (their sources are in test/corpus/manifest.json) into a folder and set CORPUS_DIR.`);
		}
		located = locateCorpus();
		if ('why' in located) throw new Error(located.why);
	}
	const mismatched = MANIFEST.filter((entry) => sha256(readFileSync(join(located.dir, entry.name))) !== entry.sha256);
	if (mismatched.length > 0) {
		throw new Error(`${located.label}: ${mismatched.length} file(s) differ from the manifest: ${mismatched.map((entry) => entry.name).join(', ')}`);
	}
	const bytes = MANIFEST.reduce((sum, entry) => sum + entry.bytes, 0);
	console.log(
		`corpus: ${MANIFEST.length} files, ${(bytes / 1e6).toFixed(1)} MB, every sha256 as the manifest says, in ${located.label} (${Date.now() - started} ms)`,
	);
}

main().catch((error: Error) => {
	console.error(`corpus: ${error.message}`);
	process.exit(1);
});
