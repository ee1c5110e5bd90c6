/**
 * The words documents print next to values, in English, German, Spanish, French, Dutch, Italian
 * and Portuguese, keyed by
 * the field names of the ready-made templates (sandbox/src/templates.ts). A user-created
 * template that reuses one of these names benefits from them too; any other field is found by
 * its label and its humanised name alone.
 */
export const FIELD_SYNONYMS: Record<string, string[]> = {
	// Invoices, quotes, orders
	invoice_number: ['invoice number', 'invoice no.', 'invoice #', 'invoice nr.', 'invoice id', 'rechnungsnummer', 'rechnungs-nr.', 'rechnungsnr.', 'rechnung nr.', 're-nr.', 'nº factura', 'número de factura', 'factura nº', 'nº de factura', 'n° facture', 'n° de facture', 'numéro de facture', 'facture n°', 'référence facture', 'réf. facture', 'référence de la facture', 'invoice', 'invoice no', 'bill no.', 'bill number', 'document no.', 'factuurnummer', 'factuurnr.', 'factuur nr.', 'factuur', 'numero fattura', 'fattura n.', 'fattura nr.', 'n. fattura', 'nr. fattura', 'número da fatura', 'fatura n.º', 'fatura nº', 'n.º fatura', 'nº da fatura', 'rechnung', 'facture', 'factura', 'tax invoice', 'tax invoice no.', 'tax invoice number', 'tax invoice #', 'invoice num.', 'inv. no.', 'inv no.', 'inv. #', 'rechnung-nr.', 'rechnungs-nummer', 'facture no.', 'numero de facture', 'no de facture', 'número factura', 'nº de la factura', 'factura número', 'factuur nummer', 'factuurnr', 'nr. factuur', 'numero documento', 'n. documento', 'fattura numero', 'número de fatura', 'fatura número', 'nº fatura'],
	invoice_date: ['invoice date', 'date of issue', 'issue date', 'date', 'rechnungsdatum', 'datum', 'fecha de factura', 'fecha de emisión', 'fecha', 'date de facture', "date d'émission", 'invoice dt', 'billing date', 'bill date', 'dated', 'factuurdatum', 'data fattura', 'data documento', 'data emissione', 'data', 'data da fatura', 'data de emissão', 'fecha factura', 'leistungsdatum', 'facture du', 'invoice dated', 'rechnung vom', 'factuur van'],
	due_date: ['due date', 'invoice due date', 'payment due date', 'payment due', 'due by', 'pay by', 'fälligkeitsdatum', 'fälligkeit', 'fällig am', 'zahlbar bis', 'zahlbar zum', 'zahlbar am', 'zahlungsziel', 'fecha de vencimiento', 'vencimiento', "date d'échéance", 'échéance', 'due', 'vervaldatum', 'te betalen voor', 'uiterste betaaldatum', 'betalen voor', 'scadenza', 'data scadenza', 'data de vencimento', 'vencimento', 'date limite de paiement', 'date limite de règlement', 'date de règlement', 'à payer avant le', 'payable before', 'fällig bis', 'payable by'],
	supplier_name: ['supplier', 'vendor', 'seller', 'issued by', 'lieferant', 'verkäufer', 'rechnungssteller', 'absender', 'proveedor', 'emisor', 'vendedor', 'fournisseur', 'vendeur', 'émetteur', 'expéditeur', 'sold by', 'leverancier', 'verkoper', 'fornitore', 'venditore', 'cedente', 'fornecedor', 'emitente'],
	supplier_vat_id: ['vat id', 'vat no.', 'vat number', 'vat reg. no.', 'tax id', 'ust-idnr.', 'ust-id', 'ust-id-nr.', 'umsatzsteuer-id', 'nif', 'cif', 'nif/cif', 'n° tva', 'numéro de tva', 'tva intracommunautaire', 'n° intracom', 'n° intracommunautaire', 'numéro intracommunautaire', 'vat reg no', 'vat registration number', 'vat reg. number', 'gst no.', 'btw-nummer', 'btw nummer', 'btw nr.', 'btw-nr.', 'btw-id', 'btw id', 'partita iva', 'p.iva', 'p. iva', 'nº contribuinte', 'contribuinte', 'nif/nipc', 'numéro de tva intracommunautaire', 'tva intracom', 'vat', 'tva', 'btw', 'gst', 'ust-id-nr', 'ust.-id-nr.', 'ust.-idnr.', 'vat registration no.', 'vat reg.', 'vat id no.', 'vat #', 'tax registration number', 'tax reg. no.', 'gstin', 'gstin no.', 'gst number', 'gst reg. no.', 'gst registration no.', 'gst/hst no.', 'abn', 'a.b.n.', 'umsatzsteuer-identifikationsnummer', 'ust-identifikationsnummer', 'ust.-id', 'n° de tva', 'n° tva intracommunautaire', 'identifiant tva', 'tva intra', 'tva intracommunautaire n°', 'nif-iva', 'n.i.f.', 'c.i.f.', 'cif/nif', 'nif/iva', 'btw identificatienummer', 'btw-identificatienummer', 'partita i.v.a.', 'p. i.v.a.', 'p.iva/c.f.', 'nif (nipc)', 'nipc', 'nº de contribuinte', 'número de contribuinte'],
	customer_name: ['customer', 'client', 'bill to', 'billed to', 'invoice to', 'sold to', 'kunde', 'rechnungsempfänger', 'käufer', 'buyer', 'cliente', 'facturar a', 'facturé à', 'klant', 'klantnaam', 'factuuradres', 'cliente', 'destinatario', 'cessionario', 'adquirente'],
	customer_vat_id: ['customer vat id', 'customer vat no.', 'your vat id', 'ihre ust-idnr.', 'kunden-ust-idnr.', 'nif cliente', 'cif cliente', 'tva client', 'customer vat', 'customer vat number', 'customer vat reg. no.', 'client vat', 'client vat no.', 'buyer vat', 'buyer vat no.', 'your vat no.', 'your vat number', 'ust-idnr. des kunden', 'ust-idnr. kunde', 'kunden ust-idnr.', 'ihre ust-id', 'n° tva client', 'tva du client', 'votre n° tva', 'nif del cliente', 'cif del cliente', 'btw klant', 'btw-nummer klant', 'uw btw-nummer', 'partita iva cliente', 'p.iva cliente', 'nif do cliente', 'contribuinte do cliente', 'nif adquirente'],
	order_number: ['order number', 'order no.', 'po number', 'po no.', 'your order', 'bestellnummer', 'bestell-nr.', 'auftragsnummer', 'ihre bestellung', 'número de pedido', 'nº pedido', 'pedido nº', 'n° de commande', 'numéro de commande', 'commande n°', 'bestelnummer', 'ordernummer', 'order nr.', 'numero ordine', 'ordine n.', 'número da encomenda', 'encomenda nº', 'n° commande', 'order #', 'order#', 'po#', 'order id', 'order ref.', 'order reference', 'p.o. no.', 'p.o. number', 'p.o. #', 'po #', 'po ref.', 'purchase order no.', 'purchase order number', 'purchase order #', 'customer po', 'customer po no.', 'customer order no.', 'your order no.', 'your order number', 'your po no.', 'your po number', 'bestell-nummer', 'bestellnr.', 'bestellung nr.', 'ihre bestellnummer', 'ihre bestell-nr.', 'ihr auftrag', 'auftrags-nr.', 'auftragsnr.', 'auftrag nr.', 'kundenauftrag', 'bon de commande', 'bon de commande n°', 'n° bon de commande', 'votre commande', 'votre commande n°', 'réf. commande', 'référence commande', 'commande', 'número pedido', 'n.º pedido', 'nº de pedido', 'su pedido', 'su pedido nº', 'orden de compra', 'orden de compra nº', 'pedido', 'bestelnr.', 'bestelling', 'uw bestelling', 'uw bestelnummer', 'uw ordernummer', 'ordernr.', 'inkoopordernummer', 'inkooporder', 'ordine', 'ordine nr.', 'n. ordine', 'nr. ordine', 'rif. ordine', 'riferimento ordine', 'vs. ordine', 'vostro ordine', 'ordine di acquisto', 'n.º encomenda', 'nº encomenda', 'encomenda', 'nota de encomenda', 'ordem de compra', 'pedido de compra', 'nº do pedido'],
	currency: ['currency', 'währung', 'moneda', 'divisa', 'devise', 'valuta', 'moeda'],
	subtotal: ['base de tva', 'base tva', 'montant total ht', 'summe waren', 'warensumme', 'montant total net', 'montant net', 'subtotal', 'sub-total', 'net amount', 'net total', 'net total amount', 'total net', 'total before tax', 'zwischensumme', 'nettobetrag', 'summe netto', 'gesamt netto', 'netto', 'base imponible', 'importe neto', 'sous-total', 'total ht', 'montant ht', 'total excl. vat', 'total excluding vat', 'total excl. tax', 'amount before tax', 'net value', 'total hors tva', 'montant hors tva', 'total h.t.', 'nettosumme', 'netto summe', 'gesamtbetrag netto', 'gesamtsumme netto', 'rechnungssumme ohne ust.', 'summe ohne ust.', 'betrag ohne ust.', 'total amount (net)', 'summe netto', 'subtotaal', 'totaal excl. btw', 'totaal exclusief btw', 'netto bedrag', 'excl. btw', 'imponibile', 'totale imponibile', 'subtotale', 'total sem iva', 'base tributável', 'valor líquido', 'vat net', 'sub total', 'amount excl. vat', 'amount excluding vat', 'total excl. gst', 'total excluding gst', 'total ex gst', 'total ex. vat', 'total (excl. vat)', 'total before vat', 'taxable amount', 'netto-betrag', 'nettowert', 'warenwert netto', 'summe ohne mwst.', 'gesamt ohne mwst.', 'netto gesamt', 'total hors taxes', 'montant hors taxes', 'total hors taxe', 'montant hors taxe', 'base ht', 'sous total', 'total h.t', 'subtotal sin iva', 'subtotal sin impuestos', 'total sin iva', 'importe sin iva', 'base imp.', 'bedrag excl. btw', 'totaal excl.', 'subtotaal excl. btw', 'imponibile iva', 'totale netto', 'valor sem iva', 'total s/ iva', 'total sem impostos', 'base de incidência', 'total ilíquido', 'valor tributável'],
	tax_rate: ['tax rate', 'vat rate', 'mwst.-satz', 'mwst-satz', 'steuersatz', 'ust-satz', 'tipo de iva', 'tipo iva', 'taux de tva', 'taux tva', 'btw-tarief', 'btw tarief', 'aliquota iva', 'aliquota', 'taxa de iva', 'taxa iva'],
	tax_amount: ['taxe sur la valeur ajoutée', 'montant de la tva', 'impuesto sobre el valor añadido', 'imposta sul valore aggiunto', 'imposto sobre o valor acrescentado', 'tax amount', 'tax', 'vat', 'value added tax', 'sales tax', 'total tax', 'total vat', 'vat amount', 'mwst.', 'mwst', 'ust.', 'ust', 'umsatzsteuer', 'mehrwertsteuer', 'iva', 'cuota iva', 'importe iva', 'tva', 'montant tva', 'total tva', 'btw', 'btw-bedrag', 'btw bedrag', 'totaal btw', 'importo iva', 'totale iva', 'valor do iva', 'valor iva', 'total iva', 'gst', 'hst', 'mwst.-betrag', 'enthaltene mwst.', 'steuerbetrag', 'gesamtbetrag steuer', 'summe umsatzsteuer', 'tax total', 'vat total', 'umsatzsteuerbetrag', 'total tax amount', 'tva totale', 'tax1', 'tax 1', 'tax2', 'tax 2'],
	total: ['montant total brut', 'montant brut', 'total brut', 'importe bruto', 'totale lordo', 'importo lordo', 'valor bruto', 'total', 'total due', 'total charges', 'current charges', 'new charges', 'amount due', 'grand total', 'total amount', 'gross total', 'gross total amount', 'invoice total', 'balance due', 'gesamtbetrag', 'rechnungsbetrag', 'gesamtsumme', 'summe brutto', 'gesamt brutto', 'zu zahlen', 'endbetrag', 'total factura', 'importe total', 'total a pagar', 'total ttc', 'montant ttc', 'net à payer', 'montant total', 'gross amount', 'amount payable', 'total payable', 'total incl. vat', 'total including vat', 'total inc. vat', 'total to pay', 'bruttobetrag', 'rechnungssumme', 'gesamtbetrag brutto', 'gesamtsumme brutto', 'total amount (gross)', 'total à payer', 'montant à payer', 'montant ttc', 'total t.t.c.', 'totaal', 'totaalbedrag', 'te betalen', 'totaal incl. btw', 'totaal inclusief btw', 'totaal te betalen', 'totale', 'totale fattura', 'totale documento', 'importo totale', 'totale da pagare', 'netto a pagare', 'total a pagar', 'valor total', 'total da fatura', 'valor a pagar', 'amount to pay', 'zahlbetrag', 'endsumme', 'gesamt', 'brutto', 'bruttosumme', 'gesamtbrutto'],
	iban: ['iban', 'iban code', 'iban number', 'iban nr.', 'iban no.'],
	payment_terms: ['payment terms', 'terms', 'zahlungsbedingungen', 'zahlungsziel', 'condiciones de pago', 'forma de pago', 'conditions de paiement', 'modalités de paiement', 'betalingstermijn', 'betalingsvoorwaarden', 'termini di pagamento', 'condizioni di pagamento', 'condições de pagamento'],
	quote_number: ['quote number', 'quote no.', 'quotation no.', 'estimate no.', 'quote #', 'angebotsnummer', 'angebot nr.', 'angebots-nr.', 'nº presupuesto', 'número de presupuesto', 'presupuesto nº', 'n° devis', 'numéro de devis', 'devis n°'],
	quote_date: ['quote date', 'date', 'angebotsdatum', 'datum', 'fecha del presupuesto', 'fecha', 'date du devis'],
	valid_until: ['valid until', 'valid to', 'expiry date', 'gültig bis', 'angebot gültig bis', 'válido hasta', 'validez', "valable jusqu'au", 'validité'],
	po_number: ['po number', 'po no.', 'purchase order no.', 'purchase order number', 'order number', 'order no.', 'bestellnummer', 'bestell-nr.', 'nº pedido', 'número de pedido', 'orden de compra nº', 'n° de commande', 'numéro de commande', 'bon de commande n°'],
	order_date: ['order date', 'date', 'bestelldatum', 'datum', 'fecha de pedido', 'fecha', 'date de commande'],
	requested_delivery_date: ['delivery date', 'requested delivery date', 'deliver by', 'liefertermin', 'lieferdatum', 'fecha de entrega', 'date de livraison'],
	buyer_name: ['buyer', 'purchaser', 'ordered by', 'besteller', 'auftraggeber', 'comprador', 'acheteur'],
	// Receipts
	merchant_name: ['merchant', 'store', 'shop', 'händler', 'geschäft', 'comercio', 'tienda', 'magasin', 'commerçant', 'winkel', 'negozio', 'loja'],
	merchant_address: ['address', 'adresse', 'anschrift', 'dirección'],
	merchant_vat_id: ['vat', 'tva', 'btw', 'vat id', 'vat no.', 'vat number', 'tax id', 'ust-idnr.', 'steuer-nr.', 'st.-nr.', 'nif', 'cif', 'n° tva', 'btw-nummer', 'btw nr.', 'partita iva', 'p.iva', 'contribuinte', 'vat reg no', 'gst no.'],
	receipt_number: ['receipt number', 'receipt no.', 'receipt #', 'transaction no.', 'ticket no.', 'bon-nr.', 'belegnummer', 'beleg-nr.', 'nº ticket', 'ticket nº', 'nº recibo', 'n° ticket', 'ticket n°', 'bonnummer', 'bon nr.', 'numero scontrino', 'scontrino n.', 'recibo nº', 'talão nº', 'receipt'],
	purchase_date: ['date', 'purchase date', 'datum', 'fecha', 'date', 'data', 'transaction date'],
	purchase_time: ['time', 'uhrzeit', 'zeit', 'hora', 'heure', 'tijd', 'ora', 'hora'],
	payment_method: ['payment method', 'paid by', 'payment', 'zahlungsart', 'bezahlt mit', 'zahlung', 'forma de pago', 'método de pago', 'pago', 'mode de paiement', 'paiement', 'betaalwijze', 'betaald met', 'pagamento', 'metodo di pagamento', 'forma de pagamento', 'meio de pagamento'],
	// Delivery notes
	delivery_note_number: ['delivery note number', 'delivery note no.', 'delivery no.', 'packing slip no.', 'lieferscheinnummer', 'lieferschein-nr.', 'lieferschein nr.', 'nº albarán', 'albarán nº', 'número de albarán', 'n° bon de livraison', 'bon de livraison n°'],
	delivery_date: ['delivery date', 'shipping date', 'ship date', 'lieferdatum', 'versanddatum', 'datum', 'fecha de entrega', 'fecha de envío', 'date de livraison', "date d'expédition"],
	recipient_name: ['recipient', 'consignee', 'ship to', 'deliver to', 'empfänger', 'lieferanschrift', 'destinatario', 'destinataire'],
	delivery_address: ['delivery address', 'shipping address', 'ship to address', 'lieferadresse', 'lieferanschrift', 'dirección de entrega', 'adresse de livraison'],
	carrier: ['carrier', 'shipped via', 'forwarder', 'spediteur', 'versandart', 'transportista', 'transporteur'],
	tracking_number: ['tracking number', 'tracking no.', 'consignment no.', 'sendungsnummer', 'sendungsverfolgung', 'nº de seguimiento', 'número de seguimiento', 'n° de suivi', 'numéro de suivi'],
	package_count: ['packages', 'number of packages', 'parcels', 'packstücke', 'anzahl pakete', 'bultos', 'colis'],
	// Identity documents
	document_type: ['document type', 'type', 'dokumentart', 'typ', 'tipo de documento', 'tipo', 'type de document'],
	document_number: ['document number', 'document no.', 'passport no.', 'passport number', 'card no.', 'id number', 'ausweisnummer', 'pass-nr.', 'passnummer', 'dokumentennummer', 'nº de documento', 'número de documento', 'nº pasaporte', 'n° de passeport', 'numéro du document'],
	surname: ['surname', 'last name', 'family name', 'name', 'nachname', 'familienname', 'apellidos', 'apellido', 'nom'],
	given_names: ['given names', 'given name', 'first name', 'first names', 'forenames', 'vornamen', 'vorname', 'nombre', 'nombres', 'prénoms', 'prénom'],
	date_of_birth: ['date of birth', 'birth date', 'born', 'geburtsdatum', 'geboren am', 'fecha de nacimiento', 'date de naissance', 'né le', 'née le'],
	place_of_birth: ['place of birth', 'geburtsort', 'lugar de nacimiento', 'lieu de naissance'],
	nationality: ['nationality', 'staatsangehörigkeit', 'nacionalidad', 'nationalité'],
	sex: ['sex', 'gender', 'geschlecht', 'sexo', 'sexe'],
	issue_date: ['date of issue', 'issue date', 'issued on', 'ausstellungsdatum', 'ausgestellt am', 'fecha de expedición', 'fecha de emisión', 'date de délivrance'],
	expiry_date: ['date of expiry', 'expiry date', 'expiration date', 'valid until', 'gültig bis', 'ablaufdatum', 'fecha de caducidad', 'válido hasta', "date d'expiration", "valable jusqu'au"],
	issuing_authority: ['authority', 'issuing authority', 'issued by', 'behörde', 'ausstellende behörde', 'autoridad', 'autorité'],
	// Business cards
	full_name: ['name', 'full name', 'name', 'nombre', 'nom'],
	job_title: ['title', 'job title', 'position', 'role', 'funktion', 'position', 'cargo', 'puesto', 'fonction', 'poste'],
	company: ['company', 'organisation', 'organization', 'firma', 'unternehmen', 'empresa', 'société', 'entreprise'],
	email: ['e-mail', 'email', 'mail', 'correo', 'correo electrónico', 'courriel'],
	phone: ['phone', 'tel.', 'tel', 'telephone', 'office', 'telefon', 'teléfono', 'téléphone', 'tél.'],
	mobile: ['mobile', 'mobile phone', 'cell', 'mobil', 'handy', 'móvil', 'celular', 'portable', 'mobile'],
	website: ['website', 'web', 'internet', 'webseite', 'sitio web', 'página web', 'site web'],
	address: ['address', 'adresse', 'anschrift', 'dirección', 'adresse'],
	// Bank statements
	bank_name: ['bank', 'bank name', 'kreditinstitut', 'banco', 'entidad', 'banque'],
	account_holder: ['account holder', 'account name', 'holder', 'kontoinhaber', 'inhaber', 'titular', 'titular de la cuenta', 'titulaire', 'titulaire du compte'],
	bic: ['bic', 'swift', 'bic/swift', 'swift/bic', 'swift code'],
	statement_number: ['statement number', 'statement no.', 'auszug nr.', 'kontoauszug nr.', 'auszugsnummer', 'extracto nº', 'nº de extracto', 'relevé n°'],
	period_start: ['from', 'period from', 'statement from', 'von', 'zeitraum vom', 'vom', 'desde', 'periodo desde', 'du', 'période du'],
	period_end: ['to', 'until', 'period to', 'bis', 'hasta', 'au'],
	opening_balance: ['opening balance', 'previous balance', 'balance brought forward', 'starting balance', 'alter kontostand', 'anfangssaldo', 'alter saldo', 'saldo anterior', 'saldo inicial', 'ancien solde', 'solde initial', 'solde précédent'],
	closing_balance: ['closing balance', 'new balance', 'ending balance', 'final balance', 'neuer kontostand', 'endsaldo', 'neuer saldo', 'saldo final', 'saldo actual', 'nouveau solde', 'solde final'],
	// Table columns
	description: ['description', 'item', 'items', 'article', 'product', 'products', 'service', 'services', 'details', 'item description', 'particulars', 'bezeichnung', 'beschreibung', 'artikel', 'leistung', 'verwendungszweck', 'buchungstext', 'descripción', 'concepto', 'artículo', 'producto', 'désignation', 'libellé', 'description', 'article', 'omschrijving', 'descrizione', 'articolo', 'descrição', 'artigo', 'produto'],
	quantity: ['quantity', 'qty', 'qty.', 'units', 'menge', 'anzahl', 'stück', 'cantidad', 'cant.', 'uds.', 'quantité', 'qté', 'aantal', 'hoeveelheid', 'quantità', 'qtà', 'q.tà', 'quantidade', 'qtd', 'qtd.', 'qty.', 'hrs/qty'],
	unit: ['unit', 'uom', 'einheit', 'me', 'unidad', 'ud.', 'unité'],
	unit_price: ['unit price', 'price', 'list price', 'rate', 'price/unit', 'einzelpreis', 'preis', 'e-preis', 'ep', 'nettopreis', 'preis pro einheit', 'price per unit', 'stückpreis', 'precio unitario', 'precio', 'precio/ud.', 'prix unitaire', 'prix unit.', 'p.u.', 'prix', 'prijs', 'stukprijs', 'eenheidsprijs', 'prezzo', 'prezzo unitario', 'preço', 'preço unitário', 'unit cost'],
	amount: ['amount', 'total', 'line total', 'line amount', 'total price', 'net', 'betrag', 'nettobetrag', 'gesamt', 'gesamtpreis', 'gp', 'summe', 'importe', 'total', 'montant', 'total ht', 'bedrag', 'totaal', 'importo', 'totale', 'valor', 'montante'],
	article_number: ['article no.', 'item no.', 'sku', 'part no.', 'product code', 'art.-nr.', 'artikelnummer', 'artikel-nr.', 'referencia', 'ref.', 'código', 'référence', 'réf.'],
	date: ['date', 'booking date', 'value date', 'datum', 'buchungstag', 'buchungsdatum', 'valuta', 'fecha', 'fecha valor', 'date', 'date de valeur'],
	debit: ['debit', 'debits', 'withdrawals', 'paid out', 'money out', 'soll', 'belastung', 'lastschrift', 'cargo', 'cargos', 'débito', 'débit'],
	credit: ['credit', 'credits', 'deposits', 'paid in', 'money in', 'haben', 'gutschrift', 'abono', 'abonos', 'crédito', 'crédit'],
	balance: ['balance', 'running balance', 'saldo', 'kontostand', 'solde'],
};

