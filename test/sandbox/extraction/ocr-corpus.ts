/**
 * The real photos and scans the OCR is tried on (ocr.test.ts, `npm run bench:ocr`): the images and
 * PDFs of the corpus manifest (test/corpus/manifest.json), when the whole corpus is there, and the
 * `dev-invoices` set (invoices and receipts with their expected values in `dev-invoices/expected/`)
 * from the first corpus folder that holds it. Found through corpusLocation; nothing here names
 * where the corpus lives.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusCandidates, locateCorpus, MANIFEST } from '../../harness/corpusLocation';

export interface OcrSample {
	/** Path under its corpus folder, e.g. `invoice2data/oyo.png`, `dev-invoices/files/x.jpg`. */
	name: string;
	path: string;
}

export interface OcrCorpus {
	images: OcrSample[];
	pdfs: OcrSample[];
	/** The `dev-invoices` folder (its files are in the lists), or undefined when no corpus folder holds it. */
	devInvoices?: string;
	/** What is missing, when something is. */
	missing: string[];
}

/** The `dev-invoices` set's folder name inside a corpus folder. */
export const DEV_INVOICES = 'dev-invoices';

const IMAGE = /\.(png|jpe?g)$/i;

export function ocrCorpus(): OcrCorpus {
	const samples: OcrSample[] = [];
	const missing: string[] = [];
	const located = locateCorpus();
	if ('dir' in located) samples.push(...MANIFEST.map(({ name }) => ({ name, path: join(located.dir, name) })));
	else missing.push(located.why);
	const holder = corpusCandidates().find((candidate) => existsSync(join(candidate.dir, DEV_INVOICES, 'files')));
	const devInvoices = holder ? join(holder.dir, DEV_INVOICES) : undefined;
	if (devInvoices) {
		for (const file of readdirSync(join(devInvoices, 'files')).sort()) samples.push({ name: `${DEV_INVOICES}/files/${file}`, path: join(devInvoices, 'files', file) });
	} else {
		missing.push(`no corpus folder holds the ${DEV_INVOICES} set (${corpusCandidates().map((candidate) => candidate.label).join('; ')})`);
	}
	return {
		images: samples.filter((sample) => IMAGE.test(sample.name)),
		pdfs: samples.filter((sample) => sample.name.toLowerCase().endsWith('.pdf')),
		devInvoices,
		missing,
	};
}

/** The expected values the `dev-invoices` set gives for one of its files (by base name), if any. */
export function devInvoiceExpected(devInvoices: string, baseName: string): { fields: Record<string, unknown>; media: string } | undefined {
	const path = join(devInvoices, 'expected', `${baseName}.json`);
	if (!existsSync(path)) return undefined;
	return JSON.parse(readFileSync(path, 'utf8')) as { fields: Record<string, unknown>; media: string };
}

/** Whether the text shows `amount` with two decimals: 1234.5 as 1234.50, 1,234.50, 1 234,50 or 1.234,50. */
export function holdsAmount(text: string, amount: number): boolean {
	const plain = text.replace(/(\d)[ ,.'](?=\d{3}(?!\d))/g, '$1').replace(/(\d),(\d{2})(?!\d)/g, '$1.$2');
	return new RegExp(`(?<![\\d.])${amount.toFixed(2).replace('.', '\\.')}(?!\\d)`).test(plain);
}
