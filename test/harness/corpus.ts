/**
 * Real-world documents no one in this project made (`../shared/corpus`, beside the repository),
 * and qpdf, whose reading of them is the truth the preflight is checked against.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

export interface CorpusFile {
	/** e.g. `pdflib/normal.pdf` */
	name: string;
	path: string;
}

export function corpusPdfs(): CorpusFile[] {
	return ['invoice2data', 'pdflib'].flatMap((folder) =>
		readdirSync(join(CORPUS_DIR, folder))
			.filter((file) => file.endsWith('.pdf'))
			.sort()
			.map((file) => ({ name: `${folder}/${file}`, path: join(CORPUS_DIR, folder, file) })),
	);
}

export function readCorpusFile(name: string): Uint8Array {
	return new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
}

export const QPDF_AVAILABLE = spawnSync('qpdf', ['--version']).status === 0;
export const QPDF_MISSING_MESSAGE = 'qpdf is not installed (apt-get install qpdf): the checks against its reading of the files are skipped';
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
