/**
 * Bad inputs (issue 7): each gets a clear error that names the item and the fix, and nothing
 * reaches the service when the node can tell beforehand (asserted on the sandbox's counters).
 * Ids the node cannot judge are sent encoded, and must reach the endpoint they were meant for.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryItem, type RunResult } from '../harness/engine';
import { loadFixture, type FixtureName } from '../fixtures';
import { startRecordingProxy } from './recordingProxy';
import { extractParameters, numberedPdf, Scenario, useSandbox, useShortBackoff, type Route } from './support';

const sandbox = useSandbox();
useShortBackoff();

const ON_ERROR_CONTINUE = 'continueRegularOutput' as const;

const jsonOf = (run: RunResult, index: number) =>
	run.outputs[0].find((item) => (item.pairedItem as { item: number }).item === index)?.json as Record<string, unknown>;

const totalRequests = (scenario: Scenario) => {
	const stats = scenario.sandbox.stats();
	return Object.values(stats.requests).reduce((sum, count) => sum + count, 0) + stats.unknownPathRequests;
};

describe('files', () => {
	/** Fixture, what the error says (after "Item n (file): "), and what the description advises. */
	const cases: Array<{ fixture: FixtureName; message: RegExp; fix: RegExp }> = [
		{ fixture: 'empty', message: /The file is empty \(0 bytes\)/, fix: /download or export probably failed/ },
		{ fixture: 'textAsPdf', message: /The file is a text file even though its name or type says PDF/, fix: /Export or print the document to PDF/ },
		{ fixture: 'corrupt', message: /The PDF file is damaged or incomplete/, fix: /Download or export the PDF again/ },
		{ fixture: 'encrypted', message: /The PDF is protected by a password that is needed to open it/, fix: /Remove the password/ },
		{ fixture: 'pages51', message: /The PDF has 51 pages; the service accepts at most 50/, fix: /Split the PDF/ },
		{ fixture: 'oversize', message: /The file is 4\.5 MB; the service accepts files up to about 4\.4 MB/, fix: /Compress the PDF/ },
		{ fixture: 'huge', message: /The file is 41\.9 MB; the service accepts files up to about 4\.4 MB/, fix: /Compress the PDF/ },
	];
	/** Spec 4.2: "not guaranteed readable", so sent with a warning; this service cannot read them. */
	const unsure: FixtureName[] = ['webp', 'heic'];

	it('no binary, wrong binary property, and 7 files the service would refuse: each named with its fix, none sent; WebP and HEIC are sent with a warning; the good file goes through', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const fixtures = await Promise.all(cases.map((entry) => loadFixture(entry.fixture)));
		const images = await Promise.all(unsure.map((name) => loadFixture(name)));
		const good = await numberedPdf('good', 1);
		const wrongProperty = binaryItem(good, 'mail.pdf', 'application/pdf', 'attachment_0');
		const input: INodeExecutionData[] = [
			{ json: { note: 'no file at all' } },
			wrongProperty,
			...fixtures.map((fixture) => binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType)),
			...images.map((image) => binaryItem(image.bytes, image.fileName, image.mimeType)),
			binaryItem(good, 'good.pdf', 'application/pdf'),
		];
		const expected: Route[] = [...input.slice(0, -1).map((): Route => 'error'), 'ok'];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input, onError: ON_ERROR_CONTINUE });
		scenario.expectRoutes(run, 'action', expected);

		expect(jsonOf(run, 0)).toMatchObject({ error: 'Item 1 has no binary property "data"', error_description: expect.stringMatching(/carries no file at all/) });
		expect(jsonOf(run, 1)).toMatchObject({ error: 'Item 2 has no binary property "data"', error_description: expect.stringMatching(/"attachment_0"/) });
		cases.forEach((entry, n) => {
			const index = n + 2;
			const json = jsonOf(run, index);
			expect(json.error, entry.fixture).toMatch(new RegExp(`^Item ${index + 1} \\(${fixtures[n].fileName.replace(/\./g, '\\.')}\\): ${entry.message.source}`));
			expect(json.error_description, entry.fixture).toMatch(entry.fix);
			expect(json.error_description, entry.fixture).toMatch(/Nothing was sent to the service and no page was used\.$/);
		});
		// The service took the WebP and HEIC files and rejected them (no pages charged); the item says to convert them.
		images.forEach((image, n) => {
			const json = jsonOf(run, cases.length + 2 + n);
			expect(json, image.fileName).toMatchObject({ status: 'rejected', error_code: 'NO_TEXT', error_description: expect.stringMatching(/^WebP and HEIC images are not guaranteed readable: convert the file to JPEG or PNG/) });
		});
		expect(run.hints).toEqual([expect.stringMatching(/WebP image, which the service does not guarantee to read/), expect.stringMatching(/HEIC\/HEIF image/)]);

		const stats = await scenario.finish({ refusedBeforehand: fixtures.map((fixture) => fixture.bytes) });
		expect(stats.requests.process, 'the good file, the WebP and the HEIC are uploaded').toBe(3);
		expect(stats.uploads.map((upload) => upload.filename)).toEqual([...images.map((image) => image.fileName), 'good.pdf']);
		expect(stats.pages[scenario.accountId]).toEqual({ charged: 3, released: 2 });
	});

	it('without "On Error: continue", the first bad file stops the node naming the item; nothing is sent', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const text = await loadFixture('textAsPdf');
		const good = await numberedPdf('stop-first', 1);
		// The good file comes first: it is not uploaded either, since every item is checked before the first upload.
		const input = [binaryItem(good, 'good.pdf', 'application/pdf'), binaryItem(text.bytes, text.fileName, text.mimeType)];
		const run = await scenario.run({ nodeType: 'action', parameters: extractParameters(true), input });
		expect(run.error?.message).toMatch(new RegExp(`^Item 2 \\(${text.fileName.replace(/\./g, '\\.')}\\): The file is a text file`));
		expect((run.error as { description?: string } | undefined)?.description).toMatch(/Export or print the document to PDF/);
		await scenario.finish({ refusedBeforehand: [text.bytes, good] });
		expect(totalRequests(scenario)).toBe(0);
	});
});

