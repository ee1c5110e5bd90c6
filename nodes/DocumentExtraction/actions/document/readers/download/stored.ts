import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { frameForFile } from '../../../../../shared/http/multipart';
import type { ReadAgain, ReadFile } from '../reader';

/**
 * A downloaded file kept in n8n's binary data until its upload, not in the heap: every item is
 * checked before the first upload (extract.ts), so 100 links held as bytes took their 100 files'
 * memory at once. A link is not fetched twice (the server may answer differently, or a signed link
 * may have expired): the stored copy is read again, and check.ts proves it is the file it judged.
 * On n8n 2.x (binary data on disk or in the database) that is off the heap; n8n 1.x's in-memory
 * mode keeps it in memory, as it keeps every file there.
 */
export async function keepDownload(ctx: IExecuteFunctions, file: ReadFile): Promise<ReadAgain> {
	const { fileName, mimeType } = file;
	const size = file.bytes.byteLength;
	const stored = await ctx.helpers.prepareBinaryData(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, size), undefined, 'application/octet-stream');
	// Holds the stored file's reference and the download's name and type, never its bytes.
	return async () => ({ ...(await readStored(ctx, stored, size)), fileName, mimeType });
}

/** The stored copy, read into the upload's frame (multipart.ts): streamed from n8n's store, or decoded from its in-memory base64. */
async function readStored(ctx: IExecuteFunctions, stored: IBinaryData, size: number): Promise<Pick<ReadFile, 'bytes' | 'frame'>> {
	const { frame, start } = frameForFile(size);
	if (!stored.id) {
		const written = frame.write(stored.data, start, size, 'base64');
		return { bytes: frame.subarray(start, start + written), frame };
	}
	const stream = await ctx.helpers.getBinaryStream(stored.id);
	let at = start;
	for await (const chunk of stream as AsyncIterable<Uint8Array>) {
		if (at + chunk.byteLength > start + size) {
			stream.destroy();
			throw new Error("n8n's stored copy is larger than the file downloaded");
		}
		frame.set(chunk, at);
		at += chunk.byteLength;
	}
	return { bytes: frame.subarray(start, at), frame };
}
