import { dictionaryValue, isDict, PdfRef, type PdfDict, type PdfValue, type WorkMeter } from './values';

/**
 * What counting pages and the encryption check need of a file: PdfFile (structure.ts) when the
 * file was scanned, IndexedObjects (indexedObjects.ts) when it is read through its own index.
 */
export interface PdfObjects {
	readonly meter: WorkMeter;
	/**
	 * The value, with a reference followed to its object (parsed once); a promise only when the
	 * object must first be inflated from an object stream.
	 */
	resolve(value: PdfValue | undefined): PdfValue | undefined | Promise<PdfValue | undefined>;
	/** Trailer dictionaries, newest first. */
	trailerDictionaries(): Iterable<PdfDict>;
	/** Objects of a /Type, in file order. */
	objectsOfType(type: string, marker: string): PdfDict[];
}

/**
 * The page count when the file states it consistently: the leaves of the page tree reached from
 * the newest trailer's /Root, agreeing with the root's /Count. A cycle, a missing branch or a
 * count that disagrees with the leaves means the service decides (null). Without any trailer
 * /Root, a catalog found anywhere, or failing that the page objects, tell the count.
 */
export async function countPages(file: PdfObjects): Promise<number | null> {
	const named = await namedCatalog(file);
	if (named && !isDict(named.catalog)) return null;
	const catalog = named?.catalog ?? file.objectsOfType('Catalog', '/Catalog').at(-1);
	if (isDict(catalog)) return countPageTree(file, catalog.get('Pages'));
	const pageObjects = file.objectsOfType('Page', '/Page').length;
	return pageObjects > 0 ? pageObjects : null;
}

/** The /Count the page tree's root states, unchecked against its leaves (undefined when there is none). */
export async function statedPageCount(file: PdfObjects): Promise<number | undefined> {
	const named = await namedCatalog(file);
	const root = isDict(named?.catalog) ? await file.resolve(named.catalog.get('Pages')) : undefined;
	return isDict(root) ? dictionaryValue.integer(root, 'Count') : undefined;
}

/** The catalog the newest trailer with /Root names; undefined when no trailer names one. */
async function namedCatalog(file: PdfObjects): Promise<{ catalog: PdfValue | undefined } | undefined> {
	for (const trailer of file.trailerDictionaries()) {
		if (trailer.has('Root')) return { catalog: await file.resolve(trailer.get('Root')) };
	}
	return undefined;
}

async function countPageTree(file: PdfObjects, rootReference: PdfValue | undefined): Promise<number | null> {
	if (!(rootReference instanceof PdfRef)) return null;
	const root = await file.resolve(rootReference);
	if (!isDict(root)) return null;
	const visited = new Set<number>([rootReference.id]);
	const pending: PdfDict[] = [root];
	let leaves = 0;
	for (let node = pending.pop(); node; node = pending.pop()) {
		file.meter.charge(1);
		const kids = node.get('Kids');
		const type = dictionaryValue.name(node, 'Type') ?? (kids === undefined ? 'Page' : 'Pages');
		if (type === 'Page') {
			leaves++;
			continue;
		}
		if (type !== 'Pages' || !Array.isArray(kids)) return null;
		for (const kid of kids) {
			// A node reached twice is a cycle or a shared branch: the tree cannot be trusted.
			if (!(kid instanceof PdfRef) || visited.has(kid.id)) return null;
			visited.add(kid.id);
			// Awaited only when it is a promise: a scanned file's 90,000 pages are not 90,000 turns of the event loop.
			const resolved = file.resolve(kid);
			const child = resolved instanceof Promise ? await resolved : resolved;
			if (!isDict(child)) return null;
			pending.push(child);
		}
	}
	const count = dictionaryValue.integer(root, 'Count');
	return count === undefined || count === leaves ? leaves : null;
}
