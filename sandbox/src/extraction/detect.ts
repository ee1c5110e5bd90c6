import { findLabels } from './labels';
import { parseDate } from './normalize';
import { fold, labelPattern, toLines, type TextLine } from './text-lines';
import type { Detection, FieldDefinition, ReadDocument, TemplateLike } from './types';
import { DOCUMENT_KEYWORDS } from './vocabulary';

/** A title within the first lines says more about the document than one in the small print. */
const HEADING_LINES = 8;
const FIELD_WEIGHT = 0.6;
const TITLE_WEIGHT = 0.4;
/**
 * For a template of a kind the sandbox knows (invoice, receipt, bank statement...), the share of
 * its score that comes from the document's own evidence of that kind rather than from its labels.
 */
const EVIDENCE_WEIGHT = 0.5;
/** Below this score, or this close to the runner-up, the choice is made on weak evidence. */
const WEAK_SCORE = 0.35;
const WEAK_MARGIN = 0.08;

/**
 * Words that tell a kind of document, as a real extraction service weighs them, in the languages
 * the sandbox reads (en, de, fr, es, nl, it, pt). Strong words (2 points) belong to that kind
 * alone; others (1 point) are common on it but seen elsewhere too. Phrases are matched as whole
 * words in the folded text (lower case, no accents).
 */
interface Cues {
	strong: string[];
	some: string[];
	/** A kind printed on a small card: a longer document is not of it, whatever its words. */
	maxLines?: number;
}

