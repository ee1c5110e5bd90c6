import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

/**
 * The GitHub Actions workflows cannot run here, so their YAML is checked: it parses, the publish
 * workflow runs on version tags only, checks before it packs, releases the tarballs it checked
 * without waiting for npm, and publishes them with provenance (what n8n requires of community
 * packages since 1 May 2026).
 */
const ROOT = join(__dirname, '..', '..');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
	'continue-on-error'?: unknown;
	if?: string;
}

interface Job {
	permissions?: Record<string, string>;
	strategy?: { matrix?: Record<string, unknown[]> };
	steps: Step[];
}

interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function readWorkflow(file: string): Workflow {
	const document = parseDocument(readFileSync(join(ROOT, '.github', 'workflows', file), 'utf8'), { uniqueKeys: true });
	expect(document.errors.map((error) => error.message)).toEqual([]);
	expect(document.warnings.map((warning) => warning.message)).toEqual([]);
	return document.toJS() as Workflow;
}

/** The index of the one step whose `run` command matches; fails the test if none or several do. */
function stepIndex(steps: Step[], command: RegExp): number {
	const indexes = steps.flatMap((step, index) => (step.run !== undefined && command.test(step.run) ? [index] : []));
	expect(indexes, `steps running ${command}`).toHaveLength(1);
	return indexes[0];
}

/** GitHub's filter pattern syntax, as far as tag filters here use it: `*` is any run of characters but `/`. */
function matchesFilter(pattern: string, ref: string): boolean {
	const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
	return new RegExp(`^${source}$`).test(ref);
}

function nodeMajor(step: Step | undefined): number {
	return Number(String(step?.with?.['node-version']).split('.')[0]);
}

const CHECKS = [/^npm run build$/m, /^npm run lint$/m, /^npm run verify$/m, /^npm (test|run test\S*)$/m];

