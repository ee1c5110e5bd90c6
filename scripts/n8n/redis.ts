import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './ports';
import type { Service } from './processes';
import type { Log } from './progress';
import { answersOnPort, startTemporaryServer } from './temporaryServer';

/** A throw-away Redis (Debian package `redis-server`) on a loopback port: n8n's queue in queue mode. */
export interface Redis {
	host: string;
	port: number;
	service: Service;
	/** Stops the server and removes its folder. */
	stop(): Promise<void>;
}

/** Starts `redis-server` without persistence, in a temporary folder; resolves once it answers PING. */
export async function startRedis(log: Log): Promise<Redis> {
	const dir = mkdtempSync(join(tmpdir(), 'n8n-scale-redis-'));
	const port = await freePort();
	const { service, stop } = await startTemporaryServer(
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
		{ dir, name: 'redis-server', stopSignal: 'SIGTERM', ready: () => answersOnPort(port, '+PONG', 'PING\r\n') },
	);
	log(`Redis on 127.0.0.1:${port}`);
	return { host: '127.0.0.1', port, service, stop };
}
