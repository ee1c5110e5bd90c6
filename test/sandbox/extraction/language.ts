/**
 * A stop-word guess of the document's language. Business documents are short and full of
 * numbers, so besides function words the lists hold the words such documents are made of.
 */
const STOP_WORDS: Record<string, string[]> = {
	en: ['the', 'and', 'of', 'to', 'for', 'with', 'your', 'invoice', 'total', 'date', 'amount', 'payment', 'due', 'thank', 'you', 'statement', 'balance', 'delivery', 'order', 'quantity', 'price'],
	de: ['der', 'die', 'das', 'und', 'mit', 'für', 'von', 'zu', 'ihre', 'rechnung', 'datum', 'betrag', 'summe', 'gesamt', 'menge', 'zahlbar', 'bis', 'kontoauszug', 'lieferschein', 'steuer', 'nr'],
	es: ['el', 'la', 'los', 'las', 'de', 'del', 'y', 'con', 'para', 'por', 'factura', 'fecha', 'importe', 'cantidad', 'precio', 'total', 'iva', 'cliente', 'extracto', 'albarán', 'pago'],
	fr: ['le', 'la', 'les', 'des', 'du', 'et', 'avec', 'pour', 'facture', 'date', 'montant', 'quantité', 'prix', 'tva', 'client', 'relevé', 'livraison', 'paiement', 'échéance', 'à', 'au'],
};

export function guessLanguage(text: string): string | undefined {
	const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
	if (words.length === 0) return undefined;
	let best: string | undefined;
	let bestScore = 0;
	for (const [language, list] of Object.entries(STOP_WORDS)) {
		const vocabulary = new Set(list);
		const score = words.filter((word) => vocabulary.has(word)).length;
		if (score > bestScore) {
			best = language;
			bestScore = score;
		}
	}
	return best;
}
