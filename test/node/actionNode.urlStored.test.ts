/**
 * Document Source "URL": a downloaded file is kept in n8n's binary data between its check and its
 * upload, not in memory (every item is checked before the first upload, so holding the bytes made
 * the run's memory grow with its links). Its upload reads that copy again, proven to be the file
 * that was checked; the link itself is fetched once. Through n8n's engine with n8n-core's own
 * BinaryDataService in the filesystem mode (n8n 2.x's default), nock standing for the file host
 * and the service.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import nock from 'nock';
import type { IBinaryData } from 'n8n-workflow';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { minimalPdf } from '../harness/documents';
import { BASE, answer, doneResult, multipartParts, resultId, runAction, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

/** Links by address: no name to resolve (the resolving is actionNode.url.test.ts's business). */
const HOST = 'https://93.184.216.34';
let folder: string;

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'n8n-docx-url-stored-'));
	Container.get(BinaryDataConfig).localStoragePath = folder;
	Container.get(BinaryDataConfig).mode = 'filesystem';
	await Container.get(BinaryDataService).init();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Every file the node stores in n8n's binary data during the run. */
function storedFiles(): IBinaryData[] {
	const stored: IBinaryData[] = [];
	const service = Container.get(BinaryDataService);
	const store = service.store.bind(service);
	vi.spyOn(service, 'store').mockImplementation(async (...args) => {
		const binary = await store(...args);
		stored.push(binary);
		return binary;
	});
	return stored;
}

const links = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { link: `${HOST}/invoice-${i + 1}.pdf` } }));
const byUrl = { resource: 'document', operation: 'extract', documentSource: 'url', fileUrl: '={{ $json.link }}' };

describe('a downloaded file waits for its upload in n8n\'s binary data', () => {
	it('each download is stored once, fetched once, and its upload sends the stored copy', async () => {
		const pdfs = await Promise.all([1, 2].map(async (n) => Buffer.from(await minimalPdf([`Invoice INV-${n}`]))));
		const downloads = pdfs.map((pdf, i) => nock(HOST).get(`/invoice-${i + 1}.pdf`).once().reply(200, pdf, { 'content-type': 'application/pdf' }));
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process').times(2), uploads, (request) => [202, uploadAccepted(resultId(uploads.indexOf(request) + 1))]);
		for (const n of [1, 2]) nock(BASE).get(`/api/v1/results/${resultId(n)}`).reply(200, doneResult(resultId(n)));
		const stored = storedFiles();

		const { error, outputs } = await runAction(byUrl, links(2));

		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(2);
		expect(downloads.every((scope) => scope.isDone())).toBe(true);
		expect(stored.map((binary) => binary.id)).toEqual([expect.stringMatching(/^filesystem(-v2)?:/), expect.stringMatching(/^filesystem(-v2)?:/)]);
		expect(uploads.map((upload) => multipartParts(upload)[0].data.equals(pdfs[uploads.indexOf(upload)]))).toEqual([true, true]);
	});

	it('a stored copy rewritten between its check and its upload fails its item, unsent; the other item is extracted', async () => {
		const pdfs = await Promise.all([1, 2].map(async (n) => Buffer.from(await minimalPdf([`Invoice INV-${n}`]))));
		pdfs.forEach((pdf, i) => nock(HOST).get(`/invoice-${i + 1}.pdf`).reply(200, pdf));
		const stored = storedFiles();
		const uploads: SeenRequest[] = [];
		// While the first file is uploaded, the second's stored copy is overwritten: its upload must notice.
		answer(nock(BASE).post('/api/v1/process').times(2), uploads, () => {
			writeFileSync(Container.get(BinaryDataService).getPath(stored[1].id!), Buffer.from(pdfs[0]));
			return [202, uploadAccepted(resultId(1))];
		});
		nock(BASE).get(`/api/v1/results/${resultId(1)}`).reply(200, doneResult(resultId(1)));

		const { error, outputs } = await runAction(byUrl, links(2), { continueOnFail: true });

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		expect(outputs[0].map((item) => item.json.error ?? item.json.invoice_number)).toEqual([
			'INV-1',
			expect.stringMatching(/^Item 2 \(invoice-2\.pdf\): the file changed after it was checked/),
		]);
	});
});
