import { createServer } from 'node:net';

/**
 * A port nothing listens on now, picked by the kernel. Every n8n process gets its own (web server,
 * task broker), so the demo, the suites and any other n8n on the machine never collide on 5678/5679.
 */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
		});
	});
}
