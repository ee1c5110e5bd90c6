import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { frameForFile } from '../../../../shared/http/multipart';
import { itemError } from '../../../../shared/items/itemError';
import { formatMegabytes, MAX_FILE_BYTES } from '../../../../shared/limits';
import { checkHost, isHostAllowed, type AddressClass } from '../../../../shared/preflight/addresses';
import type { ReadFile } from './reader';

/**
 * A document by URL (Document Source "URL"), fetched with n8n's plain HTTP helper: no credential
 * is attached, so the API key never goes to that host.
 * No more than the service's 4.4 MB is read; the file then goes through the same preflight as a
 * binary field. Every failure is the item's error, and nothing is uploaded.
 *
 * The link may come from an AI model or an email, so it must not reach n8n's own network: before
 * each request (the link's and every redirect's, followed here one by one) the host, and on n8n
 * versions that let a node resolve names every address the name resolves to, is checked
 * (preflight/addresses); a plain-http request goes to the address that was checked.
 */

const DOWNLOAD_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;
const NOTHING_SENT = 'Nothing was sent to the service and no page was used.';

/** What the user lets a link reach: Options → Allow Private Network Addresses and Allowed Hosts. */
export interface LinkRules {
	allowPrivateNetwork: boolean;
	/** Empty: any host. */
	allowedHosts: string[];
}

type Response = { body: AsyncIterable<Uint8Array> & { destroy(): void }; headers: Record<string, string | undefined>; statusCode: number };

export async function downloadFile(ctx: IExecuteFunctions, itemIndex: number, address: string, rules: LinkRules): Promise<ReadFile> {
	let url = parseUrl(ctx, itemIndex, address);
	const fail = (message: string, description: string) => itemError(ctx.getNode(), itemIndex, `${message} (${shownUrl(url.href)})`, `${description} ${NOTHING_SENT}`);
	const resolver = resolverOf(ctx);

	// Resolving or connecting failed: said in plain words, whatever the socket said.
	const reached = async <T>(step: () => Promise<T>): Promise<T> => {
		try {
			return await step();
		} catch (error) {
			throw fail(...notReached(error));
		}
	};

	let response: Response;
	for (let redirects = 0; ; redirects++) {
		const target = await reached(async () => await targetOf(url, rules, resolver));
		if ('refused' in target) {
			const { host, reason, description } = target.refused;
			throw fail(`The file was not downloaded: ${redirects > 0 ? `the link redirected to ${host}, which ${reason}` : `${host} ${reason}`}`, description);
		}
		const request: IHttpRequestOptions = {
			...target.request,
			method: 'GET',
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Followed below, each hop checked like the link itself.
			disableFollowRedirect: true,
			timeout: DOWNLOAD_TIMEOUT_MS,
			abortSignal: ctx.getExecutionCancelSignal(),
		};
		response = await reached(async () => (await ctx.helpers.httpRequest(request)) as Response);
		const location = response.statusCode >= 300 && response.statusCode < 400 ? response.headers.location : undefined;
		if (location === undefined) break;
		response.body.destroy();
		if (redirects === MAX_REDIRECTS) throw fail(`The file was not downloaded: the link redirected more than ${MAX_REDIRECTS} times`, 'Use the direct link of the file.');
		const next = webAddress(location, url);
		if (!next) throw fail('The file was not downloaded: the link redirected to an address that is not http or https', 'Use the direct link of the file.');
		url = next;
	}

	const { body, headers, statusCode } = response;
	if (statusCode >= 300) {
		body.destroy();
		throw fail(
			`Downloading the file answered HTTP ${statusCode}${statusCode === 404 ? ' (not found)' : ''}`,
			statusCode === 401 || statusCode === 403
				? 'The address needs a sign-in: use a link that can be opened without one, or download the file with an HTTP Request node (with its credential) and extract it from the binary field.'
				: 'Check the address: the file may have moved or been deleted, or the link may have expired.',
		);
	}
	const declared = Number(headers['content-length']);
	if (Number.isFinite(declared) && declared > MAX_FILE_BYTES) {
		body.destroy();
		throw fail(`The file is ${formatMegabytes(declared)} MB; the service accepts files up to about ${formatMegabytes(MAX_FILE_BYTES)} MB`, 'Use a smaller file (compress or split it).');
	}

	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += chunk.byteLength;
		if (size > MAX_FILE_BYTES) {
			body.destroy();
			throw fail(`The file is larger than the ${formatMegabytes(MAX_FILE_BYTES)} MB the service accepts`, 'Use a smaller file (compress or split it).');
		}
		chunks.push(chunk);
	}
	const { frame, start } = frameForFile(size);
	let at = start;
	for (const chunk of chunks) {
		frame.set(chunk, at);
		at += chunk.byteLength;
	}
	const bytes = frame.subarray(start, at);
	const mimeType = headers['content-type']?.split(';')[0].trim().toLowerCase();
	if (mimeType === 'text/html' || /^\s*<(!doctype html|html)/i.test(Buffer.from(bytes.subarray(0, 64)).toString('latin1'))) {
		throw fail(
			'The address answered a web page, not a file',
			'The link probably opens a viewer or a sign-in page. Use the direct download link of the PDF, JPEG or PNG (in most file-sharing apps: "Download" or "Copy direct link").',
		);
	}
	return { bytes, frame, fileName: fileNameOf(headers['content-disposition'], url), mimeType };
}

