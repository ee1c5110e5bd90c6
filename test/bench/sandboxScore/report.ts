/**
 * Scores one document's result against its expected values, adds the scores of a part up, and
 * prints them: one table per part and template mode, then images read, line items, confidence
 * and time per page.
 */
import { quantile } from '../metrics';
import type { ExtractedData } from '../../../sandbox/src/extraction';
import type { BenchDocument } from './parts';
import {
	compareField,
	resultFieldFor,
	resultTableOf,
	scoreLineItems,
	SURE_CONFIDENCE,
	type ExpectedValue,
	type FoundValue,
	type LineItemsScore,
	type ResultField,
	type Verdict,
} from './score';

export type Mode = 'template' | 'auto';

export const MODE_TITLES: Record<Mode, string> = {
	template: 'Invoice template (Receipt template for receipts)',
	auto: 'automatic template choice',
};

export interface FieldScore {
	name: string;
	verdict: Verdict;
	expected: ExpectedValue;
	found: FoundValue;
	/** The result's confidence for the field (0 when the field is not in the result). */
	confidence: number;
	/** The result's field it was read from; undefined when the template has none for it. */
	resultField?: string;
}

export interface DocumentScore {
	name: string;
	mode: Mode;
	scored: boolean;
	isImage: boolean;
	/** The document yielded text (not refused as NO_TEXT, damaged, ...). */
	read: boolean;
	refusal?: string;
	templateName?: string;
	pages: number;
	/** Reading plus extraction in this mode. */
	ms: number;
	fields: FieldScore[];
	/** Only when the source lists line items. */
	lineItems?: LineItemsScore;
}

/** Compares a result (or a refusal: data undefined) with the document's expected values. */
export function scoreDocument(
	doc: BenchDocument,
	mode: Mode,
	run: { data?: ExtractedData; templateName?: string; refusal?: string; isImage: boolean; pages: number; ms: number },
): DocumentScore {
	const resultFields: ResultField[] = (run.data?.fields ?? []).map((field) => ({ name: field.name, value: field.value as FoundValue, confidence: field.confidence }));
	const fields: FieldScore[] = Object.entries(doc.fields).map(([name, expected]) => {
		const field = resultFieldFor(name, resultFields);
		const found = field?.value ?? null;
		return {
			name,
			verdict: compareField(name, expected, found, doc.alsoAccepted[name] ?? []),
			expected,
			found,
			confidence: field?.confidence ?? 0,
			resultField: field?.name,
		};
	});
	const score: DocumentScore = {
		name: doc.name,
		mode,
		scored: doc.scored,
		isImage: run.isImage,
		read: run.refusal === undefined,
		pages: run.pages,
		ms: run.ms,
		fields,
	};
	if (run.refusal) score.refusal = run.refusal;
	if (run.templateName) score.templateName = run.templateName;
	if (doc.lineItems.some((line) => typeof line.description === 'string' && line.description.trim() !== '')) {
		score.lineItems = scoreLineItems(doc.lineItems, resultTableOf(resultFields)?.value ?? null);
	}
	return score;
}

export interface Tally {
	right: number;
	wrong: number;
	missing: number;
	/** Of the wrong ones, those the result gave a confidence at or above SURE_CONFIDENCE. */
	wrongAtSure: number;
	/** Of the right ones, those at or above SURE_CONFIDENCE. */
	rightAtSure: number;
}

export interface ModeFigures {
	mode: Mode;
	title: string;
	/** Documents with expected values, and documents run (those plus images read only). */
	scoredDocuments: number;
	documentsRun: number;
	byField: Record<string, Tally>;
	total: Tally & { expected: number; rightPercent: number };
	images: { read: number; of: number; notRead: string[] };
	lineItems: { tablesFound: number; tablesExpected: number; rowsMatched: number; rowsExpected: number; rowAmountsRight: number; rowAmountsExpected: number };
	confidence: { wrongAtSure: number; rightAtSure: number; right: number; wrong: number; threshold: number };
	/** Reading plus extraction per page; also the medians of photos/scans (OCR) and of the other documents. */
	timePerPageMs: { median: number; max: number; imagesMedian: number; othersMedian: number };
	/** Automatic mode: how often each template was chosen (scored documents). */
	templatesChosen: Record<string, number>;
	/** Documents refused (NO_TEXT, ...), by name. */
	refused: Record<string, string>;
}

