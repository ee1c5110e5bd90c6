/**
 * A user's split specification turned into the pages of each part (1-based page numbers), for a
 * document of a known number of pages. Pure functions: every mistake is an error in the user's
 * words, naming what they wrote.
 *
 * Pages that no range names are an error, not a part of their own and not dropped: a page left
 * out silently would never be extracted (nothing in the workflow would show it was lost), and an
 * extra part the user did not ask for is an upload they may pay for. The error names the pages,
 * and `5-` (page 5 to the end) takes the rest of a document of any length.
 */

export type SplitSpecification =
	/** One part per page. */
	| { mode: 'everyPage' }
	/** Parts of `pagesPerPart` pages; the last one takes what is left. */
	| { mode: 'everyNPages'; pagesPerPart: number }
	/** Ranges such as `1-2, 3, 4-6` or `1, 2-`: one part per range, in the order written. */
	| { mode: 'ranges'; ranges: string };

export class PageRangeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PageRangeError';
	}
}

/** The pages of each part. */
export function pageGroups(specification: SplitSpecification, pageCount: number): number[][] {
	if (specification.mode === 'everyPage') return everyNPages(1, pageCount);
	if (specification.mode === 'everyNPages') return everyNPages(specification.pagesPerPart, pageCount);
	return parsePageRanges(specification.ranges, pageCount);
}

/** Parts of `pagesPerPart` pages each, in order; the last part may be shorter. */
export function everyNPages(pagesPerPart: number, pageCount: number): number[][] {
	checkPageCount(pageCount);
	if (!Number.isInteger(pagesPerPart) || pagesPerPart < 1) {
		throw new PageRangeError(`Pages per part must be a whole number of 1 or more (it is ${String(pagesPerPart)})`);
	}
	const groups: number[][] = [];
	for (let first = 1; first <= pageCount; first += pagesPerPart) groups.push(pageSpan(first, Math.min(pageCount, first + pagesPerPart - 1)));
	return groups;
}

/** `3`, `4-6`, `5-` (to the end); dashes as typed by word processors count as hyphens. */
const ITEM = /^(\d+)(?:\s*[-\u2013\u2014]\s*(\d*))?$/;
const EXAMPLE = "e.g. '1-2, 3, 4-6'";

/**
 * Ranges separated by commas (or semicolons), spaces anywhere, in any order: `1-2, 3, 4-6`,
 * `4-6,1-3`, `1, 2-`. Every page of the document must be in exactly one range.
 */
export function parsePageRanges(text: string, pageCount: number): number[][] {
	checkPageCount(pageCount);
	const items = text
		.split(/[,;]/)
		.map((item) => item.trim())
		.filter((item) => item !== '');
	if (items.length === 0) throw new PageRangeError(`Enter the pages of each part, ${EXAMPLE}`);
	// owner[page] = the item that names it, to tell which two items overlap.
	const owner = new Map<number, string>();
	const groups = items.map((item) => {
		const [first, last] = rangeOf(item, pageCount);
		for (let page = first; page <= last; page++) {
			const earlier = owner.get(page);
			if (earlier !== undefined) throw new PageRangeError(`Page ${page} is in two parts ('${earlier}' and '${item}'): each page can be in one part only`);
			owner.set(page, item);
		}
		return pageSpan(first, last);
	});
	const missing = pageSpan(1, pageCount).filter((page) => !owner.has(page));
	if (missing.length > 0) {
		const named = describePages(missing);
		const verb = missing.length === 1 ? 'is' : 'are';
		throw new PageRangeError(
			`${named} of the ${pageCount}-page document ${verb} in no part: add ${missing.length === 1 ? 'it' : 'them'} to the ranges (e.g. '${rangesText(missing)}'), or end the last range with '-' to take the pages to the end`,
		);
	}
	return groups;
}

/** First and last page of one item, checked against the document. */
function rangeOf(item: string, pageCount: number): [number, number] {
	const match = ITEM.exec(item);
	if (!match) {
		if (/^[-\u2013\u2014]\s*\d+$/.test(item)) throw new PageRangeError(`'${item}' has no first page: write e.g. '1${item}'`);
		throw new PageRangeError(`'${item}' is not a page number or a range of pages: write whole page numbers and ranges separated by commas, ${EXAMPLE}`);
	}
	const first = pageNumber(match[1], item, pageCount);
	const last = match[2] === undefined ? first : match[2] === '' ? pageCount : pageNumber(match[2], item, pageCount);
	if (last < first) throw new PageRangeError(`'${item}' runs backwards: write the lower page first ('${last}-${first}')`);
	return [first, last];
}

function pageNumber(digits: string, item: string, pageCount: number): number {
	// More digits than any page count has: beyond the end, without a number that loses precision.
	const page = digits.replace(/^0+(?=\d)/, '').length > 15 ? Infinity : Number(digits);
	if (page === 0) throw new PageRangeError(`Page 0 in '${item}' does not exist: pages are numbered from 1`);
	if (page > pageCount) {
		const shown = page === Infinity ? digits : String(page);
		throw new PageRangeError(`Page ${shown} in '${item}' is beyond the end of the document, which has ${pagesWord(pageCount)}`);
	}
	return page;
}

function checkPageCount(pageCount: number): void {
	if (!Number.isInteger(pageCount) || pageCount < 1) throw new PageRangeError(`The document has no pages to split (page count: ${String(pageCount)})`);
}

function pageSpan(first: number, last: number): number[] {
	return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function pagesWord(count: number): string {
	return count === 1 ? '1 page' : `${count} pages`;
}

/** Ascending pages as ranges: [4, 5, 6, 9] → ['4-6', '9']. */
function runs(pages: number[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < pages.length; ) {
		let end = i;
		while (end + 1 < pages.length && pages[end + 1] === pages[end] + 1) end++;
		out.push(end === i ? String(pages[i]) : `${pages[i]}-${pages[end]}`);
		i = end + 1;
	}
	return out;
}

/** At most this many runs are listed in a message; a long list ends with "and more". */
const LISTED_RUNS = 5;

function rangesText(pages: number[]): string {
	const all = runs(pages);
	return all.slice(0, LISTED_RUNS).join(', ');
}

/** "Page 9", "Pages 4-6 and 9", "Pages 2, 4, 6, 8, 10 and more". */
function describePages(pages: number[]): string {
	const all = runs(pages);
	const head = pages.length === 1 ? 'Page' : 'Pages';
	if (all.length === 1) return `${head} ${all[0]}`;
	if (all.length > LISTED_RUNS) return `${head} ${all.slice(0, LISTED_RUNS).join(', ')} and more`;
	return `${head} ${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}
