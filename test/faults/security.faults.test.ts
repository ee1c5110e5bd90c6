/**
 * Security (issue 7): the key never travels over plain http to a host that is not this machine;
 * a File URL (an AI agent's, say) reaches neither this machine nor a private network nor the cloud
 * metadata service, and its token shows nowhere; responses are data (keys such as `__proto__` and `constructor` change no object); very large
 * and deeply nested responses do not crash the node. Crafted answers come from nock; the
 * template with dangerous field names goes through the sandbox. Every scenario also scans all
 * outputs, errors and logs for the key.
 */
import nock, { cleanAll, disableNetConnect, emitter, enableNetConnect } from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';

import { testCredential } from '../harness/credentialTest';
import { capturedLogs, runNode, type RunOptions, type RunResult, type TestCredential } from '../harness/engine';
import { freshKey } from '../harness/keys';
import { expectRoutes, expectSecretsHidden, extractParameters, numberedPdf, pdfItems, saveRow, Scenario, useSandbox, type RecordedRun } from './support';

const BASE = 'https://extract.example.test';
const EVIL = 'http://collector.example.test';
const RESULT_ID = '6f1c2a9e-0b7d-4c55-9a7e-3d2b1c0a9f8e';
const ON_ERROR_CONTINUE = 'continueRegularOutput' as const;

const sandbox = useSandbox();

beforeAll(() => {
	disableNetConnect();
	// The sandbox of the `__proto__` template scenario runs on this machine.
	enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
});
afterAll(() => enableNetConnect());
afterEach(() => cleanAll());

/** A scenario against nock: its own key, its runs, the requests nock saw, the key scan, its row. */
class NockScenario {
	readonly credential: TestCredential = { apiKey: freshKey(), baseUrl: BASE };
	/** Requests nock answered (counted by the replies) or refused (no interceptor). */
	requests = 0;
	private readonly runs: RecordedRun[] = [];
	private readonly logMark = capturedLogs.length;
	private readonly startedAt = Date.now();
	private readonly countUnmatched = () => {
		this.requests += 1;
	};

	constructor(private readonly context: TestContext) {
		emitter.on('no match', this.countUnmatched);
	}

	async run(options: Omit<RunOptions, 'credential'> & { label?: string; credential?: TestCredential }): Promise<RunResult> {
		const result = await runNode({ ...options, credential: options.credential ?? this.credential });
		this.runs.push({ label: options.label ?? options.nodeType, nodeType: options.nodeType, itemsIn: (options.input ?? [{ json: {} }]).length, result });
		this.save();
		return result;
	}

	/** nock's reply for a result read: counts the request and answers with the raw JSON text. */
	reply(body: string) {
		return () => {
			this.requests += 1;
			return [200, body, { 'Content-Type': 'application/json' }] as [number, string, Record<string, string>];
		};
	}

	/** `secrets`: more than the key that must show nowhere (a link's token). */
	finish(secrets: string[] = []): void {
		emitter.removeListener('no match', this.countUnmatched);
		this.save();
		expectSecretsHidden([this.credential.apiKey, ...secrets], this.runs, this.logMark);
	}

	private save(): void {
		saveRow(this.context, this.runs, { uploads: 0, requests: this.requests, rateLimited: 0 }, this.startedAt);
	}
}

const listTemplates = { resource: 'template', operation: 'getMany', returnAll: true };
const readResult = (output: string, extra: Record<string, unknown> = {}) => ({ resource: 'document', operation: 'getResult', resultId: RESULT_ID, output, ...extra });

