/**
 * Where `npm run corpus` (scripts/corpus.ts) gets a manifest entry's bytes: the file of its
 * repository at its commit, from GitHub; for an entry with a `member`, that member of the zip
 * archive its `path` names.
 *
 * The zip reader is small and has no dependency: the end-of-central-directory
 * record, the member's central-directory entry, its local header, then the data stored or
 * deflated (zlib's raw inflate). Sizes are bounded: no zip64, no encryption, no other methods, and
 * the member's size must be the one the central directory records (and under `maxBytes`).
 */
import { crc32, inflateRawSync } from 'node:zlib';

import type { ManifestEntry } from '../test/harness/corpusLocation';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes, followed by a comment of at most 65,535 bytes. */
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
/** Larger than any corpus document; a member above it is refused rather than inflated. */
export const MAX_MEMBER_BYTES = 64 * 1024 * 1024;

const STORED = 0;
const DEFLATED = 8;

export class ZipError extends Error {}

function findEndRecord(zip: Buffer): number {
	const earliest = Math.max(0, zip.length - END_RECORD_BYTES - MAX_COMMENT_BYTES);
	for (let at = zip.length - END_RECORD_BYTES; at >= earliest; at--) {
		// The record's comment length must reach exactly to the end of the file.
		if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY && at + END_RECORD_BYTES + zip.readUInt16LE(at + 20) === zip.length) return at;
	}
	throw new ZipError('not a zip archive (no end of central directory record)');
}

interface CentralEntry {
	method: number;
	flags: number;
	crc: number;
	compressedSize: number;
	size: number;
	localHeaderOffset: number;
}

function findCentralEntry(zip: Buffer, member: string): CentralEntry {
	const end = findEndRecord(zip);
	const count = zip.readUInt16LE(end + 10);
	const directorySize = zip.readUInt32LE(end + 12);
	const directoryOffset = zip.readUInt32LE(end + 16);
	if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipError('zip64 archives are not read');
	if (directoryOffset + directorySize > end) throw new ZipError('the central directory lies outside the archive');
	let at = directoryOffset;
	for (let index = 0; index < count; index++) {
		if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) throw new ZipError(`central directory entry ${index} is damaged`);
		const nameLength = zip.readUInt16LE(at + 28);
		const extraLength = zip.readUInt16LE(at + 30);
		const commentLength = zip.readUInt16LE(at + 32);
		if (at + 46 + nameLength > end) throw new ZipError(`central directory entry ${index} is damaged`);
		const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
		if (name === member) {
			return {
				flags: zip.readUInt16LE(at + 8),
				method: zip.readUInt16LE(at + 10),
				crc: zip.readUInt32LE(at + 16),
				compressedSize: zip.readUInt32LE(at + 20),
				size: zip.readUInt32LE(at + 24),
				localHeaderOffset: zip.readUInt32LE(at + 42),
			};
		}
		at += 46 + nameLength + extraLength + commentLength;
	}
	throw new ZipError(`no member ${member} in the archive`);
}

/** The bytes of `member` (its path inside the zip, `/`-separated, as the archive names it). */
export function zipMember(archive: Uint8Array, member: string, maxBytes = MAX_MEMBER_BYTES): Buffer {
	const zip = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
	if (zip.length < END_RECORD_BYTES) throw new ZipError('not a zip archive (too short)');
	const entry = findCentralEntry(zip, member);
	if (entry.flags & 0x1) throw new ZipError(`${member} is encrypted`);
	if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) throw new ZipError(`${member}: zip64 sizes are not read`);
	if (entry.size > maxBytes) throw new ZipError(`${member} is ${entry.size} bytes, more than the ${maxBytes} allowed`);
	const local = entry.localHeaderOffset;
	if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER) throw new ZipError(`${member}: its local header is not where the central directory says`);
	// The local header's name and extra field may differ in length from the central directory's.
	const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
	const dataEnd = dataStart + entry.compressedSize;
	if (dataEnd > zip.length) throw new ZipError(`${member}: its data runs past the end of the archive`);
	const data = zip.subarray(dataStart, dataEnd);
	let bytes: Buffer;
	if (entry.method === STORED) {
		bytes = Buffer.from(data);
	} else if (entry.method === DEFLATED) {
		try {
			// maxOutputLength: a member that inflates past its recorded size stops there and is refused.
			bytes = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) + 1 });
		} catch (error) {
			throw new ZipError(`${member}: could not be inflated (${(error as Error).message})`);
		}
	} else {
		throw new ZipError(`${member}: compression method ${entry.method} is not read (only stored and deflate)`);
	}
	if (bytes.length !== entry.size) throw new ZipError(`${member}: ${bytes.length} bytes where the archive records ${entry.size}`);
	if (crc32(bytes) !== entry.crc) throw new ZipError(`${member}: CRC-32 differs from the archive's`);
	return bytes;
}

/** GitHub serves a file of a repository at a commit (short or full) under /raw/. */
export function sourceUrl(entry: ManifestEntry): string {
	const path = entry.path.split('/').map(encodeURIComponent).join('/');
	return `https://github.com/${entry.repository}/raw/${entry.commit}/${path}`;
}

async function download(url: string): Promise<Uint8Array> {
	const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
	if (!response.ok) throw new Error(`answered ${response.status}`);
	return new Uint8Array(await response.arrayBuffer());
}

/**
 * The entry's bytes: the file itself, or the member extracted from the zip archive at its path.
 * `archives` keeps a downloaded archive for the other members of it (six corpus files are in two
 * archives); a failed download is not kept, so a later member tries again.
 */
export async function entryBytes(
	entry: ManifestEntry,
	get: (url: string) => Promise<Uint8Array> = download,
	archives = new Map<string, Promise<Uint8Array>>(),
): Promise<Uint8Array> {
	const url = sourceUrl(entry);
	if (entry.member === undefined) return get(url);
	let archive = archives.get(url);
	if (!archive) {
		archive = get(url);
		archives.set(url, archive);
		archive.catch(() => archives.delete(url));
	}
	return zipMember(await archive, entry.member);
}
