import { randomUUID } from 'node:crypto';
import type { Account } from './accounts';
import { toIso } from './clock';
import { errors } from './errors';
import { autoBlock, averageConfidence, detectTemplate, extractData, readDocument, sniffType } from './extraction';
import type { DocumentKind, ReadDocument, TemplateLike } from './extraction';
import type { Fault } from './faults';
import { parseUpload } from './multipart';
import { uploadScannerLabel, type ResultOutcome, type ResultRecord } from './results';
import type { Scanner } from './scanners';
import { MAX_PAGES_PER_DOCUMENT } from './spec';
import type { SandboxState } from './state';
import { scheduleResult } from './timing';
import { sha256Hex } from './random';
import type { JsonReply, UploadEndpoint } from './types';

/** The file type a result names for each kind of document (also used by bench:sandbox). */
export const MIME_BY_KIND: Record<DocumentKind, string> = {
	pdf: 'application/pdf',
	jpeg: 'image/jpeg',
	png: 'image/png',
	webp: 'image/webp',
	heic: 'image/heic',
	unknown: 'application/octet-stream',
};

export interface UploadRequest {
	state: SandboxState;
	account: Account;
	endpoint: UploadEndpoint;
	/** The named template (explicit upload), or undefined for automatic mode. */
	scanner?: Scanner;
	contentType: string | undefined;
	body: Uint8Array;
	fault?: Fault;
}

/**
 * Both upload operations (spec 4.2, 4.3). Checks in the order a caller can fix them: the file
 * itself (400), then the account (402). An accepted upload reserves its pages, and its outcome is
 * decided at once so the file bytes can be dropped (spec 1: files are kept only while processed).
 */
export async function handleUpload(request: UploadRequest): Promise<JsonReply> {
	const { state, account } = request;
	const parsed = await parseUpload(request.contentType, request.body);
	if (parsed.kind === 'noFile') return errors.noFile();
	if (parsed.kind === 'parseError') return errors.uploadParse();

	const receivedAt = state.clock.now();
	const record = (status: number, resultId: string | null = null) =>
		state.stats.upload({
			at: receivedAt,
			endpoint: request.endpoint,
			accountId: account.id,
			sha256: sha256Hex(parsed.bytes),
			bytes: parsed.bytes.length,
			filename: parsed.filename,
			contentType: parsed.contentType,
			status,
			resultId,
		});
	const refuse = (reply: JsonReply) => {
		record(reply.status);
		return reply;
	};

	// The type is decided from the bytes, never from the name or the declared content type.
	const kind = sniffType(parsed.bytes);
	if (kind === 'unknown') return refuse(errors.unsupportedFileType());
	const document = await readDocument(parsed.bytes);
	if (document.pages > MAX_PAGES_PER_DOCUMENT) return refuse(errors.documentTooLong(document.pages, MAX_PAGES_PER_DOCUMENT));
	if (account.paymentRequired) return refuse(errors.paymentRequired(state.links));
	const available = state.pagesAvailable(account);
	if (document.pages > available) {
		return refuse(
			errors.insufficientTokens({ required: document.pages, available, plan: account.plan, now: state.clock.now(), links: state.links }),
		);
	}
	// The template may have been deleted while the document was being read.
	if (request.scanner && !state.scanners.get(account.id, request.scanner.scanner_id)) return refuse(errors.scannerNotFound());

	const resultId = randomUUID();
	const createdAt = state.clock.now();
	const fileType = MIME_BY_KIND[kind];
	const label = uploadScannerLabel(request.scanner?.scanner_id, request.scanner?.name);
	const result: ResultRecord = {
		resultId,
		accountId: account.id,
		endpoint: request.endpoint,
		scannerId: label.scannerId,
		scannerName: label.scannerName,
		filename: parsed.filename,
		fileType,
		pages: document.pages,
		createdAt,
		...scheduleResult(state.timing, resultId, createdAt, document.pages),
		outcome: decideOutcome(state, account, request, document, { fileName: parsed.filename, fileType }),
		pagesReleased: false,
	};
	if (request.fault?.kind === 'neverFinish') result.stuckStatus = 'processing';
	if (request.fault?.kind === 'unknownStatus') result.stuckStatus = request.fault.status;
	state.charge(account, document.pages);
	state.addResult(result);
	record(202, resultId);

	return {
		status: 202,
		body: {
			success: true,
			result_id: resultId,
			request_id: randomUUID(),
			scanner_id: result.scannerId,
			scanner_name: result.scannerName,
			filename: result.filename,
			status: 'queued',
			tokens_required: document.pages,
			tokens_remaining: state.pagesAvailable(account),
			queued_at: toIso(createdAt),
		},
	};
}

function decideOutcome(
	state: SandboxState,
	account: Account,
	request: UploadRequest,
	document: ReadDocument,
	context: { fileName: string; fileType: string },
): ResultOutcome {
	if (request.fault?.kind === 'extractionError') {
		return { kind: 'error', code: 'PROCESSING_FAILED', message: 'Extraction failed (injected fault). Upload the document again.' };
	}
	return processDocument(document, request.scanner ?? state.scanners.list(account.id), context);
}

/**
 * What processing makes of a read document: a damaged or unreadable one refused, else the fields
 * from the named template or from the one automatic mode picks among the account's. Holds no state,
 * so bench:sandbox runs these very steps.
 */
export function processDocument(
	document: ReadDocument,
	templates: TemplateLike | TemplateLike[],
	context: { fileName: string; fileType: string },
): ResultOutcome {
	// A damaged file fails in processing (spec 3: "Processing failed"); its pages stay used.
	if (document.problem === 'corrupt') {
		return { kind: 'error', code: 'PROCESSING_FAILED', message: 'The document is damaged and could not be processed.' };
	}
	// Spec 2.4 / 3: refused before processing when nothing is readable (NO_TEXT).
	if (document.problem || document.text.trim() === '') {
		return { kind: 'rejected', code: 'NO_TEXT', message: noTextMessage(document) };
	}
	const named = Array.isArray(templates) ? undefined : templates;
	const candidates = Array.isArray(templates) ? templates : [templates];
	if (candidates.length === 0) {
		return { kind: 'error', code: 'PROCESSING_FAILED', message: 'The account has no template to choose from.' };
	}
	const detection = named ? undefined : detectTemplate(candidates, document);
	const template = detection?.template ?? candidates[0];
	// A snapshot: later changes to the template do not change this result (spec part 3).
	const snapshot = structuredClone(template);
	const extractedData = extractData(snapshot, document, context);
	if (detection) extractedData.auto = autoBlock(detection);
	return {
		kind: 'done',
		scannerId: template.scanner_id,
		scannerName: template.name,
		extractedData,
		// Required fields count double: a document missing them is flagged for review.
		confidence: averageConfidence(extractedData, snapshot),
	};
}

function noTextMessage(document: ReadDocument): string {
	if (document.problem === 'unsupported') return `No readable text: ${document.kind.toUpperCase()} images are not guaranteed readable. Upload a PDF, JPEG or PNG.`;
	if (document.problem === 'encrypted') return 'No readable text: the PDF is encrypted or password-protected.';
	return 'No readable text was found in the document (a scan without a text layer?).';
}