/**
 * Table headings of columns a template may not ask for (position, unit, tax rate, article and
 * EAN numbers, gross): a header line naming them is still a header, so they count neither for
 * nor against it.
 */
export const OTHER_COLUMN_HEADINGS = new Set(['#', 'pos', 'pos.', 'position', 'nr', 'nr.', 'no', 'no.', 'unit', 'uom', 'einheit', 'me', 'unidad', 'unité', 'vat', 'vat %', 'vat [%]', 'tax', 'tax %', 'tax rate', 'steuersatz', 'mwst', 'mwst.', 'mwst. %', 'ust', 'ust.', 'ust %', 'tva', 'tva %', 'iva', 'iva %', 'btw', 'ean', 'sku', 'art-nr.', 'art.-nr.', 'artikelnummer', 'artikel-nr.', 'referenzen', 'referenz', 'reference', 'ref.', 'gross', 'brutto', 'bruttobetrag', 'discount', 'rabatt', 'remise', 'descuento']);

/**
 * Titles that say what kind of document it is, keyed by the ready-made template names (folded).
 * Automatic mode (spec 4.2) weighs them beside the field labels.
 */
export const DOCUMENT_KEYWORDS: Record<string, string[]> = {
	invoice: ['invoice', 'tax invoice', 'rechnung', 'factura', 'facture', 'factuur', 'fattura', 'fatura', 'fatura-recibo'],
	receipt: ['receipt', 'sales receipt', 'thank you for your purchase', 'kassenbon', 'kassenbeleg', 'quittung', 'beleg', 'ticket', 'recibo', 'ticket de caja', 'reçu', 'ticket de caisse', 'kassabon', 'kassabon', 'scontrino', 'ricevuta', 'talão'],
	'delivery note': ['delivery note', 'packing slip', 'dispatch note', 'lieferschein', 'albarán', 'albaran', 'nota de entrega', 'bon de livraison'],
	quote: ['quote', 'quotation', 'estimate', 'offer', 'angebot', 'kostenvoranschlag', 'presupuesto', 'cotización', 'devis'],
	'purchase order': ['purchase order', 'bestellung', 'orden de compra', 'pedido', 'bon de commande'],
	'id and passport': ['passport', 'identity card', 'id card', 'reisepass', 'personalausweis', 'pasaporte', 'documento nacional de identidad', 'passeport', "carte d'identité"],
	'business card': ['business card', 'visitenkarte', 'tarjeta de visita', 'carte de visite'],
	'bank statement': ['bank statement', 'account statement', 'statement of account', 'kontoauszug', 'extracto bancario', 'extracto de cuenta', 'relevé de compte', 'relevé bancaire'],
};