function parseUrl(ctx: IExecuteFunctions, itemIndex: number, address: string): URL {
	const url = webAddress(address.trim());
	if (!url) {
		throw itemError(
			ctx.getNode(),
			itemIndex,
			address.trim() ? `"File URL" is not a web address: ${JSON.stringify(shownUrl(address).slice(0, 80))}` : '"File URL" is empty',
			`Enter the address of a PDF, JPEG or PNG file starting with https:// (or http://). ${NOTHING_SENT}`,
		);
	}
	return url;
}

/** An http or https URL (relative to `base`, for a redirect's Location), else undefined. */
function webAddress(address: string, base?: URL): URL | undefined {
	try {
		const url = new URL(address, base);
		return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A link as outputs and messages show it: without user info, query string and fragment, where
 * signed links keep their token. Text that is no URL loses the same parts as far as they show.
 */
export function shownUrl(address: string): string {
	const url = webAddress(address.trim());
	if (url) return `${url.protocol}//${url.host}${url.pathname}`;
	return address.trim().split(/[?#]/)[0].replace(/^([a-z][\w+.-]*:\/\/)[^/@]*@/i, '$1');
}

/** Why a host is not fetched: "<host> <reason>", and what the user can do. */
interface Refusal {
	host: string;
	reason: string;
	description: string;
}

type Target = { request: Pick<IHttpRequestOptions, 'url' | 'headers'> } | { refused: Refusal };

/** n8n's resolver, and whether n8n's own SSRF protection lets the node connect to an address. */
interface Resolver {
	addresses(host: string): Promise<string[]>;
	mayConnect(address: string): boolean;
}

/**
 * n8n 2.x hands nodes its resolver: getSecureEgressFilter, under the instance's SSRF policy (a
 * plain lookup while that is off). n8n 1.x has none, the first 2.x releases with it gave none
 * while the policy was off, and a community node may not import `dns`: without it only the host
 * itself can be checked.
 */
function resolverOf(ctx: IExecuteFunctions): Resolver | undefined {
	const filter = typeof ctx.helpers.getSecureEgressFilter === 'function' ? ctx.helpers.getSecureEgressFilter() : undefined;
	if (!filter) return undefined;
	const lookup = filter.createSecureLookup();
	return {
		addresses: async (host) =>
			await new Promise<string[]>((resolve, reject) =>
				lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(Array.isArray(found) ? found.map((entry) => entry.address) : [found]))),
			),
		mayConnect: (address) => filter.validateConnectionHost(address).ok,
	};
}

/** Where one hop's request may go, or why it may not. */
async function targetOf(url: URL, rules: LinkRules, resolver: Resolver | undefined): Promise<Target> {
	const host = url.hostname;
	const refuse = (reason: string, description: string): Target => ({ refused: { host, reason, description } });
	if (rules.allowedHosts.length > 0 && !isHostAllowed(host, rules.allowedHosts)) {
		return refuse('is not one of the Allowed Hosts', 'Only the hosts in Options → Allowed Hosts are downloaded from, after a redirect too.');
	}
	const literal = checkHost(host);
	if (refused(literal.refused, rules)) return refuse(`is ${literal.refused.label}`, refusalHelp(literal.refused));
	if (literal.address) return { request: { url: url.href } };
	if (!resolver) {
		// The name cannot be checked: only a host the user vouched for is fetched by name.
		if (rules.allowedHosts.length > 0 || rules.allowPrivateNetwork) return { request: { url: url.href } };
		return refuse(
			'is a host name, and this n8n version does not let a node check which address a name leads to',
			'Update n8n (2.x checks every address), or list the host in Options → Allowed Hosts if you trust where it leads.',
		);
	}
	const addresses = await resolver.addresses(host);
	for (const address of addresses) {
		const check = checkHost(address);
		if (!check.address) return refuse('resolves to something that is not an IP address', 'Check the link.');
		if (refused(check.refused, rules)) return refuse(`resolves to ${check.refused.label}`, refusalHelp(check.refused));
	}
	const address = addresses.find((entry) => !entry.includes(':')) ?? addresses[0];
	if (address === undefined) return refuse('resolves to no address', 'Check the link.');
	// An address n8n's own SSRF protection refuses but allows by this name (its allowed host
	// names): connect by the name, which n8n then checks itself.
	return { request: url.protocol === 'http:' && resolver.mayConnect(address) ? pinned(url, address) : { url: url.href } };
}

function refused(kind: AddressClass | undefined, rules: LinkRules): kind is AddressClass {
	return kind !== undefined && !(kind.ownNetwork && rules.allowPrivateNetwork);
}

function refusalHelp(kind: AddressClass): string {
	return kind.ownNetwork
		? 'Links to this machine and to private networks are not followed, so that a link (one an AI agent was given, say) cannot reach n8n\'s own network. If the file is on your own network, turn on Options → Allow Private Network Addresses.'
		: 'No document is served from such an address, so it is never downloaded from.';
}

/**
 * A plain-http request goes to the address just checked, with the link's host as Host header,
 * not to the name again: a second lookup may answer differently (DNS rebinding) and nothing else
 * would notice. An https request goes by its name: the certificate check fails on any server that
 * is not that name's before a byte of the request is sent (and n8n versions differ in passing a
 * TLS server name on, which a request to an address would need).
 */
function pinned(url: URL, address: string): Pick<IHttpRequestOptions, 'url' | 'headers'> {
	const target = new URL(url.href);
	target.hostname = address.includes(':') ? `[${address}]` : address;
	return { url: target.href, headers: { host: url.host } };
}

/**
 * A failed connection in plain words. Socket errors name the address and port ("connect
 * ECONNREFUSED 10.0.0.7:8080"), which would let whoever writes the links map a network.
 */
function notReached(error: unknown): [message: string, description: string] {
	const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
	if (typeof name === 'string' && name.startsWith('SsrfBlocked')) {
		return [
			"The file was not downloaded: n8n's SSRF protection refuses this address",
			'An n8n administrator can allow the host with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES.',
		];
	}
	if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
		return ['The file could not be downloaded: the server\'s HTTPS certificate is not valid', 'Check the link, or ask whoever runs the server to renew its certificate.'];
	}
	return ['The file could not be downloaded: the address could not be reached', 'Check that the link is right and opens in a browser on the same network as n8n.'];
}

/** The server's file name (Content-Disposition), else the last part of the path, else none. */
function fileNameOf(disposition: string | undefined, url: URL): string | undefined {
	const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition ?? '')?.[1];
	const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition ?? '')?.[1];
	const fromPath = url.pathname.split('/').pop();
	for (const candidate of [encoded, plain, fromPath]) {
		if (!candidate) continue;
		try {
			const name = decodeURIComponent(candidate).trim();
			if (name) return name;
		} catch {
			// A malformed escape: try the next candidate.
		}
	}
	return undefined;
}
