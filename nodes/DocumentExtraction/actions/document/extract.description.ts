import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_WAIT_TIMEOUT_SECONDS, formatCount, formatMegabytes, MAX_FILE_BYTES, MAX_PAGES_PER_DOCUMENT, MAX_PDF_BYTES_TO_SPLIT, MAX_PHOTO_BYTES_TO_SHRINK, RECOMMENDED_IMAGE_LONG_SIDE_PX, REUSE_DAYS } from '../../../shared/limits';
import { alphabetically, duplicateInvoiceOptions, outputOptionsCollection, outputProperties } from '../../../shared/output/descriptions';
import { inputFieldsOption } from '../../../shared/output/inputFields';
import { SMALL_IMAGE_RULE } from '../../../shared/preflight/attachments';
import { DEFAULT_PAGES_PER_PART } from './preparation';
import type { DocumentSource } from './readers';

/** Parameters both extract operations show, below their own. */
export function extractProperties(operation: string): INodeProperties[] {
	const show = { show: { resource: ['document'], operation: [operation] } };
	const showWhenWaiting = { show: { ...show.show, waitForResult: [true] } };
	return [
		...sourceProperties(operation),
		{
			displayName: 'Wait for Result',
			name: 'waitForResult',
			type: 'boolean',
			default: true,
			displayOptions: show,
			description:
				'Whether to wait until the document is processed (usually 3-20 seconds) and output the extracted data. Turn off to output the upload receipt (result ID, pages reserved) at once and read the result later with "Get Result" or the Document Extraction Poller node.',
		},
		...outputProperties(showWhenWaiting),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: show,
			options: alphabetically([
				{
					displayName: 'Allow Private Network Addresses',
					name: 'allowPrivateNetworkAddresses',
					type: 'boolean',
					default: false,
					displayOptions: { show: { '/documentSource': ['url'] } },
					description:
						'Whether File URL may lead to this machine or your own network (localhost, 10.x, 192.168.x and other private addresses). Off, such links are refused, so that a link, e.g. one an AI agent was given, cannot reach n8n\'s network. Cloud metadata addresses are refused either way. On n8n 1.x, where a node cannot look up where a host name leads, on also lets https links by host name through, their certificate checked; plain http links by name stay refused there.',
				},
				{
					displayName: 'Allowed Hosts',
					name: 'allowedHosts',
					type: 'string',
					default: '',
					placeholder: 'files.example.com, *.example.org',
					displayOptions: { show: { '/documentSource': ['url'] } },
					description:
						'Comma-separated host names File URL may lead to, also after a redirect; *.example.org allows its subdomains. Recommended when an AI agent gives the link. Leave empty to allow any public host. On n8n 1.x, where a node cannot look up where a host name leads, links by name need this list (or Allow Private Network Addresses) and https: a listed name is trusted to lead to a server you mean to reach.',
				},
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					displayOptions: { hide: { '/documentSource': ['binaryFields'] } },
					description: 'Name sent with the file instead of the binary field\'s own file name (or the name the URL gives)',
				},
				inputFieldsOption,
				{
					displayName: 'Include Input Binary',
					name: 'includeBinary',
					type: 'boolean',
					default: false,
					description:
						'Whether to pass the input file through to the output items, e.g. to archive the original next to its data (with Every Attachment: each document\'s own file, a document inside an attached email as taken out of it)',
				},
				{
					displayName: 'On Timeout',
					name: 'onTimeout',
					type: 'options',
					default: 'fail',
					displayOptions: { show: { '/waitForResult': [true] } },
					options: [
						{ name: 'Fail the Item', value: 'fail', description: 'Stop with an error (or an error item when "On Error" continues)' },
						{
							name: 'Output the Pending Result',
							value: 'emitPending',
							description: 'Output the result ID and status, so "Get Result" or the Document Extraction Poller can pick it up later',
						},
					],
					description: 'What to do when the document is not processed within the wait timeout',
				},
				...preparationOptions,
				{
					displayName: 'Reuse Earlier Uploads',
					name: 'reuseUploads',
					type: 'boolean',
					default: true,
					description: `Whether to read the result of an earlier upload of the same file by this node (same template, within ${REUSE_DAYS} days, same n8n process) instead of uploading and paying for it again, e.g. when you click Retry on a failed execution or run the step again. Turn off for a fresh extraction. Retry On Fail never uploads twice either way.`,
				},
				{
					displayName: 'Wait Timeout (Seconds)',
					name: 'waitTimeout',
					type: 'number',
					default: DEFAULT_WAIT_TIMEOUT_SECONDS,
					typeOptions: { minValue: 5 },
					displayOptions: { show: { '/waitForResult': [true] } },
					description: 'How long to wait for the documents of this run, which are waited for together. A long bank statement can take about 2 minutes.',
				},
				...outputOptionsCollection({ show: { '/waitForResult': [true] } }),
				...duplicateInvoiceOptions({ show: { '/waitForResult': [true] } }),
			]),
		},
	];
}

