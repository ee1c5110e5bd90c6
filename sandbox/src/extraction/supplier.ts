/**
 * The supplier's (seller's, merchant's) name without a label of the template's vocabulary. Names
 * are gathered along independent routes (the letterhead, the footer's legal line, a payee or
 * account-holder line, a seller phrase, the name beside the VAT id or IBAN) and checked against the
 * document's own web or e-mail domain. One route alone stays below the review threshold; the same
 * name found along two routes reaches it, unless another name is as well supported.
 */
import { customerBlockLines, startsWithCustomerLabel } from './customer-block';
import { isPaymentHeading, isSentence } from './plausibility';
import type { ScalarResult } from './scalar-fields';
import { editDistance, fold, overlap, type TextLine } from './text-lines';
import { DOCUMENT_KEYWORDS } from './vocabulary';

/** Company forms (`Ltd`, `GmbH`, `B.V.`, `S.p.A.`, `Pvt. Ltd.`, `sp. z o.o.`), as a pattern source. */
const FORMS =
	'ltd|limited|inc|incorporated|llc|llp|plc|corp|corporation|co|company|gmbh|ag|kg|ohg|ug|e\\.\\s?k|e\\.\\s?kfm|bv|b\\.\\s?v|nv|n\\.\\s?v|bvba|vof|sarl|s\\.a\\.r\\.l|s\\.à\\s?r\\.l|sas|sasu|sa|s\\.a|eurl|spa|s\\.p\\.a|srl|s\\.r\\.l|snc|lda|ltda|sl|s\\.l|slu|pty|pvt|private\\s+limited|oy|oyj|ab|a\\/s|aps|as|sp\\.\\s?z\\s?o\\.\\s?o';
/** A company form ending a legal name (`Contoso, Ltd.`, `ACME GmbH`, `Foo B.V.`, `Bar S.p.A.`). */
export const COMPANY_FORM = new RegExp(`(?:^|[\\s,])(?:${FORMS})\\.?(?=$|[\\s,)])`, 'iu');
/** One more company form right after another (`Pvt.` `Ltd.`, `GmbH & Co. KG`). */
const NEXT_FORM = new RegExp(`^(?:\\s*&\\s*|[\\s,]+)(?:${FORMS})\\.?(?=$|[\\s,)])`, 'iu');
const STREET_WORDS =
	/\b(?:street|st\.|road|rd\.|avenue|ave|boulevard|blvd|lane|drive|way|suite|strasse|straße|str\.|weg|platz|allee|rue|chemin|via|viale|piazza|calle|avenida|rua|straat|laan|plein|gracht|p\.?o\.? box|postfach|cedex)\b/iu;
