import { PdfName, type PdfDict, type WorkMeter } from './values';

/** Object stream data (PDF 1.5+): only FlateDecode is inflated, with the global DecompressionStream. */

export function isFlateOnly(dictionary: PdfDict): boolean {
	const filter = dictionary.get('Filter');
	const only = Array.isArray(filter) && filter.length === 1 ? filter[0] : filter;
	return only instanceof PdfName && only.name === 'FlateDecode' && !dictionary.has('DecodeParms');
}

export async function inflate(data: Uint8Array, meter: WorkMeter, budget: number): Promise<Uint8Array | null> {
	const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			size += value.byteLength;
			if (size > budget || meter.spent + value.byteLength > meter.limit) {
				await reader.cancel();
				break;
			}
			chunks.push(value);
		}
	} catch {
		// A damaged stream only means this route to the page count is closed.
		return null;
	}
	// Charged outside the stream's error handling, so that running out of work ends the whole reading.
	meter.charge(size);
	if (size > budget) return null;
	const joined = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		joined.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return joined;
}