/** Split PDFs and Shrink Large Photos (preparation.ts reads them; split.ts and photo.ts apply them). */
const preparationOptions: INodeProperties[] = [
	{
		displayName: 'Split PDFs',
		name: 'splitPdfs',
		type: 'options',
		default: 'none',
		options: [
			{ name: "Don't Split", value: 'none', description: 'Each PDF is one document' },
			{ name: 'Every N Pages', value: 'everyNPages', description: 'Parts of "Pages per Part" pages; the last part takes what is left' },
			{ name: 'Every Page', value: 'everyPage', description: 'Each page is a document of its own' },
			{ name: 'Page Ranges', value: 'ranges', description: 'The parts you list in "Page Ranges"' },
		],
		description: `Whether to cut each PDF into parts before upload, e.g. a scanner batch of several documents. Each part is uploaded, extracted and charged as a document of its own (at most ${MAX_PAGES_PER_DOCUMENT} pages and ${formatMegabytes(MAX_FILE_BYTES)} MB each; a PDF up to ${formatMegabytes(MAX_PDF_BYTES_TO_SPLIT, 0)} MB is read to be split), and its items say the file and pages it came from (source_file_name, source_pages). A PDF that gives one part is sent as it is; other files are not affected.`,
	},
	{
		displayName: 'Pages per Part',
		name: 'pagesPerPart',
		type: 'number',
		default: DEFAULT_PAGES_PER_PART,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		displayOptions: { show: { splitPdfs: ['everyNPages'] } },
		description: 'How many pages each part of a split PDF has (Split PDFs: Every N Pages)',
	},
	{
		displayName: 'Page Ranges',
		name: 'pageRanges',
		type: 'string',
		default: '',
		placeholder: '1-2, 3, 4-6',
		displayOptions: { show: { splitPdfs: ['ranges'] } },
		description: "The pages of each part, separated by commas (Split PDFs: Page Ranges). Every page must be in one part; '5-' runs to the last page.",
	},
	{
		displayName: 'Shrink Large Photos',
		name: 'shrinkPhotos',
		type: 'boolean',
		default: true,
		description: `Whether to send a JPEG or PNG over ${formatMegabytes(MAX_FILE_BYTES)} MB or over ${formatCount(RECOMMENDED_IMAGE_LONG_SIDE_PX)} pixels on its long side as a JPEG of ${formatCount(RECOMMENDED_IMAGE_LONG_SIDE_PX)} pixels (turned upright), enough to read its text, instead of refusing it or sending it large; photos up to ${formatMegabytes(MAX_PHOTO_BYTES_TO_SHRINK, 0)} MB are read, also by URL or inside an attached email. Its items say what it was (shrunk_from). Off, a photo over ${formatMegabytes(MAX_FILE_BYTES)} MB is refused.`,
	},
];

/** What is read of a file over the service's limit, to be made small enough (preparation.ts `largestToRead`). */
const LARGER_READS =
	MAX_PHOTO_BYTES_TO_SHRINK === MAX_PDF_BYTES_TO_SPLIT
		? `a photo to shrink, or a PDF to split: ${formatMegabytes(MAX_PHOTO_BYTES_TO_SHRINK, 0)} MB`
		: `a photo to shrink: ${formatMegabytes(MAX_PHOTO_BYTES_TO_SHRINK, 0)} MB; a PDF to split: ${formatMegabytes(MAX_PDF_BYTES_TO_SPLIT, 0)} MB`;

/** Document Source and what each source asks for (the readers, readers/, read them). */
function sourceProperties(operation: string): INodeProperties[] {
	const show = (source: DocumentSource) => ({ show: { resource: ['document'], operation: [operation], documentSource: [source] } });
	return [
		...documentSourceProperties(operation),
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: show('binaryField'),
			hint: 'The name of the input binary field that holds the PDF, JPEG or PNG file',
			description: 'Email triggers name their attachments attachment_0, attachment_1 and so on; to read them all, set Document Source to "Every Attachment"',
		},
		{
			displayName: 'Only Fields Starting With',
			name: 'binaryPropertyPrefix',
			type: 'string',
			default: '',
			placeholder: 'attachment_',
			displayOptions: show('binaryFields'),
			hint: 'Leave empty to read every binary field of the item',
			description: `Only binary fields whose names start with this text are read (email triggers use attachment_). Skipped without a charge: files that are not PDF, JPEG or PNG, and ${SMALL_IMAGE_RULE}.`,
		},
		{
			displayName: 'File URL',
			name: 'fileUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/invoice.pdf',
			displayOptions: { ...show('url'), hide: { '@tool': [true] } },
			description: `Direct link to a PDF, JPEG or PNG file of at most ${formatMegabytes(MAX_FILE_BYTES)} MB (${LARGER_READS}). The link is downloaded without your API key.`,
		},
		{
			// As an AI agent's tool the model gives the link: an agent cannot hand a tool a file.
			displayName: 'File URL',
			name: 'fileUrl',
			type: 'string',
			default: "={{ $fromAI('file_url', 'Direct link to the PDF, JPEG or PNG document to extract', 'string') }}",
			required: true,
			displayOptions: { show: { ...show('url').show, '@tool': [true] } },
			description: `Direct link to a PDF, JPEG or PNG file of at most ${formatMegabytes(MAX_FILE_BYTES)} MB (${LARGER_READS}). By default the AI model fills it in.`,
		},
	];
}

/** As an AI agent's tool, a document can only come by URL: that is the default there. */
function documentSourceProperties(operation: string): INodeProperties[] {
	const property: INodeProperties = {
		displayName: 'Document Source',
		name: 'documentSource',
		type: 'options',
		default: 'binaryField',
		options: [
			{
				name: 'Binary Field',
				value: 'binaryField',
				description: 'One file, in the binary field you name',
			},
			{
				name: 'Every Attachment (All Binary Fields)',
				value: 'binaryFields',
				description:
					'Each file of the item is its own document, e.g. every attachment of an email. Logos, invites and other files that are not documents are skipped at no cost and listed.',
			},
			{
				name: 'URL',
				value: 'url',
				description: 'Download the file from a web address (the API key is never sent there)',
			},
		],
		description: 'Where the PDF, JPEG or PNG files to extract are',
	};
	const show = { resource: ['document'], operation: [operation] };
	return [
		{ ...property, displayOptions: { show, hide: { '@tool': [true] } } },
		{ ...property, default: 'url', displayOptions: { show: { ...show, '@tool': [true] } } },
	];
}
