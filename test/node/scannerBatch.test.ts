/**
 * Issue 46's measure of Split PDFs: a scanner's batch of 12 real invoices (nine text PDFs, three
 * photos put on pages as a scan is; test/harness/scannerBatch.ts) through n8n's engine against
 * the sandbox over real HTTP. Every file the sandbox received is captured on its way (a recording
 * proxy in front of the sandbox) and checked by qpdf: `--check` passes, and it has the pages asked.
 */
import { spawnSync } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { binaryItem, runNode, type RunResult, type TestCredential } from '../harness/engine';
import { roomyAccount, uploadsOf as uploadsIn } from '../harness/sandboxAccounts';
import { qpdfPages, withTemporaryFile } from '../harness/corpus';
import { scannerBatch, scannerBatchMissing, type ScannerBatch } from '../harness/scannerBatch';
import { skipNotice } from '../harness/skipNotice';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { parseUpload } from '../../sandbox/src/multipart';
import { expectPairedItems } from './actionNode.support';

interface Received {
	fileName: string;
	bytes: Uint8Array;
}

/**
 * A proxy in front of the sandbox that keeps every uploaded file as the sandbox receives it
 * (the multipart body read by the sandbox's own parser), and passes everything on unchanged.
 */
async function recordingProxy(target: string, received: Received[]): Promise<{ server: Server; url: string }> {
	const to = new URL(target);
	const server = createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const body = Buffer.concat(chunks);
			void (async () => {
				if (incoming.method === 'POST') {
					const upload = await parseUpload(incoming.headers['content-type'], new Uint8Array(body));
					if (upload.kind === 'file') received.push({ fileName: upload.filename, bytes: upload.bytes });
				}
				const forwarded = request({ host: to.hostname, port: to.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
					outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(outgoing);
				});
				forwarded.on('error', () => outgoing.destroy());
				forwarded.end(body);
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** qpdf's verdict on one file: `--check`'s exit code and output, and its page count. */
function qpdfVerdict(bytes: Uint8Array): { check: number | null; output: string; pages: number | undefined } {
	return withTemporaryFile(bytes, (path) => {
		const check = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
		return { check: check.status, output: `${check.stdout}${check.stderr}`, pages: qpdfPages(path).pages };
	});
}

const extractionOf = (item: INodeExecutionData) => item.json.extraction as IDataObject;
/** The document's number: the Invoice template's, or the Receipt template's when the service chose it. */
const numberOf = (item: INodeExecutionData) => item.json.invoice_number ?? item.json.receipt_number;

const missing = scannerBatchMissing();
if (missing) skipNotice(`${missing} (scannerBatch: a 12-invoice scanner batch split and extracted)`);

describe.skipIf(missing !== undefined)('a scanner batch of 12 real invoices, split before upload', () => {
	let sandbox: Sandbox;
	let proxy: { server: Server; url: string };
	let batch: ScannerBatch;
	const received: Received[] = [];

	beforeAll(async () => {
		sandbox = await startSandbox({ timing: 'fast' });
		proxy = await recordingProxy(sandbox.baseUrl, received);
		batch = await scannerBatch();
	}, 60_000);
	afterAll(async () => {
		await new Promise((resolve) => proxy?.server.close(resolve));
		await sandbox?.stop();
	});

	const newAccount = () => roomyAccount(sandbox, proxy.url);

	const uploadsOf = (accountId: string) => uploadsIn(sandbox, accountId);

	function run(cred: TestCredential, options: INodeParameters, waitForResult: boolean, workflowId: string): Promise<RunResult> {
		return runNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', waitForResult, output: 'fields', options },
			credential: cred,
			input: [binaryItem(batch.bytes, batch.fileName, 'application/pdf')],
			workflowId,
		});
	}

	/** What the sandbox received in this run, each file checked by qpdf. */
	function receivedSince(start: number, pagesEach: number[]): Received[] {
		const files = received.slice(start);
		expect(files.map((file) => qpdfVerdict(file.bytes))).toEqual(pagesEach.map((pages) => ({ check: 0, output: expect.stringContaining('No syntax or stream encoding errors found') as unknown, pages })));
		return files;
	}

	it('the batch is one 12-page PDF that qpdf finds sound', () => {
		expect(qpdfVerdict(batch.bytes)).toMatchObject({ check: 0, pages: 12 });
	});

	it("Don't Split: the batch is one document, one upload of 12 pages", { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const start = received.length;
		const { outputs, error } = await run(cred, {}, false, 'wf-batch-whole');
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expect(outputs[0][0].json.tokens_required).toBe(12);
		expect(outputs[0][0].json).not.toHaveProperty('source_pages');
		expect(uploadsOf(accountId).map((upload) => upload.filename)).toEqual(['scanner-batch.pdf']);
		receivedSince(start, [12]);
	});

	it('Every Page: 12 documents, each its own 1-page upload that qpdf accepts, each extracted with its own invoice number and saying its page', { timeout: 300_000 }, async () => {
		const { accountId, cred } = newAccount();
		const start = received.length;
		const { outputs, error } = await run(cred, { splitPdfs: 'everyPage' }, true, 'wf-batch-every-page');

		expect(error).toBeUndefined();
		const items = outputs[0];
		expect(items).toHaveLength(12);
		expectPairedItems(items, items.map(() => 0));
		expect(items.map((item) => numberOf(item))).toEqual(batch.pages.map((page) => page.invoiceNumber));
		expect(items.map((item) => extractionOf(item))).toEqual(
			batch.pages.map((_, i) =>
				expect.objectContaining({
					status: 'done',
					file_name: `scanner-batch (page ${i + 1}).pdf`,
					pages_used: 1,
					source_file_name: 'scanner-batch.pdf',
					source_pages: String(i + 1),
				}),
			),
		);
		const uploads = uploadsOf(accountId);
		expect(uploads.map((upload) => [upload.filename, upload.status])).toEqual(batch.pages.map((_, i) => [`scanner-batch (page ${i + 1}).pdf`, 202]));
		expect(new Set(uploads.map((upload) => upload.sha256)).size).toBe(12);
		const files = receivedSince(start, batch.pages.map(() => 1));
		expect(files.map((file) => file.fileName)).toEqual(uploads.map((upload) => upload.filename));
		// Together about the batch: each part holds its own page's objects, not the others'.
		const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
		expect(total).toBeLessThan(1.2 * batch.bytes.length);
	});

	it('Every N Pages = 2: 6 documents of 2 pages, each upload accepted by qpdf, charged 2 pages', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const start = received.length;
		const { outputs, error } = await run(cred, { splitPdfs: 'everyNPages', pagesPerPart: 2 }, false, 'wf-batch-pairs');

		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 0, 0, 0, 0, 0]);
		const pairs = ['1-2', '3-4', '5-6', '7-8', '9-10', '11-12'];
		expect(outputs[0].map((receipt) => [receipt.json.source_file_name, receipt.json.source_pages, receipt.json.tokens_required])).toEqual(pairs.map((pages) => ['scanner-batch.pdf', pages, 2]));
		expect(uploadsOf(accountId).map((upload) => upload.filename)).toEqual(pairs.map((pages) => `scanner-batch (pages ${pages}).pdf`));
		receivedSince(start, [2, 2, 2, 2, 2, 2]);
	});
});