/** Lines that end a table (spec: read rows "until a blank/total/subtotal line"). */
export const TABLE_END_WORDS = ['total', 'subtotal', 'sub-total', 'sum', 'net', 'carried forward', 'balance carried forward', 'summe', 'zwischensumme', 'gesamt', 'übertrag', 'netto', 'total factura', 'base imponible', 'suma', 'sous-total', 'total ht', 'totaal', 'subtotaal', 'totale', 'subtotale', 'imponibile', 'report', 'à reporter', 'closing balance', 'neuer kontostand', 'saldo final', 'nouveau solde', 'grand total', 'invoice total', 'amount due', 'rechnungsbetrag', 'rechnungssumme', 'gesamtsumme', 'endbetrag', 'montant total', 'net à payer', 'importe total'];

/**
 * Labels that name a rate only when a percentage follows them (`VAT 19%: 190.00` carries both
 * the tax rate and the tax amount).
 */
export const PERCENT_SYNONYMS: Record<string, string[]> = {
	tax_rate: ['vat', 'tax', 'sales tax', 'mwst.', 'mwst', 'ust.', 'ust', 'umsatzsteuer', 'iva', 'tva', 'btw', 'gst'],
};

/**
 * Labels that name the value on some documents only, believed less than the synonyms above: the
 * number of a statement, receipt or credit note is the document's own number when an invoice
 * template reads it (never an account, customer, order or support-ticket number); `Charges` heads
 * the amount to pay on some invoices and a part of it on others.
 */