export const KIND_CUES: Record<string, Cues> = {
	receipt: {
		strong: ['receipt', 'sales receipt', 'till', 'cashier', 'cash register', 'sales associate', 'thank you for shopping', 'thank you for your purchase', 'kassenbon', 'kassenbeleg', 'kassierer', 'ticket de caisse', 'ticket client', 'caissier', 'caissiere', 'ticket de compra', 'cajero', 'cajera', 'kassabon', 'kassier', 'scontrino', 'cassiere', 'talao', 'operador'],
		some: ['change', 'cash', 'tip', 'gratuity', 'thank you', 'thank you for visiting', 'come again', 'visa', 'mastercard', 'contactless', 'card', 'debit card', 'credit card', 'auth code', 'approval code', 'pos', 'store', 'rueckgeld', 'ruckgeld', 'wechselgeld', 'gegeben', 'bar', 'ec-karte', 'karte', 'danke', 'kasse', 'rendu', 'monnaie', 'especes', 'carte bancaire', 'cartes bancaires', 'cb', 'merci', 'ticket', 'cambio', 'efectivo', 'tarjeta', 'gracias', 'caja', 'wisselgeld', 'contant', 'pinnen', 'bedankt', 'kassa', 'resto', 'contanti', 'carta', 'grazie', 'cassa', 'troco', 'dinheiro', 'cartao', 'obrigado', 'caixa'],
	},
	invoice: {
		strong: ['invoice number', 'invoice no', 'invoice date', 'invoice #', 'tax invoice', 'bill to', 'billed to', 'invoice to', 'due date', 'payment due', 'amount due', 'balance due', 'payment terms', 'rechnungsnummer', 'rechnungsdatum', 'rechnung nr', 'zahlungsziel', 'zahlbar bis', 'faellig', 'fallig', 'rechnungsempfanger', 'leistungsdatum', 'numero de factura', 'fecha de factura', 'factura n', 'fecha de vencimiento', 'vencimiento', 'facturar a', 'numero de facture', 'date de facture', 'facture n', 'echeance', "date d'echeance", 'factuurnummer', 'factuurdatum', 'vervaldatum', 'numero fattura', 'data fattura', 'scadenza', 'numero da fatura', 'data de vencimento', 'vencimento'],
		some: ['invoice', 'rechnung', 'factura', 'facture', 'factuur', 'fattura', 'fatura', 'sold to', 'ship to', 'vat id', 'vat no', 'vat reg', 'vat number', 'tax id', 'abn', 'gst no', 'ust-idnr', 'ust-id', 'steuernummer', 'nif', 'cif', 'siret', 'siren', 'no tva', 'tva intracommunautaire', 'btw-nummer', 'btw nr', 'kvk', 'partita iva', 'p.iva', 'codice fiscale', 'nipc', 'iban', 'bank details', 'please pay', 'remit to', 'net 30', 'terms', 'customer number', 'kundennummer', 'zahlbetrag', 'hors tva', 'total ht', 'montant ht', 'net a payer', 'prelevement', 'te betalen', 'da pagare'],
	},
	'bank statement': {
		strong: ['opening balance', 'closing balance', 'previous balance', 'new balance', 'balance brought forward', 'balance carried forward', 'brought forward', 'carried forward', 'statement period', 'account statement', 'bank statement', 'account summary', 'available balance', 'alter kontostand', 'neuer kontostand', 'kontostand', 'anfangssaldo', 'endsaldo', 'kontoauszug', 'saldo anterior', 'saldo inicial', 'saldo final', 'extracto', 'ancien solde', 'nouveau solde', 'solde precedent', 'releve de compte', 'beginsaldo', 'eindsaldo', 'vorig saldo', 'nieuw saldo', 'rekeningafschrift', 'saldo iniziale', 'saldo finale', 'estratto conto', 'extrato'],
		some: ['iban', 'bic', 'swift', 'account number', 'sort code', 'account holder', 'deposits', 'withdrawals', 'kontonummer', 'kontoinhaber', 'numero de cuenta', 'titular', 'titulaire', 'numero de compte', 'solde', 'saldo', 'rekeningnummer', 'numero di conto', 'numero da conta'],
	},
	quote: {
		strong: ['quote', 'quotation', 'estimate', 'quote number', 'quote no', 'valid until', 'valid for', 'expiry date', 'angebot', 'angebotsnummer', 'kostenvoranschlag', 'gultig bis', 'presupuesto', 'cotizacion', 'valido hasta', 'devis', 'valable jusqu', 'bon pour accord', 'offerte', 'geldig tot', 'preventivo', 'valido fino', 'orcamento', 'cotacao', 'valido ate'],
		some: ['offer', 'proposal', 'validity', 'acceptance', 'accepted by', 'oferta', 'validez', 'offre', 'validite', 'offerta', 'validita', 'proposta', 'validade'],
	},
	'delivery note': {
		strong: ['delivery note', 'packing slip', 'packing list', 'dispatch note', 'goods received', 'lieferschein', 'albaran', 'nota de entrega', 'bon de livraison', 'pakbon', 'documento di trasporto', 'guia de remessa'],
		some: ['tracking number', 'carrier', 'packages', 'parcels', 'delivered by', 'ship to', 'deliver to', 'lieferdatum', 'sendungsnummer', 'bulto', 'colis', 'transporteur', 'vervoerder', 'vettore', 'ddt'],
	},
	'purchase order': {
		// Invoices quote the buyer's order ("Purchase order #", "Ihre Bestellung"): only a request to supply is strong.
		strong: ['please supply', 'please deliver', 'requested delivery date', 'gewunschter liefertermin', 'bestelbon', 'inkooporder'],
		some: ['purchase order', 'po number', 'order date', 'deliver to', 'buyer', 'bestellung', 'bestellnummer', 'orden de compra', 'pedido', 'bon de commande', 'commande', 'bestelling', "ordine d'acquisto", 'ordine', 'ordem de compra', 'encomenda'],
	},
	'id and passport': {
		maxLines: 40,
		strong: ['passport', 'passport no', 'identity card', 'id card', 'residence permit', 'reisepass', 'personalausweis', 'pasaporte', 'documento nacional de identidad', 'passeport', "carte d'identite", 'paspoort', 'identiteitskaart', 'passaporto', "carta d'identita", 'passaporte', 'cartao de cidadao'],
		some: ['surname', 'given names', 'nationality', 'date of birth', 'place of birth', 'date of expiry', 'sex', 'vorname', 'staatsangehorigkeit', 'geburtsdatum', 'apellidos', 'nacionalidad', 'prenoms', 'nationalite', 'achternaam', 'nationaliteit', 'cognome', 'nazionalita', 'apelido', 'nacionalidade'],
	},
	'business card': {
		maxLines: 20,
		strong: ['linkedin'],
		some: ['tel', 'phone', 'mobile', 'mob', 'cell', 'fax', 'email', 'e-mail', 'www', 'web', 'handy', 'movil', 'portable', 'cellulare', 'telemovel'],
	},
};

/** Points that make the evidence of a kind certain (strength 1). */
const FULL_EVIDENCE = 5;
/** A document that calls itself one kind in its heading (`INVOICE`, `Kontoauszug`) says the most. */
const HEADING_TITLE_POINTS = 2;

/** A cell holding an amount, optionally with a currency sign and a receipt's tax code (`$13.99`, `3.99 B`, `1.20-`). */
const AMOUNT_CELL = /^[-+]?(?:[$€£¥]|[A-Z]{3})?\s?\d{1,3}(?:[.,' ]?\d{3})*[.,]\s?\d{2}-?(?:\s?[A-Za-z]\d?)?$/u;
const TIME = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:]|\s?%)/u;
const LETTER = /\p{L}{2}/u;

export function isAmountCell(text: string): boolean {
	return AMOUNT_CELL.test(text.trim());
}

/** An item line of a till receipt: a few cells, words, and a price last. */
function isItemLine(line: TextLine): boolean {
	const last = line.cells[line.cells.length - 1];
	return line.cells.length >= 2 && line.cells.length <= 3 && isAmountCell(last.text) && line.cells.slice(0, -1).some((cell) => LETTER.test(cell.text));
}

