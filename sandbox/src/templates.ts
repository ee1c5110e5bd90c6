import type { FieldDefinition } from './extraction/types';

/**
 * The 8 ready-made templates a new account starts with (spec part 1: invoice, receipt, delivery
 * note, quote, purchase order, ID and passport, business card, bank statement). The spec does not
 * show their field lists (2.5), so they are designed here as a product would ship them. Examples
 * are fictitious and format-only, because the extraction model may copy them (2.2).
 */
export interface ReadyMadeTemplate {
	/** Stable key of the template, from which its id in each account is made (never shown). */
	kind: string;
	name: string;
	description: string;
	fields: FieldDefinition[];
}

const text = (name: string, label: string, description: string, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
	name,
	label,
	type: 'string',
	description,
	...extra,
});

const typed = (type: string) => (name: string, label: string, description: string, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
	...text(name, label, description, extra),
	type,
});

const money = typed('currency');
const number = typed('number');
const date = typed('date');
const email = typed('email');
const phone = typed('phone');

const DATE_HINT = 'ISO 8601, YYYY-MM-DD';
const MONEY_HINT = 'A number with a dot as the decimal separator and no thousands separator, e.g. 1234.5';

const isoDate = (name: string, label: string, description: string, required = false): FieldDefinition =>
	date(name, label, description, { required, format_hint: DATE_HINT, examples: ['2000-01-31'] });
const amount = (name: string, label: string, description: string, required = false): FieldDefinition =>
	money(name, label, description, { required, format_hint: MONEY_HINT, examples: ['0.00'] });
const currencyCode = (): FieldDefinition =>
	text('currency', 'Currency', 'Currency of the amounts, as the three-letter ISO 4217 code, derived from the symbol or code printed next to the amounts.', {
		format_hint: 'ISO 4217 code, e.g. EUR',
		examples: ['XXX'],
	});
const vatId = (name: string, label: string, whose: string): FieldDefinition =>
	text(name, label, `VAT identification number (or tax ID) of ${whose}, usually near the address or in the footer.`, {
		format_hint: 'Country prefix followed by the number, without spaces',
		examples: ['XX000000000'],
	});

const lineItems = (name: string, label: string, description: string, columns: FieldDefinition[]): FieldDefinition => ({
	name,
	label,
	type: 'table',
	description,
	item_fields: columns,
});
const lineDescription = text('description', 'Description', 'Name or description of the product or service on this line.');
const lineQuantity = number('quantity', 'Quantity', 'Number of units on this line.', { examples: ['1'] });
const lineUnit = text('unit', 'Unit', 'Unit of measure of the quantity (pcs, h, kg...), when printed.');
const lineUnitPrice = amount('unit_price', 'Unit price', 'Price of one unit on this line.');
const lineAmount = amount('amount', 'Amount', 'Total of this line (quantity times unit price), as printed.');
const articleNumber = text('article_number', 'Article no.', 'Article, item or SKU number of the product on this line.');