describe('.github/workflows/publish.yml', () => {
	const workflow = readWorkflow('publish.yml');
	const check = workflow.jobs.check as Job & { needs?: string };
	const publish = workflow.jobs.publish as Job & { needs?: string };
	const release = workflow.jobs.release as Job & { needs?: string };
	const TARBALLS = ['n8n-nodes-document-extraction-*.tgz', 'document-extraction-sandbox-*.tgz'];

	it('runs on pushed version tags only (v1.2.3), never on branches, pull requests or by hand', () => {
		expect(Object.keys(workflow.on)).toEqual(['push']);
		const push = workflow.on.push as Record<string, string[]>;
		expect(Object.keys(push)).toEqual(['tags']);
		for (const tag of ['v0.1.0', 'v1.2.3', 'v2.0.0-rc.1']) {
			expect(push.tags.some((pattern) => matchesFilter(pattern, tag)), tag).toBe(true);
		}
		for (const tag of ['0.1.0', 'latest', 'v1']) {
			expect(push.tags.some((pattern) => matchesFilter(pattern, tag)), tag).toBe(false);
		}
	});

	it('has three jobs: one checks and packs, then the release and the publish each take its tarballs, neither waiting for the other', () => {
		expect(Object.keys(workflow.jobs).sort()).toEqual(['check', 'publish', 'release']);
		expect(check.needs).toBeUndefined();
		expect(release.needs).toBe('check');
		expect(publish.needs).toBe('check');
		expect(workflow.permissions).toEqual({ contents: 'read' });
		expect(check.permissions).toEqual({ contents: 'read' });
	});

	it('check: refuses a tag that is not both packages\' version, or a version CHANGELOG.md lacks, before installing', () => {
		const guard = stepIndex(check.steps, /GITHUB_REF_NAME/);
		expect(check.steps[guard].run).toContain("require('./package.json').version");
		expect(check.steps[guard].run).toContain("require('./sandbox/package.json').version");
		expect(check.steps[guard].run).toContain('CHANGELOG.md');
		expect(guard).toBeLessThan(stepIndex(check.steps, /^npm ci$/m));
	});

	it('check: installs from the lockfile, builds, lints, verifies and tests, then packs both packages and hands them on', () => {
		const install = stepIndex(check.steps, /^npm ci$/m);
		const checks = CHECKS.map((command) => stepIndex(check.steps, command));
		const pack = stepIndex(check.steps, /\bnpm pack\b/);
		expect(install).toBeLessThan(Math.min(...checks));
		expect(checks).toEqual([...checks].sort((a, b) => a - b));
		expect(Math.max(...checks)).toBeLessThan(pack);
		expect(check.steps[pack].run).toMatch(/^npm pack --pack-destination tarballs$/m);
		expect(check.steps[pack].run).toMatch(/^npm pack --workspace sandbox --ignore-scripts=false --pack-destination tarballs$/m);
		const upload = check.steps.findIndex((step) => step.uses?.startsWith('actions/upload-artifact@'));
		expect(upload).toBe(check.steps.length - 1);
		expect(check.steps[upload].with).toMatchObject({ name: 'tarballs', path: 'tarballs/*.tgz', 'if-no-files-found': 'error' });
		for (const step of check.steps) {
			expect(step['continue-on-error'], step.name ?? step.run).toBeUndefined();
			expect(step.if, step.name ?? step.run).toBeUndefined();
		}
	});

	it('release: attaches both checked tarballs to a GitHub Release, with no checkout, allowed only to write releases', () => {
		expect(release.permissions).toEqual({ contents: 'write' });
		expect(release.steps.filter((step) => step.uses?.startsWith('actions/checkout@'))).toEqual([]);
		expect(release.steps[0].uses).toMatch(/^actions\/download-artifact@/);
		expect(release.steps[0].with?.name).toBe('tarballs');
		const create = stepIndex(release.steps, /\bgh release create\b/);
		for (const tarball of TARBALLS) expect(release.steps[create].run).toContain(tarball);
		expect(release.steps[create].run).toMatch(/gh release create "\$GITHUB_REF_NAME" /);
		expect(release.steps[create].env).toEqual({ GH_TOKEN: '${{ github.token }}' });
	});

	it('publish: both checked tarballs, publicly, with an npm provenance statement, allowed to mint the OIDC token and only to read', () => {
		expect(publish.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		expect(publish.steps.filter((step) => step.uses?.startsWith('actions/checkout@'))).toEqual([]);
		const index = stepIndex(publish.steps, /\bnpm publish\b/);
		expect(index).toBe(publish.steps.length - 1);
		const commands = publish.steps[index].run!.trim().split('\n');
		expect(commands).toHaveLength(2);
		for (const [i, tarball] of [TARBALLS[1], TARBALLS[0]].entries()) {
			expect(commands[i].trim().split(/\s+/)).toEqual(['npm', 'publish', `./${tarball}`, '--provenance', '--access', 'public']);
		}
		expect(publish.steps[index].env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
		const download = publish.steps.findIndex((step) => step.uses?.startsWith('actions/download-artifact@'));
		expect(download).toBeGreaterThanOrEqual(0);
		expect(download).toBeLessThan(index);
	});

	it('uses the npm registry and a Node.js that n8n documents for nodes (22.22 or newer) where it checks and where it publishes', () => {
		for (const job of [check, publish]) expect(nodeMajor(job.steps.find((step) => step.uses?.startsWith('actions/setup-node@')))).toBeGreaterThanOrEqual(24);
		expect(publish.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['registry-url']).toBe('https://registry.npmjs.org');
	});

	it('restores no cache and keeps no git credentials in the jobs that build or publish', () => {
		for (const job of Object.values(workflow.jobs)) {
			expect(job.steps.filter((step) => step.uses?.startsWith('actions/cache@'))).toEqual([]);
			expect(job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.cache).toBeUndefined();
		}
		expect(check.steps.find((step) => step.uses?.startsWith('actions/checkout@'))?.with?.['persist-credentials']).toBe(false);
	});
});

describe('.github/workflows/ci.yml', () => {
	const workflow = readWorkflow('ci.yml');

	it('runs on pushes to main and on pull requests', () => {
		expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
		expect((workflow.on.push as { branches: string[] }).branches).toEqual(['main']);
	});

	it('runs .ci/run, which installs, builds, lints, verifies and tests in that order', () => {
		const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
		stepIndex(steps, /^bash \.ci\/run$/m);
		// .ci/run wraps each command as `step "<title>" <command>` to time it.
		const script = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').replace(/^step "[^"]*" /gm, '');
		const order = [/^npm ci\b/m, ...CHECKS].map((command) => script.search(command));
		expect(order.every((position) => position >= 0), String(order)).toBe(true);
		expect(order).toEqual([...order].sort((a, b) => a - b));
	});

	it('runs .ci/run on Node 22 and 24 (Node 20 reached end of life in April 2026)', () => {
		const job = Object.values(workflow.jobs).find((candidate) => candidate.steps.some((step) => /^bash \.ci\/run$/m.test(step.run ?? '')));
		const setupNode = job?.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(setupNode?.with?.['node-version']).toBe('${{ matrix.node }}');
		expect(job?.strategy?.matrix?.node).toEqual(['22', '24']);
	});

	it('also runs the publish checks on the Node.js version publish.yml uses', () => {
		const publishNode = nodeMajor(readWorkflow('publish.yml').jobs.check.steps.find((step) => step.uses?.startsWith('actions/setup-node@')));
		const job = Object.values(workflow.jobs).find((candidate) =>
			candidate.steps.some((step) => step.uses?.startsWith('actions/setup-node@') && nodeMajor(step) === publishNode),
		);
		expect(job).toBeDefined();
		const checks = CHECKS.map((command) => stepIndex(job!.steps, command));
		expect(checks).toEqual([...checks].sort((a, b) => a - b));
	});
});

describe('the real-world corpus in every workflow that runs the tests', () => {
	it.each(['ci.yml', 'publish.yml'])('%s: fetched (npm run corpus) before npm test, which then requires it', (file) => {
		for (const job of Object.values(readWorkflow(file).jobs)) {
			const tests = job.steps.findIndex((step) => /^npm test$/m.test(step.run ?? ''));
			if (tests < 0) continue;
			expect(stepIndex(job.steps, /^npm run corpus$/m)).toBeLessThan(tests);
			expect(job.steps[tests].env?.REQUIRE_CORPUS).toBe('1');
		}
	});

	it('.ci/run: npm run corpus before npm test, with REQUIRE_CORPUS and REQUIRE_QPDF set', () => {
		const script = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		expect(script).toMatch(/^export REQUIRE_CORPUS=1$/m);
		expect(script).toMatch(/^export REQUIRE_QPDF=1$/m);
		const corpus = script.search(/" npm run corpus$/m);
		expect(corpus).toBeGreaterThan(0);
		expect(corpus).toBeLessThan(script.search(/" npm test$/m));
	});
});
