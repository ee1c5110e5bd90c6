import { formatMegabytes } from '../../limits';
import { dictionaryEntries, PartWriter, referencesIn, tokenize, type Piece } from './pdfWriter';
import { MAX_INFLATED_BYTES } from './streams';
import { PdfText } from './text';
import { dictionaryValue, isDict, OutOfWork, PdfRef, WorkMeter, type PdfDict } from './values';
import { IndexUnusable, PdfIndex } from './xref';
import { readPageTree, type Page, type PageTree } from './splitPages';
import { damaged, HEADER_WINDOW, PdfSplitError, READ_WORK_PER_INFLATED_BYTE, ReadingShare, SourceFile, type SourceObject } from './splitSource';

export { PdfSplitError, type SplitRefusal } from './splitSource';

/**
 * Splits a PDF into parts by pages without rendering anything: each part is a new file made of
 * the original's own objects (the pages and all they reference: content streams, resources,
 * fonts, images, annotations), their text copied as stored (stream data and filters unchanged),
 * renumbered, with a classic cross-reference table. Objects kept in object streams are written as
 * ordinary objects; cross-reference streams are read through xref.ts.
 *
 * Decisions:
 * - A part gets a flat page tree of its own; what a page inherited from its old /Pages ancestors
 *   (/Resources, /MediaBox, /CropBox, /Rotate) is written onto the page itself.
 * - Annotations are kept (a filled form's values show through their appearance streams). A
 *   reference to a page outside the part (a link's destination, an annotation's /P), to the old
 *   page tree or to the catalog is written as null, so that no part drags in other pages.
 * - The catalog is new (its outlines, forms, structure tree and names belong to the whole
 *   document); the trailer's /Info is copied into every part.
 * - Objects that several parts use (a font, a logo) are copied into each of them: a part must
 *   stand alone. The total output is budgeted (`splitBudget`), so a file whose every page shares
 *   one large object cannot multiply it without bound.
 * - Encrypted files are refused (their strings and streams would need decrypting), and so are
 *   files whose own index (startxref, cross-reference sections) is unusable: repairing a damaged
 *   file is left to a PDF program.
 *
 * Like the preflight's reader, everything is charged to a WorkMeter: reading at most a few passes
 * over the file and its inflated object streams (a crafted file that makes the same bytes be read
 * again is refused), writing at most a few units per byte written, and a time limit.
 */

export interface SplitLimits {
	/** All the work, in units of about one byte read or written; default from `splitBudget`. */
	work?: number;
	/** Bytes all parts together may have; default from `splitBudget`. */
	outputBytes?: number;
	timeMs?: number;
	/** For tests: the clock the time limit is measured with (milliseconds). */
	clock?: () => number;
}

/** Work a reading may cost per byte of the file: the index, every object parsed once, with room. */
const READ_WORK_PER_BYTE = 6;
const READ_WORK_ALLOWANCE = 1024 * 1024;
/** Parts repeat what their pages share (fonts, logos): room for that, linear in the file. */
const OUTPUT_BYTES_PER_BYTE = 8;
const OUTPUT_ALLOWANCE = 32 * 1024 * 1024;
/** Writing tokenizes each object copied and writes its bytes: a few units per byte written. */
const WRITE_WORK_PER_BYTE = 4;
/** Real files split in milliseconds; the limit is for n8n's event loop, on a busy machine. */
export const SPLIT_TIME_LIMIT_MS = 5000;

/** The default budgets for a file of `fileBytes` bytes. */
export function splitBudget(fileBytes: number): { work: number; outputBytes: number } {
	const outputBytes = OUTPUT_BYTES_PER_BYTE * fileBytes + OUTPUT_ALLOWANCE;
	// Object streams: inflated (one unit a byte), then parsed.
	const reading = READ_WORK_PER_BYTE * fileBytes + READ_WORK_ALLOWANCE + (1 + READ_WORK_PER_INFLATED_BYTE) * MAX_INFLATED_BYTES;
	return { work: reading + WRITE_WORK_PER_BYTE * outputBytes, outputBytes };
}

/**
 * One PDF per group of pages (1-based page numbers, in the order each part shows them). Throws
 * PdfSplitError when the file or the groups do not allow it.
 */
export async function splitPdf(bytes: Uint8Array, groups: number[][], limits: SplitLimits = {}): Promise<Uint8Array[]> {
	const splitter = await openSplit(bytes, groups, limits);
	const parts: Uint8Array[] = [];
	for (let i = 0; i < groups.length; i++) parts.push(await splitter.part(i));
	return parts;
}

/** A PDF opened once for its parts, made one at a time on demand. */
export interface PdfSplitter {
	/** Part `index` (of the groups given), the same bytes every time. Throws PdfSplitError. */
	part(index: number): Promise<Uint8Array>;
}

