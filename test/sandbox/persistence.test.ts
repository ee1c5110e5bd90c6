import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textPdf } from '../contract/documents';
import { call, fileForm, type Target } from '../contract/target';
import { startSandbox, StateFileError, type Sandbox, type SandboxOptions } from '../../sandbox/src';
import { parseCliArgs } from '../../sandbox/src/cliOptions';

/** Stable ready-made template ids, and the CLI's state folder: kept, not kept, damaged. */

const folders: string[] = [];
const newFolder = () => {
	const folder = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
	folders.push(folder);
	return folder;
};
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Starts a sandbox as the CLI would with these arguments, run in `cwd`. */
const startLikeCli = (args: string[], cwd: string) => {
	const command = parseCliArgs(['--port', '0', '--timing', 'fast', ...args], cwd);
	if (command.help) throw new Error('unexpected --help');
	return startSandbox(command.options);
};

const targetOf = (sandbox: Sandbox, apiKey = sandbox.demoKey): Target => ({ baseUrl: sandbox.baseUrl, apiKey });
const templates = async (target: Target): Promise<Array<{ scanner_id: string; name: string }>> =>
	(await call(target, 'GET', '/api/v1/scanners')).body.scanners;
const idOf = async (target: Target, name: string) => (await templates(target)).find((template) => template.name === name)!.scanner_id;

async function withSandbox<T>(options: SandboxOptions, use: (sandbox: Sandbox) => Promise<T>): Promise<T> {
	const sandbox = await startSandbox(options);
	try {
		return await use(sandbox);
	} finally {
		await sandbox.stop();
	}
}

describe('ready-made templates keep their ids', () => {
	const options: SandboxOptions = { accounts: [{ id: 'team', keys: ['dex_team_key'] }] };
	const idsAtStart = () =>
		withSandbox(options, async (sandbox) => ({
			demo: (await templates(targetOf(sandbox))).map((template) => template.scanner_id),
			team: (await templates(targetOf(sandbox, 'dex_team_key'))).map((template) => template.scanner_id),
		}));

	it('the same ids at every start, without any state file; each account has its own', async () => {
		const first = await idsAtStart();
		const second = await idsAtStart();
		expect(first.demo).toHaveLength(8);
		expect(new Set(first.demo).size).toBe(8);
		expect(second).toStrictEqual(first);
		expect(first.demo.filter((id) => first.team.includes(id))).toEqual([]);
		expect(first.demo.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
	});

	it("a workflow's Invoice id from an earlier start still uploads after a restart", async () => {
		const invoiceId = await withSandbox({}, (sandbox) => idOf(targetOf(sandbox), 'Invoice'));
		await withSandbox({ timing: 'fast' }, async (sandbox) => {
			const upload = await call(targetOf(sandbox), 'POST', `/api/v1/scanners/${invoiceId}/upload`, {
				body: fileForm(await textPdf(), 'a.pdf', 'application/pdf'),
			});
			expect(upload.status).toBe(202);
			expect(upload.body.scanner_id).toBe(invoiceId);
		});
	});
});

describe('the CLI keeps its state in a data folder', () => {
	it('templates, results and the demo account\'s pages survive a stop and a start from the same folder', async () => {
		const data = join(newFolder(), 'my data');
		const first = await startLikeCli(['--data', data], newFolder());
		const own = targetOf(first);
		const invoiceId = await idOf(own, 'Invoice');
		const scannerId = (await call(own, 'POST', '/api/v1/scanners', { json: { name: 'Mine' } })).body.scanner_id;
		const pdf = await textPdf([['Kept across restarts']]);
		const resultId = (await call(own, 'POST', `/api/v1/scanners/${invoiceId}/upload`, { body: fileForm(pdf, 'a.pdf', 'application/pdf') })).body.result_id;
		await first.stop();

		const stateText = readFileSync(join(data, 'state.json'), 'utf8');
		expect(stateText).not.toContain('%PDF'); // never the file itself
		expect(readdirSync(data)).toEqual(['state.json']); // no temporary left behind

		const second = await startLikeCli(['--data', data], newFolder());
		try {
			const again = targetOf(second);
			expect(await idOf(again, 'Invoice')).toBe(invoiceId);
			expect((await call(again, 'GET', `/api/v1/scanners/${scannerId}`)).body.name).toBe('Mine');
			second.clock.advance(60_000);
			expect((await call(again, 'GET', `/api/v1/results/${resultId}`)).body).toMatchObject({ status: 'done', scanner_id: invoiceId });
			expect(second.accounts.get('demo')).toMatchObject({ pagesUsed: 1, pagesAvailable: 19 });
		} finally {
			await second.stop();
		}
	});

	it('without options the state goes to ./sandbox-data/state.json', async () => {
		const cwd = newFolder();
		const sandbox = await startLikeCli([], cwd);
		await sandbox.stop();
		expect(readdirSync(join(cwd, 'sandbox-data'))).toEqual(['state.json']);
	});

	it('a plan given once is kept by a later start without --plan', async () => {
		const cwd = newFolder();
		await (await startLikeCli(['--plan', 'paid'], cwd)).stop();
		const second = await startLikeCli([], cwd);
		try {
			expect(second.accounts.get('demo')).toMatchObject({ plan: 'paid', monthlyPages: 200 });
		} finally {
			await second.stop();
		}
	});

	it('--no-state writes nothing', async () => {
		const cwd = newFolder();
		const sandbox = await startLikeCli(['--no-state'], cwd);
		await call(targetOf(sandbox), 'POST', '/api/v1/scanners', { json: { name: 'Forgotten' } });
		await sandbox.stop();
		expect(readdirSync(cwd)).toEqual([]);
	});

});

describe('a damaged state file', () => {
	const stateWith = (content: string) => {
		const data = newFolder();
		writeFileSync(join(data, 'state.json'), content);
		return data;
	};
	const refusal = async (data: string) => {
		const error: unknown = await startLikeCli(['--data', data], newFolder()).then(
			async (sandbox) => {
				await sandbox.stop();
				return undefined;
			},
			(reason: unknown) => reason,
		);
		expect(error).toBeInstanceOf(StateFileError);
		return (error as Error).message;
	};

	it('not JSON (cut off, edited by hand): says which file, and what to do', async () => {
		const data = stateWith('{"version":1,"accounts":[{"id":"de');
		const message = await refusal(data);
		expect(message).toBe(
			`The sandbox's state file ${join(data, 'state.json')} is not valid JSON (damaged or edited by hand). Move the file away (or delete it) to start with a fresh sandbox, or start with --no-state to keep nothing.`,
		);
		expect(readFileSync(join(data, 'state.json'), 'utf8')).toBe('{"version":1,"accounts":[{"id":"de'); // left as it was
	});

	it('JSON of another shape or version', async () => {
		expect(await refusal(stateWith('{"version":2}'))).toMatch(/is not a state file this sandbox knows/);
		expect(await refusal(stateWith('[]'))).toMatch(/is not a state file this sandbox knows/);
	});

	it('unreadable: a folder where the file should be', async () => {
		const data = newFolder();
		mkdirSync(join(data, 'state.json'));
		expect(await refusal(data)).toMatch(/cannot read its state file .*state\.json \(EISDIR\)/);
	});
});
