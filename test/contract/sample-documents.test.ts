import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_NAMES, SAMPLES, loadFixture, type FixtureName } from '../fixtures';
import { expectError, expectShape, result, uploadAccepted } from './schemas';
import { closeTarget, openTarget, upload, usingSandbox, waitForResult, type Target } from './target';

/** The sample documents of test/fixtures through both halves of the service: upload answer, then result. */

let target: Target;
beforeAll(async () => {
	target = await openTarget();
});
afterAll(() => closeTarget(target));

const readable = FIXTURE_NAMES.filter((name) => SAMPLES[name].template !== undefined);
/** Spec 4.2: WebP/HEIC are "not guaranteed readable"; scans and locked PDFs have no text. */
const unreadable: FixtureName[] = ['scanned', 'encrypted', 'webp', 'heic'];

async function send(name: FixtureName) {
	const fixture = await loadFixture(name);
	return upload(target, fixture.bytes, { filename: fixture.fileName, contentType: fixture.mimeType });
}

describe('sample documents', () => {
	it.each(readable)('%s: accepted with one page per page, then done', async (name) => {
		const spec = SAMPLES[name];
		const accepted = expectShape(uploadAccepted, (await send(name)).body);
		expect(accepted.tokens_required).toBe(spec.pages);
		expect(accepted.filename).toBe(spec.fileName);
		const done = expectShape(result, (await waitForResult(target, accepted.result_id)).body);
		expect(done.status).toBe('done');
		expect(done.extracted_data!.doc_metadata.num_paginas).toBe(spec.pages);
		expect(done.file_type).toBe(spec.mimeType);
		// The ready-made templates' exact names are the sandbox's own design (spec 1 gives their kinds only).
		if (usingSandbox) expect(done.scanner_name).toBe(spec.template);
	});

	it.each(unreadable)('%s: accepted, then rejected NO_TEXT', async (name) => {
		const accepted = expectShape(uploadAccepted, (await send(name)).body);
		const rejected = expectShape(result, (await waitForResult(target, accepted.result_id)).body);
		expect(rejected).toMatchObject({ status: 'rejected', error_code: 'NO_TEXT' });
	});

	it('a text file named .pdf: 400 UNSUPPORTED_FILE_TYPE', async () => {
		expectError(await send('textAsPdf'), 400, 'UNSUPPORTED_FILE_TYPE');
	});

	it('51 pages: 400 DOCUMENT_TOO_LONG', async () => {
		expectError(await send('pages51'), 400, 'DOCUMENT_TOO_LONG');
	});

	it('just over 4.4 MB: 413 Request Too Long', async () => {
		const response = await send('oversize');
		expect(response.status).toBe(413);
		expect(response.body).toStrictEqual({ message: 'Request Too Long' });
	});

	it.skipIf(!usingSandbox)('an empty file counts as no file; a damaged PDF ends in error', async () => {
		expectError(await send('empty'), 400, 'NO_FILE');
		const accepted = expectShape(uploadAccepted, (await send('corrupt')).body);
		expect((await waitForResult(target, accepted.result_id)).body).toMatchObject({ status: 'error', error_code: 'PROCESSING_FAILED' });
	});
});
