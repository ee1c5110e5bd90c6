/**
 * Issue 46: a photo or a scan over 4.4 MB that arrives by URL or inside an attached (forwarded)
 * email. With Shrink Large Photos on, a JPEG or PNG is read whole up to 40 MB to be shrunk; with
 * Split PDFs on, a PDF up to 40 MB to be split. Any other file is still read only up to 4.4 MB: a
 * declared size over what its type may have is refused unread, or at its first kilobyte. Through
 * n8n's engine against the sandbox over real HTTP; the links are served by a server on this machine
 * (Allow Private Network Addresses on), the emails made by nodemailer's composer.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import MailComposer from 'nodemailer/lib/mail-composer';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { shrinkPhoto } from '../../nodes/shared/images/shrink';
import { MAX_FILE_BYTES, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../../nodes/shared/limits';
import { runNode, type RunResult, type TestCredential } from '../harness/engine';
import { roomyAccount, uploadsOf as uploadsIn } from '../harness/sandboxAccounts';
import { largeJpeg, type DocumentPhoto } from '../harness/largePhotos';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { expectPairedItems } from './actionNode.support';

let sandbox: Sandbox;
let photo: DocumentPhoto;
let shrunkSha256: string;
/** What the local server serves, by path: a file, or a response written by hand. */
const routes = new Map<string, Uint8Array | ((response: ServerResponse) => void)>();
const hits: string[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
	photo = await largeJpeg();
	shrunkSha256 = createHash('sha256').update((await shrinkPhoto(photo.bytes, 'jpeg')).bytes).digest('hex');
	server = createServer((request, response) => {
		hits.push(request.url ?? '');
		const route = routes.get(request.url ?? '');
		if (typeof route === 'function') return route(response);
		if (!route) return response.writeHead(404).end();
		response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(route.byteLength) });
		response.end(Buffer.from(route));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
	server?.closeAllConnections();
	await new Promise((resolve) => server?.close(resolve));
	await sandbox?.stop();
});

const newAccount = () => roomyAccount(sandbox);
const uploadsOf = (accountId: string) => uploadsIn(sandbox, accountId);

function run(cred: TestCredential, parameters: INodeParameters, input: INodeExecutionData[], continueOnFail = false): Promise<RunResult> {
	return runNode({
		nodeType: 'action',
		parameters: { resource: 'document', operation: 'extract', output: 'fields', ...parameters },
		credential: cred,
		input,
		onError: continueOnFail ? 'continueRegularOutput' : undefined,
	});
}

const byUrl = (path: string, options: INodeParameters = {}): INodeParameters => ({
	documentSource: 'url',
	fileUrl: `${origin}${path}`,
	options: { allowPrivateNetworkAddresses: true, ...options },
});

/** An email forwarded as an attachment (.eml) holding `files`, on an item as the Email Trigger gives it. */
async function forwardedEmail(files: Array<{ bytes: Uint8Array; fileName: string; mimeType: string }>): Promise<INodeExecutionData> {
	const eml = await new MailComposer({
		from: 'Supplier <billing@supplier.example>',
		to: 'colleague@buyer.example',
		subject: 'Scans March',
		text: 'Attached.',
		attachments: files.map(({ bytes, fileName, mimeType }) => ({ filename: fileName, content: Buffer.from(bytes), contentType: mimeType })),
	})
		.compile()
		.build();
	return { json: { subject: 'Fwd: Scans March' }, binary: { attachment_0: { data: eml.toString('base64'), fileName: 'Scans March.eml', mimeType: 'message/rfc822', fileSize: String(eml.length) } } };
}

const everyAttachment = (options: INodeParameters = {}): INodeParameters => ({ documentSource: 'binaryFields', options });

/** The photo was sent shrunk, its text read by the sandbox's OCR. */
function expectShrunkAndRead(result: RunResult, accountId: string): void {
	expect(result.error).toBeUndefined();
	expectPairedItems(result.outputs[0], [0]);
	const [item] = result.outputs[0];
	expect(item.json.invoice_number).toBe(photo.expected.invoice_number);
	expect(item.json.total).toBe(photo.expected.total);
	expect((item.json.extraction as { shrunk_from?: string }).shrunk_from).toBe(`8000x6000 JPEG, ${(photo.bytes.byteLength / 1e6).toFixed(1)} MB`);
	const uploads = uploadsOf(accountId);
	expect(uploads.map((upload) => [upload.contentType, upload.status, upload.sha256])).toEqual([['image/jpeg', 202, shrunkSha256]]);
	expect(uploads[0].bytes).toBeLessThanOrEqual(MAX_FILE_BYTES);
}