/** Characters a printed name is made of; anything else is OCR noise (`Contos?`, `¢lachan`). */
const NAME_CHARS = /^[\p{L}\p{N}\s&'’.,()\-/+]+$/u;
/** Titles a heading may carry besides the document keywords (`ORIGINAL FOR RECIPIENT`). */
const EXTRA_TITLES = ['statement', 'bill', 'original for recipient', 'duplicate for transporter', 'triplicate for supplier', 'copy', 'page'];
const TITLE_WORDS = [...Object.values(DOCUMENT_KEYWORDS).flat(), ...EXTRA_TITLES].map(fold);
/** Receipt greetings and slogans: not the store's name (`THANK YOU`, `Welcome`, `Have a nice day`). */
const SLOGAN = /\b(?:thank|thanks|welcome|visit|enjoy|again|nice\s+day|have\s+a|merci|danke|gracias|grazie|obrigado|bedankt|bienvenue|willkommen|bienvenido|benvenuto|welkom)\b/iu;

/** How a name was found. Names found the same way twice are one piece of evidence. */
export type Route = 'heading' | 'footer' | 'payee' | 'holder' | 'seller' | 'id-block' | 'domain';

export interface Candidate {
	name: string;
	route: Route;
	line: TextLine;
	/** Confidence of this route alone (below the review threshold). */
	base: number;
	note: string;
}

const LEGAL = 0.65;
const FIRST_LINE = 0.5;
const STATED = 0.7;
const BESIDE_ID = 0.55;
const TWO_ROUTES = 0.85;
const THREE_ROUTES = 0.9;
/** The most a name keeps when another name is as well supported: the evidence disagrees. */
const DISPUTED = 0.7;

function isTitle(text: string): boolean {
	const folded = fold(text).replace(/[^\p{L}\s]/gu, ' ').trim();
	const words = folded.split(/\s+/u);
	// `PAYMENT RECEIPT`, `Retail Invoices/Bill`, `Tax Invoice`: short cells holding a title word.
	return TITLE_WORDS.some((word) => folded === word || folded.startsWith(`${word} `) || (words.length <= 4 && words.some((token) => token === word || token === `${word}s`)));
}

/** Whether a cell may be a name: letters, not a title, a label, an address line or OCR noise. */
export function nameLike(text: string): boolean {
	const trimmed = text.trim();
	const letters = trimmed.match(/\p{L}/gu)?.length ?? 0;
	// Dots of initials and forms (`S.p.A.`) do not count against the letters.
	if (letters < 3 || letters / trimmed.replace(/[\s.]/g, '').length < 0.7) return false;
	if (!NAME_CHARS.test(trimmed) || /\d{3,}/.test(trimmed) || trimmed.includes(':') || /[@]|www\.|https?:/iu.test(trimmed)) return false;
	if (startsWithCustomerLabel(fold(trimmed))) return false;
	// A bank-detail heading (`Überweisung`, `Bankverbindung`) or a sentence is no one's name.
	if (isPaymentHeading(fold(trimmed)) || isSentence(trimmed)) return false;
	// An address line (`34 Kingley Street`) or OCR noise mixing letters and digits (`RRRDai15`).
	if (/^\d/u.test(trimmed) || STREET_WORDS.test(fold(trimmed)) || /\p{L}\d|\d\p{L}/u.test(trimmed)) return false;
	return !isTitle(trimmed);
}

/** Short company forms written in capitals only (`SA`, `AG`, `BV`): in lower case they are words. */
const CAPITAL_FORMS = new Set(['sa', 'sas', 'sasu', 'ag', 'kg', 'bv', 'nv', 'sl', 'slu', 'spa', 'srl', 'snc', 'ug', 'ab', 'as', 'vof', 'ohg', 'eurl']);
/** Forms written with a capital first letter (`Nokia Oyj`, `Maersk ApS`). */
const TITLE_CASE_FORMS = new Set(['oy', 'oyj', 'aps', 'pvt', 'pty', 'lda', 'ltda']);

/** Company forms written out, in the folded text (`Société Anonyme`, `Gesellschaft mit beschränkter Haftung`). */
const SPELLED_FORMS =
	'societe anonyme|societe par actions simplifiee(?: unipersonnelle)?|societe a responsabilite limitee|societe en nom collectif|aktiengesellschaft|gesellschaft mit beschrankter haftung|kommanditgesellschaft|sociedad anonima|sociedad limitada|sociedad de responsabilidad limitada|societa per azioni|societa a responsabilita limitata|naamloze vennootschap|besloten vennootschap|sociedade anonima|sociedade por quotas|public limited company|limited liability company';
/**
 * A written-out form after the name and a separator, ending the phrase or followed by the capital
 * or the seat (`BOUYGUES TELECOM - Société Anonyme au capital de ...`).
 */
const SPELLED_FORM_AFTER_NAME = new RegExp(`(?:\\s[-–—|•·]\\s|,\\s*)(?:${SPELLED_FORMS})(?=\\s*(?:$|[-–—,|•·;(]|au capital|with|con capital|com capital|mit sitz|met zetel))`, 'u');

/** The last segment of `text` between separators, without a copyright mark or year before it. */
function lastSegment(text: string): string {
	return (text.split(/\s[|•·–—;-]\s|[|•·;]/u).pop() ?? '').replace(/^\s*(?:©|\(c\)|copyright)?\s*(?:\d{4}(?:\s*-\s*\d{4})?)?\s*/iu, '').trim();
}

/**
 * The legal name a cell holds: its text up to the company form (`Free SAS au capital de ...` ->
 * `Free SAS`), after any separator or copyright before it, if it reads as a name of at most 6 words;
 * or the name before a company form written out (`ACME - Société Anonyme au capital de ...` -> `ACME`).
 */
export function legalName(text: string): string | undefined {
	const form = new RegExp(COMPANY_FORM.source, 'giu');
	for (const match of text.matchAll(form)) {
		if (!isForm(match[0])) continue;
		let end = match.index + match[0].length;
		for (let more = NEXT_FORM.exec(text.slice(end)); more && isForm(more[0]); more = NEXT_FORM.exec(text.slice(end))) end += more[0].length;
		const segment = lastSegment(text.slice(0, end));
		if (segment.split(/\s+/u).length <= 7 && /^[\p{Lu}\p{N}]/u.test(segment) && nameLike(segment)) return segment;
	}
	const spelled = SPELLED_FORM_AFTER_NAME.exec(fold(text));
	const before = spelled ? lastSegment(text.slice(0, spelled.index)) : '';
	return before.split(/\s+/u).length <= 6 && /^[\p{Lu}\p{N}]/u.test(before) && nameLike(before) ? before : undefined;
}

/** Whether a matched form is one: short forms are capitals (`SA`, `AG`), else they are words (`sa`, `as`). */
function isForm(matched: string): boolean {
	const word = matched.replace(/^[\s,&]+/u, '').replace(/\.$/u, '');
	const bare = word.toLowerCase().replace(/[\s.]/gu, '');
	if (bare === 'co') return /^co\.?$/iu.test(word) || word === 'CO';
	if (TITLE_CASE_FORMS.has(bare)) return /^\p{Lu}/u.test(word);
	return !CAPITAL_FORMS.has(bare) || word.includes('.') || word === word.toUpperCase();
}

const onlyForm = (name: string): boolean => fold(name).replace(COMPANY_FORM, '').replace(/[^\p{L}]/gu, '') === '';
const capitalised = (text: string): boolean => text.split(/\s+/u).every((word) => /^[\p{Lu}\p{N}&]/u.test(word));

/**
 * A cell as OCR read it around a printed name (`| SAFEWAY SN`, `ne Contoso Ba)`): stray symbols and
 * 1-2 letter fragments at its ends dropped, when a word of 4 letters or more stays. Company forms
 * (`AG`, `SA`) and abbreviations (`Dr.`) are kept. A word with a stray sign inside (`Contos?`) is garbled and left as it is.
 */
export function withoutNoise(text: string): string {
	const tokens = text.trim().split(/\s+/u);
	if (!tokens.some((token) => /^\p{L}{4,}$/u.test(token.replace(/[.,]$/u, '')))) return text.trim();
	// Abbreviations (`Dr.`, `St.`) and company forms are words, not fragments.
	const noise = (token: string): boolean => !/\p{L}{3}/u.test(token) && !/\p{N}/u.test(token) && !/^\p{Lu}\p{Ll}?\.$/u.test(token) && !COMPANY_FORM.test(` ${token}`);
	while (tokens.length > 1 && noise(tokens[0])) tokens.shift();
	while (tokens.length > 1 && noise(tokens[tokens.length - 1])) tokens.pop();
	return tokens.join(' ');
}

/** `WELCOME TO SAFEWAY` -> `SAFEWAY`. */
const WELCOME_TO = /^(?:welcome\s+to|bienvenue\s+(?:chez|a)|willkommen\s+(?:bei|im)|bienvenido\s+a|benvenuti\s+da|welkom\s+bij)\s+/iu;

/** A cell read as a letterhead name, or undefined: cleaned of OCR noise, never a slogan. */
function headingName(text: string): string | undefined {
	const cleaned = withoutNoise(text);
	const welcomed = WELCOME_TO.exec(fold(cleaned));
	const name = welcomed ? cleaned.slice(welcomed[0].length) : cleaned;
	if (!welcomed && SLOGAN.test(fold(name))) return undefined;
	return nameLike(name) ? name : undefined;
}

const isCapitals = (text: string): boolean => /\p{Lu}/u.test(text) && text === text.toUpperCase();

/**
 * The name on a letterhead's first name-like line. OCR split an all-capitals word across a wide
 * gap (`CHO     EUN`): cells of 2-4 capitals only are one word. An all-capitals name printed on two
 * lines (`CHOEUN` over `KOREAN RESTAURANT`) takes the next line when it is a short capitals name
 * too (not an address, phone, date or title: nameLike).
 */
function capitalName(line: TextLine, first: string, heading: TextLine[]): string {
	let name = line.cells.length > 1 && line.cells.every((cell) => /^\p{Lu}{2,4}$/u.test(cell.text.trim())) ? line.cells.map((cell) => cell.text.trim()).join('') : first;
	const next = heading[heading.indexOf(line) + 1];
	if (isCapitals(name) && next && next.index === line.index + 1 && next.cells.length === 1) {
		const below = next.cells[0].text.trim();
		if (isCapitals(below) && nameLike(below) && below.split(/\s+/u).length <= 4) name = `${name} ${below}`;
	}
	return name;
}

/**
 * A legal name printed on two lines: a company form alone (`PHILIP MORRIS` over `INCORPORATED`),
 * or a short legal name under a capitalised name in the same column (`Turnpike` over `Designs Co.`).
 */
function joinAbove(name: string, cellStart: number, line: TextLine, lines: TextLine[]): string | undefined {
	const above = lines[lines.indexOf(line) - 1];
	if (onlyForm(name)) {
		const nameAbove = above?.cells.map((cell) => headingName(cell.text)).find((text) => text !== undefined);
		return nameAbove ? `${nameAbove} ${name}` : undefined;
	}
	// Centred letterhead lines start at different columns: a little slack either side.
	const column = { start: cellStart - 12, end: cellStart + name.length + 12 };
	const aboveCell = above?.index === line.index - 1 ? above.cells.find((cell) => overlap(cell, column) > 0) : undefined;
	const aboveName = aboveCell && headingName(aboveCell.text);
	if (aboveName && name.split(/\s+/u).length <= 2 && capitalised(aboveName) && aboveName.split(/\s+/u).length <= 3 && !SLOGAN.test(fold(aboveName))) return `${aboveName} ${name}`;
	return name;
}

function legalNames(lines: TextLine[], region: TextLine[], route: Route, skip: Set<number>): Candidate[] {
	const found: Candidate[] = [];
	for (const line of region) {
		if (skip.has(line.index)) continue;
		for (const cell of line.cells) {
			const legal = legalName(cell.text);
			const name = legal && joinAbove(legal, cell.start + cell.text.indexOf(legal), line, lines);
			if (name) found.push({ name, route, line, base: LEGAL, note: `a legal name (company form) in the ${route === 'heading' ? 'letterhead' : 'footer'}` });
		}
	}
	return found;
}

/** The letterhead's first name-like line, cleaned of OCR noise; the search stops at the first line of data. */
function firstHeadingName(heading: TextLine[], skip: Set<number>): Candidate | undefined {
	for (const line of heading.slice(0, 5)) {
		if (skip.has(line.index)) continue;
		// Cells of stray symbols or fragments before the name (`|  SAFEWAY`) are OCR noise.
		const first = line.cells.find((cell) => /\p{L}{3}|\p{N}/u.test(cell.text));
		const name = first && headingName(first.text);
		const data = line.cells.some((cell) => /\d[.,]\d{2}\b/.test(cell.text));
		if (name && !data) return { name: capitalName(line, name, heading), route: 'heading', line, base: FIRST_LINE, note: 'read from the letterhead (first name-like line)' };
		// The data starts (`Total  10.00`, `Date: ...`, a phone number): the letterhead is over.
		if (line.cells.some((cell) => /\d{3,}|:|\d[.,]\d{2}\b/.test(cell.text))) break;
	}
	return undefined;
}

/**
 * A letterhead name OCR garbled with a stray sign (`¢lachan`, `Contos?`), printed again in the
 * footer (`Clachan`): the footer's spelling, when its letters are within one edit of the heading's.
 */
function footerRepeat(heading: TextLine[], footer: TextLine[]): Candidate | undefined {
	const line = heading.find((candidate) => candidate.cells.some((cell) => /\p{L}{3}/u.test(cell.text)));
	const first = line?.cells[0]?.text.trim() ?? '';
	if (!line || line.cells.length !== 1 || NAME_CHARS.test(first)) return undefined;
	const core = fold(first).replace(/[^\p{L}]/gu, '');
	if (core.length < 5 || core.length < first.replace(/\s/gu, '').length - 1) return undefined;
	for (const candidate of footer) {
		if (heading.includes(candidate) || candidate.cells.length !== 1) continue;
		const text = candidate.cells[0].text.trim();
		if (!nameLike(text)) continue;
		const letters = fold(text).replace(/[^\p{L}]/gu, '');
		if (Math.abs(letters.length - core.length) <= 1 && editDistance(letters, core) <= 1) {
			return { name: text, route: 'footer', line: candidate, base: 0.6, note: 'the letterhead name (garbled by OCR) as the footer repeats it' };
		}
	}
	return undefined;
}

/**
 * A letterhead line's name printed again in the footer (`Société Hôtelière du Pacano` atop the
 * page and in its legal footer): two places agree, where the customer's name is printed once.
 */
function repeatedInFooter(heading: TextLine[], footer: TextLine[], skip: Set<number>): Candidate[] {
	for (const line of heading) {
		if (skip.has(line.index) || line.cells.length !== 1) continue;
		const name = headingName(line.cells[0].text);
		if (!name || /\d/u.test(name)) continue;
		const again = footer.find((other) => !skip.has(other.index) && other.cells.some((cell) => sameName(cell.text, name)));
		if (again) {
			const note = 'a letterhead name the footer prints again';
			return [
				{ name, route: 'heading', line, base: FIRST_LINE, note },
				{ name, route: 'footer', line: again, base: FIRST_LINE, note },
			];
		}
	}
	return [];
}

/** Lines that say who is paid: the name follows the words, or heads the next line. */
const PAYEE = /^(?:(?:please\s+)?make\s+(?:all\s+)?(?:cheques?|checks?)\s+payable\s+to|(?:cheques?|checks?)\s+(?:are\s+)?payable\s+to|payable\s+to|(?:please\s+)?pay\s+to|remit(?:tance)?\s+to|payee|beneficiary(?:\s+name)?|zahlungsempfanger|beneficiaire|begunstigde|beneficiario)\b/iu;
const HOLDER = /^(?:account\s+(?:name|holder)|a\/c\s+name|name\s+of\s+(?:the\s+)?account(?:\s+holder)?|kontoinhaber(?:in)?|titulaire(?:\s+du\s+compte)?|rekeninghouder|ten\s+name\s+van|t\.\s?n\.\s?v\.?|titular(?:\s+de\s+la\s+cuenta)?|titolare(?:\s+del\s+conto)?)\b/iu;
const SELLER = /^(?:sold\s+by|seller|issued\s+by|verkaufer|verkauft\s+(?:von|durch)|vendeur|vendu(?:e|s|es)?\s+par|verkoper|verkocht\s+door|venditore|venduto\s+da|vendedor|vendido\s+por)\b/iu;

/** The name after a stating phrase on its line (`Payable to: ACME Ltd`) or heading the next line. */
function statedName(line: TextLine, next: TextLine | undefined, match: RegExpExecArray): string | undefined {
	const rest = line.text.slice(line.folded.indexOf(match[0]) + match[0].length).replace(/^\s*[:\-–]?\s*/u, '');
	const after = rest.split(/\s{2,}|\s[:;–—|]\s|[,;]\s|\s:$|:\s*$/u)[0]?.trim() ?? '';
	if (after !== '') return nameLike(after) && after.split(/\s+/u).length <= 6 ? (legalName(after) ?? after) : undefined;
	const below = next?.index === line.index + 1 ? next.cells.find((cell) => overlap(cell, { start: line.cells[0].start, end: line.cells[0].end + 20 }) > 0) : undefined;
	return below && nameLike(below.text) ? (legalName(below.text) ?? below.text.trim()) : undefined;
}

/** Names stated as the payee, the account holder or the seller, anywhere in the document. */
function statedNames(lines: TextLine[]): Candidate[] {
	const found: Candidate[] = [];
	const routes: Array<{ pattern: RegExp; route: Route; note: string }> = [
		{ pattern: PAYEE, route: 'payee', note: 'the payee' },
		{ pattern: HOLDER, route: 'holder', note: 'the bank account holder' },
		{ pattern: SELLER, route: 'seller', note: 'the seller' },
	];
	for (const [index, line] of lines.entries()) {
		for (const cell of line.cells) {
			const folded = fold(cell.text);
			for (const { pattern, route, note } of routes) {
				// A seller phrase may end a sentence (`l'électricité vendue par EDF :`).
				const match = pattern.exec(folded) ?? (route === 'seller' ? new RegExp(pattern.source.replace('^', '\\s'), 'iu').exec(folded) : null);
				if (!match) continue;
				const name = statedName({ ...line, text: cell.text, folded, cells: [cell] }, lines[index + 1], match);
				// A name is printed with a capital (`sold by weight` names no one).
				if (name && /^[\p{Lu}\p{N}]/u.test(name)) found.push({ name, route, line, base: STATED, note: `${note} named on the document` });
			}
		}
	}
	return found;
}

/** Registration, tax and bank identifiers printed beside the supplier's name in a footer. */
const ID_WORDS = /\b(?:vat|tva|btw|ust|mwst|iva|gst|abn|nif|cif|siret|siren|rcs|kvk|hrb|hra|iban|company\s+(?:no|number|reg)|reg(?:istration)?\.?\s+no|registered\s+in|handelsregister|steuer-?nr|st\.-?nr|partita)\b/iu;
const CONTACT = /(?:tel|phone|fax|e-?mail|www\.|@|https?:)/iu;

/** The name on a line with a VAT id or IBAN, or just above it (phone and e-mail lines skipped). */
function besideIds(region: TextLine[], lines: TextLine[], skip: Set<number>): Candidate[] {
	const found: Candidate[] = [];
	for (const line of region) {
		// An identifier line holds the identifier (`VAT GB 123 4567 89`); a table's header row does not.
		if (skip.has(line.index) || !ID_WORDS.test(line.folded) || !/\d{2}[\s.-]?\d{3}/u.test(line.text) || line.cells.length > 3) continue;
		const index = lines.indexOf(line);
		const before = line.cells.find((cell) => ID_WORDS.test(fold(cell.text)));
		const beside = line.cells.slice(0, before ? line.cells.indexOf(before) : 0).find((cell) => nameLike(cell.text));
		let above: TextLine | undefined;
		for (let back = index - 1; back >= Math.max(0, index - 3); back--) {
			if (CONTACT.test(lines[back].folded)) continue;
			above = lines[back];
			break;
		}
		const aboveName = above && !skip.has(above.index) && above.cells.length === 1 && nameLike(above.cells[0].text) ? above.cells[0].text.trim() : undefined;
		const name = beside?.text.trim() ?? (aboveName && !SLOGAN.test(fold(aboveName)) ? aboveName : undefined);
		if (name) found.push({ name: legalName(name) ?? name, route: 'id-block', line: beside ? line : (above as TextLine), base: BESIDE_ID, note: 'the name beside the VAT id or bank details' });
	}
	return found;
}

/** Mail services anyone uses: their domain says nothing about the sender. */
const SHARED_MAIL = new Set(['gmail', 'googlemail', 'yahoo', 'hotmail', 'outlook', 'live', 'msn', 'icloud', 'me', 'aol', 'gmx', 'web', 't-online', 'orange', 'wanadoo', 'free', 'laposte', 'sfr', 'btinternet', 'proton', 'protonmail', 'mail', 'yandex', 'qq', '163', 'libero', 'virgilio', 'telenet', 'ziggo', 'kpnmail', 'hetnet', 'bluewin']);
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'ltd', 'plc', 'or', 'ne', 'gv']);

