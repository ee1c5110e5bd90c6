import { extensionOf } from './fileTypes';

/**
 * An Outlook message file (`.msg`): an email saved from Outlook and attached as a file. It is a
 * Compound File (MS-CFB), like an older Word or Excel file, so its first bytes alone do not tell
 * it apart: its directory does. The root storage carries the Outlook message class id and the
 * entries are named `__substg1.0_…`, `__properties_version1.0`, `__nameid_version1.0`,
 * `__recip_version1.0_#…`, `__attach_version1.0_#…` (MS-OXMSG 2.1, 2.2). Only the first directory
 * sector is read, so a file is never walked; when it is not in the bytes read (only the beginning
 * of a file too large to send is), the file's name or declared type decides.
 */

const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** {00020D0B-0000-0000-C000-000000000046} as the directory stores a CLSID. */
const OUTLOOK_MESSAGE_CLSID = [0x0b, 0x0d, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46];
const MESSAGE_ENTRY = /^__(?:substg1\.0_|properties_version1\.0$|nameid_version1\.0$|recip_version1\.0_#|attach_version1\.0_#)/;
const DIRECTORY_ENTRY_BYTES = 128;
const ROOT_STORAGE = 5;

export function isCompoundFile(bytes: Uint8Array): boolean {
	return CFB_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/** Whether a file is an Outlook message; `declared` (its name and type) decides only where its directory was not read. */
export function isOutlookMessage(bytes: Uint8Array, declared: { fileName?: string; mimeType?: string } = {}): boolean {
	if (!isCompoundFile(bytes)) return false;
	const entries = firstDirectoryEntries(bytes);
	if (entries) return entries.some((entry) => (entry.type === ROOT_STORAGE && entry.outlookClass) || MESSAGE_ENTRY.test(entry.name));
	const mimeType = declared.mimeType?.split(';')[0].trim().toLowerCase();
	return extensionOf(declared.fileName ?? '') === 'msg' || mimeType === 'application/vnd.ms-outlook';
}

interface DirectoryEntry {
	name: string;
	type: number;
	outlookClass: boolean;
}

/** The entries of the directory's first sector, or undefined when the header is not a CFB one or the sector lies past `bytes`. */
function firstDirectoryEntries(bytes: Uint8Array): DirectoryEntry[] | undefined {
	if (bytes.byteLength < 512) return undefined;
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const sectorShift = view.getUint16(0x1e, true);
	if (sectorShift !== 9 && sectorShift !== 12) return undefined;
	const sectorSize = 1 << sectorShift;
	const firstSector = view.getUint32(0x30, true);
	// Regular sector numbers stop below 0xFFFFFFFA; the header takes the first sector's worth of bytes.
	if (firstSector >= 0xfffffffa) return undefined;
	const start = (firstSector + 1) * sectorSize;
	if (start + DIRECTORY_ENTRY_BYTES > bytes.byteLength) return undefined;
	const entries: DirectoryEntry[] = [];
	for (let offset = start; offset + DIRECTORY_ENTRY_BYTES <= Math.min(start + sectorSize, bytes.byteLength); offset += DIRECTORY_ENTRY_BYTES) {
		const nameBytes = view.getUint16(offset + 0x40, true);
		const type = view.getUint8(offset + 0x42);
		if (type === 0 || nameBytes < 2 || nameBytes > 64 || nameBytes % 2 !== 0) continue;
		const name = Buffer.from(bytes.subarray(offset, offset + nameBytes - 2)).toString('utf16le');
		const clsid = bytes.subarray(offset + 0x50, offset + 0x60);
		entries.push({ name, type, outlookClass: OUTLOOK_MESSAGE_CLSID.every((byte, i) => clsid[i] === byte) });
	}
	return entries;
}
