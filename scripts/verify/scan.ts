import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runChecked } from '../n8n/processes';

/** What `@n8n/scan-community-package` (scanner/scanner.mjs) exports and this script uses. */
interface Scanner {
	analyzePackage(packageDir: string, filePatterns?: string[]): Promise<AnalysisResult>;
	SOURCE_FILE_PATTERNS: string[];
}

interface AnalysisResult {
	passed: boolean;
	message?: string;
	/** ESLint's "stylish" report of the findings. */
	details?: string;
}

export interface ScanPart {
	/** What was scanned, for the report. */
	label: string;
	passed: boolean;
	/** Why it failed, and each finding, as the scanner words them. */
	report: string;
}

/**
 * The published package's files that the scanner lints, as n8n's scan does: compiled JavaScript
 * and package.json (its `.ts` rules run on the sources).
 */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/**
 * Runs n8n's community-package scanner offline, as `analyzePackageByName` does after its
 * provenance check (the one step that needs the network and a published version): its lint on the
 * sources (package.json, nodes/, credentials/) and on the unpacked tarball. An empty scan is a
 * failure, not a pass: a tarball or folder with nothing to lint proves nothing.
 */
export async function scanPackage(sourceDir: string, tarball: string): Promise<ScanPart[]> {
	// The scanner makes a temporary folder when it is loaded and never removes it: point the
	// system's temp folder at one of ours for the run, and remove that afterwards.
	const workDir = mkdtempSync(join(tmpdir(), 'n8n-scan-'));
	const previousTmp = process.env.TMPDIR;
	process.env.TMPDIR = workDir;
	try {
		const scanner = await loadScanner();
		const unpacked = join(workDir, 'package');
		mkdirSync(unpacked);
		await runChecked('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
		return [
			toPart(`sources (${scanner.SOURCE_FILE_PATTERNS.join(', ')})`, await scanner.analyzePackage(sourceDir, scanner.SOURCE_FILE_PATTERNS)),
			toPart(`tarball (${TARBALL_FILE_PATTERNS.join(', ')})`, await scanner.analyzePackage(unpacked, TARBALL_FILE_PATTERNS)),
		];
	} finally {
		if (previousTmp === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = previousTmp;
		rmSync(workDir, { recursive: true, force: true });
	}
}

async function loadScanner(): Promise<Scanner> {
	// The package has no `exports` map and no types: its scanner module is imported by path.
	const modulePath: string = '@n8n/scan-community-package/scanner/scanner.mjs';
	return (await import(modulePath)) as Scanner;
}

function toPart(label: string, result: AnalysisResult): ScanPart {
	const nothingScanned = result.message === 'No files found to analyze';
	const passed = result.passed && !nothingScanned;
	const report = [result.message, result.details?.trim()].filter(Boolean).join('\n');
	return { label, passed, report };
}