export const RELATED_SYNONYMS: Record<string, string[]> = {
	invoice_number: ['statement number', 'statement no.', 'statement #', 'statement nr.', 'receipt number', 'receipt no.', 'receipt #', 'credit note no.', 'credit note number', 'credit note #', 'bill #', 'document #', 'document number', 'belegnummer', 'beleg-nr.', 'bon-nr.', 'quittung nr.', 'gutschrift nr.', 'gutschriftsnummer', 'n° de reçu', 'reçu n°', "n° d'avoir", 'avoir n°', 'nº recibo', 'recibo nº', 'bonnummer'],
	receipt_number: ['invoice number', 'invoice no.', 'invoice #', 'bill no.', 'bill #', 'document no.', 'rechnungsnummer', 'rechnungs-nr.', 'n° facture', 'numéro de facture', 'nº factura', 'número de factura', 'factuurnummer'],
	total: ['charges'],
	order_number: ['your reference', 'your ref.', 'customer reference', 'customer ref.', 'ihr zeichen', 'ihre referenz', 'votre référence', 'votre réf.', 'su referencia', 'su ref.', 'uw referentie', 'uw kenmerk', 'vostro riferimento', 'vs. rif.', 'sua referência', 'v/ referência'],
};

/**
 * The number sign of a title printed with its number (`Facture du 29/01/2021 n° 123`, or the
 * `n° 123` on the line under `Facture du 29/01/2021`).
 */
