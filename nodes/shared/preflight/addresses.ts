/**
 * Which hosts a link may lead to (Document Source "URL"). As an AI agent's tool the model writes
 * the link, so a prompt-injected agent could point n8n at its own machine, the cloud metadata
 * service or the intranet: every host a download connects to (the link's, each redirect's, and
 * every address a name resolves to) is checked here first. The credential asks the same tables
 * where its key may go over plain http (`localityOf`).
 *
 * Hosts come as WHATWG URL parsing leaves them: it already turns `2130706433`, `0x7f.1`,
 * `0177.0.0.1` and `127.1` into `127.0.0.1`, so only the dotted form of IPv4 is read here.
 */

/** A kind of address a link is refused for. */
export interface AddressClass {
	/** How messages name it: "a loopback address (127.0.0.0/8)". */
	label: string;
	/** Part of the user's own network: fetched when "Allow Private Network Addresses" is on. */
	ownNetwork: boolean;
	/** The cloud metadata service: refused whatever the options, also where only the connection shows it. */
	metadata?: true;
	/**
	 * Never routed beyond this machine ('machine') or beyond the user's own network ('site'): where
	 * the credential may send its key over plain http (nodes/shared/http/connection.ts).
	 */
	local?: Locality;
}

export type Locality = 'machine' | 'site';

export interface HostCheck {
	/** An IP address (no name to resolve). */
	address: boolean;
	/** Why the host is refused; none for a public address or an ordinary name. */
	refused?: AddressClass;
}

const own = (label: string, local?: Locality): AddressClass => ({ label, ownNetwork: true, local });
const never = (label: string): AddressClass => ({ label, ownNetwork: false });

/** Never a document: the service that hands out the machine's cloud credentials. */
const METADATA: AddressClass = { ...never('the cloud metadata address'), metadata: true };
const LOOPBACK_NAME = own('a loopback address', 'machine');

/** Checked in order, the first match wins (a single address before the range around it). */
const IPV4 = ranges([
	// AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack; AWS ECS and EKS credentials; Alibaba; Oracle's
	// old one; Azure's WireServer (a public address, reachable from every Azure VM).
	['169.254.169.254/32', METADATA],
	['169.254.170.2/32', METADATA],
	['169.254.170.23/32', METADATA],
	['100.100.100.200/32', METADATA],
	['192.0.0.192/32', METADATA],
	['168.63.129.16/32', METADATA],
	['0.0.0.0/8', never('an unspecified address (0.0.0.0/8)')],
	['10.0.0.0/8', own('a private network address (10.0.0.0/8)', 'site')],
	// Not local: the provider's network between its NAT and its customers, not the user's own.
	['100.64.0.0/10', own('a carrier-grade NAT address (100.64.0.0/10)')],
	['127.0.0.0/8', own('a loopback address (127.0.0.0/8)', 'machine')],
	['169.254.0.0/16', own('a link-local address (169.254.0.0/16)', 'site')],
	['172.16.0.0/12', own('a private network address (172.16.0.0/12)', 'site')],
	['192.0.0.0/24', never('a reserved address (192.0.0.0/24)')],
	['192.0.2.0/24', never('a documentation address (192.0.2.0/24)')],
	['192.88.99.0/24', never('a reserved address (192.88.99.0/24)')],
	['192.168.0.0/16', own('a private network address (192.168.0.0/16)', 'site')],
	['198.18.0.0/15', own('a benchmarking address (198.18.0.0/15)')],
	['198.51.100.0/24', never('a documentation address (198.51.100.0/24)')],
	['203.0.113.0/24', never('a documentation address (203.0.113.0/24)')],
	['224.0.0.0/4', never('a multicast address (224.0.0.0/4)')],
	['255.255.255.255/32', never('the broadcast address (255.255.255.255)')],
	['240.0.0.0/4', never('a reserved address (240.0.0.0/4)')],
]);