/** Field rows in this order first, then any other field alphabetically. */
const FIELD_ORDER = [
	'invoice_number',
	'invoice_date',
	'due_date',
	'supplier_name',
	'supplier_vat_id',
	'customer_name',
	'order_number',
	'currency',
	'subtotal',
	'tax_amount',
	'total',
	'iban',
];

const byFieldOrder = (a: string, b: string): number => {
	const [i, j] = [FIELD_ORDER.indexOf(a), FIELD_ORDER.indexOf(b)];
	if (i >= 0 && j >= 0) return i - j;
	if (i >= 0) return -1;
	if (j >= 0) return 1;
	return a.localeCompare(b);
};

const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

export function modeFigures(mode: Mode, scores: DocumentScore[]): ModeFigures {
	const scored = scores.filter((score) => score.scored);
	const byField: Record<string, Tally> = {};
	const total: Tally = { right: 0, wrong: 0, missing: 0, wrongAtSure: 0, rightAtSure: 0 };
	const confidence = { wrongAtSure: 0, rightAtSure: 0, right: 0, wrong: 0, threshold: SURE_CONFIDENCE };
	for (const field of scored.flatMap((score) => score.fields)) {
		const tally = (byField[field.name] ??= { right: 0, wrong: 0, missing: 0, wrongAtSure: 0, rightAtSure: 0 });
		tally[field.verdict]++;
		total[field.verdict]++;
		const sure = field.confidence >= SURE_CONFIDENCE;
		if (field.verdict === 'right') {
			confidence.right++;
			if (sure) {
				confidence.rightAtSure++;
				tally.rightAtSure++;
				total.rightAtSure++;
			}
		} else if (field.verdict === 'wrong') {
			confidence.wrong++;
			if (sure) {
				confidence.wrongAtSure++;
				tally.wrongAtSure++;
				total.wrongAtSure++;
			}
		}
	}
	const ordered: Record<string, Tally> = {};
	for (const name of Object.keys(byField).sort(byFieldOrder)) ordered[name] = byField[name];
	const images = scores.filter((score) => score.isImage);
	const tables = scored.flatMap((score) => (score.lineItems ? [score.lineItems] : []));
	const msPerPage = (score: DocumentScore) => score.ms / Math.max(1, score.pages);
	const perPage = scores.map(msPerPage);
	const templatesChosen: Record<string, number> = {};
	for (const score of scored) if (score.templateName) templatesChosen[score.templateName] = (templatesChosen[score.templateName] ?? 0) + 1;
	const refused: Record<string, string> = {};
	for (const score of scores) if (score.refusal) refused[score.name] = score.refusal;
	const expected = total.right + total.wrong + total.missing;
	return {
		mode,
		title: MODE_TITLES[mode],
		scoredDocuments: scored.length,
		documentsRun: scores.length,
		byField: ordered,
		total: { ...total, expected, rightPercent: percent(total.right, expected) },
		images: { read: images.filter((score) => score.read).length, of: images.length, notRead: images.filter((score) => !score.read).map((score) => score.name) },
		lineItems: {
			tablesFound: tables.filter((table) => table.found).length,
			tablesExpected: tables.length,
			rowsMatched: tables.reduce((sum, table) => sum + table.matchedRows, 0),
			rowsExpected: tables.reduce((sum, table) => sum + table.expectedRows, 0),
			rowAmountsRight: tables.reduce((sum, table) => sum + table.amountsRight, 0),
			rowAmountsExpected: tables.reduce((sum, table) => sum + table.amountsExpected, 0),
		},
		confidence,
		timePerPageMs: {
			median: round(quantile(perPage, 0.5)),
			max: round(perPage.length === 0 ? NaN : Math.max(...perPage)),
			imagesMedian: round(quantile(images.map(msPerPage), 0.5)),
			othersMedian: round(quantile(scores.filter((score) => !score.isImage).map(msPerPage), 0.5)),
		},
		templatesChosen,
		refused,
	};
}

const round = (ms: number): number => (Number.isFinite(ms) ? Math.round(ms) : NaN);

