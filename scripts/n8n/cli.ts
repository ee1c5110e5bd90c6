import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { N8nRuntime } from './install';
import { freePort } from './ports';
import { run, runChecked } from './processes';
import { parseRunOutput, type RunData } from './runData';

/** What a credential export holds; `data` in plain text is encrypted by `import:credentials`. */
export interface CredentialExport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown>; [key: string]: unknown }>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface Execution {
	/** n8n's exit code was 0 and the run data has no workflow error. */
	ok: boolean;
	/** The run data n8n printed, when it printed any. */
	run?: RunData;
	stdout: string;
	stderr: string;
	durationMs: number;
}

/** Per execution: generous, a long bank statement alone can take minutes on realistic timing. */
const EXECUTE_TIMEOUT_MS = 10 * 60_000;
const IMPORT_TIMEOUT_MS = 3 * 60_000;

/**
 * n8n's file folder in its home: the one folder n8n 2.x lets the Read/Write Files node use by
 * default (N8N_RESTRICT_FILE_ACCESS_TO unset), which n8n itself never creates. n8n 1.x allows
 * every folder by default.
 */
export const FILES_FOLDER = '.n8n-files';

/**
 * Environment that runs n8n headless, as the suites and the demo need it: no telemetry or banners.
 * File access stays at n8n's default, as a user has it: what a workflow reads or writes lives in
 * `~/.n8n-files` (see N8nCli). n8n 1.x: no task-runner process and the legacy expression
 * engine (the default one needs isolated-vm's native build, which Node 20 lacks).
 * n8n 2.x always starts a task broker: the process gets its port from `processEnv`.
 */
export function n8nEnvironment(runtime: N8nRuntime, userFolder: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	// Under a test runner NODE_ENV is 'test', which silences n8n's output (the run data included).
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST') && !name.startsWith('npm_')),
	);
	const byLine: NodeJS.ProcessEnv = runtime.release.line === '1' ? { N8N_RUNNERS_ENABLED: 'false', N8N_EXPRESSION_ENGINE: 'legacy' } : {};
	return {
		...inherited,
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		// The package's action node may be used as an AI-agent tool (the agent example).
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
		N8N_LOG_LEVEL: 'info',
		...byLine,
		...extra,
	};
}

/**
 * The n8n command line of one user folder: imports and executions, each a short-lived process.
 * n8n runs as a user runs it: from its home folder with HOME set to it (n8n's Docker image: WORKDIR
 * and HOME /home/node), `~/.n8n-files` in it, file access at n8n's default. The home is
 * `<user folder>/home` unless `extraEnv.HOME` names another.
 */
export class N8nCli {
	readonly env: NodeJS.ProcessEnv;
	readonly home: string;

	constructor(
		readonly runtime: N8nRuntime,
		readonly userFolder: string,
		private readonly extraEnv: NodeJS.ProcessEnv = {},
	) {
		this.home = extraEnv.HOME ?? join(userFolder, 'home');
		mkdirSync(this.filesFolder, { recursive: true });
		this.env = n8nEnvironment(runtime, userFolder, { ...extraEnv, HOME: this.home });
	}

	/** `~/.n8n-files` of this n8n: where its workflows may read and write files on n8n 2.x. */
	get filesFolder(): string {
		return join(this.home, FILES_FOLDER);
	}

	/** The same n8n user folder run from another home (a fresh `~/.n8n-files`). */
	withHome(home: string): N8nCli {
		return new N8nCli(this.runtime, this.userFolder, { ...this.extraEnv, HOME: home });
	}

	get version(): string {
		return this.runtime.release.version;
	}

	/** The environment of one n8n process: its own task-broker port (n8n 2.x starts a broker in every process). */
	async processEnv(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
		return { ...this.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...extra };
	}

	/** The command that runs n8n: its Node binary and its bin script, started in `$HOME` as `cd ~ && n8n start` or the Docker image do (`exec`: the process is n8n itself). */
	command(...args: string[]): [string, string[]] {
		return ['/bin/sh', ['-c', 'cd "$HOME" && exec "$@"', 'n8n', this.runtime.node, this.runtime.bin, ...args]];
	}

	async importCredentials(credentials: CredentialExport[]): Promise<void> {
		await this.importFile('import:credentials', credentials);
	}

	/** Several workflows in one n8n start: each start costs seconds. Each workflow needs an `id`. */
	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		for (const workflow of workflows) if (!workflow.id) throw new Error(`Workflow "${workflow.name}" has no id: n8n execute needs one`);
		await this.importFile('import:workflow', workflows);
	}

	/** `n8n execute --id --rawOutput`: the run data as n8n printed it, also when the workflow failed. */
	async execute(workflowId: string, onLine?: (line: string) => void): Promise<Execution> {
		const started = Date.now();
		const [command, args] = this.command('execute', `--id=${workflowId}`, '--rawOutput');
		const result = await run(command, args, { env: await this.processEnv(), onLine, timeoutMs: EXECUTE_TIMEOUT_MS });
		const parsed = parseRunOutput(result.stdout);
		return {
			ok: result.code === 0 && parsed !== undefined && !parsed.data.resultData.error,
			run: parsed,
			stdout: result.stdout,
			stderr: result.stderr,
			durationMs: Date.now() - started,
		};
	}

	private async importFile(subcommand: string, content: unknown): Promise<void> {
		const dir = mkdtempSync(join(tmpdir(), 'n8n-import-'));
		try {
			const file = join(dir, 'import.json');
			writeFileSync(file, JSON.stringify(content));
			const [command, args] = this.command(subcommand, `--input=${file}`);
			await runChecked(command, args, { env: await this.processEnv(), timeoutMs: IMPORT_TIMEOUT_MS });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}
}

/** A fresh, empty n8n user folder. */
export function createUserFolder(prefix = 'n8n-docx-e2e-'): string {
	const folder = mkdtempSync(join(tmpdir(), prefix));
	mkdirSync(join(folder, '.n8n'), { recursive: true });
	return folder;
}
