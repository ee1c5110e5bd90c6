import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';

import { minimalPdf } from '../harness/documents';

/** Which output a document must come out on: extracted, or refused by the service (NO_TEXT). */
export type ExpectedOutcome = 'done' | 'rejected';

export interface ScaleDocument {
	/** Unique in the run: the file name sent to the service, and how the checks name the document. */
	fileName: string;
	bytes: Uint8Array;
	sha256: string;
	pages: number;
	expected: ExpectedOutcome;
}

/**
 * Page counts of a batch's readable documents: mostly one page, some longer (the sandbox's realistic
 * timing is about 1 s queued + 3 s + 2.5 s per page, so 6 to 12 s).
 */
const PAGE_MIX = [1, 1, 2, 1, 3, 1, 1];

/**
 * A batch of `size` documents, every one with bytes of its own (the sandbox counts uploads by
 * content hash, so a document sent twice shows): `size - 1` readable invoices of 1 to 3 pages and
 * one page without text, which the service rejects (NO_TEXT) and which must come out as rejected.
 * `copy: 'reminder'`: the same invoices as other files (a line added), as a supplier's reminder.
 */
export async function scaleBatch(runId: string, batch: number, size: number, copy?: 'reminder'): Promise<ScaleDocument[]> {
	const documents: ScaleDocument[] = [];
	for (let i = 0; i < size; i++) {
		const name = `${runId}-b${String(batch).padStart(3, '0')}-d${i + 1}`;
		if (i === size - 1 && size > 1) {
			documents.push(withHash({ fileName: `${name}-blank.pdf`, bytes: await blankPdf(name), pages: 1, expected: 'rejected' }));
			continue;
		}
		const pages = PAGE_MIX[i % PAGE_MIX.length];
		const lines = [
			'INVOICE',
			`Invoice Number: ${name.toUpperCase()}`,
			'Invoice Date: 2026-03-05',
			'Supplier: Brightline Studio Ltd',
			'Customer: Northwind Traders plc',
			`Total: ${(100 + batch * 10 + i).toFixed(2)} GBP`,
		];
		// The same invoice as another file: the supplier's reminder, its own bytes and name.
		if (copy === 'reminder') lines.push('Reminder: this invoice is still unpaid');
		const fileName = copy === 'reminder' ? `${name}-reminder.pdf` : `${name}.pdf`;
		documents.push(withHash({ fileName, bytes: await minimalPdf(lines, pages), pages, expected: 'done' }));
	}
	return documents;
}

/** A page with no text at all (a scan without a text layer, as far as the service can tell); the title makes its bytes unique. */
async function blankPdf(title: string): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	pdf.setTitle(title);
	pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
	pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
	pdf.addPage([595, 842]);
	return await pdf.save();
}

function withHash(document: Omit<ScaleDocument, 'sha256'>): ScaleDocument {
	return { ...document, sha256: createHash('sha256').update(document.bytes).digest('hex') };
}
