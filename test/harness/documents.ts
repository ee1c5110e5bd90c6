import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A small real PDF with a text layer, made with pdf-lib (for tests that need "a PDF"). */
export async function minimalPdf(lines: string[] = ['Invoice Number: INV-1', 'Total: 10.00'], pages = 1): Promise<Uint8Array> {
	const pdf = await PDFDocument.create();
	pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
	pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	for (let p = 0; p < pages; p++) {
		const page = pdf.addPage([595, 842]);
		lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 11, font }));
	}
	return await pdf.save();
}
