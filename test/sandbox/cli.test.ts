import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textPdf } from '../contract/documents';
import { call, fileForm, type Target } from '../contract/target';

/** `npm run sandbox` as a user runs it: a process of its own, stopped with a signal, started again. */

const CLI = join(__dirname, '..', '..', 'sandbox', 'src', 'cli.ts');
const folder = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
const data = join(folder, 'data');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Running {
	child: ChildProcess;
	target: Target;
	output: () => string;
	exited: Promise<number | null>;
}

/** Node with tsx, as `npm run sandbox` does, in one process so SIGTERM reaches the sandbox itself. */
function run(args: string[]) {
	const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--timing', 'fast', ...args], {
		cwd: join(__dirname, '..', '..'), // where tsx is installed, as under npm run
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function start(args: string[]): Promise<Running> {
	const { child, exited, stdout, stderr } = run(args);
	const deadline = Date.now() + 45_000;
	while (!stdout().includes('Ctrl-C stops')) {
		if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the sandbox did not start: ${stdout()}${stderr()}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const baseUrl = /listening on (http:\/\/\S+)/.exec(stdout())![1];
	const apiKey = /API Key +: (dex_\S+)/.exec(stdout())![1];
	return { child, target: { baseUrl, apiKey }, output: stdout, exited };
}

async function stop(running: Running): Promise<void> {
	running.child.kill('SIGTERM');
	expect(await running.exited).toBe(0);
	expect(running.output()).toContain('Sandbox stopped; its state is in');
}

describe('npm run sandbox', () => {
	it('keeps a template id and a result id across a SIGTERM and a new start on the same --data folder', { timeout: 120_000 }, async () => {
		const first = await start(['--data', data]);
		expect(first.output()).toContain(`State        : kept in ${join(data, 'state.json')}`);
		expect(first.output()).toContain('n8n in Docker cannot reach it');
		const scanners = (await call(first.target, 'GET', '/api/v1/scanners')).body.scanners as Array<{ scanner_id: string; name: string }>;
		const invoiceId = scanners.find((scanner) => scanner.name === 'Invoice')!.scanner_id;
		const mineId = (await call(first.target, 'POST', '/api/v1/scanners', { json: { name: 'Mine' } })).body.scanner_id;
		const resultId = (await call(first.target, 'POST', `/api/v1/scanners/${invoiceId}/upload`, { body: fileForm(await textPdf(), 'a.pdf', 'application/pdf') })).body
			.result_id;
		await stop(first);

		const second = await start(['--data', data]);
		try {
			expect(second.output()).toMatch(/free plan, 19 of 20 pages left/);
			expect((await call(second.target, 'GET', `/api/v1/scanners/${invoiceId}`)).body.name).toBe('Invoice');
			expect((await call(second.target, 'GET', `/api/v1/scanners/${mineId}`)).body.name).toBe('Mine');
			expect((await call(second.target, 'GET', `/api/v1/results/${resultId}`)).body).toMatchObject({ result_id: resultId, scanner_id: invoiceId });
		} finally {
			await stop(second);
		}
	});

	it('a damaged state file: its message and exit code 1, no stack trace', { timeout: 60_000 }, async () => {
		const damaged = join(folder, 'damaged');
		mkdirSync(damaged);
		writeFileSync(join(damaged, 'state.json'), '{"version":1,"acc');
		const { exited, stderr } = run(['--data', damaged]);
		expect(await exited).toBe(1);
		expect(stderr().trim()).toBe(
			`The sandbox's state file ${join(damaged, 'state.json')} is not valid JSON (damaged or edited by hand). Move the file away (or delete it) to start with a fresh sandbox, or start with --no-state to keep nothing.`,
		);
	});
});
