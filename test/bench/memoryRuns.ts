import { spawn } from 'node:child_process';
import { format, parseArgs } from 'node:util';

const MB = 1024 * 1024;

export const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;

/** console.log and console.error by other names: the rule against console is off only in the `*.bench.ts` files. */
const print = (text: string) => process.stdout.write(`${text}\n`);
const printError = (error: unknown) => process.stderr.write(`${format(error)}\n`);

/** One memory bench (urlMemory, waitMemory): what differs between them. */
export interface MemoryBench<Unit extends string, Measure extends Record<Unit, number>> {
	/** The option that takes the counts (`--links 100,1000`), and the word for one count's things in what is printed. */
	unit: Unit;
	/** The bench file itself (`__filename`), run again in a child process for each count. */
	script: string;
	/** The child's result line starts with this, the Measure as JSON after it. */
	resultLine: string;
	defaultCounts: number[];
	/** One run over `count` things, in the child process. */
	measure: (count: number) => Promise<Measure>;
	/** The bench's table, and a line for each run that did not give every result. */
	table: (measures: Measure[]) => void;
	/** The highest RSS of one run, whatever its phase. */
	peak: (measure: Measure) => number;
}

/**
 * A memory bench's command: each count measured in a fresh process (so no run starts with what an
 * earlier one left in the heap), then the bench's table and, for every count after the first, its
 * peak RSS as a multiple of the first's. With `--child`, the one run of the child process. Called
 * as the bench file's last statement: an error is printed and sets the exit code.
 */
export function runMemoryBench<Unit extends string, Measure extends Record<Unit, number>>(bench: MemoryBench<Unit, Measure>): void {
	run(bench).catch((error: unknown) => {
		printError(error);
		process.exitCode = 1;
	});
}

async function run<Unit extends string, Measure extends Record<Unit, number>>(bench: MemoryBench<Unit, Measure>): Promise<void> {
	const { unit } = bench;
	const { values } = parseArgs({ options: { [unit]: { type: 'string' }, child: { type: 'boolean' } } });
	const option = values[unit];
	const counts = typeof option === 'string' ? option.split(',').map(Number) : bench.defaultCounts;
	if (counts.some((count) => !Number.isSafeInteger(count) || count < 1)) throw new Error(`--${unit} takes counts such as 100,1000`);
	if (values.child) {
		print(`${bench.resultLine}${JSON.stringify(await bench.measure(counts[0]))}`);
		return;
	}
	const measures: Measure[] = [];
	for (const count of counts) {
		print(`${count} ${unit}...`);
		measures.push(await measureInChild(bench, count));
	}
	bench.table(measures);
	const [first, ...others] = measures;
	for (const other of others) {
		const ratio = (bench.peak(other) / bench.peak(first)).toFixed(2);
		print(`peak RSS for ${other[unit]} ${unit}: ${ratio} times that for ${first[unit]} (${mb(bench.peak(other))} / ${mb(bench.peak(first))})`);
	}
}

function measureInChild<Unit extends string, Measure extends Record<Unit, number>>(bench: MemoryBench<Unit, Measure>, count: number): Promise<Measure> {
	const child = spawn(process.execPath, [...process.execArgv, bench.script, `--${bench.unit}`, String(count), '--child'], { stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('exit', (code) => {
			const line = output.split('\n').find((text) => text.startsWith(bench.resultLine));
			if (code !== 0 || !line) reject(new Error(`the run over ${count} ${bench.unit} exited with ${code}: ${output.slice(-2000)}`));
			else resolve(JSON.parse(line.slice(bench.resultLine.length)) as Measure);
		});
	});
}