/**
 * IPv6 ranges that carry an IPv4 address: the IPv4 one is what is reached, so it is checked. Only
 * an IPv4-mapped address reaches it directly (`direct`); NAT64 and 6to4 pass a translator or relay
 * first, which may be beyond the user's network, so they are never local.
 */
const IPV6_WRAPPING_IPV4 = ranges<[string, (ip: bigint) => number, boolean]>([
	['::ffff:0:0/96', ['an IPv4-mapped address', (ip) => Number(ip & 0xffffffffn), true]],
	['64:ff9b::/96', ['a NAT64 address', (ip) => Number(ip & 0xffffffffn), false]],
	['2002::/16', ['a 6to4 address', (ip) => Number((ip >> 80n) & 0xffffffffn), false]],
]);

const IPV6 = ranges([
	['fd00:ec2::254/128', METADATA],
	['fd00:ec2::23/128', METADATA],
	// GCP's IPv6 metadata server.
	['fd20:ce::254/128', METADATA],
	['::/128', never('an unspecified address (::)')],
	['::1/128', own('a loopback address (::1)', 'machine')],
	['64:ff9b:1::/48', own('a private network address (64:ff9b:1::/48)')],
	['100::/64', never('a reserved address (100::/64)')],
	['2001:2::/48', own('a benchmarking address (2001:2::/48)')],
	['2001::/23', never('a reserved address (2001::/23)')],
	['2001:db8::/32', never('a documentation address (2001:db8::/32)')],
	['3fff::/20', never('a documentation address (3fff::/20)')],
	['fc00::/7', own('a private network address (fc00::/7)', 'site')],
	['fe80::/10', own('a link-local address (fe80::/10)', 'site')],
	['fec0::/10', own('a site-local address (fec0::/10)', 'site')],
	['ff00::/8', never('a multicast address (ff00::/8)')],
]);

/** Only 2000::/3 is handed out as public IPv6 (RFC 4291); the rest is reserved. */
const GLOBAL_UNICAST = range('2000::/3');
const IPV6_RESERVED = never('a reserved address (outside 2000::/3)');

/** Names that never reach the internet: localhost (RFC 6761) and the metadata services' names. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** What a host of a link (a URL's hostname, or an address a name resolved to) is. */
export function checkHost(host: string): HostCheck {
	const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
	const v4 = parseIpv4(bare);
	if (v4 !== undefined) return { address: true, refused: ipv4Class(v4) };
	const v6 = parseIpv6(bare);
	if (v6 !== undefined) return { address: true, refused: ipv6Class(v6) };
	const name = bare.toLowerCase().replace(/\.$/, '');
	if (name === 'localhost' || name.endsWith('.localhost')) return { address: false, refused: LOOPBACK_NAME };
	return { address: false, refused: METADATA_NAMES.has(name) ? METADATA : undefined };
}

/**
 * Names no public DNS hands out: one label (a Docker Compose service, a machine on the LAN) and
 * the suffixes kept for local use: .local (mDNS, RFC 6762), .internal (ICANN's private-use name,
 * Docker's host.docker.internal), .home.arpa (RFC 8375) and the customary .lan. (.localhost is this
 * machine: checkHost.) A trailing dot makes a name absolute, so `sandbox.` is a top-level domain.
 */
const LOCAL_NAME_SUFFIXES = ['.local', '.internal', '.lan', '.home.arpa'];

/**
 * Whether a host (a URL's hostname) is never reached across the internet: this machine, or the
 * user's own network (private and link-local addresses, local names). Undefined for the rest,
 * the cloud metadata service included.
 */
export function localityOf(host: string): Locality | undefined {
	const { address, refused } = checkHost(host);
	if (address || refused) return refused?.local;
	const name = host.toLowerCase();
	if (!name.includes('.')) return 'site';
	const bare = name.replace(/\.$/, '');
	return LOCAL_NAME_SUFFIXES.some((suffix) => bare.endsWith(suffix)) ? 'site' : undefined;
}