describe('ids', () => {
	const badResultIds = ['', 'abc', '12345', '../scanners', '..%2Fscanners', '%2F', 'x?y', 'x#y', '6f1c2a9e-0b7d-4c55-9a7e-3d2b1c0a9f8e/../../scanners', ' 6f1c2a9e-0b7d '];

	it('result ids that are not UUIDs or try path tricks: refused by both nodes, nothing sent', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const input = badResultIds.map((id) => ({ json: { result_id: id } }));
		const read = await scenario.run({ nodeType: 'action', label: 'getResult', parameters: { resource: 'document', operation: 'getResult' }, input, onError: ON_ERROR_CONTINUE });
		scenario.expectRoutes(read, 'action', input.map(() => 'error'));
		badResultIds.forEach((_, index) => {
			expect(jsonOf(read, index).error).toMatch(new RegExp(`^Item ${index + 1}: (The result ID is empty|".*" is not a result ID)$`));
			expect(jsonOf(read, index).error_description).toMatch(/result_id returned by an Extract operation/);
		});
		const polled = await scenario.run({ nodeType: 'poller', parameters: { options: { timeout: 10 } }, input, onError: ON_ERROR_CONTINUE });
		scenario.expectRoutes(polled, 'poller', input.map(() => 'error'));
		for (const item of polled.outputs[2]) expect(item.json.error).toMatch(/^Item \d+: (The result ID is empty|".*" is not a result ID)$/);
		await scenario.finish();
		expect(totalRequests(scenario)).toBe(0);
	});

	it('template ids with "/", "?", "#", "..", spaces and unicode are sent encoded to the endpoint they name, and answered 404', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const proxy = await startRecordingProxy(scenario.sandbox.baseUrl);
		try {
			const credential = { apiKey: scenario.key, baseUrl: proxy.baseUrl };
			const ids = ['a/b', 'a?b', 'a#b', 'modèle-ü-日本', 'x/../../process', 'a b', '%2F'];
			const locator = { __rl: true, mode: 'id', value: '={{ $json.id }}' };
			const input = ids.map((id) => ({ json: { id } }));
			const got = await scenario.run({ nodeType: 'action', label: 'get', parameters: { resource: 'template', operation: 'get', templateId: locator }, input, credential, onError: ON_ERROR_CONTINUE });
			scenario.expectRoutes(got, 'action', ids.map(() => 'error'));
			got.outputs[0].forEach((item, index) =>
				expect(item.json).toMatchObject({ error: `Item ${index + 1}: The template "${ids[index]}" does not exist in this account`, http_status: 404, error_code: 'SCANNER_NOT_FOUND' }),
			);
			expect(proxy.requests).toEqual(ids.map((id) => `GET /api/v1/scanners/${encodeURIComponent(id)}`));

			const deleted = await scenario.run({ nodeType: 'action', label: 'delete', parameters: { resource: 'template', operation: 'delete', templateId: locator }, input: [{ json: { id: 'a/b' } }], credential, onError: ON_ERROR_CONTINUE });
			scenario.expectRoutes(deleted, 'action', ['error']);
			const uploaded = await scenario.run({
				nodeType: 'action',
				label: 'extractWithTemplate',
				parameters: { resource: 'document', operation: 'extractWithTemplate', templateId: locator, waitForResult: false },
				input: [binaryItem(await numberedPdf('tpl-id', 1), 'a.pdf', 'application/pdf', 'data', { id: 'x/../../process' })],
				credential,
				onError: ON_ERROR_CONTINUE,
			});
			scenario.expectRoutes(uploaded, 'action', ['error']);
			expect(jsonOf(uploaded, 0)).toMatchObject({ error_code: 'SCANNER_NOT_FOUND', http_status: 404 });

			// `..` survives URL encoding and would climb out of /scanners/: refused before sending.
			const dots = await scenario.run({ nodeType: 'action', label: 'get ..', parameters: { resource: 'template', operation: 'get', templateId: locator }, input: [{ json: { id: '..' } }], credential, onError: ON_ERROR_CONTINUE });
			scenario.expectRoutes(dots, 'action', ['error']);
			expect(jsonOf(dots, 0).error).toBe('Item 1: ".." is not a template ID');

			expect(proxy.requests.slice(ids.length)).toEqual(['DELETE /api/v1/scanners/a%2Fb', 'POST /api/v1/scanners/x%2F..%2F..%2Fprocess/upload']);
			const stats = await scenario.finish();
			expect(stats.requests).toMatchObject({ getScanner: ids.length, deleteScanner: 1, upload: 1, process: 0, listScanners: 0, getResult: 0 });
			expect(stats.unknownPathRequests).toBe(0);
			expect(stats.uploads).toHaveLength(0);
		} finally {
			await proxy.stop();
		}
	});
});

