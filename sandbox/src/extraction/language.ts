/**
 * A stop-word guess of the document's language. Business documents are short and full of
 * numbers, so besides function words the lists hold the words invoices, receipts and statements
 * are made of.
 */
const STOP_WORDS: Record<string, string[]> = {
	en: ['the', 'and', 'of', 'to', 'for', 'with', 'your', 'invoice', 'total', 'date', 'amount', 'payment', 'due', 'thank', 'you', 'statement', 'balance', 'delivery', 'order', 'quantity', 'price', 'tax', 'tip', 'sales', 'street', 'change', 'cash', 'card', 'receipt', 'items', 'store', 'subtotal', 'bill'],
	de: ['der', 'die', 'das', 'und', 'mit', 'für', 'von', 'zu', 'ihre', 'rechnung', 'datum', 'betrag', 'summe', 'gesamt', 'menge', 'zahlbar', 'bis', 'kontoauszug', 'lieferschein', 'steuer', 'nr', 'straße', 'mwst', 'bar', 'rückgeld', 'kasse', 'danke', 'preis'],
	es: ['el', 'la', 'los', 'las', 'de', 'del', 'con', 'para', 'por', 'factura', 'fecha', 'importe', 'cantidad', 'precio', 'total', 'iva', 'cliente', 'extracto', 'albarán', 'pago', 'gracias', 'efectivo', 'tarjeta', 'cambio', 'calle'],
	fr: ['le', 'la', 'les', 'des', 'du', 'et', 'avec', 'pour', 'facture', 'date', 'montant', 'quantité', 'prix', 'tva', 'client', 'relevé', 'livraison', 'paiement', 'échéance', 'au', 'merci', 'carte', 'espèces', 'rue', 'ticket', 'vente'],
	nl: ['de', 'het', 'een', 'en', 'van', 'voor', 'met', 'factuur', 'datum', 'bedrag', 'totaal', 'aantal', 'prijs', 'btw', 'klant', 'betaling', 'vervaldatum', 'rekening', 'bedankt', 'kassabon', 'straat'],
	it: ['il', 'lo', 'la', 'gli', 'di', 'del', 'della', 'con', 'per', 'fattura', 'data', 'importo', 'totale', 'quantità', 'prezzo', 'iva', 'cliente', 'pagamento', 'scadenza', 'grazie', 'scontrino', 'contanti', 'via'],
	pt: ['os', 'as', 'de', 'do', 'da', 'dos', 'das', 'com', 'para', 'fatura', 'data', 'valor', 'quantidade', 'preço', 'iva', 'cliente', 'pagamento', 'vencimento', 'obrigado', 'recibo', 'rua', 'não'],
};

/** How many lists hold each word: a word of several languages says little about which one. */
const LISTS_HOLDING = (() => {
	const counts = new Map<string, number>();
	for (const list of Object.values(STOP_WORDS)) for (const word of new Set(list)) counts.set(word, (counts.get(word) ?? 0) + 1);
	return counts;
})();

/**
 * Each word counts 1 divided by the number of languages it belongs to; ties go to the earlier
 * language. Words of one letter (`y`, `e`, `à`) are left out: OCR noise is full of them.
 */
export function guessLanguage(text: string): string | undefined {
	const words = (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => word.length > 1);
	if (words.length === 0) return undefined;
	let best: string | undefined;
	let bestScore = 0;
	for (const [language, list] of Object.entries(STOP_WORDS)) {
		const vocabulary = new Set(list);
		const score = words.reduce((sum, word) => sum + (vocabulary.has(word) ? 1 / (LISTS_HOLDING.get(word) ?? 1) : 0), 0);
		if (score > bestScore + 1e-9) {
			best = language;
			bestScore = score;
		}
	}
	return best;
}
