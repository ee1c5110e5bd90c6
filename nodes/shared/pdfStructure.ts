/**
 * Reads the little the preflight needs from a PDF (page count, encryption, a complete ending)
 * without a PDF library: community nodes may not ship runtime dependencies. Only the object
 * structure is read; page contents are never parsed.
 *
 * PDF 1.5+ files (pdf-lib's default output, most scanners) keep the page tree inside compressed
 * object streams, so those streams are inflated with the global `DecompressionStream`.
 */

export interface PdfStructure {
	/** The trailer names an encryption dictionary: the service cannot read the file. */
	encrypted: boolean;
	/** `%%EOF` appears near the end, as in every complete PDF. */
	hasEndMarker: boolean;
	/** Indirect objects found, including those inside object streams. */
	objectCount: number;
	/** Pages in the document, or null when the page tree could not be read. */
	pages: number | null;
}

/** PDF readers look for `%%EOF` within the last 1,024 bytes; some writers append a little after it. */
const END_MARKER_WINDOW = 1024;
/**
 * Ceiling on the bytes inflated from object streams. A real page tree is a few kilobytes; the
 * ceiling keeps a crafted "zip bomb" from exhausting memory inside n8n.
 */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

export async function readPdfStructure(bytes: Uint8Array): Promise<PdfStructure> {
	// latin1 maps each byte to one character, so string offsets are byte offsets.
	const text = new TextDecoder('latin1').decode(bytes);
	const scan = scanObjects(bytes, text);
	const objects = await resolveObjects(scan.entries);
	const structural = scan.structuralText;
	return {
		encrypted: /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(structural),
		hasEndMarker: text.slice(-END_MARKER_WINDOW).includes('%%EOF'),
		objectCount: objects.size,
		pages: countPages(objects, structural),
	};
}

type ObjectEntry =
	| { kind: 'object'; id: number; body: string }
	| { kind: 'objectStream'; data: Uint8Array; dictionary: string };

interface ObjectScan {
	/** Objects and object streams in file order, so a later definition replaces an earlier one. */
	entries: ObjectEntry[];
	/** The file without its stream data: dictionaries, xref sections and trailers. */
	structuralText: string;
}

/** One pass over the file; stream data is skipped, not searched, so binary bytes are never read as syntax. */
function scanObjects(bytes: Uint8Array, text: string): ObjectScan {
	const entries: ObjectEntry[] = [];
	const structuralParts: string[] = [];
	let structuralStart = 0;
	const objectHeader = /(\d+)\s+\d+\s+obj\b/g;
	for (let match = objectHeader.exec(text); match; match = objectHeader.exec(text)) {
		const bodyStart = match.index + match[0].length;
		const end = text.indexOf('endobj', bodyStart);
		const bodyEnd = end === -1 ? text.length : end;
		const streamKeyword = text.slice(bodyStart, bodyEnd).search(/\bstream(?:\r\n|\r|\n)/);
		if (streamKeyword === -1) {
			entries.push({ kind: 'object', id: Number(match[1]), body: text.slice(bodyStart, bodyEnd) });
			continue;
		}
		const dictionary = text.slice(bodyStart, bodyStart + streamKeyword);
		const data = locateStreamData(text, dictionary, bodyStart + streamKeyword);
		entries.push({ kind: 'object', id: Number(match[1]), body: dictionary });
		if (/\/Type\s*\/ObjStm\b/.test(dictionary) && isFlateOnly(dictionary)) {
			entries.push({ kind: 'objectStream', data: bytes.subarray(data.start, data.end), dictionary });
		}
		structuralParts.push(text.slice(structuralStart, data.start));
		structuralStart = data.end;
		objectHeader.lastIndex = data.end;
	}
	structuralParts.push(text.slice(structuralStart));
	return { entries, structuralText: structuralParts.join('') };
}

/** The stream's data range: the direct `/Length` when it checks out, else up to `endstream`. */
function locateStreamData(text: string, dictionary: string, keywordIndex: number): { start: number; end: number } {
	const eol = /stream(\r\n|\r|\n)/.exec(text.slice(keywordIndex, keywordIndex + 8));
	const start = keywordIndex + 'stream'.length + (eol ? eol[1].length : 1);
	const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
	if (length) {
		const end = start + Number(length[1]);
		if (/^\s*endstream/.test(text.slice(end, end + 16))) return { start, end };
	}
	const endKeyword = text.indexOf('endstream', start);
	if (endKeyword === -1) return { start, end: text.length };
	let end = endKeyword;
	if (text[end - 1] === '\n') end--;
	if (text[end - 1] === '\r') end--;
	return { start, end: Math.max(start, end) };
}

