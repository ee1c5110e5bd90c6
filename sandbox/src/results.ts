import { toIso } from './clock';
import type { ExtractedData } from './extraction';
import { AUTO_SCANNER_ID, AUTO_SCANNER_PLACEHOLDER } from './spec';
import type { ResultSchedule } from './timing';
import type { UploadEndpoint } from './types';

/** How a result ends, decided when the upload is accepted (the file bytes are not kept). */
export type ResultOutcome =
	| { kind: 'done'; scannerId: string; scannerName: string; extractedData: ExtractedData; confidence: number }
	| { kind: 'error' | 'rejected'; code: string; message: string };

export interface ResultRecord extends ResultSchedule {
	resultId: string;
	accountId: string;
	endpoint: UploadEndpoint;
	/** The template named at upload, or `auto`. */
	scannerId: string;
	scannerName: string;
	filename: string;
	fileType: string;
	pages: number;
	createdAt: number;
	outcome: ResultOutcome;
	/** A fault made this result report this status forever once queued time is over. */
	stuckStatus?: string;
	/** Pages went back to the quota (a `rejected` result consumes none, spec 7.4). */
	pagesReleased: boolean;
}

export class ResultStore {
	private readonly results = new Map<string, ResultRecord>();

	add(record: ResultRecord): void {
		this.results.set(record.resultId, record);
	}

	/** Spec 4.4: RESULT_NOT_FOUND also for another account's result. */
	getForAccount(accountId: string, resultId: string): ResultRecord | undefined {
		const record = this.results.get(resultId);
		return record?.accountId === accountId ? record : undefined;
	}

	/** Any account's result: only for counting reads, never for answering a caller. */
	get(resultId: string): ResultRecord | undefined {
		return this.results.get(resultId);
	}

	forAccount(accountId: string): ResultRecord[] {
		return [...this.results.values()].filter((record) => record.accountId === accountId);
	}

	serialize(): ResultRecord[] {
		return [...this.results.values()];
	}

	restore(records: ResultRecord[]): void {
		for (const record of records) this.results.set(record.resultId, record);
	}
}

/** Spec part 3: queued -> processing -> done | error; or queued -> rejected (refused before processing). */
export function statusAt(record: ResultRecord, now: number): string {
	if (now < record.startsAt) return 'queued';
	if (record.stuckStatus) return record.stuckStatus;
	if (record.outcome.kind === 'rejected') return 'rejected';
	if (now < record.finishesAt) return 'processing';
	return record.outcome.kind;
}

/** When the result reaches its terminal state (null: never, because a fault holds it). */
export function terminalAt(record: ResultRecord): number | null {
	if (record.stuckStatus) return null;
	return record.outcome.kind === 'rejected' ? record.startsAt : record.finishesAt;
}

/** Spec 2.4, as read at `now`; `status` may be overridden by an injected fault for one read. */
export function resultView(record: ResultRecord, now: number, statusOverride?: string): Record<string, unknown> {
	const status = statusOverride ?? statusAt(record, now);
	const { outcome } = record;
	// In automatic mode the chosen template is known only once extraction has run.
	const chosen = status === 'done' && outcome.kind === 'done';
	const view: Record<string, unknown> = {
		success: true,
		result_id: record.resultId,
		status,
		scanner_id: chosen ? outcome.scannerId : record.scannerId,
		scanner_name: chosen ? outcome.scannerName : record.scannerName,
		filename: record.filename,
		file_type: record.fileType,
		tokens_used: tokensUsed(record, status),
		created_at: toIso(record.createdAt),
		source_type: 'api',
	};
	if (chosen) {
		view.extracted_data = outcome.extractedData;
		view.confidence = outcome.confidence;
	}
	if ((status === 'error' || status === 'rejected') && outcome.kind !== 'done') {
		view.error_code = outcome.code;
		view.error_message = outcome.message;
	}
	return view;
}

function tokensUsed(record: ResultRecord, status: string): number | null {
	if (status === 'done' || status === 'error') return record.pages;
	if (status === 'rejected') return 0;
	return null;
}

export function uploadScannerLabel(scannerId: string | undefined, scannerName: string | undefined) {
	return scannerId === undefined
		? { scannerId: AUTO_SCANNER_ID, scannerName: AUTO_SCANNER_PLACEHOLDER }
		: { scannerId, scannerName: scannerName ?? '' };
}
