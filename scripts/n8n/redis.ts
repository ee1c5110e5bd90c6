import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { onCleanup } from './cleanup';
import { freePort } from './ports';
import { startService, waitUntilReady, type Service } from './processes';
import type { Log } from './progress';

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
	const service = startService('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		cwd: dir,
		stopSignal: 'SIGTERM',
	});
	const stop = async () => {
		await service.stop();
		rmSync(dir, { recursive: true, force: true });
	};
	// Also when the program ends before the caller could take charge of it (a failure, Ctrl-C).
	onCleanup(stop);
	try {
		await waitUntilReady(() => ping(port), service, 'redis-server');
	} catch (error) {
		await stop();
		throw error;
	}
	log(`Redis on 127.0.0.1:${port}`);
	return { host: '127.0.0.1', port, service, stop };
}

function ping(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
		socket.setTimeout(1000, () => socket.destroy());
		socket.once('data', (data) => {
			resolve(data.toString().startsWith('+PONG'));
			socket.destroy();
		});
		socket.once('error', () => resolve(false));
		socket.once('close', () => resolve(false));
	});
}
