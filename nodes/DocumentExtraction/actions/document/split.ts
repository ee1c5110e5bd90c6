import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { itemError, itemLabel } from '../../../shared/items/itemError';
import { DOCUMENT_PREPARATION_KEYS } from '../../../shared/output/columnNames';
import { pageGroups, type SplitSpecification } from '../../../shared/preflight/pdf/pageRanges';
import { splitPdf } from '../../../shared/preflight/pdf/split';

/**
 * Split PDFs: a scanner's batch cut into its documents before upload. Each part is a document of
 * its own (its own upload, result, items and pages charged); its items name the file and pages it
 * came from. Each part is made alone (one group per split), at the check and again for its upload,
 * so the part sent is byte for byte the part checked, and one file's parts are never held together.
 */

/** One part of a PDF: its pages, what its items say, and its bytes as first made (to check them). */
export interface PdfPart {
	pages: number[];
	bytes: Uint8Array;
	fileName: string;
	/** How errors name it: "pages 3-4". */
	label: string;
	preparation: IDataObject;
}

/**
 * The parts of a PDF of `pageCount` pages, or undefined when the specification gives one part:
 * the file is then sent as it is. A range that does not fit the document, or a PDF that cannot be
 * split, fails the document before anything is sent.
 */
export async function splitIntoParts(
	ctx: IExecuteFunctions,
	i: number,
	bytes: Uint8Array,
	fileName: string,
	pageCount: number | null,
	specification: SplitSpecification,
): Promise<PdfPart[] | undefined> {
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
	const parts: PdfPart[] = [];
	for (const pages of groups) {
		let part: Uint8Array;
		try {
			part = await partOf(bytes, pages);
		} catch (error) {
			// PdfSplitError says why (encrypted, damaged, too complex).
			throw refused(`the PDF could not be split: ${messageOf(error)}`, 'Split it with a PDF program and send the parts, or set "Split PDFs" to "Don\'t Split" to send it whole.');
		}
		const shown = pagesText(pages);
		parts.push({
			pages,
			bytes: part,
			fileName: partFileName(fileName, pages),
			label: pages.length === 1 ? `page ${shown}` : `pages ${shown}`,
			preparation: { [DOCUMENT_PREPARATION_KEYS.sourceFileName]: fileName, [DOCUMENT_PREPARATION_KEYS.sourcePages]: shown },
		});
	}
	return parts;
}

function exampleRanges(pageCount: number): string {
	if (pageCount < 3) return pageCount === 1 ? '1' : '1, 2';
	return `1-2, 3-${pageCount}`;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

/** One part made alone: the same bytes every time for the same file. */
export async function partOf(bytes: Uint8Array, pages: number[]): Promise<Uint8Array> {
	const [part] = await splitPdf(bytes, [pages]);
	return part;
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
