import { rmSync } from 'node:fs';
import { createConnection } from 'node:net';

import { onCleanup } from './cleanup';
import { startService, waitUntilReady, type Service, type ServiceOptions } from './processes';

/**
 * Starts a throw-away server (Redis, Dovecot) whose files live in `dir`: resolves once `ready`
 * says it answers. Stopping it removes `dir`; so does a failure to start, and the end of the
 * program (a failure elsewhere, Ctrl-C) when the caller never took charge of it.
 */
export async function startTemporaryServer(
	command: string,
	args: string[],
	options: ServiceOptions & { dir: string; name: string; ready: () => Promise<boolean> },
): Promise<{ service: Service; stop(): Promise<void> }> {
	const service = startService(command, args, { cwd: options.dir, ...options });
	const stop = async () => {
		await service.stop();
		rmSync(options.dir, { recursive: true, force: true });
	};
	onCleanup(stop);
	try {
		await waitUntilReady(options.ready, service, options.name);
	} catch (error) {
		await stop();
		throw error;
	}
	return { service, stop };
}

/** Whether a server on the loopback port answers (after `send`, if given) with text starting with `expected`. */
export function answersOnPort(port: number, expected: string, send?: string): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port }, () => {
			if (send) socket.write(send);
		});
		socket.setTimeout(1000, () => socket.destroy());
		socket.once('data', (data) => {
			resolve(data.toString().startsWith(expected));
			socket.destroy();
		});
		socket.once('error', () => resolve(false));
		socket.once('close', () => resolve(false));
	});
}
