import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { checkHost, isHostAllowed, type AddressClass } from '../../../../../shared/preflight/addresses';

/**
 * Where one hop of a download may connect: the host checked against the user's rules
 * (preflight/addresses), the name resolved and every address checked where n8n lets a node
 * resolve, and the request pinned to the address that was checked.
 */

/** What the user lets a link reach: Options → Allow Private Network Addresses and Allowed Hosts. */
export interface LinkRules {
	allowPrivateNetwork: boolean;
	/** Empty: any host. */
	allowedHosts: string[];
}

/** Why a host is not fetched: "<host> <reason>", and what the user can do. */
export interface Refusal {
	host: string;
	reason: string;
	description: string;
}

export type HopRequest = Pick<IHttpRequestOptions, 'url' | 'headers' | 'agentOptions'>;

/**
 * A hop's request, or why there is none. `byName`: the same request by the host's name, for an
 * n8n that does not pass the TLS server name of a pinned https request on (see `pinned`).
 */
export type Target = { request: HopRequest; byName?: HopRequest } | { refused: Refusal };

/** n8n's resolver, and whether n8n's own SSRF protection lets the node connect to an address. */
export interface Resolver {
	addresses(host: string): Promise<string[]>;
	mayConnect(address: string): boolean;
}

/**
 * n8n 2.x hands nodes its resolver: getSecureEgressFilter, under the instance's SSRF policy (a
 * plain lookup while that is off). n8n 1.x has none, the first 2.x releases with it gave none
 * while the policy was off, and a community node may not import `dns`: without it only the host
 * itself, and the address the connection reached, can be checked.
 */
export function resolverOf(ctx: IExecuteFunctions): Resolver | undefined {
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
export async function targetOf(url: URL, rules: LinkRules, resolver: Resolver | undefined): Promise<Target> {
	const host = url.hostname;
	const refuse = (reason: string, description: string): Target => ({ refused: { host, reason, description } });
	if (rules.allowedHosts.length > 0 && !isHostAllowed(host, rules.allowedHosts)) {
		return refuse('is not one of the Allowed Hosts', 'Only the hosts in Options → Allowed Hosts are downloaded from, after a redirect too.');
	}
	const literal = checkHost(host);
	if (refused(literal.refused, rules)) return refuse(`is ${literal.refused.label}`, refusalHelp(literal.refused));
	if (literal.address) return { request: { url: url.href } };
	if (!resolver) return unresolvedName(url, rules);
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
	if (!resolver.mayConnect(address)) return { request: { url: url.href } };
	return url.protocol === 'https:' ? { request: pinned(url, address), byName: { url: url.href } } : { request: pinned(url, address) };
}

/**
 * n8n 1.x: the name cannot be resolved before connecting. It is fetched only where the user vouched
 * for it (Allowed Hosts, or Allow Private Network Addresses), and only over https: the request is
 * written once a certificate for that name is proven, which no cloud metadata service (plain http
 * at a fixed address) holds, so a name that leads there gets at most a failed TLS handshake, never
 * a request. hops.ts still checks the address each connection reached.
 */
function unresolvedName(url: URL, rules: LinkRules): Target {
	const host = url.hostname;
	if (rules.allowedHosts.length === 0 && !rules.allowPrivateNetwork) {
		return {
			refused: {
				host,
				reason: 'is a host name, and this n8n version does not let a node check which address a name leads to',
				description: 'Update n8n (2.x checks every address), or list the host in Options → Allowed Hosts if you trust where it leads (https links only on n8n 1.x).',
			},
		};
	}
	if (url.protocol !== 'https:') {
		return {
			refused: {
				host,
				reason: 'is a host name on a plain http link, and this n8n version does not let a node check which address a name leads to',
				description: 'On n8n 1.x a link by host name must use https (its certificate proves where it leads), or use the address itself. n8n 2.x checks every address.',
			},
		};
	}
	return { request: { url: url.href } };
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
 * The request goes to the address just checked, with the link's host as Host header, not to the
 * name again: a second lookup may answer differently (DNS rebinding). Over https the name is the
 * TLS server name (SNI, and what the certificate is checked against): n8n 2.41 passes a request's
 * `agentOptions` to its agent and names no server for an address; an n8n that names the address
 * instead fails the certificate check, and the hop is then asked by name (`byName`), where the
 * certificate binds the connection to the name.
 */
function pinned(url: URL, address: string): HopRequest {
	const target = new URL(url.href);
	target.hostname = address.includes(':') ? `[${address}]` : address;
	const request: HopRequest = { url: target.href, headers: { host: url.host } };
	return url.protocol === 'https:' ? { ...request, agentOptions: { servername: url.hostname } } : request;
}
