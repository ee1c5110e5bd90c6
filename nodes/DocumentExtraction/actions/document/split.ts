import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { itemError, itemLabel } from '../../../shared/items/itemError';
import { DOCUMENT_PREPARATION_KEYS } from '../../../shared/output/columnNames';
import { pageGroups, type SplitSpecification } from '../../../shared/preflight/pdf/pageRanges';
import { openSplit, type PdfSplitter } from '../../../shared/preflight/pdf/split';

/**
 * Split PDFs: a scanner's batch cut into its documents before upload. Each part is a document of
 * its own (its own upload, result, items and pages charged); its items name the file and pages it
 * came from. The file is opened once at the check and once again for the uploads (the bytes read
 * again), each time for all its parts, made one at a time: the part sent is byte for byte the part
 * checked, and no more than one part's bytes are held at a time.
 */

/** One part of a PDF: its pages and what its items say. */
export interface PdfPart {
	pages: number[];
	fileName: string;
	/** How errors name it: "pages 3-4". */
	label: string;
	preparation: IDataObject;
}

/** A PDF's parts, and how to make them from the file's bytes. */
export interface PdfParts {
	parts: PdfPart[];
	/** Opens the file once for all parts; a part that cannot be made fails the document. */
	open(bytes: Uint8Array): Promise<PdfSplitter>;
}

/**
 * The parts of a PDF of `pageCount` pages, or undefined when the specification gives one part:
 * the file is then sent as it is. A range that does not fit the document, or a PDF that cannot be
 * split, fails the document before anything is sent.
 */
export function splitIntoParts(ctx: IExecuteFunctions, i: number, fileName: string, pageCount: number | null, specification: SplitSpecification): PdfParts | undefined {
	const refused = (message: string, description: string) =>
		itemError(ctx.getNode(), i, `${itemLabel(i)} (${fileName}): ${message}`, `${description} Nothing was sent to the service and no page was used.`);
	if (pageCount === null) {
		throw refused('the PDF cannot be split: its pages could not be counted', 'Open it and print it to a new PDF, then send that file, or set "Split PDFs" to "Don\'t Split".');
	}
	let groups: number[][];
	try {
		groups = pageGroups(specification, pageCount);
	} catch (error) {
		// PageRangeError says, in the user's words, what does not fit.
		const what = specification.mode === 'ranges' ? '"Page Ranges" does not fit the document' : 'the PDF cannot be split as asked';
		throw refused(
			`${what}: ${messageOf(error)}`,
			`Every page from 1 to ${pageCount} must be in exactly one range, e.g. '${exampleRanges(pageCount)}' ('2-' runs to the last page). Correct "Page Ranges", or use an expression that gives ranges for each file.`,
		);
	}
	if (groups.length < 2) return undefined;
	// PdfSplitError says why (encrypted, damaged, too complex).
	const cannotSplit = (error: unknown) =>
		refused(`the PDF could not be split: ${messageOf(error)}`, 'Split it with a PDF program and send the parts, or set "Split PDFs" to "Don\'t Split" to send it whole.');
	return {
		parts: groups.map((pages) => {
			const shown = pagesText(pages);
			return {
				pages,
				fileName: partFileName(fileName, pages),
				label: pages.length === 1 ? `page ${shown}` : `pages ${shown}`,
				preparation: { [DOCUMENT_PREPARATION_KEYS.sourceFileName]: fileName, [DOCUMENT_PREPARATION_KEYS.sourcePages]: shown },
			};
		}),
		open: async (bytes) => {
			const splitter = await openSplit(bytes, groups).catch((error: unknown) => {
				throw cannotSplit(error);
			});
			return { part: async (index) => await splitter.part(index).catch((error: unknown) => Promise.reject(cannotSplit(error))) };
		},
	};
}

function exampleRanges(pageCount: number): string {
	if (pageCount < 3) return pageCount === 1 ? '1' : '1, 2';
	return `1-2, 3-${pageCount}`;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

/** "3-4", or "3" for one page: each part is a run of pages (pageRanges.ts). */
function pagesText(pages: number[]): string {
	const first = pages[0];
	const last = pages[pages.length - 1];
	return first === last ? String(first) : `${first}-${last}`;
}

/** `scan.pdf` → `scan (pages 3-4).pdf`, `scan (page 5).pdf`. */
function partFileName(fileName: string, pages: number[]): string {
	const stem = fileName.replace(/\.pdf$/i, '');
	return `${stem} (${pages.length === 1 ? 'page' : 'pages'} ${pagesText(pages)}).pdf`;
}
