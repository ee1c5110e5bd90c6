import type { IExecuteFunctions } from 'n8n-workflow';

import type { Result, UploadAccepted } from '../schemas';
import { getResult, getScanner } from './api';
import { errorCodeOf } from './errors';

export interface Reused {
	/** When the service accepted the earlier upload. */
	firstUploadedAt: string;
	/** The result as read when the receipt was checked, when it was already final. */
	result?: Result;
}

/** Per template: when it was last changed (spec 4.7 `updated_at`), read once per run of the node and only to check a reuse. */
export type TemplateChangedAt = Map<string, Promise<number | undefined>>;

/**
 * Whether an earlier upload's result may stand for this one, read once: not when the account does
 * not know it (RESULT_NOT_FOUND: the credential now names another account, or the result was
 * deleted), not when it ended in `error`, not when its template changed after the upload. A read
 * that fails otherwise (network, rate limit) leaves the receipt in use: the wait reads it again.
 */
export async function stillValid(
	ctx: IExecuteFunctions,
	templateChangedAt: TemplateChangedAt,
	itemIndex: number,
	receipt: UploadAccepted,
	scannerId: string | undefined,
): Promise<Reused | undefined> {
	const firstUploadedAt = receipt.queued_at ?? '';
	let result: Result | undefined;
	try {
		result = await getResult(ctx, receipt.result_id, itemIndex);
	} catch (error) {
		if (errorCodeOf(error) === 'RESULT_NOT_FOUND') return undefined;
	}
	if (result?.status === 'error') return undefined;
	if (scannerId !== undefined) {
		let changedAt = templateChangedAt.get(scannerId);
		if (!changedAt) {
			changedAt = getScanner(ctx, scannerId, itemIndex).then(
				(scanner) => Date.parse(scanner.updated_at ?? ''),
				// Deleted: the upload itself then says so. Any other failure fails the item, uncharged.
				(error: unknown) => (errorCodeOf(error) === 'SCANNER_NOT_FOUND' ? undefined : Promise.reject(error)),
			);
			templateChangedAt.set(scannerId, changedAt);
		}
		const changed = await changedAt;
		const uploaded = Date.parse(firstUploadedAt);
		// Unknown either way: the template may have changed, so the result is not trusted.
		if (changed === undefined || Number.isNaN(changed) || Number.isNaN(uploaded) || changed > uploaded) return undefined;
	}
	return { firstUploadedAt, ...(result && result.status !== 'queued' && result.status !== 'processing' ? { result } : {}) };
}
