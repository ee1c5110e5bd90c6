import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The two packages of this repository (CONTRIBUTING.md, "The sandbox and what ships where"): the
 * n8n package at the root, with no runtime dependencies, and the sandbox, `sandbox/`, a workspace
 * that stands on its own: its sources import nothing outside `sandbox/src/`, and every package
 * they import is one of its own dependencies. test/sandbox/package.test.ts packs and runs it.
 */

const ROOT = join(__dirname, '..', '..');
const SANDBOX = join(ROOT, 'sandbox');
const SOURCES = join(SANDBOX, 'src');

interface Manifest {
	name: string;
	files?: string[];
	workspaces?: string[];
	bin?: Record<string, string>;
	main?: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const root = readJson<Manifest>(join(ROOT, 'package.json'));
const sandbox = readJson<Manifest>(join(SANDBOX, 'package.json'));
const lock = readJson<{ packages: Record<string, { version?: string; link?: boolean; resolved?: string }> }>(join(ROOT, 'package-lock.json'));

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

/** Every module specifier of a TypeScript file: static imports and exports, `import()`, `require.resolve`. */
function specifiers(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'|require(?:Here)?\.resolve\(`([^`$]+)/g)];
	return found.map((match) => match[1] ?? match[2] ?? match[3]);
}

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe('the n8n package (the root)', () => {
	it('has no runtime dependencies and ships dist/ only (n8n community-package rules)', () => {
		expect(root.dependencies ?? {}).toEqual({});
		expect(root.files).toEqual(['dist']);
	});

	it('has the sandbox as its one workspace, linked from the lockfile', () => {
		expect(root.workspaces).toEqual(['sandbox']);
		expect(lock.packages[`node_modules/${sandbox.name}`]).toMatchObject({ link: true, resolved: 'sandbox' });
	});
});

describe('the sandbox package (sandbox/)', () => {
	const sources = filesUnder(SOURCES).filter((file) => file.endsWith('.ts'));

	it('has a command that runs the compiled CLI, and a main', () => {
		expect(sandbox.bin).toEqual({ 'document-extraction-sandbox': 'bin/document-extraction-sandbox.js' });
		const bin = readFileSync(join(SANDBOX, sandbox.bin!['document-extraction-sandbox']), 'utf8');
		expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
		expect(bin).toContain("require('../dist/cli.js')");
		expect(sandbox.main).toBe('dist/index.js');
		expect(existsSync(join(SOURCES, 'cli.ts'))).toBe(true);
		expect(existsSync(join(SOURCES, 'index.ts'))).toBe(true);
	});

	it('imports nothing outside sandbox/src/ (no test helper, no node code)', () => {
		const outside: string[] = [];
		for (const file of sources) {
			for (const specifier of specifiers(file).filter((s) => s.startsWith('.'))) {
				const target = resolve(dirname(file), specifier);
				if (relative(SOURCES, target).startsWith('..')) outside.push(`${relative(ROOT, file)} imports ${specifier}`);
			}
		}
		expect(outside).toEqual([]);
	});

	it('depends on every package its sources import, at the version the repository locks and tests with', () => {
		const imported = new Set(
			sources.flatMap((file) => specifiers(file).filter((s) => !s.startsWith('.') && !s.startsWith('node:')).map(packageOf)),
		);
		// The OCR languages are found by name at run time (`@tesseract.js-data/${language}`).
		for (const language of ['eng', 'deu', 'fra', 'spa']) imported.add(`@tesseract.js-data/${language}`);
		imported.delete('@tesseract.js-data/');
		expect(Object.keys(sandbox.dependencies ?? {}).sort()).toEqual([...imported].sort());
		for (const [name, version] of Object.entries(sandbox.dependencies ?? {})) {
			expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
			// What the root's tests import directly, they list themselves, at the same version.
			if (root.devDependencies?.[name] !== undefined) expect(root.devDependencies[name], name).toBe(version);
		}
	});

	it('leaves no sandbox source under test/: test/sandbox/ holds tests and their two helpers', () => {
		const helpers = ['extraction/test-documents.ts', 'extraction/ocr-corpus.ts'];
		const dir = join(ROOT, 'test', 'sandbox');
		const notTests = filesUnder(dir)
			.map((file) => relative(dir, file))
			.filter((file) => !file.endsWith('.test.ts') && !helpers.includes(file));
		expect(notTests).toEqual([]);
	});
});