describe('the key and plain http', () => {
	it('a plain-http Base URL to another machine is refused before anything is sent', async (context) => {
		const scenario = new NockScenario(context);
		const trap = nock(EVIL).persist().get(/.*/).reply(scenario.reply('{}'));
		for (const baseUrl of [EVIL, 'http://10.0.0.7:4010', 'http://0.0.0.0:4010', 'http://localhost.example.test']) {
			const run = await scenario.run({ nodeType: 'action', label: baseUrl, parameters: listTemplates, credential: { ...scenario.credential, baseUrl } });
			expect(run.error?.message, baseUrl).toMatch(/^Item 1: Refusing to send the API key over plain http to /);
		}
		scenario.finish();
		expect(trap.isDone()).toBe(false);
		expect(scenario.requests).toBe(0);
	});

	// The service answers with no redirect (spec 4.1), so a redirect is someone else's doing: following it
	// with the X-API-Key header hands the key to whoever answers, over plain http here.
	it('a redirect from the service to a plain-http host does not carry the key there', async (context) => {
		const scenario = new NockScenario(context);
		nock(BASE).get('/api/v1/scanners').reply(() => {
			scenario.requests += 1;
			return [302, '', { Location: `${EVIL}/api/v1/scanners` }];
		});
		const keysSeen: string[] = [];
		nock(EVIL)
			.get('/api/v1/scanners')
			.reply(function () {
				scenario.requests += 1;
				keysSeen.push(String(this.req.headers['x-api-key'] ?? ''));
				return [200, { success: true, scanners: [{ scanner_id: 's1', name: 'Invoice' }] }];
			});
		const run = await scenario.run({ nodeType: 'action', parameters: listTemplates, onError: ON_ERROR_CONTINUE });
		scenario.finish();
		expect(keysSeen.filter((key) => key !== ''), 'the key was sent over plain http to another host').toEqual([]);
		// The redirect is not followed at all: the other host gets no request, and the item says why.
		expect(scenario.requests, 'only the request to the service').toBe(1);
		expectRoutes(run, 'action', ['error']);
		expect(String(run.outputs[0][0].json.error)).toMatch(/302/);
	});

	it('the credential test does not follow a redirect either: the key stays, and the test does not pass', async (context) => {
		const scenario = new NockScenario(context);
		for (const target of [EVIL, 'https://collector.example.test']) {
			nock(BASE).get('/api/v1/scanners').reply(() => {
				scenario.requests += 1;
				return [302, '', { Location: `${target}/api/v1/scanners` }];
			});
		}
		const keysSeen: string[] = [];
		for (const host of [EVIL, 'https://collector.example.test']) {
			nock(host)
				.get('/api/v1/scanners')
				.reply(function () {
					scenario.requests += 1;
					keysSeen.push(String(this.req.headers['x-api-key'] ?? ''));
					return [200, { success: true, scanners: [] }];
				});
		}
		const results = [await testCredential(scenario.credential), await testCredential(scenario.credential)];
		scenario.finish();
		expect(keysSeen, 'the redirect was followed').toEqual([]);
		expect(scenario.requests).toBe(2);
		for (const result of results) {
			expect(result.status).toBe('Error');
			expect(result.message).not.toContain(scenario.credential.apiKey);
		}
	});
});

describe("File URLs stay off n8n's network", () => {
	it('links to this machine, the cloud metadata address and a private network, and a public link redirecting there, are refused: nothing there is asked', async (context) => {
		const scenario = new NockScenario(context);
		const token = 'link-token-7c1e';
		const inside = `${sandbox().baseUrl}/api/v1/scanners`;
		const metadata = nock('http://169.254.169.254').persist().get(/.*/).reply(scenario.reply('{"Code":"Success","SecretAccessKey":"x"}'));
		// A public address written as such (no name to resolve here) that redirects to the sandbox.
		nock('https://93.184.216.34')
			.get('/invoice.pdf')
			.query(true)
			.reply(() => {
				scenario.requests += 1;
				return [302, '', { Location: inside }];
			});
		sandbox().resetStats();
		const links = [
			inside,
			`http://localhost:${sandbox().port}/api/v1/scanners`,
			`http://2130706433:${sandbox().port}/api/v1/scanners`,
			'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
			`http://10.0.0.7:8080/files/a.pdf?token=${token}`,
			`https://93.184.216.34/invoice.pdf?token=${token}`,
		];
		for (const fileUrl of links) {
			const run = await scenario.run({ nodeType: 'action', label: fileUrl.split('?')[0], parameters: { resource: 'document', operation: 'extract', documentSource: 'url', fileUrl }, onError: ON_ERROR_CONTINUE });
			expectRoutes(run, 'action', ['error']);
			expect(String(run.outputs[0][0].json.error), fileUrl).toMatch(/^Item 1: The file was not downloaded: .*(loopback|cloud metadata|private network) address/);
		}
		scenario.finish([token]);
		expect(metadata.isDone()).toBe(false);
		expect(scenario.requests, 'only the public link, which redirected').toBe(1);
		const { requests, unknownPathRequests } = sandbox().stats();
		expect(Object.values(requests).reduce((sum, count) => sum + count, 0) + unknownPathRequests, 'requests that reached the sandbox').toBe(0);
	});
});

