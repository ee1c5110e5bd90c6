import { connect as connectPlain, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

import type { Mailbox } from './dovecot';

/**
 * A mailbox of one's own for the demo, named by IMAP_HOST, IMAP_PORT, IMAP_USER, IMAP_PASSWORD and
 * IMAP_SECURE (default true: TLS, port 993). The demo delivers its sample emails into that
 * mailbox's INBOX with IMAP APPEND, the way a mail client saves a message.
 */
export function ownMailboxFromEnvironment(env: NodeJS.ProcessEnv = process.env): (Mailbox & { secure: boolean }) | undefined {
	if (!env.IMAP_HOST) return undefined;
	const secure = (env.IMAP_SECURE ?? 'true').toLowerCase() !== 'false';
	const mailbox = {
		host: env.IMAP_HOST,
		port: Number(env.IMAP_PORT ?? (secure ? 993 : 143)),
		user: env.IMAP_USER ?? '',
		password: env.IMAP_PASSWORD ?? '',
		secure,
	};
	if (!mailbox.user || !mailbox.password) throw new Error('IMAP_HOST is set: set IMAP_USER and IMAP_PASSWORD too');
	return { ...mailbox, deliver: async (message) => await imapAppend(mailbox, message), loggedIn: () => true, stop: async () => undefined };
}

/** LOGIN, APPEND the message to INBOX, LOGOUT (RFC 3501); rejects with the server's answer on failure. */
export async function imapAppend(mailbox: { host: string; port: number; user: string; password: string; secure: boolean }, message: Buffer): Promise<void> {
	const socket: Socket = mailbox.secure ? connectTls({ host: mailbox.host, port: mailbox.port, servername: mailbox.host }) : connectPlain({ host: mailbox.host, port: mailbox.port });
	socket.setTimeout(30_000, () => socket.destroy(new Error(`IMAP ${mailbox.host}:${mailbox.port} did not answer in 30 s`)));
	let received = '';
	const waiters: Array<() => void> = [];
	socket.on('data', (chunk: Buffer) => {
		received += chunk.toString('latin1');
		for (const wake of waiters.splice(0)) wake();
	});
	const failed = new Promise<never>((_, reject) => socket.once('error', reject));
	const until = async (pattern: RegExp): Promise<string> => {
		for (;;) {
			const match = pattern.exec(received);
			if (match) {
				received = received.slice(match.index + match[0].length);
				return match[0];
			}
			await Promise.race([new Promise<void>((wake) => waiters.push(wake)), failed]);
		}
	};
	const quote = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;
	const expectOk = async (tag: string) => {
		const line = await until(new RegExp(`^${tag} (OK|NO|BAD)[^\\r\\n]*\\r\\n`, 'm'));
		if (!line.startsWith(`${tag} OK`)) throw new Error(`IMAP ${mailbox.host}: ${line.trim()}`);
	};
	try {
		await until(/^\* (OK|PREAUTH)[^\r\n]*\r\n/m);
		socket.write(`a1 LOGIN ${quote(mailbox.user)} ${quote(mailbox.password)}\r\n`);
		await expectOk('a1');
		socket.write(`a2 APPEND INBOX {${message.length}}\r\n`);
		await until(/^\+[^\r\n]*\r\n/m);
		socket.write(Buffer.concat([message, Buffer.from('\r\n')]));
		await expectOk('a2');
		socket.write('a3 LOGOUT\r\n');
	} finally {
		socket.end();
	}
}
