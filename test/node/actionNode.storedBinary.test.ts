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
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { readJpegInfo } from '../../nodes/shared/images/jpegDecode';
import { encodeJpeg } from '../../nodes/shared/images/jpegEncode';
import { MAX_FILE_BYTES, MAX_PDF_BYTES_TO_SPLIT } from '../../nodes/shared/limits';
import { DatabaseBinaryManager } from '../harness/databaseBinaryManager';
import { binaryItem } from '../harness/engine';
import { minimalPdf } from '../harness/documents';
import { BASE, answer, multipartParts, resultId, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

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

/** A photo all grain: JPEG cannot make it small, so it is over 4.4 MB at a modest size. */
function noisyJpeg(width: number, height: number): Uint8Array {
	const data = new Uint8Array(width * height * 3);
	let seed = 46;
	for (let i = 0; i < data.length; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		data[i] = seed >> 23;
	}
	return encodeJpeg({ width, height, data }, 95);
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
		// Twice: once to be checked, then again, let go meanwhile, into the upload body.
		expect(streamed).toHaveBeenCalledTimes(2);
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

	it('a stored photo over 4.4 MB is read whole and sent shrunk, as a JPEG of 2,600 pixels (Shrink Large Photos)', async () => {
		const photo = noisyJpeg(3000, 2000);
		expect(photo.byteLength).toBeGreaterThan(MAX_FILE_BYTES);
		const item = await storedItem(photo, 'photo.png');
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(ID)]);
		const unexpected = trapAllRequests();

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, [item]);

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		const [part] = multipartParts(uploads[0]);
		expect(part).toMatchObject({ name: 'file', filename: 'photo.jpg', contentType: 'image/jpeg' });
		expect(part.data.byteLength).toBeLessThanOrEqual(MAX_FILE_BYTES);
		expect(readJpegInfo(part.data)).toMatchObject({ width: 2600, height: 1733 });
		expect(outputs[0][0].json).toMatchObject({ result_id: ID, shrunk_from: `3000x2000 JPEG, ${(photo.byteLength / 1_000_000).toFixed(1)} MB` });
	});

	it('Split PDFs: a stored PDF over 4.4 MB is read whole and split, each part of at most 4.4 MB its own upload; over 40 MB only its first kilobyte is read', async () => {
		// 4 pages, each drawing a content stream of its own of 1.5 MB: 6 MB in all.
		const pdf = await PDFDocument.create();
		for (let page = 0; page < 4; page++) {
			const contents = pdf.context.register(pdf.context.stream(`% page ${page + 1} ${String(page).repeat(1_500_000)}\n`));
			pdf.addPage([200, 200]).node.set(PDFName.of('Contents'), contents);
		}
		const bytes = await pdf.save({ useObjectStreams: false });
		expect(bytes.byteLength).toBeGreaterThan(MAX_FILE_BYTES);
		const item = await storedItem(bytes, 'scan.pdf');
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process').times(2), uploads, () => [202, uploadAccepted(`${ID}-${uploads.length}`)]);
		const unexpected = trapAllRequests();
		const options = { splitPdfs: 'everyNPages', pagesPerPart: 2 };

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false, options }, [item]);

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		const parts = uploads.map((upload) => multipartParts(upload)[0]);
		expect(parts.map((part) => part.filename)).toEqual(['scan (pages 1-2).pdf', 'scan (pages 3-4).pdf']);
		for (const part of parts) {
			expect(part.data.byteLength).toBeGreaterThan(3_000_000);
			expect(part.data.byteLength).toBeLessThanOrEqual(MAX_FILE_BYTES);
		}
		expect(outputs[0].map((receipt) => receipt.json.source_pages)).toEqual(['1-2', '3-4']);

		const huge = new Uint8Array(MAX_PDF_BYTES_TO_SPLIT + 1);
		huge.set(new TextEncoder().encode('%PDF-1.7\n'));
		const hugeItem = await storedItem(huge, 'huge.pdf');
		const service = Container.get(BinaryDataService);
		const streamed = vi.spyOn(service, 'getAsStream');
		const readWhole = vi.spyOn(service, 'getAsBuffer');
		const refused = await runAction({ resource: 'document', operation: 'extract', waitForResult: false, options }, [hugeItem]);
		expect(refused.error?.message).toBe('Item 1 (huge.pdf): The file is 40.0 MB; the service accepts files up to about 4.4 MB, and Split PDFs reads PDFs up to 40 MB');
		expect(readWhole).not.toHaveBeenCalled();
		expect(streamed.mock.calls).toEqual([[hugeItem.binary!.data.id, 1024]]);
		streamed.mockRestore();
		readWhole.mockRestore();
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

