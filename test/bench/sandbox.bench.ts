/**
 * `npm run bench:sandbox`: how well the sandbox reads real invoices and receipts. Each document
 * of the three parts (test/corpus/expected/README.md: the development sets `dev-invoices` and
 * `dev-invoices-2`, and the held-out invoice2data documents, only measured, never used to tune) goes through the sandbox's
 * own extraction in-process (sandboxScore/run.ts: as an upload does, without HTTP), once with the
 * Invoice template (Receipt for receipts) and once with the automatic template choice. Each
 * expected field is right, wrong or missing (sandboxScore/score.ts has the rules). Printed per
 * part and mode: a table per field, images read, line-item tables found, how sure the right and
 * the wrong fields were, and time per page. Figures only: nothing is asserted.
 *
 *   npm run bench:sandbox -- [--part dev|dev2|held-out|all] [--json out.json] [--details]
 *
 * --details prints each document's wrong and missing fields for the development parts. The
 * held-out part's are printed only with --held-out-details, for the final report: looking at them
 * while changing the extraction would make the held-out part one more development set.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { developmentPart, heldOutPart, type Part, type PartKey, type SkippedPart } from './sandboxScore/parts';
import { formatDocument, formatFigures, modeFigures, scoreDocument, type DocumentScore, type Mode, type ModeFigures } from './sandboxScore/report';
import { extract, readForExtraction, readyMadeTemplate } from './sandboxScore/run';

const HELP = 'npm run bench:sandbox -- [--part dev|dev2|held-out|all] [--json out.json] [--details] [--held-out-details]';

interface Options {
	parts: PartKey[];
	json?: string;
	details: boolean;
	heldOutDetails: boolean;
}

function parseOptions(argv: string[]): Options {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		options: {
			part: { type: 'string', default: 'all' },
			json: { type: 'string' },
			details: { type: 'boolean', default: false },
			'held-out-details': { type: 'boolean', default: false },
			help: { type: 'boolean', default: false },
		},
	});
	if (values.help) {
		console.log(HELP);
		process.exit(0);
	}
	const parts: Record<string, PartKey[]> = { all: ['dev', 'dev2', 'held-out'], dev: ['dev'], dev2: ['dev2'], 'held-out': ['held-out'] };
	const chosen = parts[values.part];
	if (!chosen) throw new Error(`--part: expected dev, dev2, held-out or all, got ${values.part}\n${HELP}`);
	return { parts: chosen, json: values.json, details: values.details, heldOutDetails: values['held-out-details'] };
}

interface PartResult {
	key: PartKey;
	title: string;
	skipped?: string;
	leftOut: string[];
	documents: number;
	modes: Partial<Record<Mode, ModeFigures>>;
	/** Per document, development parts only (held-out with --held-out-details). */
	scores?: DocumentScore[];
}

/**
 * One PDF and one image read before anything is timed: loading pdf.js and starting the OCR
 * engine's worker happen once per process (a running service has done them long before), and
 * would otherwise count as the reading time of whichever document comes first.
 */
async function warmUp(parts: Part[]): Promise<void> {
	const documents = parts.flatMap((part) => part.documents);
	const firstPdf = documents.find((doc) => doc.path.toLowerCase().endsWith('.pdf'));
	const firstImage = documents.find((doc) => /\.(png|jpe?g)$/i.test(doc.path));
	for (const doc of [firstPdf, firstImage]) if (doc) await readForExtraction(new Uint8Array(readFileSync(doc.path)));
}

/** Runs every document of a part in both modes; the document is read once for both. */
async function runPart(part: Part): Promise<DocumentScore[]> {
	const scores: DocumentScore[] = [];
	for (const doc of part.documents) {
		const read = await readForExtraction(new Uint8Array(readFileSync(doc.path)));
		const fileName = doc.name.split('/').pop() ?? doc.name;
		const template = readyMadeTemplate(doc.documentType === 'receipt' ? 'Receipt' : 'Invoice');
		for (const mode of ['template', 'auto'] as const) {
			const extraction = extract(read, fileName, mode === 'template' ? template : undefined);
			scores.push(
				scoreDocument(doc, mode, {
					data: extraction.data,
					templateName: extraction.templateName,
					refusal: extraction.refusal,
					isImage: read.isImage,
					pages: read.pages,
					ms: read.readMs + extraction.extractMs,
				}),
			);
		}
		process.stderr.write('.');
	}
	process.stderr.write('\n');
	return scores;
}

function ocrSetting(): string {
	const setting = process.env.SANDBOX_OCR;
	return setting ? `SANDBOX_OCR=${setting}` : 'SANDBOX_OCR not set';
}

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));
	const started = performance.now();
	const results: PartResult[] = [];
	console.log(`Sandbox extraction on real documents (${ocrSetting()})\n`);
	const parts: Array<Part | SkippedPart> = options.parts.map((key) => (key === 'held-out' ? heldOutPart() : developmentPart(key)));
	await warmUp(parts.filter((part): part is Part => !('skipped' in part)));
	for (const part of parts) {
		const key = part.key;
		if ('skipped' in part) {
			console.log(`${part.title}: skipped, ${part.skipped}\n`);
			results.push({ key, title: part.title, skipped: part.skipped, leftOut: [], documents: 0, modes: {} });
			continue;
		}
		for (const reason of part.leftOut) console.log(`${part.title}: left out ${reason}`);
		const scores = await runPart(part);
		const result: PartResult = { key, title: part.title, leftOut: part.leftOut, documents: part.documents.length, modes: {} };
		for (const mode of ['template', 'auto'] as const) {
			const figures = modeFigures(mode, scores.filter((score) => score.mode === mode));
			result.modes[mode] = figures;
			console.log(`${formatFigures(part.title, figures)}\n`);
		}
		const showDetails = key === 'held-out' ? options.heldOutDetails : options.details;
		if (showDetails) {
			console.log(`${part.title}: per document`);
			for (const score of scores.filter((item) => item.scored)) console.log(formatDocument(score));
			console.log('');
		}
		if (key !== 'held-out' || options.heldOutDetails) result.scores = scores;
		results.push(result);
	}
	console.log(`(${Math.round((performance.now() - started) / 1000)} s in all)`);
	if (options.json) {
		const path = resolve(options.json);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, `${JSON.stringify({ ocr: ocrSetting(), parts: results }, null, '\t')}\n`);
		console.log(`figures written to ${options.json}`);
	}
}

main()
	.then(async () => {
		await stopOcrIfRunning();
		process.exit(0);
	})
	.catch((error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exit(1);
	});

/** The OCR engine's worker threads, when the sandbox has OCR and started them. */
async function stopOcrIfRunning(): Promise<void> {
	const sandbox = (await import('../../sandbox/src/extraction/ocr').catch(() => undefined)) as { stopOcr?: () => Promise<void> } | undefined;
	await sandbox?.stopOcr?.().catch(() => undefined);
}
