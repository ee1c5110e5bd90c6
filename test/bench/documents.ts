import { minimalPdf } from '../harness/documents';
import { loadFixture, type FixtureName } from '../fixtures';

export interface BenchDocument {
	bytes: Uint8Array;
	fileName: string;
	mimeType: string;
	pages: number;
}

/** Four 1-page documents, a 2-page and a 3-page one, repeated: the spec's "typical" mix of short documents. */
const MIX: Array<FixtureName | 'twoPages'> = ['invoiceEn', 'bankStatement', 'receiptPng', 'invoiceDe', 'twoPages', 'deliveryNote'];

/** `count` documents, cycling through the mix, each uploaded on its own; all are readable, so every one ends `done`. */
export async function benchDocuments(count: number): Promise<BenchDocument[]> {
	const kinds = await Promise.all(
		MIX.map(async (name): Promise<BenchDocument> => {
			if (name === 'twoPages') {
				const lines = ['Delivery Note DN-2026-117', 'Date: 2026-03-05', 'Ship to: Northwind Traders plc', 'Item: Paper A4, 20 boxes'];
				return { bytes: await minimalPdf(lines, 2), fileName: 'delivery-two-pages.pdf', mimeType: 'application/pdf', pages: 2 };
			}
			const fixture = await loadFixture(name);
			return { bytes: fixture.bytes, fileName: fixture.fileName, mimeType: fixture.mimeType, pages: fixture.spec.pages ?? 1 };
		}),
	);
	// A name of its own each: the same file under the same name is one upload (the upload ledger).
	return Array.from({ length: count }, (_, i) => ({ ...kinds[i % kinds.length], fileName: `${String(i + 1).padStart(3, '0')}-${kinds[i % kinds.length].fileName}` }));
}