/** A transaction line of a statement: it starts with a date and carries an amount after it. */
function isTransactionLine(line: TextLine): boolean {
	const [first, ...rest] = line.cells;
	if (!first || rest.length === 0) return false;
	const date = parseDate(first.text);
	return date !== undefined && fold(first.text).startsWith(date.text) && rest.some((cell) => isAmountCell(cell.text));
}

/** A purchase date with its time of day on one line, as tills print it. */
function isDateTimeLine(line: TextLine): boolean {
	return TIME.test(line.text) && parseDate(line.text.replace(TIME, ' ')) !== undefined;
}

export interface KindEvidence {
	/** 0..1: the points found over FULL_EVIDENCE, at most 1. */
	strength: number;
	/** What was found, e.g. `word "cashier"`, `7 item lines with prices`. */
	cues: string[];
}

const cuePatterns = new Map<string, RegExp>();

function cuePattern(phrase: string): RegExp {
	let pattern = cuePatterns.get(phrase);
	if (!pattern) {
		const folded = fold(phrase).trim();
		const body = folded.split(/\s+/u).map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\S\\n]+');
		// Whole words: no letter or digit may run on from a phrase that ends in one (`invoice #` may).
		const after = /[\p{L}\p{N}]$/u.test(folded) ? '(?![\\p{L}\\p{N}])' : '';
		pattern = new RegExp(`(?<![\\p{L}\\p{N}])${body}${after}`, 'u');
		cuePatterns.set(phrase, pattern);
	}
	return pattern;
}

/** Shapes of the page that tell a kind: counted lines, worth points from a minimum count. */
const SHAPES: Record<string, Array<{ what: string; test: (line: TextLine) => boolean; min: number; points: number }>> = {
	receipt: [
		{ what: 'item lines with a price', test: isItemLine, min: 3, points: 1 },
		{ what: 'date with time of day', test: isDateTimeLine, min: 1, points: 1 },
	],
	'bank statement': [
		{ what: 'dated transaction lines', test: isTransactionLine, min: 5, points: 2 },
		{ what: 'dated transaction lines (many)', test: isTransactionLine, min: 12, points: 1 },
	],
};

/** Words a title cell may hold: `TAX INVOICE`, `Sample Invoice`, `Relevé de compte`. */
const TITLE_CELL_WORDS = 4;

/**
 * Whether the heading holds a title of the kind: a short cell that ends with the kind's name or a
 * translation. `Purchase order #: 4711` on an invoice is a label, not a title, and does not count.
 */
function hasHeadingTitle(kind: string, lines: TextLine[]): boolean {
	const names = [kind, ...(DOCUMENT_KEYWORDS[kind] ?? [])].map((word) => new RegExp(`${cuePattern(word).source}$`, 'u'));
	const heading = lines.filter((line) => line.cells.length > 0).slice(0, HEADING_LINES);
	return heading.some((line) =>
		line.cells.some((cell) => {
			const folded = fold(cell.text).replace(/[\s:.]+$/u, '');
			return folded.split(/\s+/u).length <= TITLE_CELL_WORDS && names.some((pattern) => pattern.test(folded));
		}),
	);
}

/** The document's evidence of one kind: its words (each counted once) and its shapes. */
export function kindEvidence(kind: string, lines: TextLine[]): KindEvidence {
	const cues = KIND_CUES[kind];
	if (cues?.maxLines !== undefined && lines.filter((line) => line.cells.length > 0).length > cues.maxLines) return { strength: 0, cues: [] };
	const text = lines.map((line) => line.folded).join('\n');
	let points = 0;
	const found: string[] = [];
	if (hasHeadingTitle(kind, lines)) {
		points += HEADING_TITLE_POINTS;
		found.push('title in the heading');
	}
	for (const [weight, words] of [[2, cues?.strong ?? []], [1, cues?.some ?? []]] as const) {
		for (const word of words) {
			if (!cuePattern(word).test(text)) continue;
			points += weight;
			found.push(`word "${word}"`);
		}
	}
	for (const shape of SHAPES[kind] ?? []) {
		const count = lines.filter(shape.test).length;
		if (count < shape.min) continue;
		points += shape.points;
		found.push(`${count} ${shape.what}`);
	}
	return { strength: Math.min(1, points / FULL_EVIDENCE), cues: found };
}

/** Fields and table columns: a column header is as telling as a label. */
function allFields(template: TemplateLike): FieldDefinition[] {
	return template.fields.flatMap((field) => [field, ...(field.item_fields ?? [])]);
}

