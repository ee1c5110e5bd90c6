import type { Sandbox } from '../../sandbox/src';
import type { TestCredential } from './engine';

/**
 * An account of its own for a test of large files and many parts: pages and requests enough that
 * neither limit is what the test meets. `baseUrl`: where the node reaches the sandbox (a proxy in
 * front of it), else the sandbox itself.
 */
export function roomyAccount(sandbox: Sandbox, baseUrl = sandbox.baseUrl): { accountId: string; cred: TestCredential } {
	const account = sandbox.accounts.create({ monthlyPages: 1000, rateLimitPerMinute: 600 });
	return { accountId: account.id, cred: { apiKey: account.keys[0], baseUrl } };
}

/** The uploads the sandbox received for the account, in order. */
export function uploadsOf(sandbox: Sandbox, accountId: string) {
	return sandbox.stats().uploads.filter((upload) => upload.accountId === accountId);
}
