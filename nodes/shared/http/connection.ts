/**
 * Where requests go and whether the API key may travel there. The credential's `authenticate`
 * and the transport both use these, so the rules hold for node requests and the credential
 * test alike.
 */

/** Spec 9: every path starts with /api/v1; users often paste it with the base URL. */
export const API_PREFIX = '/api/v1';

/** `https://host/`, `https://host/api/v1/` and `https://host` all mean `https://host`. */
export function normaliseBaseUrl(raw: unknown): string {
	let url = typeof raw === 'string' ? raw.trim() : '';
	url = url.replace(/\/+$/, '');
	if (url.toLowerCase().endsWith(API_PREFIX)) url = url.slice(0, -API_PREFIX.length);
	return url.replace(/\/+$/, '');
}

/** Problems with the base URL as a sentence for the user, or undefined when it is usable. */
export function baseUrlProblem(baseUrl: string): string | undefined {
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
	if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
		return (
			`Refusing to send the API key over plain http to ${parsed.hostname}: anyone on the network could read it. ` +
			'Use the https:// address of the service (plain http is only allowed for a sandbox on this machine: localhost or 127.0.0.1).'
		);
	}
	if (parsed.search || parsed.hash) return 'The Base URL must not contain "?" or "#". Enter only the address, e.g. https://api.example.com.';
	if (parsed.username || parsed.password) return 'The Base URL must not contain a user name or password.';
	return undefined;
}

function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
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
