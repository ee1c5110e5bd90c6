import { describe, expect, it } from 'vitest';
import { fallbackValue } from '../../../sandbox/src/extraction/fallbacks';
import { checkLabelledSupplier, domainNames, legalName, nameKey, sameName, supplierName, withoutNoise } from '../../../sandbox/src/extraction/supplier';
import { toLines } from '../../../sandbox/src/extraction/text-lines';
import type { FieldDefinition } from '../../../sandbox/src/extraction/types';

/** The supplier read from constructed lines (the non-empty ones, as extraction passes them). */
function supplier(...text: string[]) {
	return supplierName(toLines([text.join('\n')]).filter((line) => line.cells.length > 0));
}

const merchant = (...text: string[]) => fallbackValue({ name: 'merchant_name', type: 'string' } as FieldDefinition, toLines([text.join('\n')]).filter((line) => line.cells.length > 0));

describe('company forms and names', () => {
	it.each([
		['Infosys Pvt. Ltd.', 'Infosys Pvt. Ltd.'],
		['Tata Consultancy Services Private Limited', 'Tata Consultancy Services Private Limited'],
		['Polska Firma sp. z o.o.', 'Polska Firma sp. z o.o.'],
		['Maersk Line A/S', 'Maersk Line A/S'],
		['Nokia Oyj', 'Nokia Oyj'],
		['Volvo Cars AB', 'Volvo Cars AB'],
		['Müller Bau GmbH & Co. KG', 'Müller Bau GmbH & Co. KG'],
		['Bar Italia S.p.A.', 'Bar Italia S.p.A.'],
		['Musterhandel e.K.', 'Musterhandel e.K.'],
		['Free SAS au capital de 3 441 812 €', 'Free SAS'],
		['© 2021 Northwind Traders Ltd | All rights reserved', 'Northwind Traders Ltd'],
		['BOUYGUES TELECOM - Société Anonyme au capital de 712 588 399,56 € - Siège social : 37-39, rue Boissière', 'BOUYGUES TELECOM'],
		['Muster Bau, Gesellschaft mit beschränkter Haftung, Sitz Stuttgart', 'Muster Bau'],
		['Rossi Costruzioni – Società per azioni', 'Rossi Costruzioni'],
	])('%s -> %s', (text, name) => {
		expect(legalName(text)).toBe(name);
	});

	it('does not read lower-case words or a sentence as a company form', () => {
		expect(legalName('Foo Ltd as agent')).toBe('Foo Ltd');
		expect(legalName('the company said')).toBeUndefined();
		expect(legalName('paid in sa branch')).toBeUndefined();
		expect(legalName('Please note - Société Anonyme rules apply')).toBeUndefined();
	});

	it('compares names without case, accents, punctuation or company form', () => {
		expect(nameKey('Contoso, Ltd.')).toBe('contoso');
		expect(nameKey('Müller Bau GmbH & Co. KG')).toBe('muller bau');
		expect(sameName('CONTOSO LTD.', 'Contoso')).toBe(true);
		expect(sameName('Contoso Billing', 'CONTOSO LTD.')).toBe(true);
		expect(sameName('Clachan', 'Clachon')).toBe(true);
		expect(sameName('Contoso', 'Fabrikam')).toBe(false);
		expect(sameName('Co', 'Co Op Stores')).toBe(false);
	});

	it('reads the organisation of web and e-mail domains, not shared mail services', () => {
		const lines = toLines(['sales@northwind.co.uk\nwww.northwind.com/contact\njane.doe@gmail.com']);
		expect([...domainNames(lines)]).toEqual(['northwind']);
	});
});