/** A JSON text with `__proto__`, `constructor` and `prototype` keys at every level a result has. */
const POISONED_RESULT = `{
	"success": true, "result_id": "${RESULT_ID}", "status": "done", "scanner_id": "s1", "scanner_name": "Invoice",
	"__proto__": { "polluted": "result" },
	"extracted_data": {
		"status": "ok",
		"__proto__": { "polluted": "extracted_data" },
		"doc_metadata": { "num_paginas": 1, "__proto__": { "polluted": "doc_metadata" } },
		"compliance": { "constructor": { "prototype": { "polluted": "compliance" } }, "__proto__": { "polluted": "compliance" } },
		"fields": [
			{ "name": "__proto__", "value": { "polluted": "field value" }, "confidence": 0.9 },
			{ "name": "constructor", "value": { "prototype": { "polluted": "constructor value" } }, "confidence": 0.9 },
			{ "name": "prototype", "value": "p", "confidence": 0.9 },
			{ "name": "total", "value": { "__proto__": { "polluted": "nested" }, "amount": 10 }, "confidence": 0.9 },
			{ "name": "lines", "value_type": "table", "confidence": 0.9, "value": [
				{ "__proto__": { "polluted": "row" }, "constructor": "c", "amount": 1 },
				{ "__proto__": { "polluted": "row" }, "prototype": "p", "amount": 2 }
			] }
		]
	}
}`;

/** Every object in `value` inherits from Object.prototype only and none sees a `polluted` it does not own. */
function expectCleanObjects(value: unknown, path = 'json'): void {
	if (Array.isArray(value)) return value.forEach((entry, index) => expectCleanObjects(entry, `${path}[${index}]`));
	if (typeof value !== 'object' || value === null) return;
	expect(Object.getPrototypeOf(value), `${path} has a foreign prototype`).toBe(Object.prototype);
	for (const [key, entry] of Object.entries(value)) expectCleanObjects(entry, `${path}.${key}`);
}

function expectNoGlobalPollution(): void {
	const probe: Record<string, unknown> = {};
	expect(probe.polluted).toBeUndefined();
	expect(Object.prototype).not.toHaveProperty('polluted');
	expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
}

describe('responses are data', () => {
	it('`__proto__`, `constructor` and `prototype` keys in a result pollute nothing, in every output mode', async (context) => {
		const scenario = new NockScenario(context);
		nock(BASE).get(`/api/v1/results/${RESULT_ID}`).times(3).reply(scenario.reply(POISONED_RESULT));
		const fields = await scenario.run({ nodeType: 'action', label: 'fields', parameters: readResult('fields', { options: { includeConfidence: true } }) });
		const rows = await scenario.run({ nodeType: 'action', label: 'tableRows', parameters: readResult('tableRows') });
		const raw = await scenario.run({ nodeType: 'action', label: 'raw', parameters: readResult('raw') });
		scenario.finish();
		expectRoutes(fields, 'action', ['ok']);
		expectRoutes(rows, 'action', ['ok'], 'many');
		expectRoutes(raw, 'action', ['ok']);
		expectNoGlobalPollution();
		for (const run of [fields, rows, raw]) for (const item of run.outputs[0]) expectCleanObjects(item.json);

		const json = fields.outputs[0][0].json;
		// The dangerous names are kept as data under a safe key, not dropped and not applied.
		expect(json).toMatchObject({ __proto___: { polluted: 'field value' }, constructor_: { prototype_: { polluted: 'constructor value' } }, prototype_: 'p', total: { amount: 10 } });
		expect(Object.hasOwn(json, 'polluted')).toBe(false);
		expect(rows.outputs[0].map((item) => item.json.amount)).toEqual([1, 2]);
	});

	it('a template with fields named `constructor` and `__proto__` (sandbox): extraction output stays plain data', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const created = await scenario.run({
			nodeType: 'action',
			label: 'create',
			parameters: {
				resource: 'template',
				operation: 'create',
				name: 'Dangerous names',
				fieldsDefinedAs: 'json',
				fieldsJson: JSON.stringify([
					{ name: 'invoice_number' },
					{ name: 'constructor' },
					{ name: '__proto__' },
					{ name: 'lines', type: 'table', item_fields: [{ name: '__proto__' }, { name: 'constructor' }, { name: 'amount', type: 'number' }] },
				]),
			},
		});
		expectRoutes(created, 'action', ['ok']);
		const templateId = String(created.outputs[0][0].json.scanner_id);
		const templateParameters = { resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value: templateId } };
		const document = await numberedPdf('proto', 1);
		const runs: RunResult[] = [];
		for (const [index, output] of ['fields', 'tableRows', 'raw'].entries()) {
			const pdf = index === 0 ? document : await numberedPdf('proto', index + 1);
			const run = await scenario.run({ nodeType: 'action', label: output, parameters: { ...templateParameters, ...extractParameters(true), operation: 'extractWithTemplate', output }, input: pdfItems([pdf]) });
			expectRoutes(run, 'action', ['ok'], 'many');
			runs.push(run);
		}
		expectNoGlobalPollution();
		for (const run of runs) for (const item of run.outputs[0]) expectCleanObjects(item.json);
		expect(Object.keys(runs[0].outputs[0][0].json)).toEqual(expect.arrayContaining(['invoice_number', 'constructor_', '__proto___', 'lines']));
		await scenario.finish({ templateIds: [templateId] });
	});
});

