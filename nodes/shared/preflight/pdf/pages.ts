import { dictionaryValue, isDict, PdfRef, type PdfDict, type PdfValue, type WorkMeter } from './values';

/** What counting pages needs of a scanned file (PdfFile in structure.ts). */
export interface PdfObjects {
	readonly meter: WorkMeter;
	/** The value, with a reference followed to its object (parsed once). */
	resolve(value: PdfValue | undefined): PdfValue | undefined;
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
export function countPages(file: PdfObjects): number | null {
	let catalog: PdfValue | undefined;
	for (const trailer of file.trailerDictionaries()) {
		if (!trailer.has('Root')) continue;
		catalog = file.resolve(trailer.get('Root'));
		if (!isDict(catalog)) return null;
		break;
	}
	catalog ??= file.objectsOfType('Catalog', '/Catalog').at(-1);
	if (isDict(catalog)) return countPageTree(file, catalog.get('Pages'));
	const pageObjects = file.objectsOfType('Page', '/Page').length;
	return pageObjects > 0 ? pageObjects : null;
}

function countPageTree(file: PdfObjects, rootReference: PdfValue | undefined): number | null {
	if (!(rootReference instanceof PdfRef)) return null;
	const root = file.resolve(rootReference);
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
			const child = file.resolve(kid);
			if (!isDict(child)) return null;
			pending.push(child);
		}
	}
	const count = dictionaryValue.integer(root, 'Count');
	return count === undefined || count === leaves ? leaves : null;
}
