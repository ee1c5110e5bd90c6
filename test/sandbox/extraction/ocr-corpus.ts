/**
 * The real photos and scans the OCR is tried on (ocr.test.ts, `npm run bench:ocr`): the images and
 * PDFs of the corpus manifest (test/corpus/manifest.json), each found through corpusLocation's
 * `corpusFile`, the `dev-invoices` set (invoices and receipts) among them; the set's expected values
 * are in test/corpus/expected/dev-invoices/. Nothing here names where the corpus lives.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { corpusFile, corpusPlacesLooked, MANIFEST } from '../../harness/corpusLocation';

export interface OcrSample {
	/** Its name in the manifest, e.g. `invoice2data/oyo.png`, `dev-invoices/files/x.jpg`. */
	name: string;
	path: string;
}

export interface OcrCorpus {
	images: OcrSample[];
	pdfs: OcrSample[];
	/** The `dev-invoices` folder holding every file of the set in `files/` (they are in the lists), or undefined when none does. */
	devInvoices?: string;
	/** What is missing, when something is; what the `dev-invoices` set misses comes last. */
	missing: string[];
}

/** The `dev-invoices` set's folder name in the manifest's names (`dev-invoices/files/<name>`). */
export const DEV_INVOICES = 'dev-invoices';

const DEV_EXPECTED_DIR = join(__dirname, '..', '..', 'corpus', 'expected', DEV_INVOICES);

const IMAGE = /\.(png|jpe?g)$/i;

export function ocrCorpus(): OcrCorpus {
	const samples: OcrSample[] = [];
	const missing: string[] = [];
	const absent = { others: [] as string[], dev: [] as string[] };
	const devFolders = new Set<string>();
	for (const { name } of MANIFEST) {
		const dev = name.startsWith(`${DEV_INVOICES}/`);
		const path = corpusFile(name);
		if (!path) (dev ? absent.dev : absent.others).push(name);
		else {
			samples.push({ name, path });
			// `<corpus folder>/dev-invoices/files/<name>` -> `<corpus folder>/dev-invoices`
			if (dev) devFolders.add(dirname(dirname(path)));
		}
	}
	const devTotal = MANIFEST.filter(({ name }) => name.startsWith(`${DEV_INVOICES}/`)).length;
	if (absent.others.length > 0) {
		missing.push(`${absent.others.length} of ${MANIFEST.length - devTotal} other files of the corpus manifest are not here (looked in ${corpusPlacesLooked()}); \`npm run corpus\` fetches them`);
	}
	// The set is used as one folder (ocr.test.ts reads three of its files by name): all of it, in one place.
	const devInvoices = absent.dev.length === 0 && devFolders.size === 1 ? [...devFolders][0] : undefined;
	if (absent.dev.length > 0) {
		missing.push(`${absent.dev.length} of the ${devTotal} ${DEV_INVOICES} files of the corpus manifest are not here (looked in ${corpusPlacesLooked()}); \`npm run corpus\` fetches them`);
	} else if (!devInvoices) {
		missing.push(`the ${DEV_INVOICES} files are spread over several corpus folders (${[...devFolders].join('; ')}): \`npm run corpus\` puts them in one`);
	}
	return {
		images: samples.filter((sample) => IMAGE.test(sample.name)),
		pdfs: samples.filter((sample) => sample.name.toLowerCase().endsWith('.pdf')),
		devInvoices,
		missing,
	};
}

/**
 * The expected values the `dev-invoices` set gives for one of its files (by base name), if any, from
 * test/corpus/expected/dev-invoices/. `devInvoices` (ocrCorpus's) only says the set's files are here.
 */
export function devInvoiceExpected(devInvoices: string, baseName: string): { fields: Record<string, unknown>; media: string } | undefined {
	const path = join(DEV_EXPECTED_DIR, `${baseName}.json`);
	if (!devInvoices || !existsSync(path)) return undefined;
	return JSON.parse(readFileSync(path, 'utf8')) as { fields: Record<string, unknown>; media: string };
}

/** Whether the text shows `amount` with two decimals: 1234.5 as 1234.50, 1,234.50, 1 234,50 or 1.234,50. */
export function holdsAmount(text: string, amount: number): boolean {
	const plain = text.replace(/(\d)[ ,.'](?=\d{3}(?!\d))/g, '$1').replace(/(\d),(\d{2})(?!\d)/g, '$1.$2');
	return new RegExp(`(?<![\\d.])${amount.toFixed(2).replace('.', '\\.')}(?!\\d)`).test(plain);
}
