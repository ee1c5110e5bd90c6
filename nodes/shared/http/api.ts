import type { IDataObject } from 'n8n-workflow';

import {
	resultSchema,
	scannerDeletedSchema,
	scannerListSchema,
	scannerSchema,
	uploadAcceptedSchema,
	type Result,
	type Scanner,
	type UploadAccepted,
} from '../schemas';
import type { UploadFile } from './multipart';
import { readEnded, waitForReadTurn } from './resultReadSpacing';
import { apiPath, callApi, rateBudgetOf, type ApiContext } from './transport';

/** The service's eight operations (spec 4.1), each once. */

/** POST /process (auto-detect) or POST /scanners/{id}/upload (named template). */
export async function uploadDocument(ctx: ApiContext, file: UploadFile, scannerId: string | undefined, itemIndex: number): Promise<UploadAccepted> {
	const path = scannerId === undefined ? apiPath`/api/v1/process` : apiPath`/api/v1/scanners/${scannerId}/upload`;
	return await callApi(ctx, { method: 'POST', path, file, itemIndex, subject: { templateId: scannerId } }, uploadAcceptedSchema);
}

export async function getResult(ctx: ApiContext, resultId: string, itemIndex?: number): Promise<Result> {
	const budget = await rateBudgetOf(ctx);
	await waitForReadTurn(budget, resultId, 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined);
	try {
		return await callApi(ctx, { method: 'GET', path: apiPath`/api/v1/results/${resultId}`, itemIndex, subject: { resultId } }, resultSchema);
	} finally {
		readEnded(budget, resultId);
	}
}

export async function listScanners(ctx: ApiContext, itemIndex?: number): Promise<Scanner[]> {
	const list = await callApi(ctx, { method: 'GET', path: apiPath`/api/v1/scanners`, itemIndex }, scannerListSchema);
	return list.scanners;
}

export async function getScanner(ctx: ApiContext, scannerId: string, itemIndex: number): Promise<Scanner> {
	return await callApi(ctx, { method: 'GET', path: apiPath`/api/v1/scanners/${scannerId}`, itemIndex, subject: { templateId: scannerId } }, scannerSchema);
}

export async function createScanner(ctx: ApiContext, body: IDataObject, itemIndex: number): Promise<Scanner> {
	return await callApi(ctx, { method: 'POST', path: apiPath`/api/v1/scanners`, body, itemIndex }, scannerSchema);
}

export async function updateScanner(ctx: ApiContext, scannerId: string, body: IDataObject, itemIndex: number): Promise<Scanner> {
	return await callApi(ctx, { method: 'PATCH', path: apiPath`/api/v1/scanners/${scannerId}`, body, itemIndex, subject: { templateId: scannerId } }, scannerSchema);
}

export async function deleteScanner(ctx: ApiContext, scannerId: string, itemIndex: number) {
	return await callApi(ctx, { method: 'DELETE', path: apiPath`/api/v1/scanners/${scannerId}`, itemIndex, subject: { templateId: scannerId } }, scannerDeletedSchema);
}
