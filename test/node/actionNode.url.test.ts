/**
 * Document Source "URL": the file is downloaded with n8n's plain HTTP helper (never with the API
 * key), at most the service's 4.4 MB is read, and it goes through the same preflight; a failed,
 * missing or HTML answer is the item's error and nothing is uploaded. Through n8n's engine, nock
 * standing for both the file host and the service.
 *
 * Links stay off n8n's own network: this machine, private networks and the cloud metadata service
 * are refused before any connection, after name resolution and at every redirect. Name
 * resolution is n8n's own (node's dns.lookup): the test names below resolve to addresses of the
 * test's choosing, every other name (localhost) for real. A real server on this machine stands
 * for n8n's own network: its hit counter shows what reached it.
 */
import dns, { type LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import nock, { disableNetConnect, enableNetConnect } from 'nock';
import requestHelpers from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers/factory';
import type { IHttpRequestOptions, INodeParameters } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { MAX_FILE_BYTES, MAX_PHOTO_BYTES_TO_SHRINK } from '../../nodes/shared/limits';
import { minimalPdf } from '../harness/documents';
import { visibleText } from '../harness/engine';
import { BASE, answer, credential, doneResult, multipartParts, resultId, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

const FILES = 'https://files.example.test';
/** Where files.example.test resolves to (checked; its requests then go to that address). */
const FILES_ADDRESS = '93.184.216.34';

/** The test names and the addresses they resolve to (or the answer to each lookup in turn); each lookup is counted. */
const DNS: Record<string, string[] | (() => string[])> = {
	'files.example.test': [FILES_ADDRESS],
	'cdn.example.test': ['93.184.216.35'],
	'cdn.example.org': ['93.184.216.35'],
	'intranet.example.test': ['10.0.0.5'],
	'mixed.example.test': ['93.184.216.37', '192.168.1.9'],
	'v6.example.test': ['2606:4700::1111'],
	'metadata-alias.example.test': ['169.254.169.254'],
};
const lookups: string[] = [];
const realLookup = dns.lookup;

beforeAll(() => {
	vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, callback: (error: Error | null, found: LookupAddress[] | string, family?: number) => void) => {
		const answer = DNS[host];
		if (!answer) return (realLookup as (...args: unknown[]) => void)(host, options, callback);
		const addresses = typeof answer === 'function' ? answer() : answer;
		lookups.push(host);
		const found = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
		if ((options as { all?: boolean }).all) callback(null, found);
		else callback(null, found[0].address, found[0].family);
	}) as typeof dns.lookup);
});
afterAll(() => vi.restoreAllMocks());
beforeEach(() => (lookups.length = 0));

/** The file host. Its name is looked up and checked first; the request then goes to the checked address, asked for by name. */
const files = () => nock(`https://${FILES_ADDRESS}`).matchHeader('host', 'files.example.test');

const byUrl = (fileUrl: string, parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'document',
	operation: 'extract',
	documentSource: 'url',
	fileUrl,
	...parameters,
});

function uploadsAnswered() {
	const uploads: SeenRequest[] = [];
	answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(resultId(1))]);
	nock(BASE).get(`/api/v1/results/${resultId(1)}`).reply(200, doneResult(resultId(1)));
	return { uploads, unexpected: trapAllRequests() };
}

