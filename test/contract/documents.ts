import { PDFDocument, StandardFonts } from 'pdf-lib';
import { pngWithText } from '../fixtures/images';

/** Small documents made on the fly, so the contract suite needs no binary fixtures. */

export const INVOICE_LINES = [
	'INVOICE',
	'Invoice number: INV-2024-0042',
	'Invoice date: 2024-03-15',
	'Seller: Example Supplies Ltd',
	'Buyer: Sample Customer GmbH',
	'Subtotal: 100.00 EUR',
	'VAT 19%: 19.00 EUR',
	'Total: 119.00 EUR',
];

/** A PDF with a text layer: one array of lines per page. */
export async function textPdf(pages: string[][] = [INVOICE_LINES]): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	for (const lines of pages) {
		const page = pdf.addPage([595, 842]);
		lines.forEach((line, index) => page.drawText(line, { x: 50, y: 780 - index * 18, size: 12, font }));
	}
	return pdf.save();
}

export function pagesOf(count: number, lines: string[] = INVOICE_LINES): string[][] {
	return Array.from({ length: count }, (_, index) => [...lines, `Page ${index + 1} of ${count}`]);
}

/** A PDF without any text (like a scan without text layer): shapes only. */
export async function blankPdf(pageCount = 1): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	for (let index = 0; index < pageCount; index++) pdf.addPage([595, 842]).drawRectangle({ x: 50, y: 50, width: 200, height: 100 });
	return pdf.save();
}

/** A valid PNG with no text in it (no text chunk: the sandbox has nothing to read). */
export function plainPng(): Uint8Array {
	return new Uint8Array(pngWithText([]));
}

/** Bytes that are no document at all (a text file, whatever its name says). */
export function notADocument(size = 64): Uint8Array {
	return new Uint8Array(Buffer.alloc(size, 'This is plain text, not a PDF or an image.\n'));
}

/** A PDF header followed by garbage: recognisable as PDF, but damaged. */
export function corruptPdf(): Uint8Array {
	return new Uint8Array(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> garbage garbage\n%%EOF\n', 'latin1'));
}