/** A name and, when it is one of the ready-made kinds, its translations, as title patterns. */
function titleWords(title: string): RegExp[] {
	const name = fold(title).trim();
	return [...new Set([name, ...(DOCUMENT_KEYWORDS[name] ?? [])])].filter((word) => word !== '').map(labelPattern);
}

/** 1 when a title is seen in the heading, 0.5 further down, 0 when not at all. */
function titleScore(patterns: RegExp[], lines: TextLine[]): number {
	const seenAt = (line: TextLine) => line.cells.some((cell) => patterns.some((pattern) => pattern.test(line.folded.slice(cell.start))));
	const first = lines.findIndex(seenAt);
	if (first < 0) return 0;
	const heading = lines.slice(0, first + 1).filter((line) => line.cells.length > 0).length <= HEADING_LINES;
	return heading ? 1 : 0.5;
}

function fieldScore(template: TemplateLike, lines: TextLine[]): number {
	const fields = allFields(template);
	if (fields.length === 0) return 0;
	const labelled = new Set(findLabels(fields, lines).map((match) => match.field));
	return labelled.size / fields.length;
}

/**
 * The kind of document a template is for, when the sandbox knows it: its name is one of the
 * kinds or of their translations (`Invoice`, `Rechnung`, `Bank statement`), whole words.
 */
export function templateKind(template: TemplateLike): string | undefined {
	const name = fold(template.name).trim();
	for (const [kind, words] of Object.entries(DOCUMENT_KEYWORDS)) {
		if (!(kind in KIND_CUES)) continue;
		if ([kind, ...words].some((word) => fold(word) === name)) return kind;
	}
	return undefined;
}

interface ScoredCandidate {
	template: TemplateLike;
	order: number;
	score: number;
	evidence?: KindEvidence;
}

function scoreTemplate(template: TemplateLike, order: number, lines: TextLine[]): ScoredCandidate {
	const labels = FIELD_WEIGHT * fieldScore(template, lines) + TITLE_WEIGHT * titleScore(titleWords(template.name), lines);
	const kind = templateKind(template);
	const evidence = kind ? kindEvidence(kind, lines) : undefined;
	const score = evidence ? (1 - EVIDENCE_WEIGHT) * labels + EVIDENCE_WEIGHT * evidence.strength : labels;
	return { template, order, score: Math.round(score * 1000) / 1000, evidence };
}

/** A Detection that also says how sure the choice is and what it rests on. */
export interface KindDetection extends Detection {
	/** Set when the choice rests on weak evidence: a low score, or a runner-up nearly as good. */
	weak?: string;
	/** The cues of the chosen kind found in the document (ready-made kinds only). */
	evidence?: string[];
}

function weakness(scored: ScoredCandidate[]): string | undefined {
	const [best, second] = scored;
	if (best.score < WEAK_SCORE) return `low score ${best.score}: little in the document matches any template`;
	if (second && best.score - second.score < WEAK_MARGIN) return `${second.template.name} scores nearly as well (${second.score})`;
	return undefined;
}

/**
 * Automatic mode (spec 4.2, "picks the best-matching template"): each template scores by the
 * share of its fields whose labels appear in the document and by whether its title (or a
 * translation of it) appears, near the top counting double. A template of a kind the sandbox
 * knows also scores by the document's evidence of that kind (detect-evidence.ts: the words of a
 * receipt, an invoice, a statement or a quote, and their shapes), half and half. Ties go to the
 * earlier template.
 */
export function detectTemplate(templates: TemplateLike[], doc: ReadDocument): KindDetection {
	if (templates.length === 0) throw new Error('detectTemplate needs at least one template');
	const lines = toLines(doc.pageTexts.length > 0 ? doc.pageTexts.slice(0, 3) : [doc.text]);
	const scored = templates.map((template, order) => scoreTemplate(template, order, lines));
	scored.sort((a, b) => b.score - a.score || a.order - b.order);
	const detection: KindDetection = {
		template: scored[0].template,
		score: scored[0].score,
		candidates: scored.map(({ template, score }) => ({ scanner_id: template.scanner_id, name: template.name, score })),
	};
	const weak = weakness(scored);
	if (weak) detection.weak = weak;
	if (scored[0].evidence) detection.evidence = scored[0].evidence.cues;
	return detection;
}

/**
 * The `auto` block of automatic mode's ExtractedData (spec 2.5; inner fields are the sandbox's
 * design). A choice made on weak evidence carries `low_confidence` with the reason, so that a
 * client can send the document to review or name a template.
 */
export function autoBlock(detection: KindDetection): Record<string, unknown> {
	return {
		mode: 'automatic',
		chosen_scanner_id: detection.template.scanner_id,
		chosen_scanner_name: detection.template.name,
		score: detection.score,
		candidates: detection.candidates,
		...(detection.weak ? { low_confidence: detection.weak } : {}),
	};
}