export const READY_MADE_TEMPLATES: ReadyMadeTemplate[] = [
	{
		kind: 'invoice',
		name: 'Invoice',
		description:
			'Supplier invoices: invoice number and dates, supplier and customer, VAT IDs, totals and tax, payment details and every invoice line. The result carries a compliance block that checks that required fields are present and that lines, subtotal, tax and total add up.',
		fields: [
			text('invoice_number', 'Invoice number', 'Identifier of the invoice, printed near the title (Invoice No., Rechnungsnummer, Nº factura...).', {
				required: true,
				examples: ['XX-0000-0000'],
			}),
			isoDate('invoice_date', 'Invoice date', 'Date the invoice was issued.', true),
			isoDate('due_date', 'Due date', 'Date by which the invoice must be paid, when printed.'),
			text('supplier_name', 'Supplier', 'Legal name of the company that issued the invoice, usually in the letterhead.', { required: true }),
			vatId('supplier_vat_id', 'Supplier VAT ID', 'the supplier'),
			text('customer_name', 'Customer', 'Name of the customer the invoice is addressed to.'),
			vatId('customer_vat_id', 'Customer VAT ID', 'the customer, when printed'),
			text('order_number', 'Order number', "The customer's purchase order number the invoice refers to, when printed."),
			currencyCode(),
			amount('subtotal', 'Subtotal', 'Net amount before tax (sum of the lines).'),
			number('tax_rate', 'Tax rate', 'VAT or sales-tax rate in percent, without the % sign.', { examples: ['0'] }),
			amount('tax_amount', 'Tax amount', 'Amount of VAT or sales tax.'),
			amount('total', 'Total', 'Gross amount to pay, tax included.', true),
			text('iban', 'IBAN', 'Bank account (IBAN) to pay into, when printed.', { format_hint: 'IBAN without spaces', examples: ['XX00000000000000000000'] }),
			text('payment_terms', 'Payment terms', 'Payment terms as printed, e.g. the number of days to pay.'),
			lineItems('line_items', 'Line items', 'Every line of the invoice table, in printed order. Skip subtotal and total rows.', [
				lineDescription,
				lineQuantity,
				lineUnitPrice,
				lineAmount,
			]),
		],
	},
	{
		kind: 'receipt',
		name: 'Receipt',
		description: 'Till receipts and sales slips: merchant, date and time, items bought, tax, total and how it was paid.',
		fields: [
			text('merchant_name', 'Merchant', 'Name of the shop or business, usually the first line of the receipt.', { required: true }),
			text('merchant_address', 'Merchant address', 'Address of the shop as printed under its name.'),
			vatId('merchant_vat_id', 'Merchant VAT ID', 'the merchant'),
			text('receipt_number', 'Receipt number', 'Receipt, ticket or transaction number.'),
			isoDate('purchase_date', 'Date', 'Date of the purchase.', true),
			text('purchase_time', 'Time', 'Time of the purchase as printed, in 24-hour HH:MM.', { format_hint: 'HH:MM', examples: ['00:00'] }),
			currencyCode(),
			amount('subtotal', 'Subtotal', 'Amount before tax, when printed.'),
			amount('tax_amount', 'Tax', 'VAT or sales tax included or added.'),
			amount('total', 'Total', 'Amount paid.', true),
			text('payment_method', 'Payment method', 'How it was paid: cash, card, the card brand...'),
			lineItems('items', 'Items', 'Every item bought, in printed order.', [lineDescription, lineQuantity, lineAmount]),
		],
	},
	{
		kind: 'delivery_note',
		name: 'Delivery note',
		description: 'Delivery notes and packing slips: note number, dates, sender, recipient, delivery address, order reference, carrier and the goods delivered.',
		fields: [
			text('delivery_note_number', 'Delivery note number', 'Identifier of the delivery note.', { required: true, examples: ['XX-000000'] }),
			isoDate('delivery_date', 'Delivery date', 'Date the goods were shipped or delivered.', true),
			text('order_number', 'Order number', 'The order the delivery belongs to.'),
			text('supplier_name', 'Supplier', 'Company that sent the goods.'),
			text('recipient_name', 'Recipient', 'Company or person receiving the goods.'),
			text('delivery_address', 'Delivery address', 'Address the goods are delivered to, on one line.'),
			text('carrier', 'Carrier', 'Transport company, when printed.'),
			text('tracking_number', 'Tracking number', "The carrier's tracking or consignment number, when printed."),
			number('package_count', 'Packages', 'Number of packages or parcels.', { examples: ['1'] }),
			lineItems('items', 'Items', 'Every delivered line, in printed order.', [articleNumber, lineDescription, lineQuantity, lineUnit]),
		],
	},
	{
		kind: 'quote',
		name: 'Quote',
		description: 'Quotes, quotations and estimates: quote number, dates and validity, supplier and customer, lines and totals.',
		fields: [
			text('quote_number', 'Quote number', 'Identifier of the quote or estimate.', { required: true, examples: ['XX-0000'] }),
			isoDate('quote_date', 'Quote date', 'Date the quote was issued.', true),
			isoDate('valid_until', 'Valid until', 'Last day the quote can be accepted.'),
			text('supplier_name', 'Supplier', 'Company making the offer.'),
			text('customer_name', 'Customer', 'Customer the quote is addressed to.'),
			currencyCode(),
			amount('subtotal', 'Subtotal', 'Net amount before tax.'),
			amount('tax_amount', 'Tax amount', 'VAT or sales tax.'),
			amount('total', 'Total', 'Gross amount offered, tax included.', true),
			lineItems('line_items', 'Line items', 'Every line of the offer, in printed order.', [lineDescription, lineQuantity, lineUnitPrice, lineAmount]),
		],
	},
	{
		kind: 'purchase_order',
		name: 'Purchase order',
		description: 'Purchase orders sent to a supplier: order number and date, buyer, supplier, delivery address and date, ordered lines and total.',
		fields: [
			text('po_number', 'PO number', 'Identifier of the purchase order.', { required: true, examples: ['XX-00000'] }),
			isoDate('order_date', 'Order date', 'Date the order was placed.', true),
			isoDate('requested_delivery_date', 'Delivery date', 'Date the buyer wants the goods delivered, when printed.'),
			text('buyer_name', 'Buyer', 'Company placing the order.'),
			text('supplier_name', 'Supplier', 'Company the order is sent to.'),
			text('delivery_address', 'Delivery address', 'Where the goods must be delivered, on one line.'),
			currencyCode(),
			amount('total', 'Total', 'Total value of the order.'),
			lineItems('line_items', 'Line items', 'Every ordered line, in printed order.', [articleNumber, lineDescription, lineQuantity, lineUnitPrice, lineAmount]),
		],
	},
	{
		kind: 'id_and_passport',
		name: 'ID and passport',
		description: 'Identity cards, passports and residence permits: holder, document number, nationality and dates. Only what is printed on the document is read.',
		fields: [
			text('document_type', 'Document type', 'Kind of document as printed: passport, identity card, residence permit...'),
			text('document_number', 'Document number', 'Number of the document (not the personal number).', { required: true, examples: ['X00000000'] }),
			text('surname', 'Surname', "Holder's surname(s) as printed."),
			text('given_names', 'Given names', "Holder's given name(s) as printed."),
			isoDate('date_of_birth', 'Date of birth', "Holder's date of birth."),
			text('place_of_birth', 'Place of birth', "Holder's place of birth, when printed."),
			text('nationality', 'Nationality', 'Nationality as printed (a name or a three-letter code).'),
			text('sex', 'Sex', 'Sex as printed: F, M or X.'),
			isoDate('issue_date', 'Date of issue', 'Date the document was issued.'),
			isoDate('expiry_date', 'Date of expiry', 'Date the document expires.', true),
			text('issuing_authority', 'Authority', 'Authority or country that issued the document.'),
		],
	},
	{
		kind: 'business_card',
		name: 'Business card',
		description: 'Business cards: name, job title, company and every way to contact the person.',
		fields: [
			text('full_name', 'Name', "The person's full name, usually the largest text.", { required: true }),
			text('job_title', 'Job title', "The person's position or role."),
			text('company', 'Company', 'Company or organisation name.'),
			email('email', 'E-mail', 'E-mail address.', { examples: ['name@example.com'] }),
			phone('phone', 'Phone', 'Office or main phone number, in international form when possible.', { format_hint: 'E.164, e.g. +15550100', examples: ['+10000000000'] }),
			phone('mobile', 'Mobile', 'Mobile phone number, in international form when possible.', { format_hint: 'E.164', examples: ['+10000000000'] }),
			text('website', 'Website', 'Web address as printed.', { examples: ['www.example.com'] }),
			text('address', 'Address', 'Postal address on one line.'),
		],
	},
	{
		kind: 'bank_statement',
		name: 'Bank statement',
		description:
			'Bank account statements: account holder, IBAN, period, opening and closing balances and every transaction. The result carries a balance check: opening balance plus credits minus debits must equal the closing balance.',
		fields: [
			text('bank_name', 'Bank', 'Name of the bank issuing the statement.'),
			text('account_holder', 'Account holder', 'Name of the account holder.', { required: true }),
			text('iban', 'IBAN', 'Account IBAN.', { format_hint: 'IBAN without spaces', examples: ['XX00000000000000000000'], required: true }),
			text('bic', 'BIC', 'BIC / SWIFT code of the bank, when printed.', { examples: ['XXXXXXXXXXX'] }),
			text('statement_number', 'Statement number', 'Number of the statement, when printed.'),
			isoDate('period_start', 'From', 'First day covered by the statement.'),
			isoDate('period_end', 'To', 'Last day covered by the statement.'),
			currencyCode(),
			amount('opening_balance', 'Opening balance', 'Balance at the start of the period; negative when overdrawn.', true),
			amount('closing_balance', 'Closing balance', 'Balance at the end of the period; negative when overdrawn.', true),
			lineItems('transactions', 'Transactions', 'Every transaction of every page, in printed order. Money out goes in debit, money in goes in credit, both as positive numbers.', [
				isoDate('date', 'Date', 'Booking date of the transaction.'),
				text('description', 'Description', 'Counterparty and reference of the transaction.'),
				amount('debit', 'Debit', 'Money out of the account, as a positive number.'),
				amount('credit', 'Credit', 'Money into the account, as a positive number.'),
				amount('balance', 'Balance', 'Running balance after the transaction, when printed.'),
			]),
		],
	},
];