describe('the supplier found along one route stays below the review threshold', () => {
	it('reads the letterhead, never a title, the customer block or an address', () => {
		const result = supplier('TAX INVOICE', 'Original for Recipient', 'Blue Harbour Studio', '12 Quay Street', 'Bristol BS1 4DJ', '', 'Bill To', 'Jane Customer Ltd', '', 'Total  10.00');
		expect(result?.value).toBe('Blue Harbour Studio');
		expect(result?.confidence).toBeLessThan(0.8);
	});

	it('never takes a name from a customer or delivery block, in any language', () => {
		for (const label of ['Bill to', 'Ship to', 'Sold to', 'Invoice to', 'Customer', 'Rechnungsempfänger', 'Lieferadresse', 'Facturé à', 'Adresse de livraison', 'Factuuradres', 'Afleveradres', 'Destinatario', 'Fatturare a', 'Faturar a', 'Buyer', 'Acheteur', 'Delivery address', 'Invoice for', 'Intestatario']) {
			const result = supplier('INVOICE', '', label, 'Fabrikam Holdings GmbH', 'Hauptstraße 1', '', 'Total  10.00');
			expect(result?.value, label).toBeUndefined();
		}
	});

	it("never takes a name from an address opened by the addressee's title, the envelope window's block", () => {
		for (const title of ['M', 'Mme', 'Mr.', 'Mrs', 'Herrn', 'Frau', 'Firma', 'Monsieur']) {
			const result = supplier('FACTURE', `N° de ligne   : 06 99 12 34 56          ${title} DE LATTRE ALEXIS`, '                                        ALEXINUX SARL', '                                        35 B RUE MONTGOLFIER', '', 'Total  10,00');
			expect(result?.value, title).toBeUndefined();
		}
		// A name whose first word only looks like a title is still read.
		expect(supplier('INVOICE', 'Missouri Tiling Ltd', '', 'Total  10.00')?.value).toBe('Missouri Tiling Ltd');
	});

	it('takes the payee, the account holder or the seller named on the document', () => {
		expect(supplier('INVOICE', 'Total  10.00', 'Please make cheques payable to: Harbour Tiling Ltd')?.value).toBe('Harbour Tiling Ltd');
		expect(supplier('RECHNUNG', 'Summe  10,00', 'Kontoinhaber: Muster Elektro GmbH', 'IBAN DE89 3704 0044 0532 0130 00')?.value).toBe('Muster Elektro GmbH');
		expect(supplier('FACTURE', 'Total  10,00', 'Titulaire du compte', 'Atelier Dupont SARL')?.value).toBe('Atelier Dupont SARL');
		expect(supplier('FACTURE', 'Total 10,00', "Origine de l'électricité vendue par EDF :")?.value).toBe('EDF');
		expect(supplier('INVOICE', 'Blue Harbour Studio', 'Total  10.00', 'Fruit is sold by weight', 'the seller shall deliver')?.value).toBe('Blue Harbour Studio');
		const stated = supplier('INVOICE', 'Total  10.00', 'Account name: Northwind Traders');
		expect(stated?.value).toBe('Northwind Traders');
		expect(stated?.confidence).toBeLessThan(0.8);
	});

	it('takes the name printed beside the VAT id or above it in the footer', () => {
		const result = supplier('INVOICE', 'Total  10.00', '', '', '', 'Lakeside Bakery', 'Tel 0123 456 789', 'VAT GB 123 4567 89');
		expect(result?.value).toBe('Lakeside Bakery');
		expect(result?.confidence).toBeLessThan(0.8);
	});

	it('joins a short legal name to the capitalised name above it in the letterhead', () => {
		expect(supplier('    Turnpike', '       Designs Co.', '156 Queen Ave, Toronto', 'Total  10.00')?.value).toBe('Turnpike Designs Co.');
		expect(supplier('from the team at', 'Acme Trading GmbH', 'Total  10.00')?.value).toBe('Acme Trading GmbH');
	});
});

