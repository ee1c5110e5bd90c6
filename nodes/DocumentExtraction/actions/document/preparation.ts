import type { IExecuteFunctions } from 'n8n-workflow';

import { readBoolean, readChoice, readNumber } from '../../../shared/items/parameters';
import type { SplitSpecification } from '../../../shared/preflight/pdf/pageRanges';
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
