import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { UploadFile } from './multipart';
import { accountOf } from './transport';

/**
 * An upload is known by one key: the account (a one-way fingerprint of Base URL and API key, never
 * the key), workflow, node, template, file name and content (SHA-256).
 */
export interface UploadIdentity {
	/** The same account, file, node and template in the same workflow. */
	key: string;
	executionId: string;
}

/** The ledger's key of an upload: a JSON list, so templateOfKey can read the template back. */
export function uploadKey(account: string, workflowId: string, nodeId: string, scannerId: string | undefined, fileName: string, contentHash: string): string {
	return JSON.stringify([account, workflowId, nodeId, scannerId ?? 'auto', fileName, contentHash]);
}

export function templateOfKey(key: string): string {
	return (JSON.parse(key) as string[])[3];
}

export async function uploadIdentity(ctx: IExecuteFunctions, file: UploadFile, scannerId: string | undefined): Promise<UploadIdentity> {
	const contentHash = createHash('sha256').update(file.bytes).digest('hex');
	const key = uploadKey(await accountOf(ctx), ctx.getWorkflow().id ?? '', ctx.getNode().id, scannerId, file.fileName, contentHash);
	return { key, executionId: ctx.getExecutionId?.() ?? '' };
}

/** The document's name in n8n's database and on receipts: one-way, like everything the marks hold. */
export function documentKeyOf(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}
