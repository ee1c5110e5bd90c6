import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/**
 * `npm run verify` must fail on a package n8n's scanner rejects, and only then. Two tiny packages
 * with this package's own package.json and one helper, in source and compiled form: one waits with
 * `setTimeout` (banned in community nodes), the other does not.
 */
const HELPERS = {
	bad: {
		ts: 'export function pause(ms: number): Promise<void> {\n\treturn new Promise((resolve) => setTimeout(resolve, ms));\n}\n',
		js: '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.pause = pause;\nfunction pause(ms) {\n    return new Promise((resolve) => setTimeout(resolve, ms));\n}\n',
	},
	good: {
		ts: 'export function double(value: number): number {\n\treturn value * 2;\n}\n',
		js: '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.double = double;\nfunction double(value) {\n    return value * 2;\n}\n',
	},
};

let workDir: string;

beforeAll(() => {
	workDir = mkdtempSync(join(tmpdir(), 'verify-test-'));
});

afterAll(() => {
	rmSync(workDir, { recursive: true, force: true });
});

/** Writes the package into a folder of its own and packs it with npm; returns both paths. */
function makePackage(kind: keyof typeof HELPERS): { source: string; tarball: string } {
	const source = join(workDir, kind);
	const files = { 'nodes/shared/helper.ts': HELPERS[kind].ts, 'dist/nodes/shared/helper.js': HELPERS[kind].js };
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(source, path)), { recursive: true });
		writeFileSync(join(source, path), text);
	}
	copyFileSync(join(ROOT, 'package.json'), join(source, 'package.json'));
	const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', source], { cwd: source, encoding: 'utf8' });
	expect(packed.status, packed.stderr).toBe(0);
	const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
	return { source, tarball: join(source, filename) };
}

function verify(pkg: { source: string; tarball: string }) {
	const result = spawnSync(TSX, ['scripts/verify.ts', '--source', pkg.source, '--tarball', pkg.tarball], { cwd: ROOT, encoding: 'utf8' });
	return { status: result.status, output: result.stdout + result.stderr };
}

describe('npm run verify (n8n community-package scanner, offline)', () => {
	it('fails with a non-zero exit and prints the finding in the sources and in the tarball', () => {
		const { status, output } = verify(makePackage('bad'));

		expect(status).toBe(1);
		expect(output).toMatch(/FAIL sources[\s\S]*nodes\/shared\/helper\.ts[\s\S]*'setTimeout'[\s\S]*@n8n\/community-nodes\/no-restricted-globals/);
		expect(output).toMatch(/FAIL tarball[\s\S]*dist\/nodes\/shared\/helper\.js[\s\S]*'setTimeout'[\s\S]*@n8n\/community-nodes\/no-restricted-globals/);
		expect(output).toContain('verify: 2 of 2 scans failed');
	});

	it('passes the same package without the banned global', () => {
		const { status, output } = verify(makePackage('good'));

		expect(output).toContain('PASS sources');
		expect(output).toContain('PASS tarball');
		expect(output).toContain('verify: no findings');
		expect(status).toBe(0);
	});
});
