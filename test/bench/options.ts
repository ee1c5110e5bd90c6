import { parseArgs } from 'node:util';

export interface BenchOptions {
	/** Documents through the pipeline (default 60). */
	docs: number;
	/** Sandbox timing 20 times quicker than the spec's typical 3-20 s. */
	fast: boolean;
	/** Documents per loop iteration (n8n's Loop Over Items batch size). */
	batch: number;
	/** Executions running at once on the same key (n8n production concurrency / queue-mode workers). */
	lanes: number;
	/** Skip the memory and mapping measurements (they do not depend on the scheduler). */
	pipelineOnly: boolean;
}

export const BENCH_HELP = `npm run bench -- [--docs N] [--fast] [--batch K] [--lanes W] [--pipeline-only]`;

export function parseBenchArgs(argv: string[], defaults: Omit<BenchOptions, 'fast' | 'pipelineOnly'>): BenchOptions {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		options: {
			docs: { type: 'string' },
			fast: { type: 'boolean' },
			batch: { type: 'string' },
			lanes: { type: 'string' },
			'pipeline-only': { type: 'boolean' },
		},
	});
	return {
		docs: positiveInteger(values.docs, '--docs') ?? defaults.docs,
		fast: values.fast === true,
		batch: positiveInteger(values.batch, '--batch') ?? defaults.batch,
		lanes: positiveInteger(values.lanes, '--lanes') ?? defaults.lanes,
		pipelineOnly: values['pipeline-only'] === true,
	};
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${flag} needs a positive integer, got ${value}\n${BENCH_HELP}`);
	return parsed;
}
