import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { needsShrinking, photoHeader, shrinkPhoto, type PhotoKind } from '../../../shared/images/shrink';
import { itemError, itemLabel } from '../../../shared/items/itemError';
import { formatCount, formatMegabytes, RECOMMENDED_IMAGE_LONG_SIDE_PX } from '../../../shared/limits';
import { DOCUMENT_PREPARATION_KEYS } from '../../../shared/output/columnNames';
import { nameForContent } from '../../../shared/preflight/fileTypes';
import { throwIfCancelled, waitFor } from '../../../shared/wait';
import type { ReadFile } from './readers/reader';

/**
 * Shrink Large Photos: a phone photo or a scan over the size limit, or larger than the text needs,
 * sent as a JPEG of the recommended size instead of refused or sent large (images/shrink.ts).
 */

export interface ShrunkFile {
	bytes: Uint8Array;
	fileName: string;
	mimeType: string;
	preparation: IDataObject;
}

/**
 * The photo to send instead of `file`, or undefined when it is not a photo to shrink (small
 * enough, or only its beginning was read: too large even to shrink, refused by the preflight). A
 * photo that cannot be decoded fails its document, before anything is sent.
 */
export async function shrunkPhoto(ctx: IExecuteFunctions, i: number, file: ReadFile, kind: PhotoKind, fileName: string): Promise<ShrunkFile | undefined> {
	if (file.size !== undefined) return undefined;
	const size = file.bytes.byteLength;
	const label = kind === 'jpeg' ? 'JPEG' : 'PNG';
	const signal = ctx.getExecutionCancelSignal?.();
	try {
		const header = photoHeader(file.bytes, kind);
		if (!needsShrinking(header, size)) return undefined;
		// Shrinking gives way to n8n's other work every 20 ms or so, and stops when the execution is cancelled.
		const shrunk = await shrinkPhoto(file.bytes, kind, header, { wait: waitFor, signal });
		return {
			bytes: shrunk.bytes,
			fileName: nameForContent(fileName, 'jpeg'),
			mimeType: 'image/jpeg',
			preparation: { [DOCUMENT_PREPARATION_KEYS.shrunkFrom]: `${header.width}x${header.height} ${label}, ${formatMegabytes(size)} MB` },
		};
	} catch (error) {
		// Stopped because the execution was cancelled: not a file that cannot be read.
		throwIfCancelled(signal);
		// The decoders' JpegError and PngError say what is wrong with the file.
		const reason = error instanceof Error ? error.message : String(error);
		throw itemError(
			ctx.getNode(),
			i,
			`${itemLabel(i)} (${fileName}): the ${label} image could not be shrunk: ${reason}`,
			`Shrink Large Photos makes large photos ${formatCount(RECOMMENDED_IMAGE_LONG_SIDE_PX)} pixels on the long side before upload, and this file could not be read as an image. Open it and save it again as a JPEG, or turn "Shrink Large Photos" off to send it as it is. Nothing was sent to the service and no page was used.`,
		);
	}
}
