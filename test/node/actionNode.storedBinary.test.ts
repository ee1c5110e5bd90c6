/**
 * Files n8n keeps outside the item: n8n 2.x's default binary data mode is `filesystem`, queue mode
 * uses `database`, and n8n 3.0 removes the in-memory mode altogether, so `binary.data` holds only a
 * marker and the file is read by id. The action node streams them into its upload body. Run
 * through n8n's engine with n8n-core's own BinaryDataService (its filesystem manager, and a
 * database-mode manager of the same contract), against nock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import nock from 'nock';
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { DatabaseBinaryManager } from '../harness/databaseBinaryManager';
import { minimalPdf } from '../harness/documents';
import { BASE, answer, multipartParts, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

const ID = 'stored-file-result';
let folder: string;

beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'n8n-docx-binary-'));
	Container.get(BinaryDataConfig).localStoragePath = folder;
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Switches n8n-core's binary data service to `mode`, as N8N_DEFAULT_BINARY_DATA_MODE does. */
async function useBinaryMode(mode: 'filesystem' | 'database'): Promise<void> {
	Container.get(BinaryDataConfig).mode = mode;
	const service = Container.get(BinaryDataService);
	await service.init();
	if (mode === 'database') service.setManager('database', new DatabaseBinaryManager());
}

/** An item whose file n8n stored on disk, as n8n 2.x's triggers and file nodes hand it on. */
async function storedItem(bytes: Uint8Array, fileName: string): Promise<INodeExecutionData> {
	const stored = await Container.get(BinaryDataService).store({ type: 'execution', workflowId: 'wf', executionId: '1' }, Buffer.from(bytes), {
		data: '',
		mimeType: 'application/pdf',
		fileName,
	});
	return { json: {}, binary: { data: stored } };
}

describe.each([
	{ mode: 'filesystem' as const, idPrefix: /^filesystem(-v2)?:/ },
	{ mode: 'database' as const, idPrefix: /^database:/ },
])('a file n8n stored outside the item, binary data mode $mode', ({ mode, idPrefix }) => {
	beforeAll(() => useBinaryMode(mode));

	it('holds only a marker in the item, not the file', async () => {
		const item = await storedItem(await minimalPdf(['Invoice INV-6'], 1), 'marker.pdf');
		expect(item.binary!.data.id).toMatch(idPrefix);
		expect(item.binary!.data.data).not.toMatch(/^JVBERi0/); // base64 of "%PDF-"
	});

	it('is streamed into the upload body, not read whole first, and sent whole, named and typed, as part "file"', async () => {
		const bytes = await minimalPdf(['Invoice INV-7', 'Total 120.00'], 3);
		const item = await storedItem(bytes, 'stored.pdf');
		expect(item.binary!.data.id).toMatch(idPrefix);
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

	it('a stored file over 4.4 MB is refused by its size, with only its first kilobyte read', async () => {
		const big = new Uint8Array(12_000_000);
		big.set(new TextEncoder().encode('%PDF-1.7\n'));
		const item = await storedItem(big, 'huge.pdf');
		const unexpected = trapAllRequests();
		const service = Container.get(BinaryDataService);
		const streamed = vi.spyOn(service, 'getAsStream');
		const readWhole = vi.spyOn(service, 'getAsBuffer');

		const { error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, [item]);

		expect(error?.message).toBe('Item 1 (huge.pdf): The file is 12.0 MB; the service accepts files up to about 4.4 MB');
		expect(readWhole).not.toHaveBeenCalled();
		// One stream, asked for in chunks of the 1,024 bytes the type check needs, and left after the first.
		expect(streamed.mock.calls).toEqual([[item.binary!.data.id, 1024]]);
		expect(unexpected).toEqual([]);
		streamed.mockRestore();
		readWhole.mockRestore();
	});
});