describe('the same name found along two routes reaches the review threshold', () => {
	it('the letterhead and the footer legal line', () => {
		const result = supplier('Northwind', '1 Harbour Road, Leeds', 'INVOICE', 'Total  10.00', '', 'Northwind Traders Ltd, registered in England No. 1234567');
		expect(result?.value).toBe('Northwind Traders Ltd');
		expect(result?.confidence).toBeGreaterThanOrEqual(0.85);
	});

	it('a letterhead name the footer prints again, over a legal name printed once (the customer\'s, without a label)', () => {
		const result = supplier(
			'PACANO                                                     FACTURE',
			'Société Hôtelière du Pacano',
			'2, rue de la Paix',
			'75000 Paris',
			'                                                   Securibox SARL',
			'                                                   27, Rue de Bassano',
			'Total TTC   1.368,84 €',
			'',
			'                    Société Hôtelière du Pacano',
			'            2, rue de la Paix - 75000 Paris',
		);
		expect(result?.value).toBe('Société Hôtelière du Pacano');
		expect(result?.confidence).toBeGreaterThanOrEqual(0.85);
	});

	it('the letterhead and the web domain, unless the domains name two organisations', () => {
		const one = supplier('Fabrikam', '5 Main Street', 'INVOICE', 'www.fabrikam.com  ·  billing@fabrikam.com', 'Total  10.00');
		expect(one?.value).toBe('Fabrikam');
		expect(one?.confidence).toBeGreaterThanOrEqual(0.85);
		const longer = supplier('Blue Harbour Studio', '5 Main Street', 'INVOICE', 'hello@blueharbour.co.uk', 'Total  10.00');
		expect(longer?.confidence).toBeGreaterThanOrEqual(0.85);
		const two = supplier('FICTIOCORP', '', 'e-mail : support@fictiocorp.com', 'www.utility.fr', 'Total  10,00');
		expect(two?.value).toBe('FICTIOCORP');
		expect(two?.confidence).toBeLessThan(0.8);
	});

	it('the letterhead legal name and the payee, spelt the fullest way', () => {
		const result = supplier('CONTOSO LTD.                INVOICE', 'Contoso Headquarters', '123 456th St', 'Total  $10.00', 'REMIT TO:', 'Contoso Billing');
		expect(result?.value).toBe('CONTOSO LTD.');
		expect(result?.confidence).toBeGreaterThanOrEqual(0.85);
	});

	it('three routes go higher; one line read two ways counts once', () => {
		const three = supplier('Lakeside Bakery Ltd', 'Total  10.00', 'Account name: Lakeside Bakery', '', '', '', 'Lakeside Bakery Ltd · VAT GB 123 4567 89');
		expect(three?.confidence).toBe(0.9);
		const once = supplier('INVOICE', 'Total  10.00', '', '', '', '', 'Lakeside Bakery Ltd · VAT GB 123 4567 89');
		expect(once?.confidence).toBeLessThan(0.8);
	});

	it('stays below the threshold when another name is as well supported', () => {
		const result = supplier('FICTIOCORP', 'support@fictiocorp.com', 'Total  10,00', '', 'Sold by: Utility SA', '', '', 'Utility SA - RCS Paris 552 081 317');
		expect(result?.confidence).toBeLessThan(0.8);
	});
});

describe('the store name of a receipt', () => {
	it('strips stray symbols and fragments OCR put around it', () => {
		expect(withoutNoise('| SAFEWAY SN')).toBe('SAFEWAY');
		expect(withoutNoise('ne Contoso Ba)')).toBe('Contoso');
		expect(withoutNoise('Dr. Ana Ejemplo AG')).toBe('Dr. Ana Ejemplo AG');
		expect(merchant('    |  SAFEWAY SN', 'TORE THANK MGR YOu TOM FoR SHOPPING WITH 103-777-5833', 'GROCERY')?.value).toBe('SAFEWAY');
		expect(merchant('     ry', '     ne Contoso Ba)', ' 123 Main Street')?.value).toBe('Contoso');
	});

	it('leaves a garbled name, a greeting or a slogan out', () => {
		expect(merchant('  Contos?  ', '  123 Ma; eu', '  Total  $14.50')).toBeUndefined();
		expect(merchant('THANK YOU FOR SHOPPING', 'Have a nice day', '12/30/2016', 'TOTAL  $60.44')).toBeUndefined();
		expect(merchant('WELCOME TO SAFEWAY', '1444 Shattuck Pl', 'TOTAL  $6.00')?.value).toBe('SAFEWAY');
	});
});

describe('a labelled supplier checked against the other routes', () => {
	const labelled = (value: string) => ({ value, confidence: 0.75, source_fragment: `Sold by: ${value}`, raw_candidates: [value], normalization_notes: '' });
	const lines = (...text: string[]) => toLines([text.join('\n')]).filter((line) => line.cells.length > 0);

	it('is raised when the footer legal line names it too', () => {
		const checked = checkLabelledSupplier(labelled('Harbour Tiling'), lines('INVOICE', 'Sold by: Harbour Tiling', 'Total  10.00', '', '', 'Harbour Tiling Ltd - Company No. 01234567'));
		expect(checked.confidence).toBeGreaterThanOrEqual(0.85);
		expect(checked.value).toBe('Harbour Tiling');
	});

	it('is held below the threshold when another name is found two ways, and left alone otherwise', () => {
		const disputed = checkLabelledSupplier({ ...labelled('Harbour Tiling'), confidence: 0.85 }, lines('Fabrikam Ltd', 'www.fabrikam.com', 'Total  10.00', '', '', 'Fabrikam Ltd - Company No. 01234567'));
		expect(disputed.confidence).toBeLessThan(0.8);
		const alone = checkLabelledSupplier(labelled('Harbour Tiling'), lines('INVOICE', 'Total  10.00'));
		expect(alone.confidence).toBe(0.75);
	});
});
