import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES_PER_DOCUMENT } from '../limits';
import type { Result } from '../schemas';
import { pagesUsed } from './fieldsMode';

/** Results that did not finish with data: rejected, errored, or in a state the spec does not know. */

/** The item of a document still queued or processing: its ID, to read it again later. */
export function pendingResultJson(resultId: string, status: string): IDataObject {
	return { result_id: resultId, status, pending: true };
}

/** A rejected, failed or unknown-state result as an item (continueOnFail, the poller's error output). */
export function unsuccessfulResultToJson(result: Result): IDataObject {
	return {
		result_id: result.result_id,
		status: result.status,
		// Flat and named as in the spec's Result (2.4), so an IF node or a sheet column reads them directly.
		error_code: result.error_code ?? null,
		error_message: result.error_message ?? describeUnsuccessfulResult(result).message,
		file_name: result.filename ?? null,
		file_type: result.file_type ?? null,
		template: { id: result.scanner_id ?? null, name: result.scanner_name ?? null },
		pages_used: pagesUsed(result.tokens_used),
		created_at: result.created_at ?? null,
	};
}

/** What an error code means and what to do about it (spec 2.4, 7.2). */
const ERROR_CODE_HELP: Record<string, { meaning: string; fix: string }> = {
	NO_TEXT: {
		meaning: 'no readable text was found in it',
		fix: 'Scan or photograph the document at a higher quality (sharp, well lit, about 300 dpi), or send a PDF that has a text layer',
	},
	UNSUPPORTED_FILE_TYPE: {
		meaning: 'it is not a PDF or an image the service can read',
		fix: 'Send the document as a PDF, JPEG or PNG file',
	},
	DOCUMENT_TOO_LONG: {
		meaning: `it has more than ${MAX_PAGES_PER_DOCUMENT} pages`,
		fix: `Split the PDF into parts of at most ${MAX_PAGES_PER_DOCUMENT} pages and send each part (the extract operations' Split PDFs option does it)`,
	},
	UPLOAD_PARSE_ERROR: {
		meaning: 'the service could not read the uploaded file',
		fix: 'Check that the file opens normally on your computer, then send it again',
	},
	INTERNAL_ERROR: {
		meaning: 'the service failed while processing it',
		fix: 'Try again later. If it keeps failing, contact the service\'s support and quote the result ID',
	},
};

/** Headline and advice for a result that ended without data: rejected, errored, or in a state the spec does not know (pending results never get here). */
export function describeUnsuccessfulResult(result: Result): { message: string; description: string } {
	const document = result.filename ? `The document "${result.filename}"` : 'The document';
	const reference = `Result ID: ${result.result_id}`;
	if (result.status !== 'error' && result.status !== 'rejected') {
		return {
			message: `${document} has a status this node does not know: "${result.status}"`,
			description: `Check for a newer version of this node; the Raw output shows the whole result. ${reference}`,
		};
	}

	const code = result.error_code ?? undefined;
	const help = code ? ERROR_CODE_HELP[code] : undefined;
	const verb = result.status === 'rejected' ? 'was rejected' : 'could not be processed';
	const codeText = code ? ` (${code})` : '';
	const message = help ? `${document} ${verb}: ${help.meaning}${codeText}` : `${document} ${verb}${codeText}`;

	const said = result.error_message ? `The service said: "${result.error_message}". ` : '';
	// Spec 4.2: WebP and HEIC are sent with a warning; when they fail, converting them is the fix.
	const convert = /webp|heic|heif/i.test(result.file_type ?? '') ? 'WebP and HEIC images are not guaranteed readable: convert the file to JPEG or PNG and send it again. ' : '';
	// Spec 3 / 7.4: a rejected document consumes no pages.
	const quota = result.status === 'rejected' ? 'No pages of your quota were used. ' : '';
	const fix = help ? `${help.fix}. ` : '';
	return { message, description: `${convert}${fix}${said}${quota}${reference}` };
}
