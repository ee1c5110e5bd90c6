import { parseArgs } from 'node:util';

export const SCENARIO_KEYS = ['single', 'batch', 'paid', 'shared', 'memory'] as const;
export type ScenarioKey = (typeof SCENARIO_KEYS)[number];

export interface BenchOptions {
	/** Documents through the throughput scenarios (default 60). */
	docs: number;
	/** Documents of the one-at-a-time scenario, one run each (default 20, enough for a p95). */
	runs: number;
	/** Documents per loop iteration (n8n's Loop Over Items batch size). */
	batch: number;
	/**
	 * The short run: sandbox timing 20 times quicker than the spec's typical 3-20 s, and the fast
	 * defaults for --docs, --runs and --batch (fewer documents; what is given on the command line wins).
	 */
	fast: boolean;
	/** The scenarios to run (default all). */
	only: ScenarioKey[];
}

export const BENCH_HELP = `npm run bench -- [--docs N] [--runs N] [--batch K] [--fast] [--only ${SCENARIO_KEYS.join(',')}]`;

type Counts = Pick<BenchOptions, 'docs' | 'runs' | 'batch'>;

/** `fastDefaults` replace `defaults` with --fast (the short run). */
export function parseBenchArgs(argv: string[], defaults: Counts, fastDefaults: Counts = defaults): BenchOptions {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		options: {
			docs: { type: 'string' },
			runs: { type: 'string' },
			batch: { type: 'string' },
			fast: { type: 'boolean' },
			only: { type: 'string' },
		},
	});
	const only = values.only === undefined ? [...SCENARIO_KEYS] : values.only.split(',').map((key) => key.trim());
	const unknown = only.filter((key) => !(SCENARIO_KEYS as readonly string[]).includes(key));
	if (unknown.length > 0) throw new Error(`--only: unknown scenario ${unknown.join(', ')}\n${BENCH_HELP}`);
	const fast = values.fast === true;
	const counts = fast ? fastDefaults : defaults;
	return {
		docs: positiveInteger(values.docs, '--docs') ?? counts.docs,
		runs: positiveInteger(values.runs, '--runs') ?? counts.runs,
		batch: positiveInteger(values.batch, '--batch') ?? counts.batch,
		fast,
		only: only as ScenarioKey[],
	};
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${flag} needs a positive integer, got ${value}\n${BENCH_HELP}`);
	return parsed;
}
