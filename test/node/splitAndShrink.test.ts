/**
 * Split PDFs and Shrink Large Photos (issue 46) through n8n's engine against the sandbox over real
 * HTTP: a scanner batch cut into parts, each its own upload, result and items saying its pages; a
 * phone photo too large to send made into a JPEG the service reads; what the sandbox received
 * counted, so nothing is sent twice and a second run reads each part's earlier result.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { decodeJpeg } from '../../nodes/shared/images/jpegDecode';
import { encodeJpeg } from '../../nodes/shared/images/jpegEncode';
import { shrinkPhoto } from '../../nodes/shared/images/shrink';
import { MAX_FILE_BYTES, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../../nodes/shared/limits';
import { binaryItem, runNode, type RunResult, type TestCredential } from '../harness/engine';
import { roomyAccount, uploadsOf as uploadsIn } from '../harness/sandboxAccounts';
import { largeJpeg, largePng, type DocumentPhoto } from '../harness/largePhotos';
import { LIBJPEG, djpeg } from '../harness/libjpeg';
import { loadFixture, type FixtureName } from '../fixtures';
import { pngWithText } from '../fixtures/images';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { expectPairedItems } from './actionNode.support';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timing: 'fast' });
});
afterAll(async () => await sandbox?.stop());

const newAccount = () => roomyAccount(sandbox);

/** The files the sandbox received from this account, in order. */
const uploadsOf = (accountId: string) => uploadsIn(sandbox, accountId);

function run(cred: TestCredential, options: INodeParameters, input: INodeExecutionData[], extra: { continueOnFail?: boolean; workflowId?: string; output?: string; waitForResult?: boolean } = {}): Promise<RunResult> {
	const parameters: INodeParameters = { resource: 'document', operation: 'extract', waitForResult: extra.waitForResult ?? true, output: extra.output ?? 'fields', options };
	return runNode({ nodeType: 'action', parameters, credential: cred, input, onError: extra.continueOnFail ? 'continueRegularOutput' : undefined, workflowId: extra.workflowId });
}

async function fixtureItem(name: FixtureName): Promise<INodeExecutionData> {
	const fixture = await loadFixture(name);
	return binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType);
}

const extractionOf = (item: INodeExecutionData) => item.json.extraction as IDataObject;

/**
 * The receipt photo scaled up `factor` times (nearest neighbour), with `noise` levels of
 * deterministic noise (a camera's grain: it makes the JPEG large), encoded with the project's own encoder.
 */
async function largePhoto(factor: number, noise: number): Promise<Buffer> {
	const small = decodeJpeg((await loadFixture('receiptJpeg')).bytes, { scale: 1 });
	const width = small.width * factor;
	const height = small.height * factor;
	const data = new Uint8Array(width * height * 3);
	let seed = 46;
	for (let y = 0, at = 0; y < height; y++) {
		const row = Math.floor(y / factor) * small.width;
		for (let x = 0; x < width; x++, at += 3) {
			const from = (row + Math.floor(x / factor)) * 3;
			for (let c = 0; c < 3; c++) {
				seed = (seed * 1103515245 + 12345) & 0x7fffffff;
				const grain = noise ? (seed % (2 * noise + 1)) - noise : 0;
				data[at + c] = Math.max(0, Math.min(255, small.data[from + c] + grain));
			}
		}
	}
	return Buffer.from(encodeJpeg({ width, height, data }, 95));
}