export const NUMBER_SIGNS = ['n°', 'no.', 'nr.', 'nº', 'number', 'num.', 'numéro', 'nummer', 'número', 'numero', '#'];

/** Words joining a title to its date before the number (`Facture du`, `Rechnung vom`, `Invoice of`). */
export const TITLE_DATE_WORDS = ['du', 'vom', 'of', 'dated', 'from', 'del', 'de', 'van', 'dd.', 'dd'];

/** The document titles a reference-number field belongs to (`invoice_number`: `Invoice`, `Facture`...). */
export const TITLES_OF_NUMBER: Record<string, string> = {
	invoice_number: 'invoice',
	receipt_number: 'receipt',
	quote_number: 'quote',
	po_number: 'purchase order',
	delivery_note_number: 'delivery note',
	statement_number: 'bank statement',
};

/**
 * Payment terms that set the due date a number of days after the invoice date (`Payment is due
 * within 15 days`, `Net 30`, `zahlbar innerhalb von 14 Tagen`, `paiement à 30 jours`), on folded
 * text; the first group is the number of days.
 */
export const PAYMENT_TERM_DAYS: RegExp[] = [
	/\b(?:due|payable|payment|pay|paid|terms)\b[^\n]{0,40}?\b(?:within|in)\s+(\d{1,3})\s+days?\b/u,
	/\b(?:terms|payment terms|conditions)\b\W{0,3}(\d{1,3})\s+days?\b/u,
	/\bnet\s*(\d{1,3})(?:\s*days?\b|\s*$|(?=\s*(?:[;)]|,(?!\d))))/u,
	/\b(\d{1,3})\s+days?\s+net\b/u,
	/\b(?:zahlbar|zahlung|zahlungsziel|fallig)\b[^\n]{0,40}?\b(?:innerhalb|in|binnen)\s+(?:von\s+)?(\d{1,3})\s+tag(?:e|en)\b/u,
	/\b(?:zahlungsziel:?|zahlbar)\s+(\d{1,3})\s+tage\b/u,
	/\b(\d{1,3})\s+tage\s+netto\b/u,
	/\b(?:paiement|payable|reglement|a payer)\b[^\n]{0,40}?\b(?:a|sous|dans les|dans un delai de)\s+(\d{1,3})\s+jours\b/u,
	/\b(\d{1,3})\s+jours\s+net\b/u,
	/\b(?:pago|vencimiento|pagadero)\b[^\n]{0,40}?\b(?:a|en|dentro de)\s+(\d{1,3})\s+dias\b/u,
	/\b(?:betaling|betalen|te voldoen)\b[^\n]{0,40}?\bbinnen\s+(\d{1,3})\s+dagen\b/u,
	/\b(?:pagamento)\b[^\n]{0,40}?\b(\d{1,3})\s+(?:gg|giorni|dias)\b/u,
];