describe('template definitions', () => {
	const text = (length: number, char = 'x') => char.repeat(length);
	const columns = (count: number) => Array.from({ length: count }, (_, n) => ({ name: `column_${n + 1}` }));
	const fields = (count: number, extra: Record<string, unknown> = {}) => Array.from({ length: count }, (_, n) => ({ name: `field_${n + 1}`, ...extra }));
	/** name, description, fields (as JSON text), and the start of the expected error after "Item n: ". */
	const broken: Array<{ name?: string; description?: string; fields: unknown; error: RegExp }> = [
		{ name: text(201), fields: [], error: /^name: The template name is 201 characters long; the limit is 200$/ },
		{ name: '   ', fields: [], error: /^name: The template name is empty$/ },
		{ description: text(2_001), fields: [], error: /^description: The template description is 2,001 characters long; the limit is 2,000$/ },
		{ fields: fields(101), error: /^fields: The template has 101 fields; the limit is 100$/ },
		{ fields: [{ name: 'lines', type: 'table', item_fields: columns(101) }], error: /^fields\[0\]\.item_fields: The table "lines" has 101 columns; the limit is 100$/ },
		{ fields: [{ name: text(101) }], error: /^fields\[0\]\.name: The name of field 1 is 101 characters long; the limit is 100$/ },
		{ fields: [{ name: 'a', label: text(201) }], error: /^fields\[0\]\.label: The label of field "a" is 201 characters long; the limit is 200$/ },
		{ fields: [{ name: 'a', description: text(2_001) }], error: /^fields\[0\]\.description: .* 2,001 characters long; the limit is 2,000$/ },
		{ fields: [{ name: 'a', format_hint: text(501) }], error: /^fields\[0\]\.format_hint: .* 501 characters long; the limit is 500$/ },
		{ fields: [{ name: 'a', examples: Array.from({ length: 11 }, (_, n) => `EX-${n}`) }], error: /^fields\[0\]\.examples: The field "a" has 11 examples; the limit is 10$/ },
		{ fields: fields(60, { description: text(1_900) }), error: /^fields: The template definition is 11\d\.\d KB .* the limit is 100 KB/ },
		{ fields: [{ name: 'a', type: 'money' }], error: /^fields\[0\]\.type: The type of field "a" is "money"; it must be one of string, number/ },
		{ fields: [{ name: 'lines', type: 'table', item_fields: [{ name: 'inner', type: 'table', item_fields: [{ name: 'x' }] }] }], error: /^fields\[0\]\.item_fields\[0\]\.type: .*tables cannot contain tables$/ },
		{ fields: [{ name: 'lines', type: 'table' }], error: /^fields\[0\]\.item_fields: .*has no columns/ },
		{ fields: [{ name: 'a' }, { name: 'a' }], error: /^fields\[1\]\.name: The name "a" is already used by fields\[0\]/ },
	];
	/** Every limit reached but none passed: the service must accept what the node lets through. */
	const atTheLimits = {
		name: text(200, 'n'),
		description: text(2_000, 'd'),
		fields: [
			{ name: text(100, 'f'), label: text(200, 'l'), description: text(2_000), format_hint: text(500), examples: Array.from({ length: 10 }, (_, n) => `EX-${n}`) },
			{ name: 'lines', type: 'table', item_fields: columns(100) },
			...fields(98),
		],
	};
	const createParameters = {
		resource: 'template',
		operation: 'create',
		name: '={{ $json.name }}',
		description: '={{ $json.description }}',
		fieldsDefinedAs: 'json',
		fieldsJson: '={{ $json.fields }}',
	};

	it('definitions breaking each limit of spec 2.2 / 8 are refused naming the field, none sent; one at every limit is accepted', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const input = [...broken, atTheLimits].map((entry) => ({ json: { name: entry.name ?? 'Template', description: entry.description ?? '', fields: JSON.stringify(entry.fields) } }));
		const run = await scenario.run({ nodeType: 'action', label: 'create', parameters: createParameters, input, onError: ON_ERROR_CONTINUE });
		scenario.expectRoutes(run, 'action', [...broken.map((): Route => 'error'), 'ok']);
		broken.forEach((entry, index) => {
			const json = jsonOf(run, index);
			expect(String(json.error).replace(/^Item \d+: /, ''), `case ${index + 1}`).toMatch(entry.error);
			expect(json.error, `case ${index + 1}`).toMatch(new RegExp(`^Item ${index + 1}: `));
			expect(json.error_description).toMatch(/Nothing was sent to the service/);
		});
		const created = jsonOf(run, broken.length);
		expect(created).toMatchObject({ name: atTheLimits.name, scanner_id: expect.any(String) });

		const update = await scenario.run({
			nodeType: 'action',
			label: 'update',
			parameters: { resource: 'template', operation: 'update', templateId: { __rl: true, mode: 'id', value: String(created.scanner_id) }, replaceFields: true, fieldsDefinedAs: 'json', fieldsJson: JSON.stringify(fields(101)) },
			onError: ON_ERROR_CONTINUE,
		});
		scenario.expectRoutes(update, 'action', ['error']);
		expect(jsonOf(update, 0).error).toBe('Item 1: fields: The template has 101 fields; the limit is 100');
		const stats = await scenario.finish({ templateIds: [String(created.scanner_id)] });
		expect(stats.requests.createScanner, 'only the definition at the limits is sent').toBe(1);
		expect(stats.requests.updateScanner).toBe(0);
	});

	it('template fields JSON that is not JSON, or not a list of fields: named, with line and column, nothing sent', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const texts = ['[{"name": "total",}]', 'name: total', '', '42', '{"name": "total"}'];
		const run = await scenario.run({
			nodeType: 'action',
			parameters: { ...createParameters, name: 'Template', description: '' },
			input: texts.map((fields) => ({ json: { fields } })),
			onError: ON_ERROR_CONTINUE,
		});
		scenario.expectRoutes(run, 'action', texts.map(() => 'error'));
		texts.forEach((_, index) => expect(jsonOf(run, index).error).toMatch(new RegExp(`^Item ${index + 1}: `)));
		expect(jsonOf(run, 0)).toMatchObject({ error: 'Item 1: the template fields are not valid JSON', error_description: expect.stringMatching(/\(line 1, column \d+\)$/) });
		expect(jsonOf(run, 2).error_description).toMatch(/empty/);
		for (const index of [3, 4]) expect(jsonOf(run, index).error_description).toMatch(/must be a list of fields or an object with a "fields" list/);
		await scenario.finish();
		expect(totalRequests(scenario)).toBe(0);
	});
});

