import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

interface LockEntry {
	version?: string;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** Where Node (and npm) find `name` from the package at `from`: its own node_modules, then each parent's. */
function resolveInLock(from: string, name: string): string | undefined {
	let base = from;
	for (;;) {
		const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
		if (lock.packages[candidate]) return candidate;
		if (base === '') return undefined;
		const parent = base.lastIndexOf('/node_modules/');
		base = parent === -1 ? '' : base.slice(0, parent);
	}
}

/**
 * `npm ci` refuses a lockfile that lacks an entry for any dependency, optional platform packages
 * included. This machine's registry does not serve some of them (unrs-resolver's non-Linux
 * bindings, pulled in by @n8n/node-cli's import plugin), so an `npm install` here writes a lock
 * without them, and only a fresh `npm ci` (CI) notices. Their entries are kept by hand: name,
 * version, `os`/`cpu`/`libc` as the package states them, `optional: true`, `dev: true`.
 */
describe('package-lock.json', () => {
	it('has an entry for every dependency of every locked package, optional ones included', () => {
		const missing: string[] = [];
		for (const [path, entry] of Object.entries(lock.packages)) {
			const deps = { ...entry.dependencies, ...entry.optionalDependencies, ...(path === '' ? entry.devDependencies : {}) };
			for (const name of Object.keys(deps)) {
				if (!resolveInLock(path, name)) missing.push(`${name} (needed by ${path || 'the package'})`);
			}
		}
		expect(missing).toEqual([]);
	});
});