/**
 * Opens the file once for all its parts: the index and page tree are read once, and every part is
 * charged to one meter and one output budget, however many calls make them and whatever waits
 * between (the clock stops between calls: an upload may come between two parts). A part per
 * opening read the file again for each part: quadratic in the pages, and the output budget
 * escaped (146 MB of parts from a 1.47 MB file).
 */
export async function openSplit(bytes: Uint8Array, groups: number[][], limits: SplitLimits = {}): Promise<PdfSplitter> {
	const budget = splitBudget(bytes.length);
	const meter = new WorkMeter(limits.work ?? budget.work, limits.timeMs ?? SPLIT_TIME_LIMIT_MS, limits.clock);
	try {
		const reading = new ReadingShare(meter, READ_WORK_PER_BYTE * bytes.length + READ_WORK_ALLOWANCE);
		const { text, index } = await openIndex(bytes, reading);
		const trailers = index.trailers;
		if (trailers.some((trailer) => trailer.has('Encrypt'))) {
			throw new PdfSplitError('encrypted', 'The PDF is encrypted (protected by a password or against changes): it cannot be split. Save an unprotected copy first.');
		}
		const file = new SourceFile(text, reading, index);
		const rootRef = trailers.find((trailer) => trailer.has('Root'))?.get('Root');
		const catalog = rootRef instanceof PdfRef ? await file.object(rootRef.id) : null;
		if (!(rootRef instanceof PdfRef) || !catalog || !isDict(catalog.value)) throw damaged('no trailer names its catalog');
		const tree = await readPageTree(file, catalog.value.get('Pages'));
		checkGroups(groups, tree.pages.length, meter);
		const info = trailers.find((trailer) => trailer.has('Info'))?.get('Info');
		const part: PartContext = {
			file,
			tree,
			catalogId: rootRef.id,
			infoId: info instanceof PdfRef ? info.id : undefined,
			version: versionOf(text, catalog.value),
			account: outputAccount(meter, limits.outputBytes ?? budget.outputBytes),
			meter,
		};
		let resume = meter.pause();
		// One part at a time: the clock and the budgets are the opening's.
		let queue: Promise<unknown> = Promise.resolve();
		const made = async (index: number) => {
			resume();
			try {
				return await writePart(part, groups[index]);
			} catch (error) {
				throw refusal(error);
			} finally {
				resume = meter.pause();
			}
		};
		return {
			part(index: number): Promise<Uint8Array> {
				const next = queue.then(() => made(index));
				queue = next.catch(() => undefined);
				return next;
			},
		};
	} catch (error) {
		throw refusal(error);
	}
}

/**
 * The file's index. Offsets count from the file's first byte; when they do not add up and the
 * file has bytes before its `%PDF-` header (a mail gateway's or a web server's), they are tried
 * again from the header, as readers do.
 */
async function openIndex(bytes: Uint8Array, meter: WorkMeter): Promise<{ text: PdfText; index: PdfIndex }> {
	const text = new PdfText(bytes);
	const header = text.indexOfWithin('%PDF-', 0, HEADER_WINDOW);
	const index = await PdfIndex.read(text, meter).catch((error: unknown) => {
		if (error instanceof IndexUnusable && header > 0) return undefined;
		throw error;
	});
	if (index) return { text, index };
	const fromHeader = new PdfText(bytes.subarray(header));
	return { text: fromHeader, index: await PdfIndex.read(fromHeader, meter) };
}

function refusal(error: unknown): unknown {
	if (error instanceof OutOfWork) {
		return new PdfSplitError('too-complex', 'The PDF cannot be split within the work and time allowed for a file of its size: its structure is unusually complex or damaged');
	}
	if (error instanceof IndexUnusable) return damaged(error.message.replace(/^PDF index: /, ''));
	return error;
}

function checkGroups(groups: number[][], pageCount: number, meter: WorkMeter): void {
	const pages = pageCount === 1 ? '1 page' : `${pageCount} pages`;
	if (groups.length === 0) throw new PdfSplitError('pages', 'No parts were asked for');
	groups.forEach((group, i) => {
		if (group.length === 0) throw new PdfSplitError('pages', `Part ${i + 1} has no pages`);
		const seen = new Set<number>();
		for (const page of group) {
			meter.charge(1);
			if (!Number.isInteger(page) || page < 1 || page > pageCount) throw new PdfSplitError('pages', `Part ${i + 1} asks for page ${page}, but the PDF has ${pages}`);
			if (seen.has(page)) throw new PdfSplitError('pages', `Part ${i + 1} asks for page ${page} twice`);
			seen.add(page);
		}
	});
}

/** The version the parts declare: the original's header, or its catalog's /Version when later (7.2.2). */
function versionOf(text: PdfText, catalog: PdfDict): string {
	const at = text.indexOfWithin('%PDF-', 0, HEADER_WINDOW);
	const header = at === -1 ? undefined : /^\d\.\d/.exec(text.slice(at + 5, at + 8))?.[0];
	const stated = dictionaryValue.name(catalog, 'Version');
	const candidates = [header, stated && /^\d\.\d$/.test(stated) ? stated : undefined].filter((version) => version !== undefined);
	return candidates.sort().at(-1) ?? '1.7';
}

