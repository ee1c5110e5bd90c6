import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { UploadAccepted } from '../../../shared/schemas';
import type { Charge } from '../../../shared/output/mapping';
import { uploadOnce, type UploadRun } from '../../../shared/http/uploadLedger';
import type { ItemSink } from '../../../shared/output/itemSink';
import { receiptTiming, type PendingDocument } from '../../../shared/waiting/awaitResults';
import type { PlannedUpload } from './plan';

/** How many of the run's documents were extracted before, for the node's warnings. */
export interface ChargeCounts {
	reused: number;
	duplicate: number;
	chargedAgain: number;
}

/**
 * The one upload of every document, whatever its source: its bytes read again and proven the
 * checked ones (check.ts), then sent once (uploadLedger: an earlier upload of the same file is
 * read instead, one another execution extracted is a duplicate). Settled at once when nothing is
 * waited for (a duplicate, or Wait for Result off); else returned, to be waited for. Throws when
 * the document fails.
 */
export async function uploadDocument(ctx: IExecuteFunctions, sink: ItemSink, run: UploadRun, plan: PlannedUpload, counts: ChargeCounts): Promise<PendingDocument | undefined> {
	const { itemIndex: i, slot, settings, binary, file } = plan;
	const target = slot ?? i;
	const upload = await uploadOnce(ctx, run, i, await file.forUpload(), settings.scannerId, settings.reuseUploads);
	if ('duplicate' in upload) {
		counts.duplicate++;
		sink.emit(target, [{ ...duplicateJson(file.fileName, upload.duplicate.firstDay), ...file.preparation }], 0, binary);
		return undefined;
	}
	const { receipt, documentKey, reused, chargedAgain } = upload;
	if (reused) counts.reused++;
	if (chargedAgain) counts.chargedAgain++;
	const charge: Charge | undefined = reused
		? { reused: true, firstExtractedAt: reused.firstUploadedAt || null }
		: chargedAgain && { reused: false, firstExtractedAt: chargedAgain.firstDay };
	sink.track(target, receipt.result_id, reused ? 'reused' : 'uploaded');
	if (!settings.outputOptions) {
		sink.emit(target, [{ ...receiptJson(receipt, documentKey, charge), ...file.preparation }], 0, binary);
		return undefined;
	}
	return {
		id: i,
		...(slot ? { slot } : {}),
		resultId: receipt.result_id,
		...receiptTiming(receipt),
		binary,
		outputOptions: settings.outputOptions,
		charge,
		documentKey,
		preparation: file.preparation,
		known: reused?.result,
	};
}

/**
 * The upload receipt (Wait for Result off), with the document's key for the Poller (a result that
 * ends in `error` is then forgotten in n8n's database too). A reused one reserved nothing this
 * time; one extracted before says so, and the Poller's items then say it too.
 */
function receiptJson(receipt: UploadAccepted, documentKey: string, charge: Charge | undefined): IDataObject {
	const said = charge && { ...(charge.reused ? { tokens_required: 0, reused: true } : { charged_again: true }), first_extracted_at: charge.firstExtractedAt };
	return { ...receipt, ...said, document_key: documentKey };
}

/** The item of a document not uploaded because another execution extracted it already (n8n's database says when). */
function duplicateJson(fileName: string, firstDay: string): IDataObject {
	return {
		status: 'duplicate',
		message: `Not extracted again: this node extracted the same file on ${firstDay}, in another execution. Its data is in that execution's output and in your account.`,
		file_name: fileName,
		first_extracted_at: firstDay,
		pages_used: 0,
	};
}

/** What the node says of the run's documents that were extracted before. */
export function chargeWarnings({ reused, duplicate, chargedAgain }: ChargeCounts): string[] {
	const documents = (count: number) => (count === 1 ? '1 document was' : `${count} documents were`);
	const warnings: string[] = [];
	if (reused > 0) {
		warnings.push(
			`${documents(reused)} uploaded earlier by this node: the earlier upload's result was read, nothing was charged again. Turn off "Reuse Earlier Uploads" for a fresh extraction.`,
		);
	}
	if (duplicate > 0) {
		warnings.push(
			`${documents(duplicate)} not uploaded: this node extracted the same file in an earlier execution (status "duplicate" on the item). Turn off "Reuse Earlier Uploads" to extract it again.`,
		);
	}
	if (chargedAgain > 0) {
		warnings.push(
			`${documents(chargedAgain)} extracted before by this node in another n8n process (before a restart, or on another queue-mode worker), whose result this process could not read: uploaded and charged again ("charged_again" on the item). In queue mode, extract without waiting and read the results with the Document Extraction Poller: a Retry then reads them instead.`,
		);
	}
	return warnings;
}
