/**
 * n8n's `database` binary data mode (queue mode's usual choice, one of the modes n8n 3.0 keeps)
 * lives in n8n's server package, which tests cannot load. This stand-in keeps the same contract
 * behind n8n-core's BinaryDataService: the item carries only `id: "database:<fileId>"` and the
 * marker `data: "database"`; the bytes are elsewhere (here a Map, in n8n a table) and are read by id.
 */
import { Readable } from 'node:stream';

import type { BinaryData } from 'n8n-core';

export class DatabaseBinaryManager implements BinaryData.Manager {
	readonly files = new Map<string, { bytes: Buffer; metadata: BinaryData.PreWriteMetadata }>();
	private nextId = 1;

	async init(): Promise<void> {}

	async store(_location: BinaryData.FileLocation, bufferOrStream: Buffer | Readable, metadata: BinaryData.PreWriteMetadata): Promise<BinaryData.WriteResult> {
		const chunks: Buffer[] = [];
		if (Buffer.isBuffer(bufferOrStream)) chunks.push(bufferOrStream);
		else for await (const chunk of bufferOrStream) chunks.push(Buffer.from(chunk as Uint8Array));
		const fileId = `row-${this.nextId++}`;
		const bytes = Buffer.concat(chunks);
		this.files.set(fileId, { bytes, metadata });
		return { fileId, fileSize: bytes.length };
	}

	getPath(fileId: string): string {
		throw new Error(`database mode has no file path (${fileId})`);
	}

	async getAsBuffer(fileId: string): Promise<Buffer> {
		return Buffer.from(this.file(fileId).bytes);
	}

	async getAsStream(fileId: string, chunkSize = 64 * 1024): Promise<Readable> {
		const { bytes } = this.file(fileId);
		const chunks = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => bytes.subarray(i * chunkSize, (i + 1) * chunkSize));
		return Readable.from(chunks);
	}

	async getMetadata(fileId: string): Promise<BinaryData.Metadata> {
		const { bytes, metadata } = this.file(fileId);
		return { ...metadata, fileSize: bytes.length } as BinaryData.Metadata;
	}

	async copyByFileId(): Promise<string> {
		throw new Error('not used by the node');
	}

	async copyByFilePath(): Promise<BinaryData.WriteResult> {
		throw new Error('not used by the node');
	}

	async rename(): Promise<void> {}

	private file(fileId: string) {
		const file = this.files.get(fileId);
		if (!file) throw new Error(`no stored file ${fileId}`);
		return file;
	}
}