/** Terms counted from another day than the invoice date (delivery, end of month): no due date from them. */
export const OTHER_TERM_START = /\b(?:delivery|receipt of goods|end of month|eom|lieferung|monatsende|livraison|fin de mois|entrega|fin de mes|levering|consegna|fine mese)\b/u;

/** Words saying an amount will be taken from the payer's account (direct debit) on the date beside them. */
export const DIRECT_DEBIT_WORDS = /\b(?:preleve|prelevement|debited|direct debit|abgebucht|abbuchung|lastschrift|eingezogen|domiciliacion|domiciliado|se cargara|addebitat\w*|addebito|geincasseerd|afgeschreven|incasso)\b/u;

/**
 * Headings of the customer's block (`Bill to`, `Client :`, `Rechnungsempfänger`): the name, address
 * and ids printed under them are the customer's, not the supplier's.
 */
export const CUSTOMER_BLOCK_LABELS = ['bill to', 'billed to', 'invoice to', 'invoiced to', 'invoice for', 'sold to', 'ship to', 'shipped to', 'deliver to', 'delivered to', 'delivery to', 'delivery address', 'customer', 'client', 'buyer', 'kunde', 'rechnungsempfänger', 'rechnungsempfaenger', 'rechnungsadresse', 'lieferadresse', 'lieferanschrift', 'empfänger', 'facturé à', 'facturer à', 'adresse de facturation', 'adresse de livraison', 'destinataire', 'acheteur', 'facturar a', 'enviar a', 'cliente', 'comprador', 'klant', 'factuuradres', 'afleveradres', 'leveringsadres', 'afnemer', 'spett.le', 'spett', 'destinatario', 'intestatario', 'cessionario', 'committente', 'adquirente', 'fatturare a', 'faturar a'];