describe('a 9 MB phone photo by URL or in a forwarded email, Shrink Large Photos on', () => {
	it('by URL: read whole, shrunk to 2,600 pixels and extracted', { timeout: 180_000 }, async () => {
		expect(photo.bytes.byteLength).toBeGreaterThan(2 * MAX_FILE_BYTES);
		routes.set('/invoice-photo.jpg', photo.bytes);
		const { accountId, cred } = newAccount();
		const result = await run(cred, byUrl('/invoice-photo.jpg'), [{ json: {} }]);
		expectShrunkAndRead(result, accountId);
		expect(uploadsOf(accountId)[0].filename).toBe('invoice-photo.jpg');
		expect(RECOMMENDED_IMAGE_LONG_SIDE_PX).toBe(2600);
	});

	it('inside an attached .eml (Every Attachment): decoded whole, shrunk and extracted', { timeout: 180_000 }, async () => {
		const { accountId, cred } = newAccount();
		const result = await run(cred, everyAttachment(), [await forwardedEmail([{ bytes: photo.bytes, fileName: 'invoice-photo.jpg', mimeType: 'image/jpeg' }])]);
		expectShrunkAndRead(result, accountId);
		expect(result.outputs[0][0].json).toMatchObject({ binary_field: 'attachment_0', file_name: 'invoice-photo.jpg', attached_email: 'Scans March' });
	});

	it('Shrink Large Photos off: refused as too large both ways, as before, nothing sent', { timeout: 60_000 }, async () => {
		routes.set('/invoice-photo.jpg', photo.bytes);
		const { accountId, cred } = newAccount();
		const byLink = await run(cred, byUrl('/invoice-photo.jpg', { shrinkPhotos: false }), [{ json: {} }]);
		expect(byLink.error?.message).toMatch(/^Item 1: The file is 9\.\d MB; the service accepts files up to about 4\.4 MB \(/);
		const inEmail = await run(cred, everyAttachment({ shrinkPhotos: false }), [await forwardedEmail([{ bytes: photo.bytes, fileName: 'invoice-photo.jpg', mimeType: 'image/jpeg' }])]);
		expect(inEmail.error?.message).toMatch(/^Item 1 \(invoice-photo\.jpg\): The file is 9\.\d MB; the service accepts files up to about 4\.4 MB$/);
		expect(uploadsOf(accountId)).toEqual([]);
	});
});

describe('what is still refused unread', () => {
	it('a declared Content-Length of 10 GB: refused before a byte of the body is read, at once', { timeout: 30_000 }, async () => {
		let written = 0;
		routes.set('/huge.jpg', (response) => {
			response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(10_000_000_000) });
			// A byte now and then: the server would take hours to send what it declared.
			const timer = setInterval(() => {
				written++;
				if (!response.write(Buffer.from([0xff]))) clearInterval(timer);
			}, 100);
			response.on('close', () => clearInterval(timer));
		});
		const { accountId, cred } = newAccount();
		const started = performance.now();
		const { error } = await run(cred, byUrl('/huge.jpg'), [{ json: {} }]);
		expect(error?.message).toMatch(/^Item 1: The file is 10000\.0 MB; the service accepts files up to about 4\.4 MB, and a photo to shrink or a PDF to split is read up to 40 MB \(/);
		expect(performance.now() - started).toBeLessThan(5_000);
		expect(written).toBeLessThan(30);
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('a declared 30 MB that is no photo (a zip): refused at its first kilobyte, the rest not read', { timeout: 30_000 }, async () => {
		let sent = 0;
		routes.set('/archive.zip', (response) => {
			response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(30_000_000) });
			const zipHead = Buffer.alloc(64 * 1024);
			zipHead.set([0x50, 0x4b, 0x03, 0x04]);
			response.write(zipHead);
			sent += zipHead.length;
			// The rest never comes: the refusal must not wait for it.
		});
		const { accountId, cred } = newAccount();
		const started = performance.now();
		const { error } = await run(cred, byUrl('/archive.zip'), [{ json: {} }]);
		expect(error?.message).toMatch(/^Item 1: The file is 30\.0 MB; the service accepts files up to about 4\.4 MB \(/);
		expect(performance.now() - started).toBeLessThan(5_000);
		expect(sent).toBe(64 * 1024);
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('a 6 MB file that is no document inside an attached email: only its first kilobyte decoded, listed as skipped; the photo beside it still shrunk', { timeout: 180_000 }, async () => {
		const blob = new Uint8Array(6_000_000).fill(0x41);
		blob.set([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]); // GIF89a
		const { accountId, cred } = newAccount();
		const result = await run(cred, everyAttachment(), [
			await forwardedEmail([
				{ bytes: blob, fileName: 'banner.gif', mimeType: 'image/gif' },
				{ bytes: photo.bytes, fileName: 'invoice-photo.jpg', mimeType: 'image/jpeg' },
			]),
		]);
		expectShrunkAndRead(result, accountId);
		expect(result.outputs[0][0].json.skipped_files).toEqual([expect.objectContaining({ file_name: 'banner.gif', attached_email: 'Scans March' })]);
	});
});

describe('a scan over 4.4 MB by URL or in a forwarded email, Split PDFs on', () => {
	let scan: Uint8Array;
	beforeAll(async () => {
		// 40 pages of the bank statement fixture, each drawing its own 150 KB content stream: about 6 MB.
		const { PDFDocument, PDFName } = await import('pdf-lib');
		const { loadFixture } = await import('../fixtures');
		const source = await PDFDocument.load((await loadFixture('bankStatementLong')).bytes);
		const pdf = await PDFDocument.create();
		for (const [n, page] of (await pdf.copyPages(source, source.getPageIndices())).entries()) {
			const padding = pdf.context.register(pdf.context.stream(`% scan noise ${n} ${String(n % 10).repeat(150_000)}\n`));
			const contents = page.node.get(PDFName.of('Contents'));
			page.node.set(PDFName.of('Contents'), pdf.context.obj([...(contents ? [contents] : []), padding]));
			pdf.addPage(page);
		}
		scan = await pdf.save({ useObjectStreams: false });
	}, 60_000);

	it('by URL and inside an .eml: read whole and split into parts of 10 pages, each under 4.4 MB its own upload', { timeout: 180_000 }, async () => {
		expect(scan.byteLength).toBeGreaterThan(MAX_FILE_BYTES);
		routes.set('/scan.pdf', scan);
		const options = { splitPdfs: 'everyNPages', pagesPerPart: 10 };
		const parts = ['1-10', '11-20', '21-30', '31-40'];
		const linkAccount = newAccount();
		const byLink = await run(linkAccount.cred, { ...byUrl('/scan.pdf', options), waitForResult: false }, [{ json: {} }]);
		expect(byLink.error).toBeUndefined();
		expect(byLink.outputs[0].map((receipt) => [receipt.json.source_pages, receipt.json.tokens_required])).toEqual(parts.map((pages) => [pages, 10]));
		const emailAccount = newAccount();
		const inEmail = await run(emailAccount.cred, { ...everyAttachment(options), waitForResult: false }, [await forwardedEmail([{ bytes: scan, fileName: 'scan.pdf', mimeType: 'application/pdf' }])]);
		expect(inEmail.error).toBeUndefined();
		expect(inEmail.outputs[0].map((receipt) => receipt.json.source_pages)).toEqual(parts);
		const [linkUploads, emailUploads] = [uploadsOf(linkAccount.accountId), uploadsOf(emailAccount.accountId)];
		for (const uploads of [linkUploads, emailUploads]) {
			expect(uploads.map((upload) => [upload.filename, upload.status])).toEqual(parts.map((pages) => [`scan (pages ${pages}).pdf`, 202]));
			for (const upload of uploads) expect(upload.bytes).toBeLessThanOrEqual(MAX_FILE_BYTES);
		}
		// The same parts both ways, made from the same file.
		expect(emailUploads.map((upload) => upload.sha256)).toEqual(linkUploads.map((upload) => upload.sha256));
	});
});