describe('Split PDFs', () => {
	it('Every Page: each page of a 3-page PDF is its own upload and result, its items naming the file and page; a second run reads each part again instead of uploading it', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const input = [await fixtureItem('bankStatement')];
		const workflowId = 'wf-split-every-page';
		const first = await run(cred, { splitPdfs: 'everyPage' }, input, { workflowId });

		expect(first.error).toBeUndefined();
		const items = first.outputs[0];
		expect(items).toHaveLength(3);
		expectPairedItems(items, [0, 0, 0]);
		expect(items.map((item) => extractionOf(item))).toEqual([1, 2, 3].map((page) =>
			expect.objectContaining({
				status: 'done',
				file_name: `bank-statement (page ${page}).pdf`,
				pages_used: 1,
				source_file_name: 'bank-statement.pdf',
				source_pages: String(page),
			}),
		));
		const uploads = uploadsOf(accountId);
		expect(uploads.map((upload) => [upload.filename, upload.status])).toEqual([1, 2, 3].map((page) => [`bank-statement (page ${page}).pdf`, 202]));
		expect(new Set(uploads.map((upload) => upload.sha256)).size).toBe(3);

		const second = await run(cred, { splitPdfs: 'everyPage' }, input, { workflowId });
		expect(second.error).toBeUndefined();
		expect(second.outputs[0].map((item) => [extractionOf(item).source_pages, extractionOf(item).reused])).toEqual([
			['1', true],
			['2', true],
			['3', true],
		]);
		expectPairedItems(second.outputs[0], [0, 0, 0]);
		expect(uploadsOf(accountId)).toHaveLength(3);
	});

	it('Every N Pages, One Item per Table Row: a 3-page statement in parts of 2 pages, every row saying its part', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { outputs, error } = await run(cred, { splitPdfs: 'everyNPages', pagesPerPart: 2 }, [await fixtureItem('bankStatement')], { output: 'tableRows' });

		expect(error).toBeUndefined();
		const rows = outputs[0];
		expect(rows.length).toBeGreaterThan(2);
		expectPairedItems(rows, rows.map(() => 0));
		expect([...new Set(rows.map((row) => row.json.source_pages))]).toEqual(['1-2', '3']);
		for (const row of rows) expect(row.json.source_file_name).toBe('bank-statement.pdf');
		expect(uploadsOf(accountId).map((upload) => upload.filename)).toEqual(['bank-statement (pages 1-2).pdf', 'bank-statement (page 3).pdf']);
	});

	it('a 40-page scanner batch in parts of 10 pages: 4 uploads, each charged its own pages', { timeout: 180_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { outputs, error } = await run(cred, { splitPdfs: 'everyNPages', pagesPerPart: 10 }, [await fixtureItem('bankStatementLong')], { waitForResult: false });
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 0, 0, 0]);
		expect(outputs[0].map((receipt) => [receipt.json.source_pages, receipt.json.tokens_required])).toEqual([
			['1-10', 10],
			['11-20', 10],
			['21-30', 10],
			['31-40', 10],
		]);
		expect(uploadsOf(accountId)).toHaveLength(4);
	});

	it('Extract with Template, Page Ranges from an expression: each item its own ranges, each part extracted with the template', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const templates = await runNode({ nodeType: 'action', parameters: { resource: 'template', operation: 'getMany', returnAll: true }, credential: cred });
		const bankStatement = templates.outputs[0].find((item) => item.json.name === 'Bank statement');
		const fixture = await loadFixture('bankStatement');
		const { outputs, error } = await runNode({
			nodeType: 'action',
			parameters: {
				resource: 'document',
				operation: 'extractWithTemplate',
				templateId: { __rl: true, mode: 'id', value: String(bankStatement?.json.scanner_id) },
				options: { splitPdfs: 'ranges', pageRanges: '={{ $json.ranges }}' },
			},
			credential: cred,
			input: [binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType, 'data', { ranges: '1, 2-' })],
		});

		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 0]);
		expect(outputs[0].map((item) => extractionOf(item))).toEqual([
			expect.objectContaining({ status: 'done', template: expect.objectContaining({ name: 'Bank statement' }), source_pages: '1', pages_used: 1 }),
			expect.objectContaining({ status: 'done', template: expect.objectContaining({ name: 'Bank statement' }), source_pages: '2-3', pages_used: 2 }),
		]);
		expect(uploadsOf(accountId).map((upload) => upload.filename)).toEqual(['bank-statement (page 1).pdf', 'bank-statement (pages 2-3).pdf']);
	});

	it('Every Attachment: a split PDF\'s parts and the other attachments each leave as documents, in order', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const statement = await loadFixture('bankStatement');
		const receipt = await loadFixture('receiptPng');
		const file = (bytes: Uint8Array, fileName: string, mimeType: string) => ({ data: Buffer.from(bytes).toString('base64'), fileName, mimeType });
		const email: INodeExecutionData = {
			json: { subject: 'Scans' },
			binary: { attachment_0: file(statement.bytes, statement.fileName, statement.mimeType), attachment_1: file(receipt.bytes, receipt.fileName, receipt.mimeType) },
		};
		const { outputs, error } = await runNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', documentSource: 'binaryFields', waitForResult: false, options: { splitPdfs: 'everyPage' } },
			credential: cred,
			input: [email],
		});
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 0, 0, 0]);
		expect(outputs[0].map((item) => [item.json.binary_field, item.json.source_pages ?? null])).toEqual([
			['attachment_0', '1'],
			['attachment_0', '2'],
			['attachment_0', '3'],
			['attachment_1', null],
		]);
		expect(uploadsOf(accountId)).toHaveLength(4);
	});

	it('Page Ranges that do not fit the document fail the item in words, before anything is sent; Continue gives its error item', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const input = [await fixtureItem('bankStatement'), await fixtureItem('receiptPng')];
		const options = { splitPdfs: 'ranges', pageRanges: '1-2, 5' };

		const stopped = await run(cred, options, input);
		expect(stopped.error?.message).toBe(
			"Item 1 (bank-statement.pdf): \"Page Ranges\" does not fit the document: Page 5 in '5' is beyond the end of the document, which has 3 pages",
		);
		expect(uploadsOf(accountId)).toEqual([]);

		const continued = await run(cred, options, input, { continueOnFail: true });
		expect(continued.error).toBeUndefined();
		const [failed, receipt] = continued.outputs[0];
		expect(failed.json.error).toBe(stopped.error?.message);
		expect(failed.json.error_description).toContain('Nothing was sent to the service');
		// Not a PDF: not split.
		expect(extractionOf(receipt)).toMatchObject({ status: 'done', file_name: 'receipt.png' });
		expect(extractionOf(receipt)).not.toHaveProperty('source_pages');
		expectPairedItems(continued.outputs[0], [0, 1]);
		expect(uploadsOf(accountId).map((upload) => upload.filename)).toEqual(['receipt.png']);
	});

	it('a 1-page PDF gives one part: sent as it is, its items as before', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { outputs, error } = await run(cred, { splitPdfs: 'everyPage' }, [await fixtureItem('invoiceEn')]);
		expect(error).toBeUndefined();
		expect(extractionOf(outputs[0][0])).toMatchObject({ status: 'done', file_name: 'invoice-en.pdf' });
		expect(extractionOf(outputs[0][0])).not.toHaveProperty('source_pages');
		const [upload] = uploadsOf(accountId);
		expect(upload.sha256).toBe(createHash('sha256').update((await loadFixture('invoiceEn')).bytes).digest('hex'));
	});

	it('pages that all show one large object: the parts of one file share one output budget, so the item is refused before anything is sent', { timeout: 60_000 }, async () => {
		// 100 pages drawing one 600 KB content stream: page by page, 100 parts of 600 KB each (60 MB
		// from a 0.6 MB file). Made one opening per part, each part had the whole budget and all 100
		// were sent; from one opening they are counted together, over the budget of 8x the file + 32 MB.
		const pdf = await PDFDocument.create();
		const shared = pdf.context.register(pdf.context.stream(`% ${'0123456789abcdef'.repeat(600_000 / 16)}\n`));
		for (let page = 0; page < 100; page++) pdf.addPage([200, 200]).node.set(PDFName.of('Contents'), shared);
		const bytes = await pdf.save({ useObjectStreams: false });
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, { splitPdfs: 'everyPage' }, [binaryItem(bytes, 'stack.pdf', 'application/pdf')]);
		expect(error?.message).toMatch(/^Item 1 \(stack\.pdf\): the PDF could not be split: The parts would together be larger than/);
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('a range that leaves pages out names them', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, { splitPdfs: 'ranges', pageRanges: '1' }, [await fixtureItem('bankStatement')]);
		expect(error?.message).toContain('Pages 2-3 of the 3-page document are in no part');
		expect(uploadsOf(accountId)).toEqual([]);
	});
});

