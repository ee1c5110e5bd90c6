/**
 * Include Input Binary with Every Attachment when a document was inside an attached email
 * (forwarded as attachment, message/rfc822): the output item carries that document as it was
 * taken out of the email, under the email's binary field, not the whole .eml; a direct attachment
 * keeps passing its own field. Through n8n's engine against nock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import nock from 'nock';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { minimalPdf } from '../harness/documents';
import { BASE, answer, doneResult, multipartParts, resultId, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

type Attachment = { bytes: Uint8Array | Buffer; fileName: string; mimeType: string };

/** An item as n8n's Email Trigger (IMAP) gives it, attachments in MIME order. */
function email(attachments: Attachment[]): INodeExecutionData {
	const binary: NonNullable<INodeExecutionData['binary']> = {};
	attachments.forEach(({ bytes, fileName, mimeType }, n) => {
		binary[`attachment_${n}`] = { data: Buffer.from(bytes).toString('base64'), fileName, mimeType, fileSize: String(bytes.length) };
	});
	return { json: { subject: 'Fwd: invoices' }, binary };
}

async function forwarded(inside: Attachment[]): Promise<Attachment> {
	const bytes = await new MailComposer({
		from: 'Supplier <billing@supplier.example>',
		to: 'colleague@buyer.example',
		subject: 'Invoices March',
		text: 'Attached.',
		attachments: inside.map(({ bytes: content, fileName: filename, mimeType: contentType }) => ({ filename, content: Buffer.from(content), contentType })),
	})
		.compile()
		.build();
	return { bytes, fileName: 'Invoices March.eml', mimeType: 'message/rfc822' };
}

const pdf = async (fileName: string, lines: string[]): Promise<Attachment> => ({ bytes: await minimalPdf(lines), fileName, mimeType: 'application/pdf' });

/** Uploads answered 202 with result ids 1, 2, ... in turn, and each result read answered done. */
function service(count: number) {
	const uploads: SeenRequest[] = [];
	for (let n = 1; n <= count; n++) {
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(resultId(n))]);
		nock(BASE).get(`/api/v1/results/${resultId(n)}`).reply(200, doneResult(resultId(n)));
	}
	return { uploads, unexpected: trapAllRequests() };
}

const bytesOf = (binary: IBinaryData | undefined) => Buffer.from(binary?.data ?? '', 'base64');

describe('Include Input Binary with a document inside an attached email', () => {
	it('passes each document inside the email as its own file, under the email\'s field; a direct attachment passes its field as before', async () => {
		const direct = await pdf('direct.pdf', ['Invoice D-1', 'Total 10.00']);
		const first = await pdf('first.pdf', ['Invoice F-1', 'Total 20.00']);
		const second = await pdf('second.pdf', ['Invoice S-1', 'Total 30.00']);
		const item = email([direct, await forwarded([first, second])]);
		const { uploads, unexpected } = service(3);

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', documentSource: 'binaryFields', options: { includeBinary: true } }, [item]);

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(uploads.map((upload) => multipartParts(upload)[0].filename)).toEqual(['direct.pdf', 'first.pdf', 'second.pdf']);
		expect(outputs[0].map((out) => [out.json.file_name, out.json.attached_email, Object.keys(out.binary ?? {})])).toEqual([
			['direct.pdf', null, ['attachment_0']],
			['first.pdf', 'Invoices March', ['attachment_1']],
			['second.pdf', 'Invoices March', ['attachment_1']],
		]);
		// The direct attachment: the input's own binary data, unchanged.
		expect(outputs[0][0].binary?.attachment_0).toEqual(item.binary?.attachment_0);
		// Inside the email: the extracted file, byte for byte, named and typed as it was sent; not the .eml.
		for (const [out, inner] of [
			[outputs[0][1], first],
			[outputs[0][2], second],
		] as const) {
			const passed = out.binary?.attachment_1;
			expect(passed).toMatchObject({ fileName: inner.fileName, mimeType: 'application/pdf', fileExtension: 'pdf' });
			expect(bytesOf(passed).equals(Buffer.from(inner.bytes))).toBe(true);
		}
	});

	it('a document inside the email that the check refuses keeps its own file on its error item too', async () => {
		const good = await pdf('good.pdf', ['Invoice G-1', 'Total 40.00']);
		const whole = await minimalPdf(['Invoice X-1']);
		const damaged: Attachment = { bytes: whole.subarray(0, Math.floor(whole.length / 2)), fileName: 'damaged.pdf', mimeType: 'application/pdf' };
		const { uploads } = service(1);

		const { outputs, error } = await runAction(
			{ resource: 'document', operation: 'extract', documentSource: 'binaryFields', options: { includeBinary: true } },
			[email([await forwarded([damaged, good])])],
			{ continueOnFail: true },
		);

		expect(error).toBeUndefined();
		expect(uploads).toHaveLength(1);
		const [refused, extracted] = outputs[0];
		expect(refused.json).toMatchObject({ file_name: 'damaged.pdf', attached_email: 'Invoices March', error: expect.stringMatching(/damaged or incomplete/) });
		expect(bytesOf(refused.binary?.attachment_0).equals(Buffer.from(damaged.bytes))).toBe(true);
		expect(refused.binary?.attachment_0).toMatchObject({ fileName: 'damaged.pdf' });
		expect(bytesOf(extracted.binary?.attachment_0).equals(Buffer.from(good.bytes))).toBe(true);
	});
});

describe('Include Input Binary with a document inside an attached email, n8n 2.x binary data mode filesystem', () => {
	let folder: string;
	beforeAll(async () => {
		folder = mkdtempSync(join(tmpdir(), 'n8n-docx-extracted-'));
		const config = Container.get(BinaryDataConfig);
		config.localStoragePath = folder;
		config.mode = 'filesystem';
		await Container.get(BinaryDataService).init();
	});
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('the extracted file is stored by n8n, not held in the item, and reads back as the document', async () => {
		const inner = await pdf('stored-inside.pdf', ['Invoice T-1', 'Total 50.00']);
		service(1);

		const { outputs, error } = await runAction(
			{ resource: 'document', operation: 'extract', documentSource: 'binaryFields', options: { includeBinary: true } },
			[email([await forwarded([inner])])],
		);

		expect(error).toBeUndefined();
		const passed = outputs[0][0].binary?.attachment_0;
		expect(passed).toMatchObject({ fileName: 'stored-inside.pdf', mimeType: 'application/pdf', id: expect.stringMatching(/^filesystem(-v2)?:/) });
		const stored = await Container.get(BinaryDataService).getAsBuffer(passed as IBinaryData);
		expect(stored.equals(Buffer.from(inner.bytes))).toBe(true);
	});
});
