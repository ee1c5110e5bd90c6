/**
 * Real-world documents no one in this project made (listed in test/corpus/manifest.json, read from
 * where `corpusLocation` finds them), and qpdf, whose reading of them is the truth the preflight is
 * checked against. Either may be missing on a contributor's machine: the suites that need them say
 * so and skip, unless CI asks for them (REQUIRE_CORPUS, REQUIRE_QPDF).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MANIFEST, locateCorpus } from './corpusLocation';

const located = locateCorpus();
export const CORPUS_DIR = 'dir' in located ? located.dir : undefined;
export const CORPUS_MISSING_MESSAGE = 'why' in located ? located.why : '';
// .ci/run fetches the corpus and sets REQUIRE_CORPUS: there a missing corpus is a broken setup.
if (!CORPUS_DIR && process.env.REQUIRE_CORPUS === '1') throw new Error(`REQUIRE_CORPUS is set but ${CORPUS_MISSING_MESSAGE}`);

export interface CorpusFile {
	/** e.g. `pdflib/normal.pdf` */
	name: string;
	path: string;
	sha256: string;
}

/** Every file of the manifest (names known without the files: a skipped suite still lists them). */
export function corpusFiles(): CorpusFile[] {
	return MANIFEST.map(({ name, sha256 }) => ({ name, sha256, path: join(CORPUS_DIR ?? '', name) }));
}

export const corpusPdfs = (): CorpusFile[] => corpusFiles().filter((file) => file.name.endsWith('.pdf'));

export function readCorpusFile(name: string): Uint8Array {
	if (!CORPUS_DIR) throw new Error(CORPUS_MISSING_MESSAGE);
	return new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
}

export const QPDF_AVAILABLE = spawnSync('qpdf', ['--version']).status === 0;
export const QPDF_MISSING_MESSAGE = 'qpdf is not installed (apt-get install qpdf; brew install qpdf): the checks against its reading of the files are skipped';
// .ci/run installs qpdf and sets REQUIRE_QPDF: there a missing qpdf is a broken setup, not a reason to skip.
if (!QPDF_AVAILABLE && process.env.REQUIRE_QPDF === '1') throw new Error('REQUIRE_QPDF is set but qpdf is not installed');

/**
 * qpdf's page count. `clean` is false when qpdf had to repair the file (exit code 3, "operation
 * succeeded with warnings"); `pages` is undefined when it could not read the file at all.
 */
export function qpdfPages(path: string): { pages: number | undefined; clean: boolean } {
	const run = spawnSync('qpdf', ['--show-npages', path], { encoding: 'utf8' });
	const pages = /^\d+$/.test(run.stdout.trim()) ? Number(run.stdout.trim()) : undefined;
	return { pages: run.status === 0 || run.status === 3 ? pages : undefined, clean: run.status === 0 };
}

/**
 * What qpdf --check warns of in a file, without where (offsets, object numbers): a part of a file
 * split as it is may carry the file's own quirks (two e-invoices of the corpus have deflate data
 * with bytes after its end: "input stream is complete but output may still be valid"), no other.
 */
export function qpdfWarnings(bytes: Uint8Array): Set<string> {
	return withTemporaryFile(bytes, (path) => {
		const check = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
		const lines = `${check.stdout}${check.stderr}`.split('\n').filter((line) => line.startsWith('WARNING: '));
		return new Set(lines.map((line) => line.replace(/^WARNING: [^:]*(?:\(offset \d+\))?: /, '').replace(/\d+/g, 'N')));
	});
}

/** qpdf --requires-password: exit 0 = a password is needed, 3 = encrypted but opens without one, 2 = not encrypted. */
export function qpdfRequiresPassword(path: string): boolean {
	return spawnSync('qpdf', ['--requires-password', path]).status === 0;
}

/** `bytes` encrypted by qpdf with the given user and owner passwords, e.g. `['128', '--use-aes=y']`. */
export function qpdfEncrypt(bytes: Uint8Array, userPassword: string, ownerPassword: string, keyAndOptions: string[]): Uint8Array {
	const folder = mkdtempSync(join(tmpdir(), 'qpdf-'));
	try {
		const input = join(folder, 'in.pdf');
		const output = join(folder, 'out.pdf');
		writeFileSync(input, bytes);
		const [keyLength, ...options] = keyAndOptions;
		execFileSync('qpdf', ['--allow-weak-crypto', '--encrypt', userPassword, ownerPassword, keyLength, ...options, '--', input, output]);
		return new Uint8Array(readFileSync(output));
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** Writes `bytes` where qpdf can read them; the caller removes the folder. */
export function withTemporaryFile<T>(bytes: Uint8Array, use: (path: string) => T): T {
	const folder = mkdtempSync(join(tmpdir(), 'pdf-'));
	try {
		const path = join(folder, 'file.pdf');
		writeFileSync(path, bytes);
		return use(path);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