/** A document's name without its part's folder: `dev-invoices/files/x.jpg` -> `x.jpg`. */
const shortName = (name: string): string => name.replace(/^dev-invoices(-2)?\/files\//, '').replace(/^invoice2data\//, '');

const pad = (text: string | number, width: number): string => String(text).padStart(width);

/** The table of one part in one mode, and its summary lines. */
export function formatFigures(partTitle: string, figures: ModeFigures): string {
	const lines: string[] = [];
	lines.push(`${partTitle} - ${figures.title}`);
	lines.push(`  ${figures.scoredDocuments} documents with expected values, ${figures.documentsRun} run`);
	const nameWidth = Math.max(16, ...Object.keys(figures.byField).map((name) => name.length + 2));
	const sure = `>=${figures.confidence.threshold}`;
	const header = `  ${'field'.padEnd(nameWidth)}${pad('right', 7)}${pad('wrong', 7)}${pad('missing', 9)}${pad('expected', 10)}${pad('right %', 9)}${pad(`wrong ${sure}`, 12)}${pad(`right ${sure}`, 12)}`;
	lines.push(header);
	lines.push(`  ${'-'.repeat(header.length - 2)}`);
	const row = (name: string, tally: Tally) => {
		const expected = tally.right + tally.wrong + tally.missing;
		return `  ${name.padEnd(nameWidth)}${pad(tally.right, 7)}${pad(tally.wrong, 7)}${pad(tally.missing, 9)}${pad(expected, 10)}${pad(`${percent(tally.right, expected)} %`, 9)}${pad(tally.wrongAtSure, 12)}${pad(tally.rightAtSure, 12)}`;
	};
	for (const [name, tally] of Object.entries(figures.byField)) lines.push(row(name, tally));
	lines.push(`  ${'-'.repeat(header.length - 2)}`);
	lines.push(row('total', figures.total));
	const { images, lineItems, confidence, timePerPageMs } = figures;
	lines.push(`  images read: ${images.read}/${images.of}${images.notRead.length > 0 ? ` (not read: ${images.notRead.map(shortName).join(', ')})` : ''}`);
	lines.push(
		`  line items: found ${lineItems.tablesFound} of ${lineItems.tablesExpected} tables (rows matched ${lineItems.rowsMatched} of ${lineItems.rowsExpected}; amounts right ${lineItems.rowAmountsRight} of ${lineItems.rowAmountsExpected} matched rows with an amount)`,
	);
	lines.push(`  wrong at >=${confidence.threshold}: ${confidence.wrongAtSure}; right at >=${confidence.threshold}: ${confidence.rightAtSure} of ${confidence.right}`);
	lines.push(
		`  time per page: median ${timePerPageMs.median} ms, max ${timePerPageMs.max} ms (median of photos and scans ${timePerPageMs.imagesMedian} ms, of the other documents ${timePerPageMs.othersMedian} ms)`,
	);
	if (figures.mode === 'auto') {
		const chosen = Object.entries(figures.templatesChosen)
			.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
			.map(([name, count]) => `${name} ${count}`)
			.join(', ');
		lines.push(`  templates chosen: ${chosen || 'none'}`);
	}
	// Images not read are listed above; other refusals (a damaged PDF, an encrypted one) here.
	const refused = Object.entries(figures.refused).filter(([name]) => !images.notRead.includes(name));
	if (refused.length > 0) lines.push(`  refused: ${refused.map(([name, code]) => `${shortName(name)} (${code})`).join(', ')}`);
	return lines.join('\n');
}

const show = (value: FoundValue | ExpectedValue): string => {
	if (value === null || value === undefined) return 'nothing';
	return typeof value === 'string' ? JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value) : JSON.stringify(value);
};

/** One document's verdicts, for development: what was wrong or missing and why. */
export function formatDocument(score: DocumentScore): string {
	const count = (verdict: Verdict) => score.fields.filter((field) => field.verdict === verdict).length;
	const how = score.refusal ? `refused ${score.refusal}` : `${score.templateName}`;
	const lines = [
		`  ${score.name} [${score.mode}: ${how}] right ${count('right')}, wrong ${count('wrong')}, missing ${count('missing')}` +
			(score.lineItems ? `; line items ${score.lineItems.matchedRows}/${score.lineItems.expectedRows} rows matched of ${score.lineItems.foundRows} found` : ''),
	];
	for (const field of score.fields.filter((item) => item.verdict !== 'right')) {
		const where = field.resultField || score.refusal ? '' : ' (no such field in the template)';
		lines.push(
			field.verdict === 'wrong'
				? `    wrong   ${field.name}: expected ${show(field.expected)}, got ${show(field.found)} (confidence ${field.confidence})`
				: `    missing ${field.name}: expected ${show(field.expected)}${where}`,
		);
	}
	return lines.join('\n');
}