function isFlateOnly(dictionary: string): boolean {
	return /\/Filter\s*(?:\[\s*)?\/FlateDecode\s*\]?/.test(dictionary) && !/\/DecodeParms/.test(dictionary);
}

/** Inflates the object streams (concurrently) and lays all objects out in file order. */
async function resolveObjects(entries: ObjectEntry[]): Promise<Map<number, string>> {
	const budget = { remaining: MAX_INFLATED_BYTES };
	const inflated = await Promise.all(
		entries.map(async (entry) => (entry.kind === 'objectStream' ? await inflate(entry.data, budget) : null)),
	);
	const objects = new Map<number, string>();
	entries.forEach((entry, index) => {
		if (entry.kind === 'object') {
			objects.set(entry.id, entry.body);
			return;
		}
		const data = inflated[index];
		if (!data) return;
		for (const [id, body] of readObjectStream(entry.dictionary, data)) objects.set(id, body);
	});
	return objects;
}

/** Spec of PDF 1.5 object streams: `/N` pairs of "object-number offset", then the objects from `/First`. */
function readObjectStream(dictionary: string, data: Uint8Array): Array<[number, string]> {
	const count = Number(/\/N\s+(\d+)/.exec(dictionary)?.[1] ?? NaN);
	const first = Number(/\/First\s+(\d+)/.exec(dictionary)?.[1] ?? NaN);
	if (!Number.isInteger(count) || !Number.isInteger(first)) return [];
	const text = new TextDecoder('latin1').decode(data);
	const header = text.slice(0, first).trim().split(/\s+/).map(Number);
	const objects: Array<[number, string]> = [];
	for (let i = 0; i < count; i++) {
		const id = header[2 * i];
		const offset = header[2 * i + 1];
		if (!Number.isInteger(id) || !Number.isInteger(offset)) break;
		const nextOffset = i + 1 < count ? header[2 * i + 3] : undefined;
		const end = Number.isInteger(nextOffset) ? first + (nextOffset as number) : text.length;
		objects.push([id, text.slice(first + offset, end)]);
	}
	return objects;
}

async function inflate(data: Uint8Array, budget: { remaining: number }): Promise<Uint8Array | null> {
	try {
		const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
		const chunks: Uint8Array[] = [];
		let size = 0;
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			size += value.byteLength;
			budget.remaining -= value.byteLength;
			if (budget.remaining < 0) {
				await reader.cancel();
				return null;
			}
			chunks.push(value);
		}
		const joined = new Uint8Array(size);
		let offset = 0;
		for (const chunk of chunks) {
			joined.set(chunk, offset);
			offset += chunk.byteLength;
		}
		return joined;
	} catch {
		// A damaged stream only means this route to the page count is closed.
		return null;
	}
}

const PAGES_REFERENCE = /\/Pages\s+(\d+)\s+\d+\s+R/;
const COUNT = /\/Count\s+(\d+)/;
const TYPE_PAGES = /\/Type\s*\/Pages\b/;
const TYPE_PAGE = /\/Type\s*\/Page(?![A-Za-z])/;

/**
 * The document's page count: the root page tree's `/Count` reached from the trailer's `/Root`;
 * failing that, a catalog found anywhere, a page tree without a parent, or the page objects.
 */
function countPages(objects: Map<number, string>, structural: string): number | null {
	const roots = [...structural.matchAll(/\/Root\s+(\d+)\s+\d+\s+R/g)];
	const catalogIds = roots.map((root) => Number(root[1])).reverse();
	for (const [id, body] of objects) if (/\/Type\s*\/Catalog\b/.test(body)) catalogIds.push(id);
	for (const catalogId of catalogIds) {
		const pagesId = PAGES_REFERENCE.exec(objects.get(catalogId) ?? '')?.[1];
		const count = COUNT.exec(objects.get(Number(pagesId)) ?? '')?.[1];
		if (pagesId !== undefined && count !== undefined) return Number(count);
	}
	let rootTreeCount: number | null = null;
	let pageObjects = 0;
	for (const body of objects.values()) {
		if (TYPE_PAGES.test(body)) {
			const count = COUNT.exec(body)?.[1];
			if (count !== undefined && !/\/Parent\b/.test(body)) rootTreeCount = Number(count);
		} else if (TYPE_PAGE.test(body)) {
			pageObjects++;
		}
	}
	if (rootTreeCount !== null) return rootTreeCount;
	return pageObjects > 0 ? pageObjects : null;
}