describe('very large and deeply nested responses', () => {
	const many = (count: number, valueLength: number) => ({
		success: true,
		result_id: RESULT_ID,
		status: 'done',
		extracted_data: {
			status: 'ok',
			fields: Array.from({ length: count }, (_, n) => ({ name: `field_${n}`, value: 'v'.repeat(valueLength), confidence: 0.5, source_fragment: 's'.repeat(valueLength) })),
		},
	});
	const DEPTH = 10_000;
	const deepArray = `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`;
	const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
	const deepResult = `{"success":true,"result_id":"${RESULT_ID}","status":"done","extracted_data":{"status":"ok","compliance":${deepObject},"fields":[{"name":"deep","value":${deepArray}},{"name":"total","value":12.5}]}}`;

	it('5,000 fields in a 10 MB answer: every item comes out', async (context) => {
		const scenario = new NockScenario(context);
		const body = JSON.stringify(many(5_000, 1_000));
		expect(body.length).toBeGreaterThan(10_000_000);
		nock(BASE).get(`/api/v1/results/${RESULT_ID}`).times(2).reply(scenario.reply(body));
		const startedAt = Date.now();
		const fields = await scenario.run({ nodeType: 'action', label: 'fields', parameters: readResult('fields') });
		const raw = await scenario.run({ nodeType: 'action', label: 'raw', parameters: readResult('raw') });
		scenario.finish();
		expectRoutes(fields, 'action', ['ok']);
		expectRoutes(raw, 'action', ['ok']);
		expect(Object.keys(fields.outputs[0][0].json)).toHaveLength(5_001);
		expect(((raw.outputs[0][0].json.extracted_data as IDataObject).fields as unknown[]).length).toBe(5_000);
		expect(Date.now() - startedAt, 'mapping must stay linear in the size of the answer').toBeLessThan(30_000);
	});

	it(`${DEPTH.toLocaleString('en-US')} levels of nesting: the node does not crash, each item leaves once`, async (context) => {
		const scenario = new NockScenario(context);
		nock(BASE).get(`/api/v1/results/${RESULT_ID}`).times(3).reply(scenario.reply(deepResult));
		const runs: RunResult[] = [];
		for (const output of ['fields', 'tableRows', 'raw']) {
			const run = await scenario.run({ nodeType: 'action', label: output, parameters: readResult(output), onError: ON_ERROR_CONTINUE });
			runs.push(run);
		}
		scenario.finish();
		// Every output mode refuses data nested past 64 levels with an error item that says so, not
		// the JavaScript engine's own words (RangeError, Maximum call stack).
		for (const run of runs) {
			expectRoutes(run, 'action', ['error']);
			expect(run.outputs[0][0].json.error).toBe('Item 1: The extracted data is nested more than 64 levels deep');
		}
	});
});
