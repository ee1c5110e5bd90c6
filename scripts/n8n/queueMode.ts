import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { onCleanup } from './cleanup';
import { N8nCli, createUserFolder } from './cli';
import { ensureN8n } from './install';
import { installTarball } from './packageTarball';
import { startPostgres, type Postgres } from './postgres';
import type { Log } from './progress';
import { startRedis, type Redis } from './redis';
import type { N8nRelease } from './releases';
import { startN8nProcess, type N8nProcess } from './server';

/**
 * Where n8n keeps binary data (files) in queue mode, as `npm run test:scale --binary-data` names it.
 * n8n 2.x offers `default` (in memory, inside the execution data), `filesystem`, `database` (the
 * default in queue mode), and `s3`/`azure` (licensed, not testable here). In queue mode the main
 * process stores the files a webhook receives and a worker reads them, so the mode must reach
 * across processes: `filesystem` does only when every process sees the same folder
 * (`filesystem-shared`: one N8N_BINARY_DATA_STORAGE_PATH, e.g. a shared volume).
 */
export const BINARY_DATA_SETUPS = ['database', 'filesystem', 'filesystem-shared', 'default'] as const;
export type BinaryDataSetup = (typeof BINARY_DATA_SETUPS)[number];

export interface QueueModeOptions {
	release: N8nRelease;
	/** The packed package, installed into every process's user folder as a community package. */
	tarball: string;
	workers: number;
	binaryData: BinaryDataSetup;
	log: Log;
	/** Settings for every n8n process (e.g. save execution progress). */
	env?: NodeJS.ProcessEnv;
	/** Runs against the database before any n8n process starts (imports: active workflows register their webhooks at start). */
	beforeStart?(mainCli: N8nCli): Promise<void>;
}

/** One queue-mode worker: its process and its command line (its own user folder). */
export interface QueueWorker extends N8nProcess {
	name: string;
	cli: N8nCli;
}

/** n8n in queue mode: Redis, PostgreSQL, one main process and workers, each process with its own user folder and ports. */
export interface QueueModeN8n {
	redis: Redis;
	postgres: Postgres;
	main: N8nProcess & { cli: N8nCli };
	workers: QueueWorker[];
	/** Stops the n8n processes, then the database and Redis, and removes every folder. */
	stop(): Promise<void>;
}

/**
 * Starts n8n `release` in queue mode, as an operator would run it on several machines: Redis as the
 * queue, PostgreSQL as the shared database, one main process (editor, REST API, webhooks) and
 * `workers` worker processes, all with one encryption key, each with its own user folder holding
 * the package installed from its tarball, and binary data kept as `binaryData` says.
 */
export async function startQueueMode(options: QueueModeOptions): Promise<QueueModeN8n> {
	const { log } = options;
	const undo: Array<() => Promise<void> | void> = [];
	const stop = async () => {
		while (undo.length > 0) await undo.pop()!();
	};
	// Also when the program ends half-way through starting (a failure, Ctrl-C).
	onCleanup(stop);
	try {
		const runtime = await ensureN8n(options.release, log);
		const [redis, postgres] = await Promise.all([startRedis(log), startPostgres(log)]);
		undo.push(() => redis.stop(), () => postgres.stop());

		const folders = Array.from({ length: options.workers + 1 }, (_, i) => createUserFolder(i === 0 ? 'n8n-scale-main-' : `n8n-scale-worker${i}-`));
		undo.push(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
		await Promise.all(folders.map((folder) => installTarball(folder, options.tarball, () => undefined)));
		log(`Installed the package into ${folders.length} n8n user folders`);

		const env: NodeJS.ProcessEnv = {
			...queueModeEnv(redis, postgres, randomBytes(24).toString('hex')),
			...binaryDataEnv(options.binaryData, undo),
			...options.env,
		};
		const [mainCli, ...workerClis] = folders.map((folder) => new N8nCli(runtime, folder, env));
		await options.beforeStart?.(mainCli);

		const started = Date.now();
		const startWorker = async (name: string, cli: N8nCli): Promise<QueueWorker> => ({ ...(await startN8nProcess(cli, 'worker')), name, cli });
		const [main, ...workers] = await Promise.all([
			startN8nProcess(mainCli, 'start').then((main) => ({ ...main, cli: mainCli })),
			...workerClis.map((cli, i) => startWorker(`worker-${i + 1}`, cli)),
		]);
		// The folders are removed after the processes are gone (undo runs backwards).
		undo.push(() => Promise.all([main, ...workers].map((process) => process.service.stop())).then(() => undefined));
		log(`n8n ${options.release.version} in queue mode: main on ${main.url}, ${workers.length} workers (started in ${Math.round((Date.now() - started) / 1000)} s)`);

		return { redis, postgres, main, workers, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** What every process of one queue-mode n8n shares: the queue, the database and the encryption key. */
function queueModeEnv(redis: Redis, postgres: Postgres, encryptionKey: string): NodeJS.ProcessEnv {
	const db = postgres.connection;
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: db.host,
		DB_POSTGRESDB_PORT: String(db.port),
		DB_POSTGRESDB_DATABASE: db.database,
		DB_POSTGRESDB_USER: db.user,
		DB_POSTGRESDB_PASSWORD: db.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
	};
}

function binaryDataEnv(setup: BinaryDataSetup, undo: Array<() => void>): NodeJS.ProcessEnv {
	if (setup !== 'filesystem-shared') return { N8N_DEFAULT_BINARY_DATA_MODE: setup };
	const shared = mkdtempSync(join(tmpdir(), 'n8n-scale-binary-'));
	undo.push(() => rmSync(shared, { recursive: true, force: true }));
	return { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_BINARY_DATA_STORAGE_PATH: shared };
}