/**
 * Whether an address is the cloud metadata service's, in any form (IPv4-mapped included): what is
 * checked on the connection itself where the node could not resolve the name first (n8n 1.x).
 */
export function isCloudMetadataAddress(address: string): boolean {
	return checkHost(address).refused?.metadata === true;
}

/**
 * "Allowed Hosts": comma-separated host names, `*.example.com` for the subdomains of
 * example.com (as n8n's own allowed domains), each as a URL spells it (lower case, punycode).
 */
export function parseAllowedHosts(text: string): { hosts: string[]; invalid: string[] } {
	const hosts: string[] = [];
	const invalid: string[] = [];
	for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
		const wildcard = entry.startsWith('*.');
		const rest = wildcard ? entry.slice(2) : entry;
		const hostname = hostnameOf(rest.includes('://') ? rest : `http://${rest}`);
		if (hostname) hosts.push(wildcard ? `*.${hostname}` : hostname);
		else invalid.push(entry);
	}
	return { hosts, invalid };
}

export function isHostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
	const host = hostname.replace(/\.$/, '');
	return allowedHosts.some((allowed) => (allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed));
}

function hostnameOf(url: string): string | undefined {
	try {
		return new URL(url).hostname.replace(/\.$/, '') || undefined;
	} catch {
		return undefined;
	}
}

function ipv4Class(ip: number): AddressClass | undefined {
	return IPV4.find(([range]) => range.contains(BigInt(ip)))?.[1];
}

function ipv6Class(ip: bigint): AddressClass | undefined {
	const wrapping = IPV6_WRAPPING_IPV4.find(([range]) => range.contains(ip));
	if (wrapping) {
		const [, [wrapper, inner, direct]] = wrapping;
		const refused = ipv4Class(inner(ip));
		return refused && { ...refused, label: `${refused.label} inside ${wrapper}`, local: direct ? refused.local : undefined };
	}
	return IPV6.find(([range]) => range.contains(ip))?.[1] ?? (GLOBAL_UNICAST.contains(ip) ? undefined : IPV6_RESERVED);
}

interface Range {
	contains(ip: bigint): boolean;
}

/** `a.b.c.d/n` or `x:y::z/n`. */
function range(cidr: string): Range {
	const [address, bits] = cidr.split('/');
	const v4 = parseIpv4(address);
	const start = v4 === undefined ? parseIpv6(address) : BigInt(v4);
	if (start === undefined) throw new Error(`Not a CIDR range: ${cidr}`);
	const shift = (v4 === undefined ? 128n : 32n) - BigInt(bits);
	return { contains: (ip) => ip >> shift === start >> shift };
}

/** A table of ranges, parsed once when the module loads. */
function ranges<T>(table: ReadonlyArray<[string, T]>): ReadonlyArray<readonly [Range, T]> {
	return table.map(([cidr, value]) => [range(cidr), value] as const);
}

/** Dotted decimal, four parts of 0-255, no leading zeros (the only form URLs and resolvers give). */
function parseIpv4(text: string): number | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)) return undefined;
	return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

/** Eight groups of hex, `::` for a run of zero groups, the last 32 bits possibly dotted IPv4. */
function parseIpv6(text: string): bigint | undefined {
	if (!text.includes(':') || !/^[0-9a-f:.]+$/i.test(text)) return undefined;
	let groups = text;
	const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (dotted) {
		const v4 = parseIpv4(dotted[2]);
		if (v4 === undefined) return undefined;
		groups = `${dotted[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
	}
	const halves = groups.split('::');
	if (halves.length > 2) return undefined;
	const split = (half: string) => (half === '' ? [] : half.split(':'));
	const head = split(halves[0]);
	const tail = halves.length === 2 ? split(halves[1]) : [];
	const missing = 8 - head.length - tail.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const all = [...head, ...Array<string>(missing).fill('0'), ...tail];
	if (!all.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
	return all.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}