/** Words saying an account is the payer's (a direct debit takes the amount from it), not the payee's. */
export const PAYER_ACCOUNT_WORDS = /\b(?:your account|from your account|your bank account|mandate|mandat|ihr konto|ihrem konto|ihres kontos|votre compte|sur votre compte|su cuenta|de su cuenta|uw rekening|van uw rekening|vostro conto|sul vostro conto|sua conta|da sua conta|machtiging|sepa-lastschriftmandat)\b/u;

/** Words of a payment block: the account printed in it is the one to pay into. */
export const PAYMENT_BLOCK_WORDS = /\b(?:iban|bank|bank details|banking details|bank account|account details|pay to|please pay|payable a|a payer sur|beneficiaire|beneficiario|begunstigde|zahlungsempfanger|please remit|remit to|payment details|payable to|bankverbindung|bankverbindungen|bankdaten|zahlbar an|uberweisung|kontoverbindung|coordonnees bancaires|rib|virement|reglement par virement|a regler sur|datos bancarios|transferencia|cuenta bancaria|pagar en|rekeningnummer|rekening|bankgegevens|over te maken|coordinate bancarie|bonifico|banca|appoggio bancario|dados bancarios|transferencia bancaria|nib)\b/u;

/**
 * Column headings of a summary table of amounts (`Net | VAT % | VAT | Gross`) beside the field
 * synonyms: words too short or too common to name a value alone (`Net 30`, `Gross weight`) but
 * plain in a row where every cell is such a heading.
 */