/**
 * Memory flat (issue 23): every file of a run is checked before the first upload, and each is let
 * go once judged and read again from n8n's binary data when its turn comes, proven the same bytes
 * by its size and SHA-256. So the files are read twice, never held together.
 */
describe('each file is checked, let go, and read again for its upload', () => {
	let manager: DatabaseBinaryManager;
	const service = () => Container.get(BinaryDataService);

	/** Every read of a stored file and every upload, in order, by file name. */
	function recordReadsAndUploads(names: Map<string, string>) {
		const events: string[] = [];
		const original = service().getAsStream.bind(service());
		const streamed = vi.spyOn(service(), 'getAsStream').mockImplementation(async (id, chunkSize) => {
			events.push(`read ${names.get(id)}`);
			return await original(id, chunkSize);
		});
		return { events, restore: () => streamed.mockRestore() };
	}

	async function storedItems(mode: 'filesystem' | 'database', files: Record<string, Uint8Array>) {
		await useBinaryMode(mode);
		if (mode === 'database') {
			manager = new DatabaseBinaryManager();
			service().setManager('database', manager);
		}
		const items: INodeExecutionData[] = [];
		const names = new Map<string, string>();
		for (const [name, bytes] of Object.entries(files)) {
			const item = await storedItem(bytes, name);
			names.set(item.binary!.data.id!, name);
			items.push(item);
		}
		return { items, names };
	}

	const uploadsByName = (uploads: SeenRequest[]) => uploads.map((request) => multipartParts(request)[0].filename);

	it.each(['filesystem', 'database'] as const)('binary data mode %s: all files are read and checked first, then each is read again just before its upload', async (mode) => {
		const files = { 'a.pdf': await minimalPdf(['Invoice A'], 1), 'b.pdf': await minimalPdf(['Invoice B'], 2), 'c.pdf': await minimalPdf(['Invoice C'], 1) };
		const { items, names } = await storedItems(mode, files);
		const reads = recordReadsAndUploads(names);
		const uploads: SeenRequest[] = [];
		let accepted = 0;
		answer(nock(BASE).post('/api/v1/process').times(3), uploads, (request) => {
			reads.events.push(`upload ${multipartParts(request)[0].filename}`);
			return [202, uploadAccepted(resultId(++accepted))];
		});
		const unexpected = trapAllRequests();

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, items);
		reads.restore();

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(reads.events).toEqual(['read a.pdf', 'read b.pdf', 'read c.pdf', 'read a.pdf', 'upload a.pdf', 'read b.pdf', 'upload b.pdf', 'read c.pdf', 'upload c.pdf']);
		// What was read again is what was checked, byte for byte.
		expect(uploads.map((request) => multipartParts(request)[0].data)).toEqual(Object.values(files).map((bytes) => Buffer.from(bytes)));
		expect(outputs[0].map((item) => item.json.result_id)).toEqual([resultId(1), resultId(2), resultId(3)]);
	});

	it.each([0, 1, 2])('On Error = Stop: a file that fails its check (file %i of 3) stops the node before the first upload, every file read once', async (bad) => {
		const good = await minimalPdf(['Invoice'], 1);
		const files: Record<string, Uint8Array> = {};
		for (let i = 0; i < 3; i++) files[`file-${i}.pdf`] = i === bad ? good.subarray(0, Math.floor(good.length / 2)) : good;
		const { items, names } = await storedItems('filesystem', files);
		const reads = recordReadsAndUploads(names);
		const unexpected = trapAllRequests();

		const { error, outputs } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, items);
		reads.restore();

		expect(error?.message).toMatch(new RegExp(`^Item ${bad + 1} \\(file-${bad}\\.pdf\\): .*damaged or incomplete`));
		expect(unexpected).toEqual([]);
		expect(outputs).toEqual([]);
		// Files before the bad one were checked; none was read a second time, nothing was sent.
		expect(reads.events).toEqual(Object.keys(files).slice(0, bad + 1).map((name) => `read ${name}`));
	});

	it('Every Attachment: each document is read again for its upload; a file that is no document is read once and skipped', async () => {
		await useBinaryMode('filesystem');
		const a = await storedItem(await minimalPdf(['Invoice A'], 1), 'a.pdf');
		const b = await storedItem(await minimalPdf(['Invoice B'], 1), 'b.pdf');
		const note = await storedItem(new TextEncoder().encode('Thanks for your order.'), 'note.txt');
		const email: INodeExecutionData = { json: {}, binary: { attachment_0: a.binary!.data, attachment_1: note.binary!.data, attachment_2: b.binary!.data } };
		const names = new Map([a, b, note].map((item) => [item.binary!.data.id!, item.binary!.data.fileName!]));
		const reads = recordReadsAndUploads(names);
		const uploads: SeenRequest[] = [];
		let accepted = 0;
		answer(nock(BASE).post('/api/v1/process').times(2), uploads, (request) => {
			reads.events.push(`upload ${multipartParts(request)[0].filename}`);
			return [202, uploadAccepted(resultId(++accepted))];
		});
		const unexpected = trapAllRequests();

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', documentSource: 'binaryFields', waitForResult: false }, [email]);
		reads.restore();

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(reads.events).toEqual(['read a.pdf', 'read note.txt', 'read b.pdf', 'read a.pdf', 'upload a.pdf', 'read b.pdf', 'upload b.pdf']);
		expect(uploadsByName(uploads)).toEqual(['a.pdf', 'b.pdf']);
		expect(outputs[0]).toHaveLength(2);
	});

	it('a stored file rewritten after its check is not sent: its item fails, saying so; On Error = Continue sends the others', async () => {
		const files = { 'a.pdf': await minimalPdf(['Invoice A'], 1), 'b.pdf': await minimalPdf(['Invoice B'], 1), 'c.pdf': await minimalPdf(['Invoice C'], 1) };
		const { items } = await storedItems('database', files);
		const rowOf = (item: INodeExecutionData) => manager.files.get(item.binary!.data.id!.replace(/^database:/, ''))!;
		const uploads: SeenRequest[] = [];
		let accepted = 0;
		answer(nock(BASE).post('/api/v1/process').times(2), uploads, () => {
			// While a.pdf is uploaded, b.pdf's stored copy changes: same size, other bytes.
			if (accepted === 0) {
				const row = rowOf(items[1]);
				row.bytes = Buffer.from(row.bytes);
				row.bytes[row.bytes.length - 2] ^= 0xff;
			}
			return [202, uploadAccepted(resultId(++accepted))];
		});
		const unexpected = trapAllRequests();

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, items, { continueOnFail: true });

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(uploadsByName(uploads)).toEqual(['a.pdf', 'c.pdf']);
		expect(outputs[0].map((item) => item.json.result_id ?? item.json.error)).toEqual([
			resultId(1),
			'Item 2 (b.pdf): the file changed after it was checked: it is not the file that passed the checks',
			resultId(2),
		]);
	});

	it('n8n 1.x (the file inline in the item, as base64): it is decoded again for its upload, and a file changed meanwhile is not sent', async () => {
		const items = [
			binaryItem(await minimalPdf(['Invoice A'], 1), 'a.pdf', 'application/pdf'),
			binaryItem(await minimalPdf(['Invoice B'], 1), 'b.pdf', 'application/pdf'),
		];
		const other = Buffer.from(await minimalPdf(['Invoice X'], 1)).toString('base64');
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, () => {
			// The item n8n hands the node is this object: b.pdf's base64 is read again from it.
			items[1].binary!.data.data = other;
			return [202, uploadAccepted(resultId(1))];
		});
		const unexpected = trapAllRequests();

		const { outputs, error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, items, { continueOnFail: true });

		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(uploadsByName(uploads)).toEqual(['a.pdf']);
		expect(outputs[0][1].json.error).toBe('Item 2 (b.pdf): the file changed after it was checked: it is not the file that passed the checks');
	});

	it('On Error = Stop: a stored file removed after its check stops the node at its turn, naming it and listing what was uploaded', async () => {
		const files = { 'a.pdf': await minimalPdf(['Invoice A'], 1), 'b.pdf': await minimalPdf(['Invoice B'], 1) };
		const { items } = await storedItems('database', files);
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, () => {
			manager.files.delete(items[1].binary!.data.id!.replace(/^database:/, ''));
			return [202, uploadAccepted(resultId(1))];
		});
		const unexpected = trapAllRequests();

		const { error } = await runAction({ resource: 'document', operation: 'extract', waitForResult: false }, items);

		expect(uploadsByName(uploads)).toEqual(['a.pdf']);
		expect(unexpected).toEqual([]);
		expect(error?.message).toMatch(/^Item 2 \(b\.pdf\): the file could not be read again for its upload: /);
		const description = String((error as unknown as { description?: string }).description);
		expect(description).toContain('Nothing was sent to the service for this file and no page was used for it.');
		expect(description).toContain(`- item 1: result ID ${resultId(1)}`);
	});
});