describe('base URL', () => {
	it('a trailing slash or /api/v1 is accepted; a path reaches the gateway and is explained; no scheme is refused before sending', async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'paid' });
		const { baseUrl, port } = scenario.sandbox;
		const list = (url: string, label: string) =>
			scenario.run({ nodeType: 'action', label, parameters: { resource: 'template', operation: 'getMany', returnAll: true }, credential: { apiKey: scenario.key, baseUrl: url } });

		for (const [url, label] of [[`${baseUrl}/`, 'slash'], [`${baseUrl}/api/v1/`, '/api/v1/']]) {
			const run = await list(url, label);
			expect(run.error, url).toBeUndefined();
			expect(run.outputs[0]).toHaveLength(8);
		}
		const withPath = await list(`${baseUrl}/extraction`, 'path');
		expect(withPath.error?.message).toBe('Item 1: The service does not know this address');
		expect((withPath.error as { description?: string }).description).toMatch(/Check the Base URL in the credential/);
		expect(scenario.sandbox.stats().unknownPathRequests).toBe(1);

		const before = totalRequests(scenario);
		for (const url of [`127.0.0.1:${port}`, `localhost:${port}`, 'api.example.com', `ftp://127.0.0.1:${port}`]) {
			const run = await list(url, 'no scheme');
			expect(run.error?.message, url).toMatch(/Base URL.*(must start with https:\/\/|not a valid address)/);
		}
		await scenario.finish();
		expect(totalRequests(scenario)).toBe(before);
	});
});