/** The organisation names of the document's web and e-mail domains (`sales@acme.co.uk` -> `acme`). */
export function domainNames(lines: TextLine[]): Set<string> {
	const names = new Set<string>();
	for (const line of lines) {
		for (const match of line.folded.matchAll(/(?:@|\bwww\.|https?:\/\/)([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gu)) {
			const labels = match[1].split('.');
			labels.pop();
			if (labels.length > 1 && SECOND_LEVEL.has(labels[labels.length - 1])) labels.pop();
			const name = labels.pop();
			if (name && !SHARED_MAIL.has(name)) names.add(name);
		}
	}
	return names;
}

/** The domains printed outside the customer's block: the customer's e-mail there says nothing about the supplier. */
function supplierDomains(lines: TextLine[]): Set<string> {
	const customer = customerBlockLines(lines.filter((line) => line.page === 0 && line.cells.length > 0));
	return domainNames(lines.filter((line) => !customer.has(line.index)));
}

/** A name as words without case, accents, punctuation or company form (`Contoso, Ltd.` -> `contoso`). */
export function nameKey(name: string): string {
	const forms = new RegExp(COMPANY_FORM.source, 'giu');
	const bare = name.replace(forms, (form: string, offset: number) => (offset === 0 ? form : ' '));
	return fold(bare).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Whether two names are the same organisation's: equal keys, one key the other's first words
 * (`Contoso` / `Contoso Billing`), or one OCR misreading apart (`Clachan` / `Clachon`).
 */
export function sameName(a: string, b: string): boolean {
	const [one, two] = [nameKey(a), nameKey(b)];
	if (one === '' || two === '') return false;
	if (one === two) return true;
	const [short, long] = one.length <= two.length ? [one, two] : [two, one];
	if (short.replace(/\s/gu, '').length >= 4 && long.startsWith(`${short} `)) return true;
	return short.length >= 5 && !short.includes(' ') && !long.includes(' ') && editDistance(short, long) <= 1;
}

/** Whether a domain name is the organisation's (`Turnpike Designs` / `turnpikedesigns`, `turnpike`; `Blue Harbour Studio` / `blueharbour`). */
function domainAgrees(name: string, domain: string): boolean {
	const key = nameKey(name);
	const joined = key.replace(/[\s&]/gu, '');
	const bare = domain.replace(/-/gu, '');
	return joined === bare || (key.split(' ')[0].length >= 4 && key.split(' ')[0] === bare) || (bare.length >= 5 && joined.startsWith(bare));
}

/** The routes that found a name like `candidate`'s, the domain counted when it is the one organisation's. */
function supportOf(candidate: Candidate, all: Candidate[], domains: Set<string>): Set<Route> {
	// One line is one piece of evidence, whichever routes read it (a footer name beside the VAT id).
	const byLine = new Map<number, Route>();
	for (const other of all) if (sameName(other.name, candidate.name) && !byLine.has(other.line.index)) byLine.set(other.line.index, other.route);
	const routes = new Set(byLine.values());
	// Domains of two organisations (`@fictiocorp.com` beside `www.edf.fr`) confirm neither.
	if (domains.size === 1 && domainAgrees(candidate.name, [...domains][0])) routes.add('domain');
	return routes;
}

const confidenceOf = (routes: number, base: number): number => (routes >= 3 ? THREE_ROUTES : routes === 2 ? TWO_ROUTES : base);

/** All the names found, along every route. */
export function supplierCandidates(lines: TextLine[]): Candidate[] {
	const firstPage = lines.filter((line) => line.page === 0 && line.cells.length > 0);
	const lastPageNumber = Math.max(0, ...lines.map((line) => line.page));
	const lastPage = lines.filter((line) => line.page === lastPageNumber && line.cells.length > 0);
	const customer = customerBlockLines(firstPage);
	// A short document (a receipt) splits into its head and its foot.
	const heading = firstPage.slice(0, Math.min(12, Math.ceil(firstPage.length / 2)));
	const footer = [...new Set([...firstPage.slice(-8), ...lastPage.slice(-8)])].filter((line) => !heading.includes(line));
	const filled = lines.filter((line) => line.cells.length > 0);
	const legal = [...legalNames(filled, heading, 'heading', customer), ...legalNames(filled, footer, 'footer', customer)];
	const first = firstHeadingName(heading, customer);
	const repeat = footerRepeat(heading, footer);
	const stated = statedNames(filled.filter((line) => !customer.has(line.index)));
	return [...legal, ...(first ? [first] : []), ...(repeat ? [repeat] : []), ...repeatedInFooter(heading, footer, customer), ...stated, ...besideIds(footer, filled, customer)];
}

/** Which route's name is preferred when support is equal: stated ones, then legal names. */
const ROUTE_ORDER: Route[] = ['seller', 'payee', 'holder', 'heading', 'footer', 'id-block', 'domain'];

/**
 * The supplier's name without a label: the name most routes agree on (stated names and legal
 * names first when support is equal). Two routes agreeing reach the review threshold, three go
 * above it; a name disputed by another as well supported stays below it.
 */
export function supplierName(lines: TextLine[]): ScalarResult | undefined {
	const candidates = supplierCandidates(lines);
	if (candidates.length === 0) return undefined;
	const domains = supplierDomains(lines);
	const scored = candidates.map((candidate, order) => ({ candidate, order, routes: supportOf(candidate, candidates, domains) }));
	const rank = ({ candidate, routes, order }: (typeof scored)[number]): number[] => [routes.size, candidate.base, -ROUTE_ORDER.indexOf(candidate.route), -order];
	scored.sort((a, b) => {
		const [x, y] = [rank(a), rank(b)];
		const index = x.findIndex((value, i) => value !== y[i]);
		return index < 0 ? 0 : y[index] - x[index];
	});
	const best = scored[0];
	// Prefer the fullest spelling among the agreeing names: the legal one (`CONTOSO LTD.` over `Contoso`).
	const spelling = scored.find(({ candidate }) => sameName(candidate.name, best.candidate.name) && legalName(candidate.name) === candidate.name)?.candidate ?? best.candidate;
	const rival = scored.find(({ candidate, routes }) => !sameName(candidate.name, best.candidate.name) && (routes.size >= best.routes.size || (best.routes.size === 1 && candidate.base >= best.candidate.base)));
	let confidence = confidenceOf(best.routes.size, best.candidate.base);
	const notes = [`no label; ${spelling.note}`];
	if (best.routes.size > 1) notes.push(`found ${best.routes.size} ways (${[...best.routes].join(', ')})`);
	if (rival) {
		confidence = Math.min(confidence, DISPUTED);
		notes.push(`disputed by '${rival.candidate.name}'`);
	}
	return { value: spelling.name, confidence, source_fragment: spelling.line.text.trim(), raw_candidates: [spelling.name], normalization_notes: notes.join('; ') };
}

/**
 * A supplier name read under a label (`Supplier:`, `Sold by`) checked against the other routes:
 * raised when another route finds the same name, held below the review threshold when another name
 * is found along two routes or more. For extract.ts to call on a labelled supplier_name value.
 */
export function checkLabelledSupplier(result: ScalarResult, lines: TextLine[]): ScalarResult {
	if (typeof result.value !== 'string' || result.value.trim() === '') return result;
	const labelled = result.value;
	const candidates = supplierCandidates(lines);
	const domains = supplierDomains(lines);
	// The label's own line is one piece of evidence: another route reading the same cell is no second one.
	const label: Candidate = { name: labelled, route: 'seller', line: { index: result.at?.line ?? -1, page: 0, text: '', folded: '', cells: [] }, base: result.confidence, note: 'labelled' };
	const routes = supportOf(label, [label, ...candidates], domains);
	const rival = candidates.find((candidate) => !sameName(candidate.name, labelled) && supportOf(candidate, candidates, domains).size >= 2);
	if (rival) return { ...result, confidence: Math.min(result.confidence, DISPUTED), normalization_notes: [result.normalization_notes, `disputed by '${rival.name}'`].filter((text) => text !== '').join('; ') };
	if (routes.size < 2) return result;
	const confidence = Math.max(result.confidence, confidenceOf(routes.size, result.confidence));
	return { ...result, confidence, normalization_notes: [result.normalization_notes, `checked: found ${routes.size} ways (${[...routes].join(', ')})`].filter((text) => text !== '').join('; ') };
}
