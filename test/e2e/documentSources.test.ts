/**
 * The new document sources inside a real n8n (`n8n execute`), against the sandbox: an item whose
 * only file is a logo, a damaged PDF next to a good one in one item (files gathered by n8n's
 * Aggregate node, no code), and links: one to a PDF, one answering a web page. Each gets a clear
 * message; nothing is lost and nothing is paid for what is not a document.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { outputJson } from '../../scripts/n8n/runData';
import { loadFixture } from '../fixtures';
import { pngWithText } from '../fixtures/images';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, executeOk, readFiles, sandboxWithCredential } from './support';

const CREDENTIAL = 'e2eSourcesCred';

describe('document sources inside n8n: every attachment, and URLs', () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let folder: { dir: string; remove: () => void };
	let files: Server;
	let filesUrl: string;
	const fileRequests: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL));
		folder = await documentFolder({ 'mixed/invoice.pdf': 'invoiceEn', 'mixed/damaged.pdf': 'corrupt' });
		writeFileSync(join(folder.dir, 'logo.png'), pngWithText([], 240, 80));
		const pdf = (await loadFixture('invoiceEn')).bytes;
		// A file host on loopback: a PDF, and a "link" that opens a sign-in page.
		files = createServer((request, response) => {
			fileRequests.push({ path: request.url ?? '', headers: request.headers });
			if (request.url?.startsWith('/shared/invoice.pdf')) response.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(pdf));
			else response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Please sign in</body></html>');
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		const address = files.address();
		filesUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
	});

	afterAll(async () => {
		folder?.remove();
		await new Promise((resolve) => files?.close(resolve));
		await sandbox?.stop();
	});

	it('an item whose only file is a logo leaves once, saying so; nothing is sent', async () => {
		await sandbox.resetStats();
		const workflow = new WorkflowBuilder('e2eOnlyLogo', 'e2e: only a logo')
			.add(readFiles('Read Logo', join(folder.dir, 'logo.png')), 'Start')
			.add(action('Extract Every Attachment', CREDENTIAL, { resource: 'document', operation: 'extract', documentSource: 'binaryFields' }), 'Read Logo')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		expect(outputJson(run, 'Extract Every Attachment')).toEqual([
			expect.objectContaining({
				status: 'no_document',
				skipped_files: [expect.objectContaining({ binary_field: 'data', file_name: 'logo.png', reason: expect.stringContaining('240 x 80 px') })],
			}),
		]);
		expect((await sandbox.stats()).uploads).toEqual([]);
	});

	it('a damaged PDF next to a good one (On Error: Continue): the damaged one fails alone, named; the good one is extracted', async () => {
		await sandbox.resetStats();
		const workflow = new WorkflowBuilder('e2eDamagedAttachment', 'e2e: a damaged attachment')
			.add(readFiles('Read Files', join(folder.dir, 'mixed', '*.pdf')), 'Start')
			.add(
				{ name: 'One Item', type: 'n8n-nodes-base.aggregate', parameters: { aggregate: 'aggregateAllItemData', options: { includeBinaries: true } } },
				'Read Files',
			)
			.add(
				action('Extract Every Attachment', CREDENTIAL, { resource: 'document', operation: 'extract', documentSource: 'binaryFields' }, { onError: 'continueRegularOutput' }),
				'One Item',
			)
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const items = outputJson(run, 'Extract Every Attachment');
		const damaged = items.find((item) => item.file_name === 'damaged.pdf');
		const good = items.find((item) => item.file_name === 'invoice.pdf');
		expect(items).toHaveLength(2);
		expect(damaged?.error).toBe('Item 1 (damaged.pdf): The PDF file is damaged or incomplete');
		expect(String(damaged?.error_description)).toContain('Nothing was sent to the service');
		expect(good).toMatchObject({ invoice_number: 'INV-2026-0042' });
		expect((await sandbox.stats()).uploads.map((upload) => upload.filename)).toEqual(['invoice.pdf']);
	});

	it('by URL: a link to a PDF is extracted, never sent the API key; a link answering a web page gets a clear error and no upload', async () => {
		await sandbox.resetStats();
		fileRequests.length = 0;
		// The file server runs on this machine: a loopback address, refused unless the user allows their own network.
		const byUrl = (fileUrl: string, allowPrivate = true) => ({
			resource: 'document',
			operation: 'extract',
			documentSource: 'url',
			fileUrl,
			options: allowPrivate ? { allowPrivateNetworkAddresses: true } : {},
		});
		const workflow = new WorkflowBuilder('e2eByUrl', 'e2e: documents by URL')
			.add(action('Extract PDF Link', CREDENTIAL, byUrl(`${filesUrl}/shared/invoice.pdf?token=abc`)), 'Start')
			.add(action('Extract Viewer Link', CREDENTIAL, byUrl(`${filesUrl}/view/invoice?token=abc`), { onError: 'continueRegularOutput' }), 'Start')
			.add(action('Extract Local Link', CREDENTIAL, byUrl(`${filesUrl}/shared/invoice.pdf?secret=xyz`, false), { onError: 'continueRegularOutput' }), 'Start')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		// The link's query string (a token) never reaches the output.
		expect(outputJson(run, 'Extract PDF Link')).toEqual([expect.objectContaining({ invoice_number: 'INV-2026-0042', file_url: `${filesUrl}/shared/invoice.pdf` })]);
		expect(JSON.stringify([outputJson(run, 'Extract PDF Link'), outputJson(run, 'Extract Viewer Link')])).not.toContain('token=abc');
		const [local] = outputJson(run, 'Extract Local Link');
		expect(String(local.error)).toMatch(/loopback address/);
		expect(JSON.stringify(local)).not.toContain('secret=xyz');
		const [viewer] = outputJson(run, 'Extract Viewer Link');
		expect(viewer.error).toBe(`Item 1: The address answered a web page, not a file (${filesUrl}/view/invoice)`);
		expect(String(viewer.error_description)).toContain('direct download link');
		expect((await sandbox.stats()).uploads.map((upload) => upload.filename)).toEqual(['invoice.pdf']);
		expect(fileRequests.map((request) => request.path).sort()).toEqual(['/shared/invoice.pdf?token=abc', '/view/invoice?token=abc']);
		for (const request of fileRequests) {
			expect(request.headers).not.toHaveProperty('x-api-key');
			expect(JSON.stringify(request.headers)).not.toContain(sandbox.demoKey);
		}
	});
});
