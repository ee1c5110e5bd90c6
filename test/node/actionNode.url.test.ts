/**
 * Document Source "URL": the file is downloaded with n8n's plain HTTP helper (never with the API
 * key), at most the service's 4.4 MB is read, and it goes through the same preflight; a failed,
 * missing or HTML answer is the item's error and nothing is uploaded. Through n8n's engine, nock
 * standing for both the file host and the service.
 */
import { Readable } from 'node:stream';

import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MAX_FILE_BYTES } from '../../nodes/shared/limits';
import { minimalPdf } from '../harness/documents';
import { visibleText } from '../harness/engine';
import { BASE, answer, credential, doneResult, multipartParts, resultId, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

const FILES = 'https://files.example.test';

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
		answer(nock(FILES).get('/shared/invoice%20march.pdf').query({ token: 'abc' }), downloads, [200, Buffer.from(pdf), { 'content-type': 'application/pdf' }]);
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
		expect(outputs[0][0].json).toMatchObject({ file_url: `${FILES}/shared/invoice%20march.pdf?token=abc`, invoice_number: 'INV-1' });
	});

	it('takes the file name the server gives (Content-Disposition)', async () => {
		nock(FILES)
			.get('/download/123')
			.reply(200, Buffer.from(await minimalPdf()), { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="Rechnung 7.pdf"' });
		const { uploads } = uploadsAnswered();

		const { error } = await runAction(byUrl(`${FILES}/download/123`), [{ json: {} }]);

		expect(error).toBeUndefined();
		expect(multipartParts(uploads[0])[0].filename).toBe('Rechnung 7.pdf');
	});

	it.each([
		['a 404', () => nock(FILES).get('/gone.pdf').query(true).reply(404, 'Not Found'), '/gone.pdf', /^Item 1: Downloading the file answered HTTP 404 \(not found\) \(https:\/\/files\.example\.test\/gone\.pdf\)$/],
		[
			'an HTML page (a viewer or sign-in page)',
			() => nock(FILES).get('/view.pdf').query(true).reply(200, '<!DOCTYPE html><html><body>Sign in</body></html>', { 'content-type': 'text/html; charset=utf-8' }),
			'/view.pdf',
			/^Item 1: The address answered a web page, not a file/,
		],
		['a dropped connection', () => nock(FILES).get('/drop.pdf').query(true).replyWithError('socket hang up'), '/drop.pdf', /^Item 1: The file could not be downloaded: .*socket hang up/],
		[
			'a declared size over the limit',
			() => nock(FILES).get('/big.pdf').query(true).reply(200, 'x', { 'content-length': String(MAX_FILE_BYTES + 1) }),
			'/big.pdf',
			/^Item 1: The file is 4\.4 MB; the service accepts files up to about 4\.4 MB/,
		],
		[
			'a streamed body over the limit',
			() => nock(FILES).get('/stream.pdf').query(true).reply(200, () => Readable.from(Array.from({ length: 5 }, () => Buffer.alloc(1_000_000, 0x25)))),
			'/stream.pdf',
			/^Item 1: The file is larger than the 4\.4 MB the service accepts/,
		],
		['a file the preflight refuses', () => nock(FILES).get('/notes.pdf').query(true).reply(200, 'just some text'), '/notes.pdf', /^Item 1 \(notes\.pdf\): The file is a text file/],
	])('%s: a clear item error, and nothing is uploaded', async (_case, host, path, message) => {
		host();
		const unexpected = trapAllRequests();

		const { error } = await runAction(byUrl(`${FILES}${path}?sig=secret-token`), [{ json: {} }]);

		expect(error?.message).toMatch(message);
		expect((error as { description?: string }).description).toMatch(/Nothing was sent to the service/);
		expect(unexpected).toEqual([]);
		// A signed link's token is not repeated in the error.
		expect(visibleText({ outputs: [], error } as never)).not.toContain('secret-token');
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
		nock(FILES).get('/gone.pdf').query(true).reply(404);
		nock(FILES).get('/ok.pdf').reply(200, Buffer.from(await minimalPdf()));
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
