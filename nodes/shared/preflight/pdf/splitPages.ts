/**
 * The pages a split reads (split.ts): the page tree walked once, each page with what it inherits
 * from its /Pages ancestors.
 */
import { dictionaryEntries, tokenize, type TokenRun } from './pdfWriter';
import { damaged, type SourceFile, type SourceObject } from './splitSource';
import { dictionaryValue, isDict, PdfRef, WorkMeter, type PdfDict, type PdfValue } from './values';

/** What a page takes from its /Pages ancestors when it does not state it itself (7.7.3.4). */
const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;

export interface Page {
	object: SourceObject;
	/** The nearest ancestor's value of each inheritable attribute, as its text. */
	inherited: ReadonlyMap<string, TokenRun>;
}

export interface PageTree {
	/** The leaves, in document order. */
	pages: Page[];
	pageIds: Set<number>;
	/** The /Pages nodes: never copied (each part has its own). */
	nodes: Set<number>;
}

/**
 * The page tree's leaves in order, depth first, without recursion. A node reached twice (a /Kids
 * loop, a page listed twice), a node that is not a dictionary, or a root /Count other than the
 * leaves found means the tree cannot be trusted to say which page is which.
 */
export async function readPageTree(file: SourceFile, rootRef: PdfValue | undefined): Promise<PageTree> {
	if (!(rootRef instanceof PdfRef)) throw damaged('the catalog names no page tree');
	const tree: PageTree = { pages: [], pageIds: new Set(), nodes: new Set() };
	const pending: Array<{ id: number; inherited: ReadonlyMap<string, TokenRun> }> = [{ id: rootRef.id, inherited: new Map() }];
	const reached = new Set<number>([rootRef.id]);
	let rootCount: number | undefined;
	for (let next = pending.pop(); next; next = pending.pop()) {
		file.meter.charge(1);
		const node = await file.object(next.id);
		if (!node || !isDict(node.value)) throw damaged(`page tree node ${next.id} is missing or not a dictionary`);
		const kids = node.value.get('Kids');
		const type = dictionaryValue.name(node.value, 'Type') ?? (kids === undefined ? 'Page' : 'Pages');
		if (next.id === rootRef.id) rootCount = dictionaryValue.integer(node.value, 'Count');
		if (type === 'Page') {
			tree.pages.push({ object: node, inherited: next.inherited });
			tree.pageIds.add(node.id);
			continue;
		}
		if (type !== 'Pages' || !Array.isArray(kids)) throw damaged(`page tree node ${next.id} is neither a page nor a list of pages`);
		tree.nodes.add(node.id);
		const inherited = inheritedThrough(node, next.inherited, file.meter);
		// Pushed last to first: the first kid is taken next, so leaves come in document order.
		for (let i = kids.length - 1; i >= 0; i--) {
			const kid = kids[i];
			file.meter.charge(1);
			if (!(kid instanceof PdfRef)) throw damaged(`page tree node ${next.id} lists something other than a page`);
			if (reached.has(kid.id)) throw damaged(`the page tree reaches object ${kid.id} twice (its /Kids loop or repeat a page)`);
			reached.add(kid.id);
			pending.push({ id: kid.id, inherited });
		}
	}
	if (rootCount !== undefined && rootCount !== tree.pages.length) throw damaged(`its page tree says ${rootCount} pages but holds ${tree.pages.length}`);
	return tree;
}

/** The attributes a node passes on: its own where it states them, else its parent's. */
function inheritedThrough(node: SourceObject, fromParent: ReadonlyMap<string, TokenRun>, meter: WorkMeter): ReadonlyMap<string, TokenRun> {
	if (!isDict(node.value) || !INHERITABLE.some((key) => (node.value as PdfDict).has(key))) return fromParent;
	const entries = dictionaryEntries(node.body.text, tokenize(node.body, meter));
	if (!entries) throw damaged(`page tree node ${node.id} cannot be read`);
	const inherited = new Map(fromParent);
	for (const key of INHERITABLE) {
		const entry = entries.get(key);
		if (entry) inherited.set(key, entry.value);
	}
	return inherited;
}
