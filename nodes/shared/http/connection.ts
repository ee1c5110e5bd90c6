/**
 * Where requests go and whether the API key may travel there. The credential's `authenticate`
 * and the transport both use these, so the rules hold for node requests and the credential
 * test alike.
 */

import { checkHost, localityOf } from '../preflight/addresses';

/** Spec 9: every path starts with /api/v1; users often paste it with the base URL. */
export const API_PREFIX = '/api/v1';

/** `https://host/`, `https://host/api/v1/` and `https://host` all mean `https://host`. */
export function normaliseBaseUrl(raw: unknown): string {
	let url = typeof raw === 'string' ? raw.trim() : '';
	url = url.replace(/\/+$/, '');
	if (url.toLowerCase().endsWith(API_PREFIX)) url = url.slice(0, -API_PREFIX.length);
	return url.replace(/\/+$/, '');
}

/** The credential's fields that decide where the key may go, besides the Base URL. */
export interface ConnectionOptions {
	/** "Allow Plain HTTP on My Own Network": only a real true counts. */
	allowPlainHttpOnOwnNetwork?: unknown;
}

/** Problems with the base URL as a sentence for the user, or undefined when it is usable. */
export function baseUrlProblem(baseUrl: string, options: ConnectionOptions = {}): string | undefined {
	if (!baseUrl) return 'The Base URL of the credential is empty. Enter the address of the extraction service, e.g. https://api.example.com.';
	let parsed: URL;
	try {
		parsed = new URL(baseUrl);
	} catch {
		return `The Base URL "${baseUrl}" is not a valid address. It must start with https:// (or http:// for a sandbox on this machine), e.g. https://api.example.com.`;
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		return `The Base URL must start with https:// (it starts with ${parsed.protocol}//).`;
	}
	const host = parsed.hostname;
	// Whatever the scheme: the metadata service hands out the machine's cloud credentials and is never the service.
	if (checkHost(host).refused?.metadata) {
		return `Refusing to send the API key to ${host}: it is the cloud metadata address, never the extraction service. Enter the address of the service, e.g. https://api.example.com.`;
	}
	if (parsed.protocol === 'http:') {
		const problem = plainHttpProblem(host, options.allowPlainHttpOnOwnNetwork === true);
		if (problem) return problem;
	}
	if (parsed.search || parsed.hash) return 'The Base URL must not contain "?" or "#". Enter only the address, e.g. https://api.example.com.';
	if (parsed.username || parsed.password) return 'The Base URL must not contain a user name or password.';
	return undefined;
}

/**
 * Plain http shows the key to everyone on the way. This machine is fine (the sandbox); the user's
 * own network only when they turned the option on (a sandbox beside n8n in Docker, a test server
 * on the LAN); a host that may be reached across the internet never, option or not.
 */
function plainHttpProblem(host: string, allowOwnNetwork: boolean): string | undefined {
	const locality = localityOf(host);
	if (locality === 'machine' || (locality === 'site' && allowOwnNetwork)) return undefined;
	const refusing = `Refusing to send the API key over plain http to ${host}`;
	if (locality === 'site') {
		return (
			`${refusing}: anyone on the network could read it. Use the https:// address of the service. ` +
			'For the sandbox or a test server on your own network, turn on Allow Plain HTTP on My Own Network in the credential.'
		);
	}
	if (allowOwnNetwork) {
		return (
			`${refusing}: it is neither a private network address nor a local name, so the key could travel unencrypted across the internet. ` +
			'Use the https:// address of the service (Allow Plain HTTP on My Own Network covers only private addresses such as 10.x, 172.16-31.x, 192.168.x and fd00::, ' +
			'and local names such as sandbox, host.docker.internal or *.local).'
		);
	}
	return (
		`${refusing}: anyone on the network could read it. ` +
		'Use the https:// address of the service (plain http is only allowed for a sandbox on this machine: localhost or 127.0.0.1).'
	);
}

/**
 * Spec 5.2: keys are `<prefix>_<secret>`. A key that cannot be valid gets a hint before any
 * request. The messages never repeat the key itself.
 */
export function apiKeyProblem(raw: unknown): string | undefined {
	const key = typeof raw === 'string' ? raw : '';
	if (!key) return 'The API key of the credential is empty. Create a key in the API section of your account and paste it into the credential.';
	if (/\s/.test(key)) return 'The API key contains spaces or line breaks. Copy it again from the API section of your account and paste it without them.';
	if (!key.includes('_')) return 'The API key does not look like a key of this service: a key starts with the service\'s prefix and an underscore (prefix_secret). Copy the whole key from the API section of your account.';
	return undefined;
}
