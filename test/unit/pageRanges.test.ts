/**
 * A user's split specification (nodes/shared/preflight/pdf/pageRanges.ts): every page in
 * exactly one part, and every mistake an error that names what the user wrote.
 */
import { describe, expect, it } from 'vitest';

import { everyNPages, pageGroups, PageRangeError, parsePageRanges } from '../../nodes/shared/preflight/pdf/pageRanges';

/** The error's message, failing the test when there is none or it is of another kind. */
function errorOf(run: () => unknown): string {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(PageRangeError);
		return (error as Error).message;
	}
	throw new Error('expected a PageRangeError');
}

describe('every page, every N pages', () => {
	it('one part per page', () => {
		expect(pageGroups({ mode: 'everyPage' }, 3)).toEqual([[1], [2], [3]]);
		expect(pageGroups({ mode: 'everyPage' }, 1)).toEqual([[1]]);
	});

	it('parts of N pages, the last one taking what is left', () => {
		expect(everyNPages(2, 6)).toEqual([
			[1, 2],
			[3, 4],
			[5, 6],
		]);
		expect(pageGroups({ mode: 'everyNPages', pagesPerPart: 4 }, 10)).toEqual([
			[1, 2, 3, 4],
			[5, 6, 7, 8],
			[9, 10],
		]);
		expect(everyNPages(10, 3)).toEqual([[1, 2, 3]]);
	});

	it('N must be a whole number of 1 or more', () => {
		expect(errorOf(() => everyNPages(0, 5))).toBe('Pages per part must be a whole number of 1 or more (it is 0)');
		expect(errorOf(() => everyNPages(1.5, 5))).toContain('(it is 1.5)');
		expect(errorOf(() => everyNPages(Number.NaN, 5))).toContain('(it is NaN)');
	});

	it('a document without pages has nothing to split', () => {
		expect(errorOf(() => everyNPages(1, 0))).toBe('The document has no pages to split (page count: 0)');
		expect(errorOf(() => parsePageRanges('1', 0))).toContain('no pages');
	});
});

describe('ranges', () => {
	it('ranges and single pages, with or without spaces', () => {
		const expected = [[1, 2], [3], [4, 5, 6]];
		expect(parsePageRanges('1-2, 3, 4-6', 6)).toEqual(expected);
		expect(parsePageRanges('1-2,3,4-6', 6)).toEqual(expected);
		expect(parsePageRanges('  1 - 2 ,3 ,  4 -6  ', 6)).toEqual(expected);
		expect(pageGroups({ mode: 'ranges', ranges: '1-2; 3; 4-6' }, 6)).toEqual(expected);
	});

	it('parts in the order written, not necessarily ascending', () => {
		expect(parsePageRanges('4-6, 1-3', 6)).toEqual([
			[4, 5, 6],
			[1, 2, 3],
		]);
		expect(parsePageRanges('3, 1, 2', 3)).toEqual([[3], [1], [2]]);
	});

	it('`5-` runs to the end, whatever the document length', () => {
		expect(parsePageRanges('1, 2-', 4)).toEqual([[1], [2, 3, 4]]);
		expect(parsePageRanges('1-2, 3-', 3)).toEqual([[1, 2], [3]]);
	});

	it('dashes typed by word processors, leading zeros and a trailing comma are taken', () => {
		expect(parsePageRanges('1\u20132, 03\u2014', 4)).toEqual([
			[1, 2],
			[3, 4],
		]);
		expect(parsePageRanges('1-2, 3,', 3)).toEqual([[1, 2], [3]]);
	});

	it('page 0', () => {
		expect(errorOf(() => parsePageRanges('0', 3))).toBe("Page 0 in '0' does not exist: pages are numbered from 1");
		expect(errorOf(() => parsePageRanges('0-2, 3', 3))).toContain('pages are numbered from 1');
	});

	it('a page beyond the end', () => {
		expect(errorOf(() => parsePageRanges('1-6, 7', 6))).toBe("Page 7 in '7' is beyond the end of the document, which has 6 pages");
		expect(errorOf(() => parsePageRanges('1-9', 1))).toBe("Page 9 in '1-9' is beyond the end of the document, which has 1 page");
		expect(errorOf(() => parsePageRanges('2-', 1))).toContain('Page 2');
		expect(errorOf(() => parsePageRanges('1-99999999999999999999', 5))).toContain('Page 99999999999999999999 ');
	});

	it('a range that runs backwards', () => {
		expect(errorOf(() => parsePageRanges('3-1', 3))).toBe("'3-1' runs backwards: write the lower page first ('1-3')");
	});

	it('overlapping ranges name both', () => {
		expect(errorOf(() => parsePageRanges('1-3, 3-4', 4))).toBe("Page 3 is in two parts ('1-3' and '3-4'): each page can be in one part only");
		expect(errorOf(() => parsePageRanges('2, 1-4', 4))).toContain("Page 2 is in two parts ('2' and '1-4')");
		expect(errorOf(() => parsePageRanges('1, 1', 1))).toContain('Page 1 is in two parts');
	});

	it('letters, decimals and other text', () => {
		for (const text of ['a', '1-2, b', 'one', '1.5', '1-2-3', '1 2', '#3', 'page 1']) {
			expect(errorOf(() => parsePageRanges(text, 5)), text).toMatch(/is not a page number or a range of pages: write whole page numbers and ranges separated by commas, e\.g\. '1-2, 3, 4-6'$/);
		}
		expect(errorOf(() => parsePageRanges('1-2, b', 5))).toMatch(/^'b' is not/);
		expect(errorOf(() => parsePageRanges('-3', 5))).toBe("'-3' has no first page: write e.g. '1-3'");
	});

	it('an empty specification', () => {
		for (const text of ['', '   ', ',', ' , ;']) expect(errorOf(() => parsePageRanges(text, 3))).toBe("Enter the pages of each part, e.g. '1-2, 3, 4-6'");
	});

	it('pages no range names are an error that names them (never a silent extra part, never dropped)', () => {
		expect(errorOf(() => parsePageRanges('1-2', 3))).toBe("Page 3 of the 3-page document is in no part: add it to the ranges (e.g. '3'), or end the last range with '-' to take the pages to the end");
		expect(errorOf(() => parsePageRanges('1-3, 7-8', 9))).toMatch(/^Pages 4-6 and 9 of the 9-page document are in no part: add them to the ranges \(e\.g\. '4-6, 9'\)/);
		expect(errorOf(() => parsePageRanges('1, 3, 5, 7, 9, 11, 13', 14))).toMatch(/^Pages 2, 4, 6, 8, 10 and more of the 14-page document/);
	});

	it('is linear: a 100,000-page document split page by page', () => {
		const pages = 100_000;
		const text = Array.from({ length: pages }, (_, i) => String(i + 1)).join(',');
		const started = performance.now();
		const groups = parsePageRanges(text, pages);
		expect(groups).toHaveLength(pages);
		expect(groups.at(-1)).toEqual([pages]);
		expect(performance.now() - started).toBeLessThan(2000);
	});
});
