import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { FaultConfig } from './faults';
import type { SandboxOptions } from './index';
import type { TimingOption } from './timing';

export const DEFAULT_CLI_PORT = 4010;

/**
 * Where the CLI keeps its state unless told otherwise: a folder in the current directory, which
 * under `npm run sandbox` is always the clone's root (and, for the installed package's command,
 * the folder it is started in). Beside the code that made it, it is one per
 * clone (two clones of different versions never share one), shows in `ls`, is removed with the
 * clone or with `rm -r sandbox-data`, and is git-ignored. A folder under the home directory would
 * be shared by every clone and easy to forget. docs/sandbox.md says the same to users.
 */
export const DEFAULT_DATA_FOLDER = 'sandbox-data';
export const STATE_FILE_NAME = 'state.json';

export const CLI_HELP = `Local sandbox of the document-extraction service (its interface: docs/service-api.md)

Usage: document-extraction-sandbox [options]   (the installed package; npx document-extraction-sandbox)
       npm run sandbox -- [options]             (in a clone of the repository)

  --port <n>                 port to listen on (default ${DEFAULT_CLI_PORT}; 0 = any free port)
  --host <address>           address to bind (default 127.0.0.1: this machine only; 0.0.0.0 lets
                             n8n in Docker and others on your network in)
  --plan free|paid           plan of the demo account (default free; a kept state keeps its plan)
  --pages <n>                monthly pages of the demo account (default: 20 free, 200 paid)
  --key <dex_...>            the demo account's API key (default: a fixed demo key)
  --timing <mode>            realistic (default), fast (20x quicker) or a scale factor, e.g. 0.5
  --data <folder>            keep accounts, templates, results and pages used across restarts in
                             <folder>/${STATE_FILE_NAME} (default ./${DEFAULT_DATA_FOLDER}; never file contents)
  --no-state                 keep nothing: every start is a new sandbox, nothing is written
  --state <file.json>        the older form of --data: keep the state in this one file
  --max-concurrent-uploads <n>  uploads of one account in flight before 503 BUSY (default 5)
  --fault-rate-500 <p>       share of requests answered 500 INTERNAL_ERROR (0..1)
  --fault-rate-503 <p>       share of requests answered 503 BUSY (0..1)
  --fault-rate-429 <p>       share of requests answered 429 RATE_LIMITED (0..1)
  --fault-rate-drop <p>      share of connections dropped after the request was handled (0..1)
  --fault-latency <ms>       extra latency on every request
  --fault-seed <n>           seed of the random faults (default 1)
  --help                     this text

Admin endpoints (loopback only, no key): GET /__sandbox/health, GET /__sandbox/stats,
POST /__sandbox/reset-stats, GET|POST /__sandbox/faults, POST /__sandbox/faults/queue,
GET|POST /__sandbox/accounts, POST /__sandbox/accounts/regenerate-key, POST /__sandbox/clock.`;

export type CliCommand = { help: true } | { help: false; options: SandboxOptions };

/** `cwd` places the default data folder (a parameter so tests need not change directory). */
export function parseCliArgs(argv: string[], cwd: string = process.cwd()): CliCommand {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			plan: { type: 'string' },
			pages: { type: 'string' },
			key: { type: 'string' },
			timing: { type: 'string' },
			data: { type: 'string' },
			'no-state': { type: 'boolean' },
			state: { type: 'string' },
			'max-concurrent-uploads': { type: 'string' },
			'fault-rate-500': { type: 'string' },
			'fault-rate-503': { type: 'string' },
			'fault-rate-429': { type: 'string' },
			'fault-rate-drop': { type: 'string' },
			'fault-latency': { type: 'string' },
			'fault-seed': { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) return { help: true };

	const plan = values.plan;
	if (plan !== undefined && plan !== 'free' && plan !== 'paid') throw new Error('--plan must be free or paid');
	const options: SandboxOptions = {
		port: number(values.port, '--port') ?? DEFAULT_CLI_PORT,
		host: values.host,
		demoKey: values.key,
		demoAccount: { plan, monthlyPages: number(values.pages, '--pages') },
		timing: timing(values.timing),
		stateFile: stateFile(values, cwd),
		maxConcurrentUploads: number(values['max-concurrent-uploads'], '--max-concurrent-uploads'),
	};
	const rates = {
		internalError: number(values['fault-rate-500'], '--fault-rate-500'),
		busy: number(values['fault-rate-503'], '--fault-rate-503'),
		rateLimited: number(values['fault-rate-429'], '--fault-rate-429'),
		dropAfterBody: number(values['fault-rate-drop'], '--fault-rate-drop'),
	};
	const latency = number(values['fault-latency'], '--fault-latency');
	const faults: FaultConfig = { seed: number(values['fault-seed'], '--fault-seed') };
	if (Object.values(rates).some((rate) => rate !== undefined)) faults.rates = { '*': rates };
	if (latency !== undefined) faults.latencyMs = { '*': latency };
	if (faults.rates || faults.latencyMs) options.faults = faults;
	return { help: false, options };
}

/** The state file, or undefined for --no-state. Only one of the three options makes sense at once. */
function stateFile(values: { data?: string; 'no-state'?: boolean; state?: string }, cwd: string): string | undefined {
	const given = (['data', 'no-state', 'state'] as const).filter((name) => values[name] !== undefined && values[name] !== false);
	if (given.length > 1) throw new Error(`--${given[0]} and --${given[1]} do not go together: choose one`);
	if (values['no-state']) return undefined;
	if (values.state !== undefined) return resolve(cwd, values.state);
	return join(resolve(cwd, values.data ?? DEFAULT_DATA_FOLDER), STATE_FILE_NAME);
}

function timing(value: string | undefined): TimingOption | undefined {
	if (value === undefined || value === 'realistic' || value === 'fast') return value;
	return number(value, '--timing');
}

function number(value: string | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0) throw new Error(`${flag} needs a non-negative number, got ${value}`);
	return parsed;
}
