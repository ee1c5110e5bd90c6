import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer order of CONTRIBUTING.md, read from the code: every relative import of a .ts file in
 * nodes/ and credentials/ is parsed and checked against the table below, and the import graph
 * must have no cycle. A new folder under nodes/shared/ fails until it is given its place here.
 */

const ROOT = join(__dirname, '..', '..');

/** What each area may import besides itself. Lower layers first, as CONTRIBUTING.md draws them. */
const MAY_IMPORT: Record<string, readonly string[]> = {
	/** limits, schemas, wait: the base every concern stands on. */
	base: [],
	/** items/: what one input item's parameters and errors say (parameters, itemError). */
	items: ['base'],
	'preflight/pdf': ['base'],
	preflight: ['base', 'preflight/pdf'],
	/** images/: photos decoded, turned, scaled and encoded again (pure codecs). */
	images: ['base'],
	/** preflight/addresses: where the credential's key may go over plain http is where a link may go. */
	http: ['base', 'items', 'preflight'],
	/** duplicates/: an invoice's key and its look-up among the workflow's earlier extractions. */
	duplicates: ['base', 'http'],
	output: ['base', 'items', 'http', 'duplicates'],
	templates: ['base', 'items', 'http'],
	waiting: ['base', 'items', 'http', 'duplicates', 'output'],
	/** Each node folder (nodes/DocumentExtraction/, ...): the shared code, never another node. */
	node: ['base', 'items', 'preflight', 'preflight/pdf', 'images', 'http', 'duplicates', 'output', 'templates', 'waiting'],
	credentials: ['base', 'http'],
};

interface ImportEdge {
	from: string;
	to: string;
}

/** The area of a file (path relative to the repository, forward slashes). */
function areaOf(file: string): string {
	if (file.startsWith('credentials/')) return 'credentials';
	const shared = /^nodes\/shared\/(.+)$/.exec(file);
	if (!shared) return file.startsWith('nodes/') ? 'node' : 'outside';
	const parts = shared[1].split('/');
	if (parts.length === 1) return 'base';
	return parts[0] === 'preflight' && parts[1] === 'pdf' && parts.length > 2 ? 'preflight/pdf' : parts[0];
}

/** The node folder of a file under nodes/ (not shared), e.g. `nodes/DocumentExtraction`. */
function nodeFolderOf(file: string): string {
	return file.split('/').slice(0, 2).join('/');
}

/** Why the import breaks the layer order, or undefined when it is allowed. */
function layerViolation({ from, to }: ImportEdge): string | undefined {
	const source = areaOf(from);
	const target = areaOf(to);
	if (!(source in MAY_IMPORT)) return `${from} is in no known layer (${source}): give its folder a place in MAY_IMPORT and CONTRIBUTING.md`;
	if (!(target in MAY_IMPORT)) return `${from} imports ${to}, which is outside nodes/ and credentials/`;
	if (source === 'node' && target === 'node') {
		return nodeFolderOf(from) === nodeFolderOf(to) ? undefined : `${from} imports another node's file ${to}: shared code belongs in nodes/shared/`;
	}
	if (source === target || MAY_IMPORT[source].includes(target)) return undefined;
	return `${from} (${source}) imports ${to} (${target}); ${source} may import only ${[source, ...MAY_IMPORT[source]].join(', ')}`;
}

