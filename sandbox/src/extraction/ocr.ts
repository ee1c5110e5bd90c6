/**
 * OCR for the sandbox: photos and scans (JPEG, PNG, and the images of PDF pages without a text
 * layer, see pdf-images.ts) read with tesseract.js, Tesseract compiled to WebAssembly, which runs
 * in a worker thread so the server stays responsive while a page is read.
 *
 * Nothing is fetched at run time: the language data comes from the `@tesseract.js-data/<lang>`
 * packages in node_modules (devDependencies, like tesseract.js itself), read from their folder
 * (`langPath` is a local path, `gzip` matches their `.traineddata.gz` files), the cache is off
 * (`cacheMethod: 'none'`: nothing is read from or written to the working folder) and the worker
 * script and WebAssembly core are the installed ones. Without tesseract.js (or with
 * `SANDBOX_OCR=off`) OCR is unavailable and images without text metadata read as before: no text.
 *
 * A page is read in English first (with Otsu's threshold, and Sauvola's too when that reading
 * found little: see `Binarisation`); when the text looks German, French or Spanish it is read again
 * with that language's model and the more confident reading is kept. One worker per language is
 * created on first use and reused; `stopOcr()` ends them (the sandbox calls it when it stops).
 * Words come back with their boxes, and as `PositionedText` pieces for layout.ts, so that OCR text
 * and PDF text are laid out into lines and columns the same way.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { guessLanguage } from './language';
import { layoutLines, type PositionedText } from './layout';

export interface OcrBox {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

/** A word in image pixels (y grows downwards), with Tesseract's confidence (0-100). */
export interface OcrWord {
	text: string;
	confidence: number;
	bbox: OcrBox;
	/** Index of its line in `OcrPage.lines`. */
	line: number;
}

export interface OcrLine {
	text: string;
	confidence: number;
	bbox: OcrBox;
	/** The line's baseline (pixels from the top), at the middle of the line. */
	baseline: number;
	words: OcrWord[];
}

export interface OcrPage {
	/** Tesseract's language code of the reading kept, e.g. 'eng', 'fra'. */
	language: OcrLanguage;
	/** How the kept reading turned the picture into black and white (see BINARISATIONS). */
	binarisation: Binarisation;
	/** Mean word confidence, 0-100. */
	confidence: number;
	words: OcrWord[];
	lines: OcrLine[];
	/**
	 * The words as layout.ts takes them: x and y in points of a page where the median line is
	 * 10 points high, y growing upwards (as in PDF user space), one baseline per OCR line.
	 */
	pieces: PositionedText[];
	/** The page's text, lines rebuilt by layoutLines: columns apart by two or more spaces. */
	text: string;
	/**
	 * Whether the page holds text at all: at least MIN_CONFIDENT_WORDS words of three letters or
	 * digits read with confidence. A photo of a landscape gives a few doubtful fragments, not that.
	 */
	readable: boolean;
	/** Milliseconds spent reading the page (all passes, worker start included when it happened). */
	ms: number;
}

export type OcrLanguage = 'eng' | 'deu' | 'fra' | 'spa';

/**
 * Tesseract's thresholding methods. Otsu's global threshold (Tesseract's default) reads scans and
 * evenly lit photos well and keeps faint strokes; Sauvola's local threshold copes with the
 * shadows, creases, uneven light and textured backgrounds of phone photos, where a global one
 * blackens or loses whole regions. Otsu reads first; a page where it found little is read again
 * with Sauvola and the reading with more confident words is kept.
 */
export type Binarisation = 'sauvola' | 'otsu';
const THRESHOLDING_METHOD: Record<Binarisation, string> = { otsu: '0', sauvola: '2' };
/**
 * Confident words (see confidentWordCount) under which a reading is tried with the other
 * binarisation: so little read with confidence is what a threshold that lost the text gives.
 */
const FEW_CONFIDENT_WORDS = 20;

