/**
 * The email path without waiting, through n8n's engine against the sandbox over real HTTP: a whole
 * email into Extract (Every Attachment, Wait for Result off), its receipts into the Poller, and the
 * Poller's rows still saying which attachment and which email they came from.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { runNode } from '../harness/engine';
import { loadFixture } from '../fixtures';
import { pngWithText } from '../fixtures/images';
import { startSandbox } from '../../sandbox/src';

async function emailItem(): Promise<INodeExecutionData> {
	const invoice = await loadFixture('invoiceEn');
	const receipt = await loadFixture('receiptPng');
	const logo = pngWithText([], 180, 60);
	const file = (bytes: Uint8Array, fileName: string, mimeType: string) => ({ data: Buffer.from(bytes).toString('base64'), fileName, mimeType });
	return {
		json: { from: 'accounts@supplier.example', subject: 'March invoice and receipt', date: '2026-03-31T08:00:00.000Z' },
		binary: {
			attachment_0: file(invoice.bytes, invoice.fileName, invoice.mimeType),
			attachment_1: file(logo, 'logo.png', 'image/png'),
			attachment_2: file(receipt.bytes, receipt.fileName, receipt.mimeType),
		},
	};
}

describe('email -> Extract (Every Attachment, no waiting) -> Poller, against the sandbox', () => {
	it('two documents uploaded, the logo not; the Poller rows keep the attachment, the file and the email subject', { timeout: 60_000 }, async ({ onTestFinished }) => {
		const sandbox = await startSandbox({ timing: 'fast' });
		onTestFinished(() => sandbox.stop());
		const credential = { apiKey: sandbox.demoKey, baseUrl: sandbox.baseUrl };

		const upload = await runNode({
			nodeType: 'action',
			parameters: { resource: 'document', operation: 'extract', documentSource: 'binaryFields', waitForResult: false, options: { inputFields: 'subject' } },
			credential,
			input: [await emailItem()],
		});
		expect(upload.error).toBeUndefined();
		const receipts = upload.outputs[0];
		expect(receipts.map((receipt) => [receipt.json.binary_field, receipt.json.file_name])).toEqual([
			['attachment_0', 'invoice-en.pdf'],
			['attachment_2', 'receipt.png'],
		]);
		expect(sandbox.stats().uploads.map((upload) => upload.filename)).toEqual(['invoice-en.pdf', 'receipt.png']);

		const polled = await runNode({ nodeType: 'poller', parameters: { output: 'tableRows', options: { timeout: 60, inputFields: 'subject' } }, credential, input: receipts });

		expect(polled.error).toBeUndefined();
		const done = polled.outputs[0];
		expect(done.length).toBeGreaterThanOrEqual(2);
		expect(new Set(done.map((row) => row.json.file_name))).toEqual(new Set(['invoice-en.pdf', 'receipt.png']));
		for (const row of done) expect(row.json).toMatchObject({ subject: 'March invoice and receipt', binary_field: expect.stringMatching(/^attachment_[02]$/) });
		expect(polled.outputs.slice(1).flat()).toEqual([]);
	});
});
