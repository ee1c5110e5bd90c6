/**
 * Issue 46: a copier's scan over 4.4 MB, split before upload. With Split PDFs on, a PDF up to
 * MAX_PDF_BYTES_TO_SPLIT is read whole and split, each part held to the service's 4.4 MB: a part
 * still over it fails alone, named by its pages, and the file's other parts are sent. With Split
 * off the file is refused as before, the message pointing to Split PDFs. Through n8n's engine
 * against the sandbox over real HTTP; the files are made at test time from the corpus's invoices
 * (test/harness/scannerBatch.ts) by qpdf.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_FILE_BYTES, MAX_PDF_BYTES_TO_SPLIT } from '../../nodes/shared/limits';
import { splitPdf } from '../../nodes/shared/preflight/pdf/split';
import { qpdfPages, withTemporaryFile } from '../harness/corpus';
import { binaryItem, runNode, type RunResult, type TestCredential } from '../harness/engine';
import { roomyAccount, uploadsOf as uploadsIn } from '../harness/sandboxAccounts';
import { largeJpeg } from '../harness/largePhotos';
import { scannerBatch, scannerBatchMissing } from '../harness/scannerBatch';
import { skipNotice } from '../harness/skipNotice';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { expectPairedItems } from './actionNode.support';

/** The PDFs joined by qpdf, each file's pages in turn: each copy's objects are its own, so the result is as large as the files together. */
function joined(files: Uint8Array[]): Uint8Array {
	const folder = mkdtempSync(join(tmpdir(), 'large-pdf-'));
	try {
		const paths = files.map((bytes, i) => {
			const path = join(folder, `${i + 1}.pdf`);
			writeFileSync(path, bytes);
			return path;
		});
		const output = join(folder, 'joined.pdf');
		execFileSync('qpdf', ['--empty', '--pages', ...paths, '--', output]);
		return new Uint8Array(readFileSync(output));
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** A photo on a page of its own, as a copier scans a page at high resolution. */
async function photoPage(jpeg: Uint8Array): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	const image = await pdf.embedJpg(jpeg);
	const { width, height } = image.scale(72 / 600);
	pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
	return await pdf.save({ useObjectStreams: false });
}

function qpdfAccepts(bytes: Uint8Array): { check: number | null; pages: number | undefined } {
	return withTemporaryFile(bytes, (path) => ({ check: spawnSync('qpdf', ['--check', path]).status, pages: qpdfPages(path).pages }));
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const missing = scannerBatchMissing();
if (missing) skipNotice(`${missing} (largePdfSplit: a scan over 4.4 MB split into parts)`);

describe.skipIf(missing !== undefined)('a PDF over 4.4 MB with Split PDFs', () => {
	let sandbox: Sandbox;
	/** Four copies of the 12-invoice batch: 48 pages, about 5.8 MB. */
	let stack: Uint8Array;
	/** The batch and, as page 13, a 9 MB photo of an invoice: about 10.7 MB. */
	let withPhoto: Uint8Array;

	beforeAll(async () => {
		sandbox = await startSandbox({ timing: 'fast' });
		const batch = (await scannerBatch()).bytes;
		stack = joined([batch, batch, batch, batch]);
		withPhoto = joined([batch, await photoPage((await largeJpeg()).bytes)]);
	}, 120_000);
	afterAll(async () => await sandbox?.stop());

	const newAccount = () => roomyAccount(sandbox);
	const uploadsOf = (accountId: string) => uploadsIn(sandbox, accountId);

	function run(cred: TestCredential, options: INodeParameters, input: INodeExecutionData[], continueOnFail = false): Promise<RunResult> {
		return runNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', waitForResult: false, options },
			credential: cred,
			input,
			onError: continueOnFail ? 'continueRegularOutput' : undefined,
		});
	}

	it('the files are what they should be: over 4.4 MB, under the cap, sound', () => {
		expect(stack.byteLength).toBeGreaterThan(MAX_FILE_BYTES);
		expect(withPhoto.byteLength).toBeGreaterThan(2 * MAX_FILE_BYTES);
		expect(withPhoto.byteLength).toBeLessThan(MAX_PDF_BYTES_TO_SPLIT);
		expect(qpdfAccepts(stack)).toEqual({ check: 0, pages: 48 });
		expect(qpdfAccepts(withPhoto)).toEqual({ check: 0, pages: 13 });
	});

	it("Don't Split: refused as too large, as before, the message pointing to Split PDFs; nothing sent", { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, {}, [binaryItem(stack, 'copier-scan.pdf', 'application/pdf')]);
		expect(error?.message).toBe(`Item 1 (copier-scan.pdf): The file is ${(stack.byteLength / 1e6).toFixed(1)} MB; the service accepts files up to about 4.4 MB`);
		expect((error as { description?: string }).description).toMatch(/Split PDFs .*PDFs up to 40 MB are read and split, and each part of at most 4\.4 MB is sent as its own document/);
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('Every N Pages = 12: the 5.8 MB stack is read and split into 4 uploads of 12 pages, each under 4.4 MB and accepted by qpdf', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { outputs, error } = await run(cred, { splitPdfs: 'everyNPages', pagesPerPart: 12 }, [binaryItem(stack, 'copier-scan.pdf', 'application/pdf')]);
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], [0, 0, 0, 0]);
		const parts = ['1-12', '13-24', '25-36', '37-48'];
		expect(outputs[0].map((receipt) => [receipt.json.source_file_name, receipt.json.source_pages, receipt.json.tokens_required])).toEqual(parts.map((pages) => ['copier-scan.pdf', pages, 12]));
		const uploads = uploadsOf(accountId);
		expect(uploads.map((upload) => [upload.filename, upload.status])).toEqual(parts.map((pages) => [`copier-scan (pages ${pages}).pdf`, 202]));
		// What was sent is the parts the split makes, each one sound and under the limit.
		const made = await splitPdf(stack, [0, 12, 24, 36].map((first) => Array.from({ length: 12 }, (_, i) => first + i + 1)));
		expect(uploads.map((upload) => [upload.sha256, upload.bytes])).toEqual(made.map((part) => [sha256(part), part.byteLength]));
		for (const part of made) {
			expect(part.byteLength).toBeLessThanOrEqual(MAX_FILE_BYTES);
			expect(qpdfAccepts(part)).toEqual({ check: 0, pages: 12 });
		}
	});

	it('Page Ranges giving one part (1-): the file is sent whole, so it is refused as too large, saying so', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const { error } = await run(cred, { splitPdfs: 'ranges', pageRanges: '1-' }, [binaryItem(stack, 'copier-scan.pdf', 'application/pdf')]);
		expect(error?.message).toMatch(/^Item 1 \(copier-scan\.pdf\): The file is \d\.\d MB; the service accepts files up to about 4\.4 MB$/);
		expect((error as { description?: string }).description).toContain('It is sent whole, as it gives one part.');
		expect(uploadsOf(accountId)).toEqual([]);
	});

	it('a part still over 4.4 MB (a 9 MB photo scanned as page 13) fails alone, named by its page; the other parts are sent', { timeout: 120_000 }, async () => {
		const { accountId, cred } = newAccount();
		const input = [binaryItem(withPhoto, 'copier-scan.pdf', 'application/pdf')];
		const options = { splitPdfs: 'everyNPages', pagesPerPart: 6 };

		const continued = await run(cred, options, input, true);
		expect(continued.error).toBeUndefined();
		expectPairedItems(continued.outputs[0], [0, 0, 0]);
		const [first, second, failed] = continued.outputs[0];
		expect([first.json.source_pages, second.json.source_pages]).toEqual(['1-6', '7-12']);
		expect(failed.json).toMatchObject({ source_file_name: 'copier-scan.pdf', source_pages: '13' });
		expect(failed.json.error).toMatch(/^Item 1 \(copier-scan\.pdf, page 13\): this part is \d+\.\d\d MB; the service accepts files up to about 4\.4 MB$/);
		expect(failed.json.error_description).toContain("The PDF's other parts are sent.");
		expect(failed.json.error_description).toContain('Nothing was sent to the service for this part');
		expect(uploadsOf(accountId).map((upload) => [upload.filename, upload.status])).toEqual([
			['copier-scan (pages 1-6).pdf', 202],
			['copier-scan (pages 7-12).pdf', 202],
		]);

		// Under Stop, the refused part stops the node before anything is sent, as any failed check does.
		const stopped = newAccount();
		const { error } = await run(stopped.cred, options, input);
		expect(error?.message).toMatch(/page 13\): this part is/);
		expect(uploadsOf(stopped.accountId)).toEqual([]);
	});

	it('a PDF over the 40 MB the split reads is refused as too large without being read, nothing sent', { timeout: 60_000 }, async () => {
		const { accountId, cred } = newAccount();
		const huge = new Uint8Array(MAX_PDF_BYTES_TO_SPLIT + 1);
		huge.set(Buffer.from('%PDF-1.7\n', 'latin1'));
		const started = performance.now();
		const { error } = await run(cred, { splitPdfs: 'everyPage' }, [binaryItem(huge, 'huge.pdf', 'application/pdf')]);
		expect(error?.message).toBe('Item 1 (huge.pdf): The file is 40.0 MB; the service accepts files up to about 4.4 MB, and Split PDFs reads PDFs up to 40 MB');
		expect(performance.now() - started).toBeLessThan(10_000);
		expect(uploadsOf(accountId)).toEqual([]);
	});
});
