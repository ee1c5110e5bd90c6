import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { freePort } from './ports';
import type { Log } from './progress';
import { answersOnPort, startTemporaryServer } from './temporaryServer';

/**
 * A throw-away IMAP server: Debian's Dovecot (`dovecot-imapd`) run in the foreground from its own
 * config file, on a free loopback port, with its mailbox, state and log under one temp folder;
 * stopped (and the folder removed) afterwards. n8n's Email Trigger (IMAP) reads from it as from
 * any mail server. Mail is delivered the way a mail server does it: written into the Maildir.
 */

export interface Mailbox {
	host: string;
	port: number;
	user: string;
	password: string;
	/** Delivers one RFC 822 message into INBOX (it arrives as new, unseen mail). */
	deliver(message: Buffer): void | Promise<void>;
	/** Whether a client has logged in to the mailbox (read from the server's log). */
	loggedIn(): boolean;
	stop(): Promise<void>;
}

export const DOVECOT_BINARY = '/usr/sbin/dovecot';

/** Why Dovecot cannot run here, with how to get it, or undefined when it can. */
export function dovecotMissing(): string | undefined {
	if (existsSync(DOVECOT_BINARY)) return undefined;
	return [
		'Dovecot (an IMAP server) is not installed, so no real mailbox can be started.',
		'  Debian/Ubuntu: sudo apt-get install dovecot-imapd   (the scripts start their own instance; no system service is needed)',
		'  macOS:         brew install dovecot',
		'  Or read a mailbox of your own: set IMAP_HOST, IMAP_PORT, IMAP_USER, IMAP_PASSWORD (and IMAP_SECURE=false without TLS).',
	].join('\n');
}

const MAIL_USER = 'ops@example.test';

/** Starts Dovecot; resolves once it accepts IMAP connections. */
export async function startDovecot(log: Log): Promise<Mailbox> {
	const missing = dovecotMissing();
	if (missing) throw new Error(missing);
	const dir = mkdtempSync(join(tmpdir(), 'n8n-docx-imap-'));
	// Dovecot's auth and mail processes (other users when run as root) must reach the files inside.
	chmodSync(dir, 0o755);
	const port = await freePort();
	const password = `pw-${Math.random().toString(36).slice(2, 12)}`;
	// As root, Dovecot's login processes refuse to run as root: they run as the package's users,
	// and the mail as `dovecot`. Otherwise everything runs as the current user.
	const root = process.getuid?.() === 0;
	const mailUser = root ? systemUser('dovecot') : { name: userInfo().username, uid: userInfo().uid, gid: userInfo().gid };
	const loginUser = root ? 'dovenull' : mailUser.name;
	const group = root ? 'dovecot' : groupName(mailUser.gid);

	const mailDir = join(dir, 'mail', MAIL_USER);
	for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(mailDir, sub), { recursive: true });
	for (const path of [join(dir, 'mail'), mailDir, ...['cur', 'new', 'tmp'].map((sub) => join(mailDir, sub))]) chownSync(path, mailUser.uid, mailUser.gid);
	writeFileSync(join(dir, 'users'), `${MAIL_USER}:{PLAIN}${password}\n`);
	const config = join(dir, 'dovecot.conf');
	writeFileSync(
		config,
		`protocols = imap
listen = 127.0.0.1
base_dir = ${join(dir, 'run')}
state_dir = ${join(dir, 'state')}
log_path = ${join(dir, 'dovecot.log')}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:${join(dir, 'mail')}/%u
first_valid_uid = 1
default_internal_user = ${mailUser.name}
default_internal_group = ${group}
default_login_user = ${loginUser}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${join(dir, 'users')}
}
userdb {
  driver = static
  args = uid=${mailUser.uid} gid=${mailUser.gid} home=${join(dir, 'mail')}/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`,
	);
	const { stop } = await startTemporaryServer(DOVECOT_BINARY, ['-F', '-c', config], { dir, name: 'dovecot', stopSignal: 'SIGTERM', ready: () => answersOnPort(port, '* OK') });
	log(`Dovecot (IMAP) on 127.0.0.1:${port}, mailbox ${MAIL_USER}`);
	let delivered = 0;
	return {
		host: '127.0.0.1',
		port,
		user: MAIL_USER,
		password,
		deliver(message: Buffer) {
			// Maildir delivery: write under tmp/, then rename into new/ (atomic: never read half-written).
			const name = `${Date.now()}.${process.pid}_${++delivered}.n8n-docx`;
			const temporary = join(mailDir, 'tmp', name);
			writeFileSync(temporary, message);
			chownSync(temporary, mailUser.uid, mailUser.gid);
			renameSync(temporary, join(mailDir, 'new', name));
		},
		loggedIn: () => {
			try {
				return readFileSync(join(dir, 'dovecot.log'), 'utf8').includes(`Login: user=<${MAIL_USER}>`);
			} catch {
				return false;
			}
		},
		stop,
	};
}

function systemUser(name: string): { name: string; uid: number; gid: number } {
	const line = spawnSync('getent', ['passwd', name], { encoding: 'utf8' }).stdout.trim();
	const [, , uid, gid] = line.split(':');
	if (!line) throw new Error(`There is no "${name}" system user (the Debian package dovecot-imapd creates it)`);
	return { name, uid: Number(uid), gid: Number(gid) };
}

function groupName(gid: number): string {
	return execFileSync('getent', ['group', String(gid)], { encoding: 'utf8' }).split(':')[0];
}
