/**
 * An attached email is parsed once per run of the node: its documents are read again for their
 * uploads from where the one parse found them, not by parsing the whole email again for each
 * (a 4 MB email with many documents once cost a parse per document).
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';

import { insideAttachedEmail, openAttachedEmail } from '../../nodes/DocumentExtraction/actions/document/readers/attachedEmail';
import type { DocumentCandidate, ReadFile } from '../../nodes/DocumentExtraction/actions/document/readers/reader';
import { openEmail } from '../../nodes/shared/preflight/mimeMessage';
import { minimalPdf } from '../harness/documents';

vi.mock('../../nodes/shared/preflight/mimeMessage', async (importOriginal) => {
	const original = await importOriginal<typeof import('../../nodes/shared/preflight/mimeMessage')>();
	return { ...original, openEmail: vi.fn(original.openEmail) };
});

/** Only what the attached-email reader asks of n8n: the item's binary field. */
function context(eml: Buffer): IExecuteFunctions {
	const binary = { attachment_0: { data: eml.toString('base64'), fileName: 'Invoices.eml', mimeType: 'message/rfc822', fileSize: String(eml.length) } };
	// The node's parameters at their defaults (e.g. Shrink Large Photos, which the binary readers ask).
	const getNodeParameter = (_name: string, _item: number, fallback?: unknown) => fallback;
	return { getInputData: () => [{ json: {}, binary }], getNode: () => ({ name: 'Document Extraction' }), getNodeParameter } as unknown as IExecuteFunctions;
}

describe('an attached email holding several documents', () => {
	it('is parsed once: the check\'s read and every upload\'s read again come from that one parse', async () => {
		const pdfs = await Promise.all(['A-1', 'B-2', 'C-3', 'D-4'].map(async (id) => Buffer.from(await minimalPdf([`Invoice ${id}`]))));
		const eml = await new MailComposer({
			from: 'billing@supplier.example',
			subject: 'Invoices',
			text: 'Attached.',
			attachments: pdfs.map((content, n) => ({ filename: `invoice-${n}.pdf`, content, contentType: 'application/pdf' })),
		})
			.compile()
			.build();
		const ctx = context(eml);
		const field: ReadFile = { bytes: eml, fileName: 'Invoices.eml', mimeType: 'message/rfc822' };
		const parse = vi.mocked(openEmail);
		parse.mockClear();

		const email = await openAttachedEmail(ctx, 0, 'attachment_0', field);
		if ('problem' in email) throw new Error(email.problem);
		const checked: DocumentCandidate[] = [];
		await insideAttachedEmail(ctx, 0, { binary_field: 'attachment_0', file_name: 'Invoices.eml', attached_email: null }, email, async (candidate) => {
			checked.push(candidate);
			return candidate;
		});
		// The uploads, after every document was checked, as extract.ts runs them.
		const again = [];
		for (const { read } of checked) {
			if (!('file' in read) || !read.readAgain) throw new Error('a document without its read again');
			again.push(await read.readAgain());
		}

		expect(parse).toHaveBeenCalledTimes(1);
		expect(again.map((file) => [file.fileName, Buffer.from(file.bytes).equals(pdfs[Number(file.fileName?.slice(8, 9))])])).toEqual([
			['invoice-0.pdf', true],
			['invoice-1.pdf', true],
			['invoice-2.pdf', true],
			['invoice-3.pdf', true],
		]);
	});
});