/** The language guess (language.ts) -> the model that reads it best. */
const MODEL_BY_LANGUAGE: Record<string, OcrLanguage> = { de: 'deu', fr: 'fra', es: 'spa' };

/** Word confidence (0-100) from which a word counts: for the language guess and for `readable`. */
const CONFIDENT = 70;
/** Confident words of three or more letters or digits a page needs to count as holding text. */
const MIN_CONFIDENT_WORDS = 3;

/** The data folder of each installed language package: LSTM models, integer-quantised ("best_int"). */
const DATA_FOLDER = '4.0.0_best_int';

/** Names and versions for docs and results. */
export const OCR_ENGINE = 'tesseract.js';

interface TesseractBbox {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

interface TesseractWord {
	text: string;
	confidence: number;
	bbox: TesseractBbox;
}

interface TesseractLine {
	text: string;
	confidence: number;
	bbox: TesseractBbox;
	baseline: TesseractBbox;
	words: TesseractWord[];
}

interface TesseractPage {
	text: string;
	confidence: number;
	blocks: Array<{ paragraphs: Array<{ lines: TesseractLine[] }> }> | null;
}

interface TesseractWorker {
	recognize(image: Buffer, options: object, output: object): Promise<{ data: TesseractPage }>;
	setParameters(parameters: Record<string, string>): Promise<unknown>;
	terminate(): Promise<unknown>;
	/** The node:worker_threads Worker tesseract.js runs the engine in. */
	worker: {
		ref(): void;
		unref(): void;
		on(event: 'error' | 'exit', listener: (error: unknown) => void): void;
		once(event: 'exit', listener: () => void): void;
		off(event: 'exit', listener: () => void): void;
	} | null;
}

type TesseractModule = {
	createWorker(langs: string, oem: number, options: object): Promise<TesseractWorker>;
	OEM: { LSTM_ONLY: number };
};

let tesseractModule: Promise<TesseractModule | undefined> | undefined;

/** tesseract.js, loaded on first use; undefined when it is not installed or OCR is switched off. */
function loadTesseract(): Promise<TesseractModule | undefined> {
	tesseractModule ??= (async () => {
		if (ocrSwitchedOff()) return undefined;
		try {
			// A CommonJS module: its exports are the namespace's default (and, under Node, also its names).
			const loaded = (await import('tesseract.js')) as unknown as Partial<TesseractModule> & { default?: TesseractModule };
			return typeof loaded.createWorker === 'function' ? (loaded as TesseractModule) : loaded.default;
		} catch {
			return undefined;
		}
	})();
	return tesseractModule;
}

function ocrSwitchedOff(): boolean {
	return /^(0|off|false|no)$/i.test(process.env.SANDBOX_OCR ?? '');
}

const requireHere = createRequire(__filename);

/** The folder holding `<lang>.traineddata.gz`, or undefined when the package is not installed. */
export function languageDataFolder(language: OcrLanguage): string | undefined {
	try {
		return join(dirname(requireHere.resolve(`@tesseract.js-data/${language}/package.json`)), DATA_FOLDER);
	} catch {
		return undefined;
	}
}

/** Whether OCR can run here: tesseract.js and the English data installed, not switched off. */
export async function ocrAvailable(): Promise<boolean> {
	return (await loadTesseract()) !== undefined && languageDataFolder('eng') !== undefined;
}

/** Starting a worker takes under a second; one that takes this long will not start. */
const START_TIMEOUT_MS = 30_000;

const workers = new Map<OcrLanguage, Promise<TesseractWorker>>();
/** Pages being read or waiting: the workers keep the process alive only while there are some. */
let busy = 0;

/** Workers whose thread has ended (crashed, or terminated after a hung page). */
const ended = new WeakSet<TesseractWorker>();

/** The language's worker, made on first use. Called from the queue only, so never twice at once. */
async function workerFor(language: OcrLanguage): Promise<TesseractWorker> {
	const existing = await workers.get(language)?.catch(() => undefined);
	if (existing && !ended.has(existing)) return existing;
	const pending = createWorker(language);
	workers.set(language, pending);
	pending.catch(() => workers.delete(language));
	return await pending;
}

async function createWorker(language: OcrLanguage): Promise<TesseractWorker> {
	const tesseract = await loadTesseract();
	const langPath = languageDataFolder(language);
	if (!tesseract || !langPath || !existsSync(join(langPath, `${language}.traineddata.gz`))) {
		throw new Error(`OCR is not available (${!tesseract ? 'tesseract.js not installed' : `@tesseract.js-data/${language} not installed`})`);
	}
	const starting = tesseract.createWorker(language, tesseract.OEM.LSTM_ONLY, {
		langPath,
		gzip: true,
		cacheMethod: 'none',
		// Without an error handler tesseract.js throws a failed job's error from its message
		// listener, which would end the sandbox; the job's own promise rejects either way.
		errorHandler: () => undefined,
		logger: () => undefined,
	});
	// tesseract.js never settles a worker whose model fails to load: give up after a while.
	let timer: NodeJS.Timeout | undefined;
	const worker = await Promise.race([
		starting,
		new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`the OCR engine did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
		}),
	]).finally(() => clearTimeout(timer));
	// Tesseract's own diagnostics ("Image too small to scale!!") go nowhere rather than to the console.
	await worker.setParameters({ debug_file: '/dev/null' });
	// A crash of the engine's thread must not end the server: the worker is made anew for the next page.
	worker.worker?.on('error', () => ended.add(worker));
	worker.worker?.on('exit', () => ended.add(worker));
	if (busy === 0) worker.worker?.unref();
	return worker;
}

function setBusy(delta: number): void {
	const before = busy;
	busy += delta;
	if ((before === 0) === (busy === 0)) return;
	for (const pending of workers.values()) {
		pending.then(
			(worker) => (busy > 0 ? worker.worker?.ref() : worker.worker?.unref()),
			() => undefined,
		);
	}
}

/**
 * The workers run one page at a time: jobs wait here, so that the order of results is the order
 * of calls and a long document cannot starve the others for more than its own pages.
 */
let queue: Promise<unknown> = Promise.resolve();

function enqueue<T>(job: () => Promise<T>): Promise<T> {
	const turn = queue.then(job, job);
	queue = turn.catch(() => undefined);
	return turn;
}

function median(values: number[]): number {
	if (values.length === 0) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Noise that photos produce (a table edge read as `|`, a shadow read as `~~`, a crease as `a`):
 * words without a letter or digit that Tesseract doubts, and words without a digit that it hardly
 * believes at all. Words with a digit stay whatever their confidence: Tesseract often doubts an
 * amount it read nearly right (`é21.74` at 0), and amounts are what a document is read for.
 */
function isNoise(word: TesseractWord): boolean {
	if (word.text.trim() === '') return true;
	if (/\p{N}/u.test(word.text)) return false;
	if (!/\p{L}/u.test(word.text)) return word.confidence < 60;
	return word.confidence < 20;
}

const box = (bbox: TesseractBbox): OcrBox => ({ x0: bbox.x0, y0: bbox.y0, x1: bbox.x1, y1: bbox.y1 });

/** An amount without decimals yet (`$1203`, `1,203`), and two digits that may be its cents. */
const WHOLE_AMOUNT = /^[^\p{L}\p{N}]{0,2}\d[\d,.']*$/u;
const HAS_DECIMALS = /[.,]\d{1,2}$/u;
const CENTS = /^\d{2}$/u;
/** Gap, as a share of the line's height, under which two words touch: no space was printed between them. */
const TOUCHING_GAP = 0.1;

/**
 * Tesseract often loses the decimal point of an amount in a photo (a dot is a few pixels) and
 * splits the amount into two words whose boxes touch or overlap: `$1203` + `39`. Two such words
 * are one amount: they are joined with the decimal mark the first part does not use as a
 * thousands separator (`1.203` + `39` -> `1.203,39`).
 */
export function joinSplitAmounts<W extends { text: string; confidence: number; bbox: OcrBox }>(words: W[], lineHeight: number): W[] {
	const joined: W[] = [];
	for (const word of words) {
		const previous = joined[joined.length - 1];
		const touching = previous !== undefined && word.bbox.x0 - previous.bbox.x1 <= lineHeight * TOUCHING_GAP;
		if (touching && WHOLE_AMOUNT.test(previous.text) && !HAS_DECIMALS.test(previous.text) && CENTS.test(word.text)) {
			const mark = previous.text.includes('.') ? ',' : '.';
			joined[joined.length - 1] = {
				...previous,
				text: `${previous.text}${mark}${word.text}`,
				confidence: Math.min(previous.confidence, word.confidence),
				bbox: { x0: previous.bbox.x0, y0: Math.min(previous.bbox.y0, word.bbox.y0), x1: Math.max(previous.bbox.x1, word.bbox.x1), y1: Math.max(previous.bbox.y1, word.bbox.y1) },
			};
		} else joined.push(word);
	}
	return joined;
}

/** Tesseract's page -> words, lines, layout pieces and text. */
export function toOcrPage(data: TesseractPage, language: OcrLanguage, ms: number, binarisation: Binarisation = 'otsu'): OcrPage {
	const lines: OcrLine[] = [];
	const words: OcrWord[] = [];
	for (const block of data.blocks ?? []) {
		for (const paragraph of block.paragraphs) {
			for (const line of paragraph.lines) {
				const kept = line.words.filter((word) => !isNoise(word));
				if (kept.length === 0) continue;
				const index = lines.length;
				const read = kept.map((word) => ({ text: word.text.trim(), confidence: word.confidence, bbox: box(word.bbox), line: index }));
				const lineWords = joinSplitAmounts(read, line.bbox.y1 - line.bbox.y0);
				const baseline = (line.baseline.y0 + line.baseline.y1) / 2;
				lines.push({
					text: lineWords.map((word) => word.text).join(' '),
					confidence: line.confidence,
					bbox: box(line.bbox),
					baseline: Number.isFinite(baseline) && baseline > 0 ? baseline : line.bbox.y1,
					words: lineWords,
				});
				words.push(...lineWords);
			}
		}
	}
	const lineHeight = median(lines.map((line) => line.bbox.y1 - line.bbox.y0)) || 10;
	const scale = 10 / lineHeight;
	const pieces: PositionedText[] = lines.flatMap((line) =>
		line.words.map((word) => ({
			text: word.text,
			x: word.bbox.x0 * scale,
			y: -line.baseline * scale,
			width: (word.bbox.x1 - word.bbox.x0) * scale,
			fontSize: Math.max(4, (line.bbox.y1 - line.bbox.y0) * scale),
			em: Math.max(4, emOfLine(line) * scale),
			word: true,
		})),
	);
	const confidence = words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
	return {
		language,
		binarisation,
		confidence: Math.round(confidence * 10) / 10,
		words,
		lines,
		pieces,
		text: pieces.length === 0 ? '' : layoutLines(pieces).join('\n'),
		readable: confidentWordCount(words) >= MIN_CONFIDENT_WORDS,
		ms,
	};
}

/** Glyphs that reach below the baseline (in most fonts). */
const DESCENDING = /[gjpqyQ,;()[\]{}|/@$§]/u;
/** The share of the font size a line of capitals, digits and ascending letters stands (cap height). */
const CAP_HEIGHT = 0.72;

/**
 * The font size of an OCR line from its box: a line without descending glyphs (`VAT GB 123 4567
 * 89`) is only as tall as its capitals, so its box says less than the font size, and a word space
 * of a wide font would pass for a gap between cells.
 */
export function emOfLine(line: Pick<OcrLine, 'text' | 'bbox'>): number {
	const height = line.bbox.y1 - line.bbox.y0;
	return DESCENDING.test(line.text) ? height : height / CAP_HEIGHT;
}

/** A page that takes longer has hung the engine: its worker is ended and the page gives up. */
const PAGE_TIMEOUT_MS = 120_000;

/** Words read with confidence that hold three letters or digits: how much of a page was really read. */
export function confidentWordCount(words: OcrWord[]): number {
	return words.filter((word) => word.confidence >= CONFIDENT && (word.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 3).length;
}

async function readWith(language: OcrLanguage, image: Buffer, binarisation: Binarisation): Promise<OcrPage> {
	const started = performance.now();
	const worker = await workerFor(language);
	let timer: NodeJS.Timeout | undefined;
	let onExit: (() => void) | undefined;
	// tesseract.js leaves a job pending forever when its thread dies: the thread's exit ends it here.
	const failed = new Promise<never>((_, reject) => {
		onExit = () => reject(new Error('the OCR worker stopped'));
		worker.worker?.once('exit', onExit);
		timer = setTimeout(() => {
			ended.add(worker);
			void worker.terminate();
			reject(new Error(`OCR took longer than ${PAGE_TIMEOUT_MS / 1000} s`));
		}, PAGE_TIMEOUT_MS);
		timer.unref();
	});
	try {
		const options = { thresholding_method: THRESHOLDING_METHOD[binarisation] };
		const { data } = await Promise.race([worker.recognize(image, options, { text: true, blocks: true }), failed]);
		return toOcrPage(data, language, performance.now() - started, binarisation);
	} finally {
		clearTimeout(timer);
		if (onExit) worker.worker?.off('exit', onExit);
	}
}

/** Whether the other language pass is possible: its data installed. */
const hasModel = (language: OcrLanguage) => {
	const folder = languageDataFolder(language);
	return folder !== undefined && existsSync(join(folder, `${language}.traineddata.gz`));
};

let imagesAsked = 0;

/** How many images were handed to the OCR in this process (tests check that some never are). */
export function ocrImagesAsked(): number {
	return imagesAsked;
}

/**
 * Reads the text of one image (the bytes of a JPEG, PNG or TIFF file). Rejects when OCR is not
 * available or the engine cannot decode the image.
 */
export function recognizeImage(image: Uint8Array): Promise<OcrPage> {
	const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
	imagesAsked++;
	setBusy(1);
	return enqueue(async () => {
		const first = await bestBinarisation(bytes);
		// Only the words read with confidence vote: noise such as `la` or `de` makes any text look Spanish.
		const confident = first.words.filter((word) => word.confidence >= CONFIDENT).map((word) => word.text);
		const model = MODEL_BY_LANGUAGE[guessLanguage(confident.join(' ')) ?? ''];
		if (!model || !hasModel(model)) return first;
		const second = await readWith(model, bytes, first.binarisation);
		const kept = second.confidence >= first.confidence ? second : first;
		return { ...kept, ms: first.ms + second.ms };
	}).finally(() => setBusy(-1));
}

/** Of two readings, the one with more confident words; the first on a tie. */
export function betterReading(first: OcrPage, second: OcrPage): OcrPage {
	return confidentWordCount(second.words) > confidentWordCount(first.words) ? second : first;
}

/** The English reading with Otsu's threshold, and with Sauvola's too when that one read little. */
async function bestBinarisation(bytes: Buffer): Promise<OcrPage> {
	const otsu = await readWith('eng', bytes, 'otsu');
	if (confidentWordCount(otsu.words) >= FEW_CONFIDENT_WORDS) return otsu;
	const sauvola = await readWith('eng', bytes, 'sauvola');
	return { ...betterReading(otsu, sauvola), ms: otsu.ms + sauvola.ms };
}

/**
 * Ends the OCR workers once the pages already waiting are read (they are made again for the next
 * page): the sandbox calls it when it stops, and another sandbox of the same process loses nothing.
 */
export function stopOcr(): Promise<void> {
	return enqueue(async () => {
		const running = [...workers.values()];
		workers.clear();
		await Promise.all(running.map((pending) => pending.then((worker) => worker.terminate()).catch(() => undefined)));
	});
}
