import type { IExecuteFunctions } from 'n8n-workflow';

import { readBoolean, readChoice, readNumber } from '../../../shared/items/parameters';
import { MAX_FILE_BYTES, MAX_PDF_BYTES_TO_SPLIT, MAX_PHOTO_BYTES_TO_SHRINK } from '../../../shared/limits';
import type { SplitSpecification } from '../../../shared/preflight/pdf/pageRanges';
import { detectFormat } from '../../../shared/preflight/upload';
import { textParameter } from './readers/reader';

/**
 * What is done to an item's documents before their upload (Options → Split PDFs, Shrink Large
 * Photos): read once per item, with the checks of every other setting.
 */
export interface Preparation {
	/** Undefined: Don't Split. */
	split?: SplitSpecification;
	shrinkPhotos: boolean;
}

export const SPLIT_MODES = ['none', 'everyPage', 'everyNPages', 'ranges'] as const;

export const DEFAULT_PAGES_PER_PART = 2;

export function readPreparation(ctx: IExecuteFunctions, i: number): Preparation {
	return { split: readSplit(ctx, i), shrinkPhotos: shrinksPhotos(ctx, i) };
}

/** Shrink Large Photos: also what makes the binary readers read a photo too large to send whole (readers/binaryData.ts). */
export function shrinksPhotos(ctx: IExecuteFunctions, i: number): boolean {
	return readBoolean(ctx, 'options.shrinkPhotos', i, true, 'Shrink Large Photos');
}

function readSplit(ctx: IExecuteFunctions, i: number): SplitSpecification | undefined {
	const mode = readChoice(ctx, 'options.splitPdfs', i, 'none', SPLIT_MODES, 'Split PDFs');
	if (mode === 'none') return undefined;
	if (mode === 'everyPage') return { mode };
	if (mode === 'everyNPages') {
		const rule = { label: 'Pages per Part', min: 1, integer: true, example: String(DEFAULT_PAGES_PER_PART) };
		return { mode, pagesPerPart: readNumber(ctx, 'options.pagesPerPart', i, DEFAULT_PAGES_PER_PART, rule) };
	}
	return { mode, ranges: textParameter(ctx, 'options.pageRanges', i, '') };
}

/**
 * The largest file of this type (told by its first bytes, `head`) read whole: a JPEG or PNG photo
 * that Shrink Large Photos makes small enough (photo.ts), up to MAX_PHOTO_BYTES_TO_SHRINK; a PDF that
 * Split PDFs cuts into parts each held to the limit (split.ts), up to MAX_PDF_BYTES_TO_SPLIT; any
 * other file, the service's limit (over it only its beginning is read, and the preflight refuses
 * it as too large). Every reader asks it: a binary field, a download, a file inside an attached email.
 */
export function largestToRead(head: Uint8Array, preparation: Pick<Preparation, 'shrinkPhotos' | 'split'>): number {
	const { kind } = detectFormat(head);
	if ((kind === 'jpeg' || kind === 'png') && preparation.shrinkPhotos) return MAX_PHOTO_BYTES_TO_SHRINK;
	if (kind === 'pdf' && preparation.split) return MAX_PDF_BYTES_TO_SPLIT;
	return MAX_FILE_BYTES;
}

/** The largest file of any type `largestToRead` lets be read whole: what is read before a file's type is known. */
export function largestReadable(preparation: Pick<Preparation, 'shrinkPhotos' | 'split'>): number {
	return Math.max(MAX_FILE_BYTES, preparation.shrinkPhotos ? MAX_PHOTO_BYTES_TO_SHRINK : 0, preparation.split ? MAX_PDF_BYTES_TO_SPLIT : 0);
}