/** Each cycle once, as the files along it, the first repeated at the end. */
function findCycles(edges: ImportEdge[]): string[][] {
	const next = new Map<string, string[]>();
	for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
	const state = new Map<string, 'open' | 'done'>();
	const cycles: string[][] = [];
	const visit = (file: string, path: string[]) => {
		state.set(file, 'open');
		for (const to of next.get(file) ?? []) {
			if (state.get(to) === 'open') cycles.push([...path.slice(path.indexOf(to)), file, to]);
			else if (!state.has(to)) visit(to, [...path, file]);
		}
		state.set(file, 'done');
	};
	for (const file of [...next.keys()].sort()) if (!state.has(file)) visit(file, []);
	return cycles;
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** `import ... from '...'`, `export ... from '...'` and `import '...'`, type-only imports included. */
const IMPORT = /^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function importEdges(): ImportEdge[] {
	const files = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
	const name = (path: string) => relative(ROOT, path).split('\\').join('/');
	return files.flatMap((file) =>
		[...readFileSync(file, 'utf8').matchAll(IMPORT)]
			.map((match) => match[1])
			.filter((specifier) => specifier.startsWith('.'))
			.map((specifier) => {
				const base = resolve(dirname(file), specifier);
				const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
				if (!target) throw new Error(`${name(file)}: cannot resolve import '${specifier}'`);
				return { from: name(file), to: name(target) };
			}),
	);
}

describe('layers: the import graph of nodes/ and credentials/', () => {
	const edges = importEdges();

	it('reads the imports of every folder (the regex finds them)', () => {
		const areas = new Set(edges.flatMap(({ from, to }) => [areaOf(from), areaOf(to)]));
		expect([...areas].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
		expect(edges.length).toBeGreaterThan(100);
	});

	it('has no import that breaks the layer order', () => {
		expect(edges.map(layerViolation).filter(Boolean)).toEqual([]);
	});

	it('nodes/shared/ keeps at most 4 loose files: every other concern has its folder', () => {
		const loose = readdirSync(join(ROOT, 'nodes', 'shared')).filter((entry) => entry.endsWith('.ts'));
		expect(loose.length, loose.join(', ')).toBeLessThanOrEqual(4);
	});

	it('has no import cycle', () => {
		expect(findCycles(edges).map((cycle) => cycle.join(' -> '))).toEqual([]);
	});

	it('catches an upward import, a node reaching into another node, and a cycle', () => {
		expect(layerViolation({ from: 'nodes/shared/http/transport.ts', to: 'nodes/shared/waiting/scheduler.ts' })).toMatch(/http may import only http, base, items/);
		expect(layerViolation({ from: 'nodes/shared/preflight/pdf/syntax.ts', to: 'nodes/shared/preflight/upload.ts' })).toMatch(/preflight\/pdf may import only/);
		expect(layerViolation({ from: 'nodes/shared/limits.ts', to: 'nodes/shared/output/options.ts' })).toMatch(/base may import only base/);
		expect(layerViolation({ from: 'nodes/shared/output/itemSink.ts', to: 'nodes/DocumentExtraction/actions/router.ts' })).toMatch(/output may import only/);
		expect(layerViolation({ from: 'nodes/DocumentExtractionPoller/DocumentExtractionPoller.node.ts', to: 'nodes/DocumentExtraction/actions/router.ts' })).toMatch(/another node/);
		expect(layerViolation({ from: 'nodes/shared/newConcern/thing.ts', to: 'nodes/shared/limits.ts' })).toMatch(/no known layer/);
		expect(layerViolation({ from: 'nodes/shared/waiting/scheduler.ts', to: 'nodes/shared/http/rateBudget.ts' })).toBeUndefined();

		const cycle = findCycles([
			{ from: 'a.ts', to: 'b.ts' },
			{ from: 'b.ts', to: 'c.ts' },
			{ from: 'c.ts', to: 'a.ts' },
			{ from: 'c.ts', to: 'd.ts' },
		]);
		expect(cycle).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
		expect(findCycles([{ from: 'a.ts', to: 'b.ts' }, { from: 'a.ts', to: 'c.ts' }, { from: 'b.ts', to: 'c.ts' }])).toEqual([]);
	});
});

/** A relative import of a .ts file: what it resolves to, and whether the statement brings in types only. */
const IMPORT_STATEMENT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function relativeImports(file: string): Array<{ to: string; typeOnly: boolean }> {
	return [...readFileSync(file, 'utf8').matchAll(IMPORT_STATEMENT)]
		.filter((match) => match[2].startsWith('.'))
		.map((match) => {
			const base = resolve(dirname(file), match[2]);
			const to = [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
			if (!to) throw new Error(`${relative(ROOT, file)}: cannot resolve import '${match[2]}'`);
			return { to, typeOnly: Boolean(match[1]) };
		});
}

/** Every file the given files load when they run (type-only imports left out), themselves included. */
function loadedAtRunTime(files: string[]): string[] {
	const seen = new Set<string>();
	const queue = [...files];
	while (queue.length > 0) {
		const file = queue.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		if (file.endsWith('.ts')) queue.push(...relativeImports(file).filter((edge) => !edge.typeOnly).map((edge) => edge.to));
	}
	return [...seen].map((file) => relative(ROOT, file).split('\\').join('/')).sort();
}

/**
 * The end-to-end suite's n8n works against the sandbox as its users run it: the package packed,
 * installed and started as a process (test/e2e/globalSetup.ts, test/harness/remoteSandbox.ts). So
 * no file of the suite imports the sandbox's source, and nothing the suite loads runs its server.
 */
describe('layers: the end-to-end suite reaches the sandbox only as a process', () => {
	const E2E = join(ROOT, 'test', 'e2e');
	const SANDBOX = join(ROOT, 'sandbox') + '/';
	/** Loaded by the sample documents (test/fixtures): seeded random numbers, no service. */
	const MAY_LOAD = ['sandbox/src/random.ts'];
	const suite = sourceFiles(E2E);

	it('no file under test/e2e imports sandbox/, not even its types', () => {
		const imports = suite.flatMap((file) => relativeImports(file).filter((edge) => edge.to.startsWith(SANDBOX)).map((edge) => `${relative(ROOT, file)} imports ${relative(ROOT, edge.to)}`));
		expect(imports).toEqual([]);
	});

	it('of the sandbox, the suite loads nothing but ' + MAY_LOAD.join(', '), () => {
		const loaded = loadedAtRunTime(suite);
		expect(loaded).toContain('test/harness/remoteSandbox.ts');
		expect(loaded).toContain('test/harness/installedSandbox.ts');
		expect(loaded.filter((file) => file.startsWith('sandbox/'))).toEqual(MAY_LOAD);
	});

	it('tells a type-only import from one that loads the module', () => {
		const client = relativeImports(join(ROOT, 'test', 'harness', 'remoteSandbox.ts'));
		expect(client.filter((edge) => edge.to.startsWith(SANDBOX)).map((edge) => edge.typeOnly)).toEqual([true, true]);
		expect(client.filter((edge) => !edge.to.startsWith(SANDBOX)).map((edge) => edge.typeOnly)).toEqual([false]);
	});
});