/** Every byte written is charged to the meter and to the parts' total. */
function outputAccount(meter: WorkMeter, limit: number) {
	let written = 0;
	return {
		spend(bytes: number): void {
			written += bytes;
			if (written > limit) {
				throw new PdfSplitError(
					'too-large',
					`The parts would together be larger than ${formatMegabytes(limit)} MB: each part repeats the fonts and images its pages share with others. Split into fewer, larger parts.`,
				);
			}
			meter.charge(WRITE_WORK_PER_BYTE * bytes);
		},
	};
}

interface PartContext {
	file: SourceFile;
	tree: PageTree;
	catalogId: number;
	infoId: number | undefined;
	version: string;
	account: ReturnType<typeof outputAccount>;
	/** The whole meter: writing is not the reading's share. */
	meter: WorkMeter;
}

/** Objects 1 and 2 of every part: its catalog and its page tree; its pages follow from 3. */
const CATALOG_ID = 1;
const PAGES_ID = 2;
const FIRST_PAGE_ID = 3;

/**
 * One part: its pages, then every object they reference, breadth first, each numbered when first
 * referenced and written once. Outside objects (other pages, the old tree, the catalog, free or
 * missing objects) are written as null where they were referenced.
 */
async function writePart(context: PartContext, group: number[]): Promise<Uint8Array> {
	const { file, tree, meter } = context;
	const pages = group.map((number) => tree.pages[number - 1]);
	const renumbered = new Map(pages.map((page, i) => [page.object.id, FIRST_PAGE_ID + i]));
	const leftOut = new Set<number>();
	const queue: SourceObject[] = [];
	const take = async (id: number) => {
		if (renumbered.has(id) || leftOut.has(id)) return;
		const outside = tree.pageIds.has(id) || tree.nodes.has(id) || id === context.catalogId;
		const object = outside ? null : await file.object(id);
		if (!object) {
			leftOut.add(id);
			return;
		}
		renumbered.set(id, FIRST_PAGE_ID + renumbered.size);
		queue.push(object);
	};
	const renumber = (id: number) => renumbered.get(id);
	const write = async (id: number, pieces: Piece[], data?: Uint8Array) => {
		for (const referenced of referencesIn(pieces)) await take(referenced);
		writer.object(id, pieces, renumber, data);
	};

	const writer = new PartWriter(context.version, context.account);
	const kids = pages.map((_, i) => `${FIRST_PAGE_ID + i} 0 R`).join(' ');
	writer.object(CATALOG_ID, [`<< /Type /Catalog /Pages ${PAGES_ID} 0 R >>`], renumber);
	writer.object(PAGES_ID, [`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`], renumber);
	if (context.infoId !== undefined) await take(context.infoId);
	for (const [i, page] of pages.entries()) await write(FIRST_PAGE_ID + i, pagePieces(page, meter));
	for (let i = 0; i < queue.length; i++) {
		const object = queue[i];
		const data = await file.streamData(object);
		await write(renumbered.get(object.id) as number, data ? streamPieces(object, data.length, meter) : [{ text: object.body.text, tokens: tokenize(object.body, meter) }], data);
	}
	const info = context.infoId === undefined ? undefined : renumbered.get(context.infoId);
	return writer.finish(`/Root ${CATALOG_ID} 0 R${info === undefined ? '' : ` /Info ${info} 0 R`}`);
}

/** A page's own entries but /Parent, what it inherited and does not state, and its new parent. */
function pagePieces(page: Page, meter: WorkMeter): Piece[] {
	const { object } = page;
	const entries = dictionaryEntries(object.body.text, tokenize(object.body, meter));
	if (!entries) throw damaged(`page object ${object.id} cannot be read`);
	const pieces: Piece[] = ['<<'];
	for (const [key, entry] of entries) if (key !== 'Parent') pieces.push(' ', entry.key, ' ', entry.value);
	for (const [key, value] of page.inherited) if (!entries.has(key)) pieces.push(` /${key} `, value);
	if (!entries.has('Type')) pieces.push(' /Type /Page');
	pieces.push(` /Parent ${PAGES_ID} 0 R >>`);
	return pieces;
}

/** A stream's dictionary with its /Length stated directly (a /Length object is not copied). */
function streamPieces(object: SourceObject, length: number, meter: WorkMeter): Piece[] {
	const entries = dictionaryEntries(object.body.text, tokenize(object.body, meter));
	if (!entries) throw damaged(`stream object ${object.id} cannot be read`);
	const pieces: Piece[] = ['<<'];
	for (const [key, entry] of entries) if (key !== 'Length') pieces.push(' ', entry.key, ' ', entry.value);
	pieces.push(` /Length ${length} >>`);
	return pieces;
}
