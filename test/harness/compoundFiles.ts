/**
 * Compound Files (MS-CFB version 3: 512-byte sectors) as Outlook saves an email (`.msg`) and as
 * older Word and Excel files are: a header, one FAT sector, one directory sector (the root
 * storage and up to three entries). The entries' streams are empty: what tells the files apart
 * is the directory (the root's class id, the entries' names), which is all the node reads.
 */

/** {00020D0B-0000-0000-C000-000000000046}, the class id of an Outlook message's root storage. */
export const OUTLOOK_MESSAGE_CLSID = Buffer.from('0b0d020000000000c000000000000046', 'hex');
/** {00020906-0000-0000-C000-000000000046}, a Word 97-2003 document's. */
export const WORD_DOCUMENT_CLSID = Buffer.from('0609020000000000c000000000000046', 'hex');

const FREE = 0xffffffff;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;
const NO_STREAM = 0xffffffff;

interface Entry {
	name: string;
	type: 1 | 2 | 5;
	clsid?: Buffer;
	rightSibling?: number;
	child?: number;
}

function directoryEntry({ name, type, clsid, rightSibling = NO_STREAM, child = NO_STREAM }: Entry): Buffer {
	const entry = Buffer.alloc(128);
	const nameBytes = Buffer.from(`${name}\0`, 'utf16le');
	nameBytes.copy(entry, 0);
	entry.writeUInt16LE(nameBytes.length, 0x40);
	entry.writeUInt8(type, 0x42);
	entry.writeUInt8(1, 0x43); // black
	entry.writeUInt32LE(NO_STREAM, 0x44);
	entry.writeUInt32LE(rightSibling, 0x48);
	entry.writeUInt32LE(child, 0x4c);
	clsid?.copy(entry, 0x50);
	entry.writeUInt32LE(END_OF_CHAIN, 0x74);
	return entry;
}

/** A Compound File whose root storage has `clsid` and holds `entries` (three at most; a storage first, then streams). */
export function compoundFile(clsid: Buffer, entries: Array<{ name: string; type: 'storage' | 'stream' }>): Buffer {
	if (entries.length > 3) throw new Error('one directory sector holds the root and three entries');
	const header = Buffer.alloc(512);
	Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
	header.writeUInt16LE(0x3e, 0x18); // minor version
	header.writeUInt16LE(3, 0x1a); // major version 3
	header.writeUInt16LE(0xfffe, 0x1c); // little-endian
	header.writeUInt16LE(9, 0x1e); // 512-byte sectors
	header.writeUInt16LE(6, 0x20); // 64-byte mini sectors
	header.writeUInt32LE(1, 0x2c); // one FAT sector
	header.writeUInt32LE(1, 0x30); // the directory in sector 1
	header.writeUInt32LE(4096, 0x38); // mini stream cutoff
	header.writeUInt32LE(END_OF_CHAIN, 0x3c); // no mini FAT
	header.writeUInt32LE(END_OF_CHAIN, 0x44); // no DIFAT sectors
	header.writeUInt32LE(0, 0x4c); // the FAT in sector 0
	for (let offset = 0x50; offset < 512; offset += 4) header.writeUInt32LE(FREE, offset);
	const fat = Buffer.alloc(512, 0xff);
	fat.writeUInt32LE(FAT_SECTOR, 0);
	fat.writeUInt32LE(END_OF_CHAIN, 4);
	const directory = Buffer.alloc(512);
	directoryEntry({ name: 'Root Entry', type: 5, clsid, child: entries.length ? 1 : NO_STREAM }).copy(directory, 0);
	entries.forEach((entry, n) =>
		directoryEntry({ name: entry.name, type: entry.type === 'storage' ? 1 : 2, rightSibling: n + 2 <= entries.length ? n + 2 : NO_STREAM }).copy(directory, 128 * (n + 1)),
	);
	return Buffer.concat([header, fat, directory]);
}

/** An email saved from Outlook as a `.msg` file. */
export function outlookMessageFile(): Buffer {
	return compoundFile(OUTLOOK_MESSAGE_CLSID, [
		{ name: '__nameid_version1.0', type: 'storage' },
		{ name: '__substg1.0_0037001F', type: 'stream' },
		{ name: '__properties_version1.0', type: 'stream' },
	]);
}

/** A Word 97-2003 document (`.doc`). */
export function wordDocumentFile(): Buffer {
	return compoundFile(WORD_DOCUMENT_CLSID, [
		{ name: 'WordDocument', type: 'stream' },
		{ name: '1Table', type: 'stream' },
		{ name: '\u0005SummaryInformation', type: 'stream' },
	]);
}
