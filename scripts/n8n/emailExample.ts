import { join } from 'node:path';

import type { WorkflowJson } from './cli';
import { loadExample, templateLocatorValue, withParameters } from './workflows';

/** The attachments of the simulated emails: invoices in four languages and two till receipts. */
export const EMAIL_ATTACHMENTS = ['invoice-en.pdf', 'rechnung-de.pdf', 'facture-fr.pdf', 'factura-es.pdf', 'receipt.png', 'ticket-es.jpg'];

/** Node names of the example the demo and the tests read. */
export const EMAIL_NODES = { attachments: 'One Item per Attachment', extract: 'Extract Invoice Lines' } as const;

export const SPREADSHEET_FILES = { csv: 'invoice-lines.csv', xlsx: 'invoice-lines.xlsx' } as const;

/** The example "email attachments to a spreadsheet", pointed at local folders and the account's Invoice template. */
export function emailExampleWorkflow(attachmentsDir: string, outputDir: string, invoiceTemplate: { id: string; name: string }): WorkflowJson {
	return withParameters(loadExample('emailToSpreadsheet'), {
		'Read Sample Attachments': { fileSelector: join(attachmentsDir, '*.{pdf,png,jpg}') },
		[EMAIL_NODES.extract]: { templateId: templateLocatorValue(invoiceTemplate) },
		'Save CSV': { fileName: join(outputDir, SPREADSHEET_FILES.csv) },
		'Save XLSX': { fileName: join(outputDir, SPREADSHEET_FILES.xlsx) },
	});
}
