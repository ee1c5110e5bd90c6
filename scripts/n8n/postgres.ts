import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { onCleanup } from './cleanup';
import { freePort } from './ports';
import { run, runChecked, startService, waitUntilReady, type Service, type SystemUser } from './processes';
import type { Log } from './progress';

/** Where Debian's `postgresql` package puts the server's programs, one folder per major version. */
const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';
/** The system user Debian's package creates; the server refuses to run as root. */
const POSTGRES_SYSTEM_USER = 'postgres';

/** How n8n reaches the database (its DB_POSTGRESDB_* settings). */
export interface PostgresConnection {
	host: string;
	port: number;
	database: string;
	user: string;
	password: string;
}

export interface Postgres {
	connection: PostgresConnection;
	service: Service;
	/** Shuts the server down cleanly and removes its data folder. */
	stop(): Promise<void>;
}

/**
 * A throw-away PostgreSQL cluster on a loopback port, with a database and a user for n8n. The data
 * folder and the socket folder are temporary; as root the server runs as the `postgres` system user,
 * which owns them. Durability is switched off (fsync, full-page writes): the data lives for one run.
 */
export async function startPostgres(log: Log): Promise<Postgres> {
	const bin = postgresBinDir();
	const user = serverUser();
	const dir = mkdtempSync(join(tmpdir(), 'n8n-scale-pg-'));
	const dataDir = join(dir, 'data');
	const socketDir = join(dir, 'socket');
	mkdirSync(dataDir);
	mkdirSync(socketDir);
	if (user) for (const path of [dir, dataDir, socketDir]) chownSync(path, user.uid, user.gid);
	let service: Service | undefined;
	const stop = async () => {
		await service?.stop();
		rmSync(dir, { recursive: true, force: true });
	};
	// Also when the program ends before the caller could take charge of it (a failure, Ctrl-C).
	onCleanup(stop);
	try {
		await runChecked(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions'], {
			cwd: dir,
			user,
			timeoutMs: 60_000,
		});
		const port = await freePort();
		const serverArgs = ['-D', dataDir, '-k', socketDir, '-h', '127.0.0.1', '-p', String(port), '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off'];
		// SIGINT is PostgreSQL's "fast shutdown": it ends the sessions and exits cleanly.
		service = startService(join(bin, 'postgres'), serverArgs, { cwd: dir, user, stopSignal: 'SIGINT' });
		await waitUntilReady(async () => (await run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], { timeoutMs: 5000 })).code === 0, service, 'postgres');
		const connection: PostgresConnection = { host: '127.0.0.1', port, database: 'n8n', user: 'n8n', password: randomBytes(12).toString('hex') };
		await runChecked(join(bin, 'psql'), [
			'-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q',
			'-c', `CREATE ROLE ${connection.user} LOGIN PASSWORD '${connection.password}'`,
			'-c', `CREATE DATABASE ${connection.database} OWNER ${connection.user}`,
		], { timeoutMs: 30_000 });
		log(`PostgreSQL ${bin.split('/').at(-2)} on 127.0.0.1:${port}${user ? ` (as system user "${POSTGRES_SYSTEM_USER}")` : ''}`);
		return { connection, service, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The newest installed major version's bin folder (`PG_BIN_DIR` names another). */
function postgresBinDir(): string {
	if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
	const versions = existsSync(DEBIAN_POSTGRES_ROOT)
		? readdirSync(DEBIAN_POSTGRES_ROOT).filter((entry) => existsSync(join(DEBIAN_POSTGRES_ROOT, entry, 'bin', 'postgres')))
		: [];
	if (versions.length === 0) throw new Error(`No PostgreSQL server under ${DEBIAN_POSTGRES_ROOT}: install the Debian package "postgresql" (or set PG_BIN_DIR)`);
	const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
	return join(DEBIAN_POSTGRES_ROOT, newest, 'bin');
}

/** As root, the `postgres` system user (the server will not run as root); otherwise the current user. */
function serverUser(): SystemUser | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const entry = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.map((line) => line.split(':'))
		.find((fields) => fields[0] === POSTGRES_SYSTEM_USER);
	if (!entry) throw new Error(`PostgreSQL refuses to run as root, and there is no "${POSTGRES_SYSTEM_USER}" system user to run it as (the Debian package "postgresql" creates one)`);
	return { uid: Number(entry[2]), gid: Number(entry[3]) };
}
