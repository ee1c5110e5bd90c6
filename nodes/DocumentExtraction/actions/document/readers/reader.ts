import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { itemError, itemLabel } from '../../../../shared/items/itemError';

/**
 * What every reader gives: one reader per Document Source (binaryField.ts, everyAttachment.ts with
 * attachedEmail.ts for the emails attached to an email, url.ts) finds an item's documents, each a
 * `DocumentCandidate`, and hands each to the one check (check.ts) as soon as it is read, before it
 * reads the next file: what the check keeps of a file is never its bytes, so one file at a time
 * is held, however many an item has.
 */

/** A file as it was read, before the preflight named and typed it. */
export interface ReadFile {
	/** The file, or only its beginning when it is too large to send (see `size`). */
	bytes: Uint8Array;
	/** Set when `bytes` is only the beginning: the whole file's size, over what the service takes. */
	size?: number;
	frame?: Buffer;
	fileName?: string;
	mimeType?: string;
}

/** Reads the file again for its upload: from n8n's binary data (a download from the copy stored there, download/stored.ts), or the attached email in it. */
export type ReadAgain = () => Promise<ReadFile>;

/** Where a file of the item came from: its binary field and file name, and the attached email it was in. */
export interface FileOrigin extends IDataObject {
	binary_field: string;
	file_name: string | null;
	/**
	 * The subject of the attached email the file was inside ('' without one), or null for a direct
	 * attachment: on every item, so a sheet's columns do not depend on which file came first.
	 */
	attached_email: string | null;
}

/** Where a downloaded document came from: its link, as outputs show it (download.ts `shownUrl`). */
export interface LinkOrigin extends IDataObject {
	file_url: string;
}

/** The file the check reads, and how its upload reads it again; or why it could not be read. */
export type FirstRead = { file: ReadFile; readAgain: ReadAgain } | { error: unknown };

/** One document of an item as its reader found it, not yet checked. */
export interface DocumentCandidate {
	/** Where it came from, on its output items. None for Binary Field (its field is a parameter). */
	origin?: FileOrigin | LinkOrigin;
	/**
	 * The file "Include Input Binary" passes through with it: the item's binary field it is (a direct
	 * attachment), or, `extracted`, the file taken out of that field (a document inside an attached
	 * email). Without it the item's files pass through as they came (Binary Field, URL).
	 */
	ownFile?: { field: string; extracted?: boolean };
	/**
	 * Its bytes, let go after the check, and how to read them again for the upload (a download is
	 * not fetched twice: it is read from n8n's binary data, where url.ts stored it). An `error`
	 * fails this document alone, as the check refusing it would.
	 */
	read: FirstRead;
}

/** A file of the item that is not a document, listed on the item's output items (`skipped_files`); `attached_email` only when it was inside one. */
export interface SkippedFile extends Omit<FileOrigin, 'attached_email'> {
	attached_email?: string;
	reason: string;
}

export function skippedFile({ attached_email, ...origin }: FileOrigin, reason: string): SkippedFile {
	return { ...origin, ...(attached_email === null ? {} : { attached_email }), reason };
}

/** What a reader found, in the item's order: a document as the check left it, or a file that is none. */
export type Found<Checked> = { document: Checked } | { skipped: SkippedFile };

/** The one check, as a reader calls it; what it returns is the check's business (check.ts). */
export type Check<Checked> = (candidate: DocumentCandidate) => Promise<Checked>;

export interface DocumentReader {
	/** The item's files, in order, each document handed to `check` as soon as it is read and let go before the next is read. */
	read<Checked>(check: Check<Checked>): Promise<Array<Found<Checked>>>;
	/** Every Attachment: the item's output when none of its files is a document (the other readers always find one). */
	noDocument?(skipped: SkippedFile[]): IDataObject;
}

export const NOT_OPENED = 'The node sends PDF, JPEG and PNG files and does not open archives: the documents in it were not extracted.';

/**
 * A file that may hold documents the node does not open (a zip, winmail.dat, an attached email that
 * cannot be opened): it fails as a document of its own, so it reaches the error output (the email
 * example's Needs Attention) with what to do, instead of being skipped quietly like a logo.
 */
export function unopenedPackage(ctx: IExecuteFunctions, i: number, fileName: string, reason: string, what: string) {
	return itemError(ctx.getNode(), i, `${itemLabel(i)} (${fileName}): ${reason}`, `${what} Nothing was sent to the service and no page was used.`);
}

/** The first read of a file: a failure is that document's, not the item's. */
export async function firstRead(read: () => Promise<ReadFile>, readAgain: ReadAgain): Promise<FirstRead> {
	try {
		return { file: await read(), readAgain };
	} catch (error) {
		return { error };
	}
}

/** A text parameter; an expression giving a number is taken as its text, anything else as empty. */
export function textParameter(ctx: IExecuteFunctions, name: string, i: number, fallback: string): string {
	const value = ctx.getNodeParameter(name, i, fallback) as unknown;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}
