import { describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../../sandbox/src';
import { isLoopbackHost, startupLines, type StartupInfo } from '../../sandbox/src/startupText';

/** The lines `npm run sandbox` prints: what to put in n8n's credential, for n8n beside it and in Docker. */

const info = (overrides: Partial<StartupInfo> = {}): StartupInfo => ({
	host: '127.0.0.1',
	port: 4010,
	baseUrl: 'http://127.0.0.1:4010',
	demoKey: DEMO_KEY,
	plan: 'free',
	pagesAvailable: 20,
	monthlyPages: 20,
	stateFile: '/home/me/clone/sandbox-data/state.json',
	...overrides,
});
const text = (overrides: Partial<StartupInfo> = {}) => startupLines(info(overrides)).join('\n');

describe('start-up text', () => {
	it('keeps "listening on <url>" first: scripts and benchmarks wait for it', () => {
		expect(startupLines(info())[0]).toBe('Document-extraction sandbox listening on http://127.0.0.1:4010');
	});

	it('n8n on the same machine: the loopback Base URL and the demo key', () => {
		expect(text()).toMatch(new RegExp(`API Key +: ${DEMO_KEY}$`, 'm'));
		expect(text()).toMatch(/Base URL, n8n on this machine +: http:\/\/127\.0\.0\.1:4010$/m);
	});

	it('loopback only: says that n8n in Docker cannot reach it and how to fix that', () => {
		const lines = text();
		expect(lines).toMatch(/n8n in Docker +: none: this sandbox listens on 127\.0\.0\.1 only/);
		expect(lines).toContain('n8n in Docker cannot reach it');
		expect(lines).toContain('--host 0.0.0.0');
		expect(lines).not.toContain('host.docker.internal');
		expect(text({ host: 'localhost' })).toContain('n8n in Docker cannot reach it');
	});

	it('--host 0.0.0.0: host.docker.internal or a compose service name, with the plain-http option; 127.0.0.1 locally', () => {
		const lines = text({ host: '0.0.0.0', baseUrl: 'http://0.0.0.0:4010' });
		expect(lines).toMatch(/Base URL, n8n on this machine +: http:\/\/127\.0\.0\.1:4010$/m);
		expect(lines).toMatch(/Base URL, n8n in Docker +: http:\/\/host\.docker\.internal:4010$/m);
		expect(lines).toContain('--add-host=host.docker.internal:host-gateway');
		expect(lines).toContain('http://sandbox:4010');
		expect(lines).toContain('switch on "Allow Plain HTTP on My Own Network" in the credential');
		expect(lines).not.toContain('cannot reach');
		expect(lines).toContain(`curl -H "X-API-Key: ${DEMO_KEY}" http://127.0.0.1:4010/api/v1/scanners`);
	});

	it('a LAN address: Docker uses that address', () => {
		const lines = text({ host: '192.168.1.20', port: 5000, baseUrl: 'http://192.168.1.20:5000' });
		expect(lines).toMatch(/Base URL, n8n in Docker +: http:\/\/192\.168\.1\.20:5000$/m);
		expect(lines).toContain('Allow Plain HTTP on My Own Network');
	});

	it('says where the state is kept, or that nothing is', () => {
		expect(text()).toMatch(/State +: kept in \/home\/me\/clone\/sandbox-data\/state\.json/);
		expect(text({ stateFile: undefined })).toMatch(/State +: not kept \(--no-state\)/);
	});

	it('knows loopback addresses', () => {
		expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
		expect(['0.0.0.0', '::', '192.168.1.20'].some(isLoopbackHost)).toBe(false);
	});
});