describe('Shrink Large Photos', () => {
	let large: Buffer;
	beforeAll(async () => {
		large = await largePhoto(3, 24);
	}, 60_000);

	/**
	 * What the sandbox received (it keeps each upload's sha256, not its bytes): the JPEG our
	 * shrink makes of the same file, which djpeg, an independent decoder, reads as a picture of at
	 * most 2,600 pixels on its long side.
	 */
	async function expectUploadedShrunk(accountId: string, photo: DocumentPhoto, fileName: string): Promise<void> {
		const shrunk = await shrinkPhoto(photo.bytes, photo.mimeType === 'image/png' ? 'png' : 'jpeg');
		const uploads = uploadsOf(accountId);
		expect(uploads.map((upload) => [upload.filename, upload.contentType, upload.status])).toEqual([[fileName, 'image/jpeg', 202]]);
		expect(uploads[0].sha256).toBe(createHash('sha256').update(shrunk.bytes).digest('hex'));
		expect(uploads[0].bytes).toBe(shrunk.bytes.byteLength);
		expect(uploads[0].bytes).toBeLessThanOrEqual(MAX_FILE_BYTES);
		const long = Math.max(shrunk.width, shrunk.height);
		expect(long).toBe(RECOMMENDED_IMAGE_LONG_SIDE_PX);
		expect(Math.min(shrunk.width, shrunk.height)).toBe(Math.round((RECOMMENDED_IMAGE_LONG_SIDE_PX * Math.min(photo.width, photo.height)) / Math.max(photo.width, photo.height)));
		if (LIBJPEG) {
			const decoded = djpeg(shrunk.bytes);
			expect([decoded.width, decoded.height]).toEqual([shrunk.width, shrunk.height]);
		}
	}

	// Made once for the tests that use them (a few seconds each).
	let jpeg: Promise<DocumentPhoto> | undefined;
	let png: Promise<DocumentPhoto> | undefined;
	const photoJpeg = () => (jpeg ??= largeJpeg());
	const photoPng = () => (png ??= largePng());

	/** The invoice's number and total, as the sandbox's OCR read them from the shrunk photo. */
	function expectDocumentRead(item: INodeExecutionData, photo: DocumentPhoto): void {
		expect(item.json.invoice_number).toBe(photo.expected.invoice_number);
		expect(item.json.total).toBe(photo.expected.total);
	}

	it('a 9 MB 48-megapixel phone photo of an invoice (the corpus\'s, else the fixture drawn) is sent as a JPEG of 2,600 pixels and at most 4.4 MB, its text read; its items say what it was', { timeout: 180_000 }, async () => {
		const photo = await photoJpeg();
		expect(photo.bytes.byteLength).toBeGreaterThan(8_000_000);
		expect(photo.width * photo.height).toBe(48_000_000);
		const { accountId, cred } = newAccount();
		const { outputs, error } = await run(cred, {}, [binaryItem(photo.bytes, photo.fileName, photo.mimeType)]);

		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		expectPairedItems(outputs[0], [0]);
		const megabytes = (photo.bytes.byteLength / 1_000_000).toFixed(1);
		expect(extractionOf(outputs[0][0])).toMatchObject({ status: 'done', file_name: 'invoice-photo.jpg', file_type: 'image/jpeg', shrunk_from: `8000x6000 JPEG, ${megabytes} MB` });
		expectDocumentRead(outputs[0][0], photo);
		await expectUploadedShrunk(accountId, photo, 'invoice-photo.jpg');
	});

	it('a 6 MB PNG scan of 41 megapixels is sent as a JPEG named .jpg of 2,600 pixels and at most 4.4 MB, its text read', { timeout: 180_000 }, async () => {
		const photo = await photoPng();
		expect(photo.bytes.byteLength).toBeGreaterThan(MAX_FILE_BYTES);
		const { accountId, cred } = newAccount();
		const { outputs, error } = await run(cred, {}, [binaryItem(photo.bytes, photo.fileName, photo.mimeType)]);

		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0]);
		const megabytes = (photo.bytes.byteLength / 1_000_000).toFixed(1);
		expect(extractionOf(outputs[0][0])).toMatchObject({ status: 'done', file_name: 'invoice-scan.jpg', file_type: 'image/jpeg', shrunk_from: `5400x7600 PNG, ${megabytes} MB` });
		expectDocumentRead(outputs[0][0], photo);
		await expectUploadedShrunk(accountId, photo, 'invoice-scan.jpg');
	});

	it('off, the 48-megapixel photo and the 6 MB PNG are refused as too large, nothing sent', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const photos = [await photoJpeg(), await photoPng()];
		const { outputs, error } = await run(cred, { shrinkPhotos: false }, photos.map((photo) => binaryItem(photo.bytes, photo.fileName, photo.mimeType)), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.error)).toEqual([
			expect.stringMatching(/^Item 1 \(invoice-photo\.jpg\): The file is \d+\.\d+ MB; the service accepts files up to about 4\.4 MB$/),
			expect.stringMatching(/^Item 2 \(invoice-scan\.png\): The file is \d+\.\d+ MB; the service accepts files up to about 4\.4 MB$/),
		]);
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('a PNG over 2,600 pixels is sent as a JPEG named .jpg; its error item, when the service finds no text, says what it was', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		// Pale lines, no text: the sandbox rejects it (NO_TEXT), as the service would.
		const { outputs, error } = await run(cred, {}, [binaryItem(pngWithText([], 2000, 3000), 'scan.png', 'image/png')], { continueOnFail: true });
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0]);
		expect(outputs[0][0].json).toMatchObject({ status: 'rejected', error_code: 'NO_TEXT', file_name: 'scan.jpg', shrunk_from: expect.stringMatching(/^2000x3000 PNG, \d+\.\d MB$/) });
		expect(uploadsOf(accountId).map((upload) => [upload.filename, upload.contentType])).toEqual([['scan.jpg', 'image/jpeg']]);
	});

	it('off, a photo over the size limit is refused as before, nothing sent', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, { shrinkPhotos: false }, [binaryItem(large, 'receipt-photo.jpg', 'image/jpeg')]);
		expect(error?.message).toMatch(/^Item 1 \(receipt-photo\.jpg\): The file is \d+\.\d+ MB; the service accepts files up to about 4\.4 MB$/);
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('a photo that cannot be decoded fails its item in words (Continue: its error item), nothing sent', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		// The header says 3600 x 4800; the image data stops half way.
		const cut = large.subarray(0, Math.floor(large.byteLength / 2));
		const { outputs, error } = await run(cred, {}, [binaryItem(cut, 'cut.jpg', 'image/jpeg')], { continueOnFail: true });
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0]);
		expect(outputs[0][0].json.error).toMatch(/^Item 1 \(cut\.jpg\): the JPEG image could not be shrunk: /);
		expect(uploadsOf(accountId)).toEqual([]);
	});
});