export const SUMMARY_HEADINGS: Record<'subtotal' | 'tax' | 'total' | 'rate', string[]> = {
	subtotal: ['net', 'nett', 'net amount', 'netto', 'nettobetrag', 'ht', 'base', 'basis', 'base ht', 'taxable', 'excl. vat', 'excl. tax', 'excl. btw', 'excl. iva', 'bemessungsgrundlage', 'grondslag', 'maatstaf van heffing', 'base imponibile', 'entgelt', 'warenwert', 'betrag netto'],
	tax: ['vat', 'tax', 'mwst.', 'ust.', 'tva', 'btw', 'iva', 'montant tva', 'vat amount', 'steuer', 'steuerbetrag', 'mwst.-betrag', 'ust.-betrag', 'btw-bedrag', 'importo iva', 'cuota', 'imposta', 'taxes'],
	total: ['gross', 'gross amount', 'brutto', 'bruttobetrag', 'ttc', 'montant ttc', 'total ttc', 'incl. vat', 'incl. tax', 'incl. btw', 'totaal incl. btw', 'totale', 'total', 'amount due', 'zu zahlen', 'endbetrag'],
	rate: ['%', 'vat %', 'vat rate', 'tax %', 'rate', 'satz', 'mwst.-satz', 'mwst. %', 'ust. %', 'ust.-satz', 'steuersatz', 'taux', 'taux tva', 'tva %', '% tva', 'btw %', '% btw', 'btw-tarief', 'tarief', 'iva %', '% iva', 'aliquota', 'code', 'vat code', 'tax code'],
};

/**
 * Statements that no tax is charged (small business, exemption, reverse charge), in the folded
 * text (lower case, no accents).
 */
export const NO_TAX_CHARGED = /(?:§\s*19\s*ustg|umsatzsteuerbefreit|keine umsatzsteuer|steuerschuldnerschaft des leistungsempfangers|tva non applicable|293\s*b du cgi|exoneration de tva|autoliquidation|vat exempt|exempt from vat|reverse charge|no vat (?:is )?charged|exento de iva|inversion del sujeto pasivo|esente iva|inversione contabile|btw verlegd|vrijgesteld van btw|isento de iva|autoliquidacao)/u;
