/**
 * Files n8n keeps outside the item (n8n 2.x's default binary data mode is `filesystem`; queue mode
 * uses the database): the action node streams them into its upload body. Run through n8n's
 * engine with n8n-core's own BinaryDataService in filesystem mode, against nock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { minimalPdf } from '../harness/documents';
import { BASE, answer, multipartParts, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

const ID = 'stored-file-result';
let folder: string;

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'n8n-docx-binary-'));
	const config = Container.get(BinaryDataConfig);
	config.mode = 'filesystem';
	config.localStoragePath = folder;
	await Container.get(BinaryDataService).init();
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An item whose file n8n stored on disk, as n8n 2.x's triggers and file nodes hand it on. */
async function storedItem(bytes: Uint8Array, fileName: string): Promise<INodeExecutionData> {
	const stored = await Container.get(BinaryDataService).store({ type: 'execution', workflowId: 'wf', executionId: '1' }, Buffer.from(bytes), {
		data: '',
		mimeType: 'application/pdf',
		fileName,
	});
	return { json: {}, binary: { data: stored } };
}

describe('a file n8n stored outside the item', () => {
	it('is streamed into the upload body, not read whole first, and sent whole, named and typed, as part "file"', async () => {
		const bytes = await minimalPdf(['Invoice INV-7', 'Total 120.00'], 3);
		const item = await storedItem(bytes, 'stored.pdf');
		expect(item.binary!.data.id).toMatch(/^filesystem/);
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(ID)]);
		const unexpected = trapAllRequests();
		const service = Container.get(BinaryDataService);
		const streamed = vi.spyOn(service, 'getAsStream');
		const readWhole = vi.spyOn(service, 'getAsBuffer');

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, [item]);

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		const [part] = multipartParts(uploads[0]);
		expect(part).toMatchObject({ name: 'file', filename: 'stored.pdf', contentType: 'application/pdf' });
		expect(part.data.equals(Buffer.from(bytes))).toBe(true);
		expect(outputs[0][0].json.result_id).toBe(ID);
		expect(streamed).toHaveBeenCalledTimes(1);
		expect(readWhole).not.toHaveBeenCalled();
		streamed.mockRestore();
		readWhole.mockRestore();
	});

	it('a stored PDF cut short still gets the preflight: nothing is sent', async () => {
		const bytes = await minimalPdf(['Invoice INV-8'], 1);
		const item = await storedItem(bytes.subarray(0, Math.floor(bytes.length / 2)), 'cut.pdf');
		const unexpected = trapAllRequests();

		const { error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, [item]);

		expect(error?.message).toMatch(/damaged or incomplete/);
		expect(unexpected).toEqual([]);
	});
});
