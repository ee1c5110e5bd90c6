import { createCipheriv, createHash } from 'crypto';

import type { PdfObjects } from './pages';
import { dictionaryValue, isDict, PdfString, type PdfDict } from './values';

export type PdfEncryption = 'none' | 'opens-without-password' | 'needs-password';

/** The newest trailer with /Encrypt decides; a file without one is not encrypted. */
export async function readEncryption(file: PdfObjects): Promise<PdfEncryption> {
	for (const trailer of file.trailerDictionaries()) {
		if (!trailer.has('Encrypt')) continue;
		const encrypt = await file.resolve(trailer.get('Encrypt'));
		const ids = trailer.get('ID');
		const firstId = Array.isArray(ids) && ids[0] !== undefined ? await file.resolve(ids[0]) : undefined;
		const fileId = firstId instanceof PdfString ? firstId.bytes : undefined;
		return isDict(encrypt) && opensWithoutPassword(encrypt, fileId) ? 'opens-without-password' : 'needs-password';
	}
	return 'none';
}

/**
 * Whether an encrypted PDF opens without a password. A PDF protected only against printing or
 * copying (an "owner" password) is encrypted with an empty "user" password: every reader opens
 * it, and so can the service. Only a PDF that asks for a password to open cannot be read.
 *
 * The check is the standard security handler's own (ISO 32000-2, 7.6.4): derive the key from the
 * empty password and compare with the /U entry. Revisions 2-4 (RC4 and AES-128) and 5-6 (AES-256).
 * Anything else (another handler such as certificates, or an entry that cannot be read) counts as
 * needing a password: the file is only let through when it is sure to open.
 */
export function opensWithoutPassword(encrypt: PdfDict, firstFileId: Uint8Array | undefined): boolean {
	if (dictionaryValue.name(encrypt, 'Filter') !== 'Standard') return false;
	const revision = dictionaryValue.integer(encrypt, 'R');
	const owner = dictionaryValue.string(encrypt, 'O');
	const user = dictionaryValue.string(encrypt, 'U');
	const permissions = dictionaryValue.integer(encrypt, 'P');
	if (revision === undefined || !owner || !user || permissions === undefined) return false;
	if (revision >= 2 && revision <= 4) {
		return emptyPasswordMatchesRc4Era({ revision, owner, user, permissions, encrypt, fileId: firstFileId ?? new Uint8Array(0) });
	}
	if (revision === 5 || revision === 6) return emptyPasswordMatchesAes256(revision, user);
	return false;
}

/** Algorithm 2's padding string: an empty password is exactly this. */
const PASSWORD_PADDING = Uint8Array.from([
	0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c,
	0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

interface Rc4Era {
	revision: number;
	owner: Uint8Array;
	user: Uint8Array;
	permissions: number;
	encrypt: PdfDict;
	fileId: Uint8Array;
}

/** Algorithms 2, 4 and 5 of ISO 32000-2 (7.6.4.3) with the empty user password. */
function emptyPasswordMatchesRc4Era({ revision, owner, user, permissions, encrypt, fileId }: Rc4Era): boolean {
	// /Length is in bits (40 to 128); revision 2 always uses 40-bit keys.
	const lengthBits = dictionaryValue.integer(encrypt, 'Length') ?? 40;
	const keyLength = revision === 2 ? 5 : Math.min(16, Math.max(5, Math.floor(lengthBits / 8)));
	const p = new Uint8Array(4);
	new DataView(p.buffer).setUint32(0, permissions >>> 0, true);
	const md5 = createHash('md5').update(PASSWORD_PADDING).update(owner.subarray(0, 32)).update(p).update(fileId);
	if (revision >= 4 && dictionaryValue.boolean(encrypt, 'EncryptMetadata') === false) md5.update(Uint8Array.from([0xff, 0xff, 0xff, 0xff]));
	let key = new Uint8Array(md5.digest()).subarray(0, keyLength);
	if (revision >= 3) {
		for (let i = 0; i < 50; i++) key = new Uint8Array(createHash('md5').update(key).digest()).subarray(0, keyLength);
	}
	if (revision === 2) return equalBytes(rc4(key, PASSWORD_PADDING), user.subarray(0, 32));
	let check = rc4(key, new Uint8Array(createHash('md5').update(PASSWORD_PADDING).update(fileId).digest()));
	for (let round = 1; round <= 19; round++) check = rc4(key.map((byte) => byte ^ round), check);
	return equalBytes(check, user.subarray(0, 16));
}

/** Revision 5 (Adobe's extension level 3) and 6 (PDF 2.0): hash of the password and the validation salt. */
function emptyPasswordMatchesAes256(revision: number, user: Uint8Array): boolean {
	if (user.length < 40) return false;
	const validationSalt = user.subarray(32, 40);
	const hash = revision === 5 ? new Uint8Array(createHash('sha256').update(validationSalt).digest()) : hardenedHash(new Uint8Array(0), validationSalt);
	return equalBytes(hash, user.subarray(0, 32));
}

/** Algorithm 2.B (ISO 32000-2, 7.6.4.3.4) for the user password (no /U data mixed in). */
function hardenedHash(password: Uint8Array, salt: Uint8Array): Uint8Array {
	let k = new Uint8Array(createHash('sha256').update(password).update(salt).digest());
	for (let round = 0; ; round++) {
		const block = concat(password, k);
		const repeated = new Uint8Array(block.length * 64);
		for (let i = 0; i < 64; i++) repeated.set(block, i * block.length);
		const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
		const e = concat(cipher.update(repeated), cipher.final());
		// The first 16 bytes as a big number mod 3: 256 is 1 mod 3, so the sum of the bytes will do.
		const remainder = e.subarray(0, 16).reduce((sum, byte) => sum + byte, 0) % 3;
		k = new Uint8Array(createHash(['sha256', 'sha384', 'sha512'][remainder]).update(e).digest());
		if (round >= 63 && e[e.length - 1] <= round - 31) return k.subarray(0, 32);
	}
}

/** RC4, which OpenSSL 3 no longer offers by default; a few lines, used on 32 bytes at a time. */
function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
	const s = Uint8Array.from({ length: 256 }, (_, i) => i);
	for (let i = 0, j = 0; i < 256; i++) {
		j = (j + s[i] + key[i % key.length]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
	}
	const out = new Uint8Array(data.length);
	for (let n = 0, i = 0, j = 0; n < data.length; n++) {
		i = (i + 1) & 0xff;
		j = (j + s[i]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
		out[n] = data[n] ^ s[(s[i] + s[j]) & 0xff];
	}
	return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	const joined = new Uint8Array(a.length + b.length);
	joined.set(a);
	joined.set(b, a.length);
	return joined;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
	return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