describe('a document by URL', () => {
	it('is downloaded without the API key, sent whole under the name the URL gives, and its output says the URL', async () => {
		const pdf = await minimalPdf(['Invoice INV-3']);
		const downloads: SeenRequest[] = [];
		answer(files().get('/shared/invoice%20march.pdf').query({ token: 'abc' }), downloads, [200, Buffer.from(pdf), { 'content-type': 'application/pdf' }]);
		const { uploads, unexpected } = uploadsAnswered();
		const cred = credential();

		const { outputs, error } = await runAction(byUrl(`${FILES}/shared/invoice%20march.pdf?token=abc`), [{ json: {} }], { cred });

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(downloads).toHaveLength(1);
		expect(JSON.stringify(downloads[0].headers)).not.toContain(cred.apiKey);
		expect(downloads[0].headers).not.toHaveProperty('x-api-key');
		const [part] = multipartParts(uploads[0]);
		expect(part).toMatchObject({ name: 'file', filename: 'invoice march.pdf', contentType: 'application/pdf' });
		expect(part.data.equals(Buffer.from(pdf))).toBe(true);
		// The link's token goes to the file host only: the output shows the link without it.
		expect(outputs[0][0].json).toMatchObject({ file_url: `${FILES}/shared/invoice%20march.pdf`, invoice_number: 'INV-1' });
		expect(JSON.stringify(outputs)).not.toContain('abc');
	});

	it('takes the file name the server gives (Content-Disposition)', async () => {
		files()
			.get('/download/123')
			.reply(200, Buffer.from(await minimalPdf()), { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="Rechnung 7.pdf"' });
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/download/123`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(multipartParts(uploads[0])[0].filename).toBe('Rechnung 7.pdf');
	});

	it.each([
		['in RFC 2231 sections, out of order', "attachment; filename*1*=ller%20M%C3%A4rz.pdf; filename*0*=UTF-8''Rechnung%20M%C3%BC", 'Rechnung Müller März.pdf'],
		['in RFC 2231 form beside a plain fallback', "attachment; filename=\"Rechnung.pdf\"; filename*=utf-8''Rechnung%20%E2%84%96%207.pdf", 'Rechnung № 7.pdf'],
		['as RFC 2047 encoded words', 'attachment; filename="=?UTF-8?B?UmVjaG51bmcgTcO8bGxlci5wZGY=?="', 'Rechnung Müller.pdf'],
	])('reads the server\'s file name %s, as an attached email\'s part is read', async (_case, disposition, name) => {
		files().get('/download/9').reply(200, Buffer.from(await minimalPdf()), { 'content-type': 'application/pdf', 'content-disposition': disposition });
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/download/9`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(multipartParts(uploads[0])[0].filename).toBe(name);
	});

	it.each([
		['a 404', () => files().get('/gone.pdf').query(true).reply(404, 'Not Found'), '/gone.pdf', /^Item 1: Downloading the file answered HTTP 404 \(not found\) \(https:\/\/files\.example\.test\/gone\.pdf\)$/],
		[
			'an HTML page (a viewer or sign-in page)',
			() => files().get('/view.pdf').query(true).reply(200, '<!DOCTYPE html><html><body>Sign in</body></html>', { 'content-type': 'text/html; charset=utf-8' }),
			'/view.pdf',
			/^Item 1: The address answered a web page, not a file/,
		],
		['a dropped connection', () => files().get('/drop.pdf').query(true).replyWithError('socket hang up'), '/drop.pdf', /^Item 1: The file could not be downloaded: the address could not be reached \(https:\/\/files\.example\.test\/drop\.pdf\)$/],
		[
			'a declared size over the largest read (a photo to shrink), refused unread',
			() => files().get('/big.pdf').query(true).reply(200, 'x', { 'content-length': String(MAX_PHOTO_BYTES_TO_SHRINK + 1) }),
			'/big.pdf',
			/^Item 1: The file is 40\.0 MB; the service accepts files up to about 4\.4 MB, and a photo to shrink or a PDF to split is read up to 40 MB/,
		],
		[
			'a declared size over the limit of its type (a PDF, Split PDFs off), refused at its first kilobyte',
			() => files().get('/big.pdf').query(true).reply(200, `%PDF-1.7\n${'%'.repeat(2047)}`, { 'content-length': String(MAX_FILE_BYTES + 1) }),
			'/big.pdf',
			/^Item 1: The file is 4\.4 MB; the service accepts files up to about 4\.4 MB \(/,
		],
		[
			'a streamed body over the limit',
			() => files().get('/stream.pdf').query(true).reply(200, () => Readable.from(Array.from({ length: 5 }, () => Buffer.alloc(1_000_000, 0x25)))),
			'/stream.pdf',
			/^Item 1: The file is larger than the 4\.4 MB the service accepts/,
		],
		['a file the preflight refuses', () => files().get('/notes.pdf').query(true).reply(200, 'just some text'), '/notes.pdf', /^Item 1 \(notes\.pdf\): The file is a text file/],
	])('%s: a clear item error, and nothing is uploaded', async (_case, host, path, message) => {
		host();
		const unexpected = trapAllRequests();

		const result = await runAction(byUrl(`${FILES}${path}?sig=secret-token`), [{ json: {} }]);

		expect(result.error?.message).toMatch(message);
		expect((result.error as { description?: string }).description).toMatch(/Nothing was sent to the service/);
		expect(unexpected).toEqual([]);
		// A signed link's token is not repeated in the error, nor anywhere else of the run.
		expect(visibleText(result)).not.toContain('secret-token');
	});

	it.each([
		['', /^Item 1: "File URL" is empty$/],
		['ftp://files.example.test/a.pdf', /^Item 1: "File URL" is not a web address: "ftp:/],
		['invoice.pdf', /^Item 1: "File URL" is not a web address: "invoice\.pdf"$/],
	])('refuses %j as File URL before any request', async (fileUrl, message) => {
		const unexpected = trapAllRequests();
		// An expression that gives it: n8n itself refuses an empty required parameter typed in.
		const { error } = await runAction(byUrl('={{ $json.link }}'), [{ json: { link: fileUrl } }]);
		expect(error?.message).toMatch(message);
		expect(unexpected).toEqual([]);
	});

	it('with On Error = Continue, a failed download is an error item and the next URL is still extracted', async () => {
		files().get('/gone.pdf').query(true).reply(404);
		files().get('/ok.pdf').reply(200, Buffer.from(await minimalPdf()));
		const { uploads } = uploadsAnswered();

		const { outputs, error } = await runAction(
			{ resource: 'document', operation: 'extract', documentSource: 'url', fileUrl: '={{ $json.link }}' },
			[{ json: { link: `${FILES}/gone.pdf` } }, { json: { link: `${FILES}/ok.pdf` } }],
			{ continueOnFail: true },
		);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		expect(outputs[0].map((item) => item.json.error ?? item.json.invoice_number)).toEqual([expect.stringMatching(/HTTP 404/), 'INV-1']);
	});
});

/**
 * n8n's request helpers as the node gets them, changed by `change` (another n8n version, or what a
 * connection reached); undone after the test.
 */
function changeHelpers(change: (helpers: Partial<ReturnType<typeof requestHelpers.getRequestHelperFunctions>>) => void): void {
	const original = requestHelpers.getRequestHelperFunctions;
	vi.spyOn(requestHelpers, 'getRequestHelperFunctions').mockImplementation((...args) => {
		const helpers: Partial<ReturnType<typeof original>> = original(...args);
		change(helpers);
		return helpers as ReturnType<typeof original>;
	});
}
afterEach(() => vi.mocked(requestHelpers.getRequestHelperFunctions).mockRestore?.());

/** Every request the node hands n8n's HTTP helper, as it hands it. */
function recordRequests(): IHttpRequestOptions[] {
	const sent: IHttpRequestOptions[] = [];
	changeHelpers((helpers) => {
		const httpRequest = helpers.httpRequest!;
		helpers.httpRequest = async (options) => {
			sent.push(options);
			return await httpRequest(options);
		};
	});
	return sent;
}

/** A server on this machine (IPv4 and IPv6 loopback) standing for n8n's own network. */
function useLocalServer() {
	const local = { hits: [] as string[], port: 0, pdf: Buffer.alloc(0) };
	let server: Server;
	beforeAll(async () => {
		local.pdf = Buffer.from(await minimalPdf(['Invoice Number: INV-LOCAL']));
		server = createServer((request, response) => {
			local.hits.push(request.url ?? '');
			response.writeHead(200, { 'content-type': 'application/pdf' }).end(local.pdf);
		});
		await new Promise<void>((resolve) => server.listen(0, '::', resolve));
		local.port = (server.address() as AddressInfo).port;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));
	// nock lets requests to this machine through, so that nothing but the node keeps them off it.
	beforeEach(() => {
		local.hits.length = 0;
		enableNetConnect((host: string) => /^(127\.0\.0\.1|::1|\[::1\]|localhost)(:\d+)?$/.test(host));
	});
	afterEach(() => disableNetConnect());
	return local;
}

/** Run's outputs and error as one text, to look for what must not be there. */
const everything = (result: Awaited<ReturnType<typeof runAction>>) => `${visibleText(result)} ${JSON.stringify(result.outputs)}`;

describe('a link to n8n\'s own network', () => {
	const local = useLocalServer();

	it.each([
		['http://127.0.0.1:{port}/secret.pdf', /127\.0\.0\.1 is a loopback address \(127\.0\.0\.0\/8\)/],
		['http://localhost:{port}/secret.pdf', /localhost is a loopback address/],
		['http://app.localhost:{port}/secret.pdf', /app\.localhost is a loopback address/],
		['http://[::1]:{port}/secret.pdf', /\[::1\] is a loopback address \(::1\)/],
		['http://[::ffff:127.0.0.1]:{port}/secret.pdf', /is a loopback address \(127\.0\.0\.0\/8\) inside an IPv4-mapped address/],
		['http://2130706433:{port}/secret.pdf', /127\.0\.0\.1 is a loopback address/],
		['http://0x7f.1:{port}/secret.pdf', /127\.0\.0\.1 is a loopback address/],
		['http://0177.0.0.1:{port}/secret.pdf', /127\.0\.0\.1 is a loopback address/],
		['http://127.1:{port}/secret.pdf', /127\.0\.0\.1 is a loopback address/],
		['http://0.0.0.0:{port}/secret.pdf', /0\.0\.0\.0 is an unspecified address/],
	])('%s is refused before any connection', async (link, message) => {
		const unexpected = trapAllRequests();
		const result = await runAction(byUrl(link.replace('{port}', String(local.port))), [{ json: {} }]);

		expect(result.error?.message).toMatch(/^Item 1: The file was not downloaded: /);
		expect(result.error?.message).toMatch(message);
		// 0.0.0.0 reaches this machine too, but is no one's address to link to: refused either way.
		expect((result.error as { description?: string }).description).toMatch(/(Allow Private Network Addresses|never downloaded from)\. Nothing was sent to the service/);
		expect(local.hits).toEqual([]);
		expect(unexpected).toEqual([]);
	});

	it.each([
		['http://169.254.169.254/latest/meta-data/iam/security-credentials/', /169\.254\.169\.254 is the cloud metadata address/],
		['http://[fd00:ec2::254]/latest/meta-data/', /is the cloud metadata address/],
		['http://metadata.google.internal/computeMetadata/v1/', /metadata\.google\.internal is the cloud metadata address/],
		['http://10.0.0.7:8080/admin', /10\.0\.0\.7 is a private network address \(10\.0\.0\.0\/8\)/],
		['http://192.168.1.1/', /is a private network address \(192\.168\.0\.0\/16\)/],
		['http://100.64.0.1/', /is a carrier-grade NAT address \(100\.64\.0\.0\/10\)/],
		['http://[fe80::1]/', /is a link-local address \(fe80::\/10\)/],
		['http://[64:ff9b::a00:7]/', /inside a NAT64 address/],
		['http://intranet.example.test/report.pdf', /intranet\.example\.test resolves to a private network address \(10\.0\.0\.0\/8\)/],
		['https://mixed.example.test/report.pdf', /mixed\.example\.test resolves to a private network address \(192\.168\.0\.0\/16\)/],
	])('%s is refused, and nothing there is asked', async (link, message) => {
		const reached: string[] = [];
		for (const origin of ['http://169.254.169.254', 'http://[fd00:ec2::254]', 'http://10.0.0.7:8080', 'http://192.168.1.1', 'http://100.64.0.1', 'http://[fe80::1]', 'http://[64:ff9b::a00:7]', 'http://10.0.0.5', 'http://intranet.example.test', 'https://93.184.216.37', 'https://mixed.example.test']) {
			nock(origin).persist().get(/.*/).reply(function (path) {
				reached.push(`${origin}${path}`);
				return [200, 'secret'];
			});
		}
		const result = await runAction(byUrl(link), [{ json: {} }]);

		expect(result.error?.message).toMatch(message);
		expect(reached).toEqual([]);
	});

	it('the refusal keeps the item index: with On Error = Continue it is that item\'s error item, and the next link is still extracted', async () => {
		files().get('/ok.pdf').reply(200, Buffer.from(await minimalPdf()));
		const { uploads } = uploadsAnswered();

		const { outputs, error } = await runAction(
			byUrl('={{ $json.link }}'),
			[{ json: { link: `http://127.0.0.1:${local.port}/secret.pdf` } }, { json: { link: `${FILES}/ok.pdf` } }],
			{ continueOnFail: true },
		);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		expect(outputs[0].map((item) => [item.pairedItem, item.json.error ?? item.json.invoice_number])).toEqual([
			[{ item: 0 }, expect.stringMatching(/^Item 1: The file was not downloaded: 127\.0\.0\.1 is a loopback address/)],
			[{ item: 1 }, 'INV-1'],
		]);
		expect(local.hits).toEqual([]);
	});
});

describe('redirects are followed one by one, each checked like the link', () => {
	const local = useLocalServer();

	it.each([
		['this machine', () => `http://127.0.0.1:${local.port}/secret.pdf`, /the link redirected to 127\.0\.0\.1, which is a loopback address/],
		['localhost', () => `http://localhost:${local.port}/secret.pdf`, /the link redirected to localhost, which is a loopback address/],
		['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', /the link redirected to 169\.254\.169\.254, which is the cloud metadata address/],
		['a name of the intranet', () => 'http://intranet.example.test/report.pdf', /the link redirected to intranet\.example\.test, which resolves to a private network address/],
	])('a public host redirecting to %s is refused at the redirect; the target is never asked', async (_case, target, message) => {
		files().get('/file.pdf').reply(302, '', { Location: target() });
		const metadata = nock('http://169.254.169.254').persist().get(/.*/).reply(200, 'secret');
		const intranet = nock('http://10.0.0.5').persist().get(/.*/).reply(200, 'secret');
		const unexpected = trapAllRequests();

		const result = await runAction(byUrl(`${FILES}/file.pdf`), [{ json: {} }]);

		expect(result.error?.message).toMatch(message);
		expect(result.error?.message).toMatch(/^Item 1: The file was not downloaded: /);
		expect(local.hits).toEqual([]);
		expect(metadata.isDone()).toBe(false);
		expect(intranet.isDone()).toBe(false);
		expect(unexpected).toEqual([]);
	});

	it('a relative redirect on the same host is followed, and the file takes the name of where it ends', async () => {
		files().get('/download').query({ id: '7' }).reply(301, '', { Location: '/files/Invoice%207.pdf' });
		files().get('/files/Invoice%207.pdf').reply(200, Buffer.from(await minimalPdf()));
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/download?id=7`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(multipartParts(uploads[0])[0].filename).toBe('Invoice 7.pdf');
	});

	it('more than 5 redirects are refused', async () => {
		for (let hop = 0; hop < 6; hop++) files().get(`/hop${hop}`).reply(302, '', { Location: `/hop${hop + 1}` });
		const unexpected = trapAllRequests();

		const { error } = await runAction(byUrl(`${FILES}/hop0`), [{ json: {} }]);

		expect(error?.message).toBe('Item 1: The file was not downloaded: the link redirected more than 5 times (https://files.example.test/hop5)');
		expect(unexpected).toEqual([]);
	});

	it('a redirect to another scheme is refused', async () => {
		files().get('/file.pdf').reply(302, '', { Location: 'file:///etc/passwd' });

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`), [{ json: {} }]);

		expect(error?.message).toBe('Item 1: The file was not downloaded: the link redirected to an address that is not http or https (https://files.example.test/file.pdf)');
	});
});

describe('the connection goes to the address that was checked', () => {
	const local = useLocalServer();

	/**
	 * A name whose first answer is public and every later one this machine (DNS rebinding). The
	 * node checks the first answer; were the connection to look the name up again, it would reach
	 * the local server. nock answers only at the checked address (asked for by the name), and lets
	 * a connection by name through to the real resolver and the network, so that reaching this
	 * machine is what a second lookup would do.
	 */
	function rebinding(host: string) {
		let answered = 0;
		DNS[host] = () => (answered++ === 0 ? ['93.184.216.36'] : ['127.0.0.1']);
		enableNetConnect((target: string) => new RegExp(`^(127\\.0\\.0\\.1|::1|\\[::1\\]|localhost|${host.replace(/\./g, '\\.')})(:\\d+)?$`).test(target));
		return { lookups: () => answered, done: () => delete DNS[host] };
	}

	it.each(['http', 'https'])('%s: a name is resolved once per hop: a second answer pointing at this machine (DNS rebinding) is never used', async (scheme) => {
		const dnsAnswers = rebinding('rebind.example.test');
		nock(`${scheme}://93.184.216.36:${local.port}`).matchHeader('host', `rebind.example.test:${local.port}`).get('/file.pdf').reply(200, local.pdf);
		uploadsAnswered();

		const { error } = await runAction(byUrl(`${scheme}://rebind.example.test:${local.port}/file.pdf`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(dnsAnswers.lookups()).toBe(1);
		expect(local.hits).toEqual([]);
		dnsAnswers.done();
	});

	it('over plain http, a name with only IPv6 addresses is reached at its checked IPv6 address, asked for by name', async () => {
		nock('http://[2606:4700::1111]').matchHeader('host', 'v6.example.test').get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		uploadsAnswered();

		const { error } = await runAction(byUrl('http://v6.example.test/file.pdf'), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(lookups).toEqual(['v6.example.test']);
	});

	it('over https, the checked address is asked, the name its Host header and TLS server name (the certificate is checked against the name)', async () => {
		files().get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		uploadsAnswered();
		const sent = recordRequests();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(lookups).toEqual(['files.example.test']);
		const download = sent.find((options) => options.url.includes(FILES_ADDRESS));
		expect(download).toMatchObject({ url: `https://${FILES_ADDRESS}/file.pdf`, headers: { host: 'files.example.test' }, agentOptions: { servername: 'files.example.test' } });
	});

	it('over https, an n8n that does not pass the server name on (the certificate fails for the address) is asked again by name', async () => {
		files().get('/file.pdf').replyWithError(Object.assign(new Error("Hostname/IP does not match certificate's altnames"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }));
		nock(FILES).get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
	});

	it('a network error says "could not be reached", never the socket\'s words with address and port', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));

		const result = await runAction(byUrl(`http://127.0.0.1:${port}/x.pdf`, { options: { allowPrivateNetworkAddresses: true } }), [{ json: {} }]);

		expect(result.error?.message).toBe(`Item 1: The file could not be downloaded: the address could not be reached (http://127.0.0.1:${port}/x.pdf)`);
		expect(everything(result)).not.toMatch(/ECONNREFUSED|connect /);
	});
});

describe('Options → Allow Private Network Addresses', () => {
	const local = useLocalServer();
	const allowPrivate = { options: { allowPrivateNetworkAddresses: true } };

	it.each(['http://127.0.0.1:{port}/invoice.pdf', 'http://localhost:{port}/invoice.pdf', 'http://[::1]:{port}/invoice.pdf'])('on: %s on this machine is downloaded and extracted', async (link) => {
		const { uploads } = uploadsAnswered();

		const { outputs, error } = await runAction(byUrl(link.replace('{port}', String(local.port)), allowPrivate), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(local.hits).toEqual(['/invoice.pdf']);
		expect(multipartParts(uploads[0])[0].data.equals(local.pdf)).toBe(true);
		expect(outputs[0][0].json.invoice_number).toBe('INV-1');
	});

	it('on: a redirect to this machine is followed too', async () => {
		files().get('/file.pdf').reply(302, '', { Location: `http://localhost:${local.port}/invoice.pdf` });
		uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`, allowPrivate), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(local.hits).toEqual(['/invoice.pdf']);
	});

	it.each([
		'http://169.254.169.254/latest/meta-data/',
		'http://metadata.google.internal/',
		'http://0.0.0.0/',
		'http://224.0.0.1/',
		'http://192.0.2.1/',
		'http://[fd20:ce::254]/',
		'http://100.100.100.200/latest/meta-data/',
		'http://metadata-alias.example.test/latest/meta-data/',
	])('on: %s is still refused', async (link) => {
		const reached = nock(new URL(link).origin).persist().get(/.*/).reply(200, 'secret');

		const { error } = await runAction(byUrl(link, allowPrivate), [{ json: {} }]);

		expect(error?.message).toMatch(/^Item 1: The file was not downloaded: .* (is|resolves to) (the|an|a) /);
		expect((error as { description?: string }).description).toMatch(/^No document is served from such an address/);
		expect(reached.isDone()).toBe(false);
	});
});

describe('Options → Allowed Hosts', () => {
	it('only the listed hosts are asked, at every hop: a redirect to another host is refused', async () => {
		files().get('/file.pdf').reply(302, '', { Location: 'https://cdn.example.test/file.pdf' });
		const cdn = nock('https://cdn.example.test').persist().get(/.*/).reply(200, 'file');
		const unexpected = trapAllRequests();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowedHosts: 'files.example.test' } }), [{ json: {} }]);

		expect(error?.message).toBe(
			'Item 1: The file was not downloaded: the link redirected to cdn.example.test, which is not one of the Allowed Hosts (https://cdn.example.test/file.pdf)',
		);
		expect(cdn.isDone()).toBe(false);
		expect(lookups).toEqual(['files.example.test']);
		expect(unexpected).toEqual([]);
	});

	it('a link to a host not listed is refused before its name is even looked up', async () => {
		const { error } = await runAction(byUrl('https://cdn.example.test/file.pdf', { options: { allowedHosts: 'files.example.test, *.example.org' } }), [{ json: {} }]);

		expect(error?.message).toBe('Item 1: The file was not downloaded: cdn.example.test is not one of the Allowed Hosts (https://cdn.example.test/file.pdf)');
		expect(lookups).toEqual([]);
	});

	it('listed hosts (and *.example.org\'s subdomains) are followed from one to the next', async () => {
		files().get('/file.pdf').reply(302, '', { Location: 'https://cdn.example.org/file.pdf' });
		nock('https://93.184.216.35').matchHeader('host', 'cdn.example.org').get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowedHosts: 'Files.Example.Test, *.example.org' } }), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(lookups).toEqual(['files.example.test', 'cdn.example.org']);
	});

	it('a listed host is still refused where it leads to a private address', async () => {
		const { error } = await runAction(byUrl('http://intranet.example.test/report.pdf', { options: { allowedHosts: 'intranet.example.test' } }), [{ json: {} }]);

		expect(error?.message).toMatch(/intranet\.example\.test resolves to a private network address/);
	});

	it('an entry that is not a host name is the item\'s error', async () => {
		const { error } = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowedHosts: 'files.example.test, not a host' } }), [{ json: {} }]);

		expect(error?.message).toBe('Item 1: "Allowed Hosts" holds what is not a host name: "not a host"');
	});
});

describe('what a link carries (a token, a password) appears nowhere in outputs and errors', () => {
	const SECRET = 'tok-5ecret-9f2';
	const link = (path: string) => `https://reader:pw-${SECRET}@files.example.test${path}?token=${SECRET}#frag-${SECRET}`;

	it('on the output items: file_url without user info, query string or fragment', async () => {
		const downloads: SeenRequest[] = [];
		answer(files().get('/invoice.pdf').query({ token: SECRET }), downloads, [200, Buffer.from(await minimalPdf()), { 'content-type': 'application/pdf' }]);
		uploadsAnswered();

		const result = await runAction(byUrl(link('/invoice.pdf'), { output: 'tableRows' }), [{ json: {} }]);

		expect(result.error).toBeUndefined();
		expect(downloads).toHaveLength(1);
		expect(result.outputs[0][0].json.file_url).toBe(`${FILES}/invoice.pdf`);
		expect(everything(result)).not.toContain(SECRET);
	});

	it.each([
		['a refused address', () => undefined, `http://10.0.0.7/a.pdf?token=${SECRET}`],
		['an HTTP error', () => files().get('/gone.pdf').query(true).reply(404), link('/gone.pdf')],
		['a network error', () => files().get('/drop.pdf').query(true).replyWithError(`connect ECONNREFUSED ${SECRET}`), link('/drop.pdf')],
		['a redirect refused', () => files().get('/r.pdf').query(true).reply(302, '', { Location: `http://127.0.0.1/x.pdf?token=${SECRET}` }), link('/r.pdf')],
		['a link that is no web address', () => undefined, `ftp://user:${SECRET}@files.example.test/a.pdf?token=${SECRET}`],
	])('on error items and stop errors: %s', async (_case, host, fileUrl) => {
		host();
		const asItem = await runAction(byUrl(fileUrl), [{ json: {} }], { continueOnFail: true });
		host();
		const asStop = await runAction(byUrl(fileUrl), [{ json: {} }]);

		expect(asItem.outputs[0][0].json.error).toBeDefined();
		expect(asStop.error).toBeDefined();
		expect(everything(asItem)).not.toContain(SECRET);
		expect(everything(asStop)).not.toContain(SECRET);
	});
});

describe('on n8n versions that give a node no resolver (n8n 1.x: no getSecureEgressFilter)', () => {
	/** The address a connection to each host reached, as its socket reports it (nock's report none). */
	const connected: Record<string, string> = {};
	beforeEach(() =>
		changeHelpers((helpers) => {
			delete helpers.getSecureEgressFilter;
			const httpRequest = helpers.httpRequest!;
			helpers.httpRequest = async (options) => {
				const response = (await httpRequest(options)) as { body: { socket?: object | null } };
				const address = connected[new URL(options.url).hostname];
				if (address) Object.defineProperty(response.body, 'socket', { value: { ...response.body.socket, remoteAddress: address } });
				return response;
			};
		}),
	);
	afterEach(() => {
		for (const host of Object.keys(connected)) delete connected[host];
	});

	it('a link by host name is refused, saying why and what to do; nothing is asked', async () => {
		const reached = nock(FILES).persist().get(/.*/).reply(200, 'file');

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`), [{ json: {} }]);

		expect(error?.message).toBe(
			'Item 1: The file was not downloaded: files.example.test is a host name, and this n8n version does not let a node check which address a name leads to (https://files.example.test/file.pdf)',
		);
		expect((error as { description?: string }).description).toMatch(/Allowed Hosts/);
		expect(reached.isDone()).toBe(false);
		expect(lookups).toEqual([]);
	});

	it('a listed host is fetched by its name, and a refused address is still refused', async () => {
		nock(FILES).get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		uploadsAnswered();
		const listed = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowedHosts: 'files.example.test' } }), [{ json: {} }]);
		const loopback = await runAction(byUrl('http://127.0.0.1/file.pdf', { options: { allowedHosts: '127.0.0.1' } }), [{ json: {} }]);

		expect(listed.error).toBeUndefined();
		expect(loopback.error?.message).toMatch(/127\.0\.0\.1 is a loopback address/);
	});

	it('a public address written as such is fetched', async () => {
		nock(`https://${FILES_ADDRESS}`).get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		uploadsAnswered();

		const { error } = await runAction(byUrl(`https://${FILES_ADDRESS}/file.pdf`), [{ json: {} }]);

		expect(error).toBeUndefined();
	});
	it.each([
		['Allowed Hosts', { allowedHosts: 'files.example.test' }],
		['Allow Private Network Addresses', { allowPrivateNetworkAddresses: true }],
	])('with %s, a name whose connection reached the cloud metadata service: its answer is dropped unread, nothing uploaded', async (_option, options) => {
		nock(FILES).get('/latest/meta-data/iam/security-credentials/').reply(200, 'AccessKeyId=AKIA-SECRET');
		connected['files.example.test'] = '169.254.169.254';
		const unexpected = trapAllRequests();

		const result = await runAction(byUrl(`${FILES}/latest/meta-data/iam/security-credentials/`, { options }), [{ json: {} }]);

		expect(result.error?.message).toBe(
			'Item 1: The file was not downloaded: files.example.test led to the cloud metadata address (https://files.example.test/latest/meta-data/iam/security-credentials/)',
		);
		expect(everything(result)).not.toContain('SECRET');
		expect(unexpected).toEqual([]);
	});

	it('at a redirect too: a listed name that led to the metadata service (in IPv4-mapped form) is refused at that hop', async () => {
		nock(FILES).get('/file.pdf').reply(302, '', { Location: 'https://cdn.example.test/latest/meta-data/' });
		nock('https://cdn.example.test').get('/latest/meta-data/').reply(200, 'AccessKeyId=AKIA-SECRET');
		connected['files.example.test'] = FILES_ADDRESS;
		connected['cdn.example.test'] = '::ffff:169.254.169.254';

		const result = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowedHosts: '*.example.test' } }), [{ json: {} }]);

		expect(result.error?.message).toMatch(/^Item 1: The file was not downloaded: cdn\.example\.test led to the cloud metadata address/);
		expect(everything(result)).not.toContain('SECRET');
	});

	it.each([
		['Allowed Hosts', { allowedHosts: '*.example.test' }, 'http://cdn.example.test/latest/meta-data/'],
		['Allow Private Network Addresses', { allowPrivateNetworkAddresses: true }, 'http://cdn.example.test/latest/meta-data/'],
		['Allowed Hosts, at a redirect', { allowedHosts: '*.example.test' }, `${FILES}/file.pdf`],
		['Allow Private Network Addresses, at a redirect', { allowPrivateNetworkAddresses: true }, `${FILES}/file.pdf`],
	])('with %s, a plain http link by name is never asked (no certificate proves where it leads): the metadata service gets no request', async (_case, options, fileUrl) => {
		nock(FILES).get('/file.pdf').reply(302, '', { Location: 'http://cdn.example.test/latest/meta-data/' });
		const metadata = nock('http://cdn.example.test').get(/.*/).reply(200, 'AccessKeyId=AKIA-SECRET');
		connected['files.example.test'] = FILES_ADDRESS;
		connected['cdn.example.test'] = '169.254.169.254';

		const result = await runAction(byUrl(fileUrl, { options }), [{ json: {} }]);

		expect(result.error?.message).toMatch(/cdn\.example\.test,? (which )?is a host name on a plain http link, and this n8n version does not let a node check/);
		expect((result.error as { description?: string }).description).toMatch(/must use https/);
		expect(metadata.isDone()).toBe(false);
		expect(everything(result)).not.toContain('SECRET');
		nock.cleanAll();
	});

	it('with Allow Private Network Addresses, an https link by name is fetched (its certificate is checked by n8n)', async () => {
		nock(FILES).get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		connected['files.example.test'] = '10.0.0.7';
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowPrivateNetworkAddresses: true } }), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
	});

	it('a listed name whose connection reached a public address is downloaded and extracted', async () => {
		nock(FILES).get('/file.pdf').reply(200, Buffer.from(await minimalPdf()));
		connected['files.example.test'] = FILES_ADDRESS;
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/file.pdf`, { options: { allowedHosts: 'files.example.test' } }), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
	});
});
