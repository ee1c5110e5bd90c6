import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankPdf, notADocument, pagesOf, plainPng, textPdf } from './documents';
import { expectError, expectRateHeaders, expectShape, uploadAccepted } from './schemas';
import { call, closeTarget, createTemplate, freshAccount, openTarget, upload, usingSandbox, type Target } from './target';

let target: Target;
let scanner: { scanner_id: string; name: string };
beforeAll(async () => {
	target = await openTarget();
	scanner = (await createTemplate(target, { name: 'Upload target', fields: [{ name: 'invoice_number' }] })).body;
});
afterAll(async () => {
	await call(target, 'DELETE', `/api/v1/scanners/${scanner.scanner_id}`);
	await closeTarget(target);
});

describe('uploads (spec 4.2, 4.3, 2.3)', () => {
	it('automatic mode: 202 UploadAccepted with scanner_id "auto" and a placeholder name', async () => {
		const response = await upload(target, await textPdf(), { filename: 'invoice-42.pdf' });
		expect(response.status, response.text).toBe(202);
		expectRateHeaders(response);
		const body = expectShape(uploadAccepted, response.body);
		expect(body.scanner_id).toBe('auto');
		expect(body.filename).toBe('invoice-42.pdf');
		expect(body.tokens_required).toBe(1);
	});

	it('explicit template: the response names it', async () => {
		const response = await upload(target, await textPdf(), { scannerId: scanner.scanner_id });
		expect(response.status, response.text).toBe(202);
		const body = expectShape(uploadAccepted, response.body);
		expect(body).toMatchObject({ scanner_id: scanner.scanner_id, scanner_name: 'Upload target' });
	});

	it('reserves one page per PDF page and one per image; tokens_remaining counts down', async () => {
		const three = expectShape(uploadAccepted, (await upload(target, await textPdf(pagesOf(3)))).body);
		expect(three.tokens_required).toBe(3);
		const image = expectShape(uploadAccepted, (await upload(target, plainPng(), { filename: 'a.png', contentType: 'image/png' })).body);
		expect(image.tokens_required).toBe(1);
		expect(image.tokens_remaining).toBeLessThanOrEqual(three.tokens_remaining - 1);
	});

	it('a document of 50 pages is accepted, 51 pages gives 400 DOCUMENT_TOO_LONG', async () => {
		const fifty = await upload(target, await textPdf(pagesOf(50, ['Statement line'])));
		expect(fifty.status, fifty.text).toBe(202);
		expect(fifty.body.tokens_required).toBe(50);
		const tooLong = await upload(target, await textPdf(pagesOf(51, ['Statement line'])));
		expectError(tooLong, 400, 'DOCUMENT_TOO_LONG');
		expectRateHeaders(tooLong);
	});

	it('a multipart body without a "file" part gives 400 NO_FILE', async () => {
		const form = new FormData();
		form.append('document', new Blob([(await textPdf()) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'a.pdf');
		expectError(await call(target, 'POST', '/api/v1/process', { body: form }), 400, 'NO_FILE');
		expectError(await call(target, 'POST', `/api/v1/scanners/${scanner.scanner_id}/upload`, { body: form }), 400, 'NO_FILE');
	});

	it('the type comes from the bytes: a text file named .pdf is UNSUPPORTED_FILE_TYPE, a PDF named .txt is accepted', async () => {
		const fake = await upload(target, notADocument(), { filename: 'invoice.pdf', contentType: 'application/pdf' });
		expectError(fake, 400, 'UNSUPPORTED_FILE_TYPE');
		const real = await upload(target, await textPdf(), { filename: 'notes.txt', contentType: 'text/plain' });
		expect(real.status, real.text).toBe(202);
	});

	it('uploading to an unknown or deleted template gives 404 SCANNER_NOT_FOUND', async () => {
		expectError(await upload(target, await textPdf(), { scannerId: 'no-such-template' }), 404, 'SCANNER_NOT_FOUND');
		const doomed = (await createTemplate(target, { name: 'Doomed' })).body;
		await call(target, 'DELETE', `/api/v1/scanners/${doomed.scanner_id}`);
		expectError(await upload(target, await textPdf(), { scannerId: doomed.scanner_id }), 404, 'SCANNER_NOT_FOUND');
	});
});

describe.skipIf(!usingSandbox)('uploads: sandbox-only details', () => {
	it('a body that is not multipart carries no file: NO_FILE', async () => {
		expectError(await call(target, 'POST', '/api/v1/process', { json: { file: 'x' } }), 400, 'NO_FILE');
		expectError(await call(target, 'POST', '/api/v1/process'), 400, 'NO_FILE');
	});

	it('a multipart body that cannot be parsed gives 400 UPLOAD_PARSE_ERROR', async () => {
		const response = await call(target, 'POST', '/api/v1/process', {
			headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' },
			body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\nunterminated',
		});
		expectError(response, 400, 'UPLOAD_PARSE_ERROR');
	});

	it('refused uploads reserve nothing', async () => {
		const { accountId, key } = freshAccount(target);
		await upload(target, notADocument(), { key });
		await upload(target, await textPdf(pagesOf(51)), { key });
		expect(target.sandbox!.accounts.get(accountId)!.pagesUsed).toBe(0);
	});
});

describe.skipIf(!usingSandbox)('quota (spec 7.2 402, 8)', () => {
	it('free plan: exact arithmetic down to 0, then 402 INSUFFICIENT_TOKENS with every extra member', async () => {
		const { accountId, key } = freshAccount(target, { plan: 'free', pagesUsed: 17 });
		const two = expectShape(uploadAccepted, (await upload(target, await textPdf(pagesOf(2)), { key })).body);
		expect(two).toMatchObject({ tokens_required: 2, tokens_remaining: 1 });

		const refused = await upload(target, await textPdf(pagesOf(2)), { key });
		const body = expectError(refused, 402, 'INSUFFICIENT_TOKENS');
		expectRateHeaders(refused);
		expect(body).toMatchObject({ tokens_required: 2, tokens_available: 1, plan: 'free' });
		const now = new Date(target.sandbox!.clock.now());
		expect(body.next_action).toStrictEqual({
			type: 'upgrade_or_wait',
			renews_at: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
			pricing_url: expect.stringMatching(/^https?:\/\//),
			message: expect.any(String),
		});

		const last = expectShape(uploadAccepted, (await upload(target, await textPdf(), { key })).body);
		expect(last.tokens_remaining).toBe(0);
		expectError(await upload(target, plainPng(), { key, contentType: 'image/png' }), 402, 'INSUFFICIENT_TOKENS');
		expect(target.sandbox!.accounts.get(accountId)).toMatchObject({ pagesUsed: 20, pagesAvailable: 0 });
	});

	it('the quota belongs to the account: two keys of one account share it', async () => {
		const { accountId, key } = freshAccount(target, { plan: 'free', pagesUsed: 19 });
		const second = target.sandbox!.accounts.addKey(accountId);
		expect((await upload(target, await textPdf(), { key })).status).toBe(202);
		expectError(await upload(target, await textPdf(), { key: second }), 402, 'INSUFFICIENT_TOKENS');
	});

	it('paid plan: the monthly pages are configurable', async () => {
		const { key } = freshAccount(target, { plan: 'paid', monthlyPages: 500 });
		const accepted = expectShape(uploadAccepted, (await upload(target, await textPdf(), { key })).body);
		expect(accepted.tokens_remaining).toBe(499);
	});

	it('an unpaid invoice gives 402 PAYMENT_REQUIRED with a billing_portal next_action', async () => {
		const { key } = freshAccount(target, { paymentRequired: true });
		const refused = await upload(target, await textPdf(), { key });
		const body = expectError(refused, 402, 'PAYMENT_REQUIRED');
		expect(body.next_action).toMatchObject({ type: 'billing_portal', url: expect.stringMatching(/^https?:\/\//) });
	});

	it('a month later the free pages have renewed', async () => {
		const { key } = freshAccount(target, { plan: 'free', pagesUsed: 20 });
		expectError(await upload(target, await blankPdf(), { key }), 402, 'INSUFFICIENT_TOKENS');
		target.sandbox!.clock.advance(32 * 24 * 3600 * 1000);
		const accepted = await upload(target, await textPdf(), { key });
		expect(accepted.body.tokens_remaining).toBe(19);
	});
});
