/**
 * The address rules of Document Source "URL" (preflight/addresses): every refused class with
 * real addresses, IPv4 and IPv6, IPv4 wrapped in IPv6, odd IPv4 spellings as a link gives them
 * (through WHATWG URL parsing, as the node reads them), and public addresses that stay allowed.
 */
import { describe, expect, it } from 'vitest';

import { checkHost, isHostAllowed, parseAllowedHosts } from '../../nodes/shared/preflight/addresses';

/** The refused class's label, or 'public' / 'name'. */
function verdict(host: string): string {
	const { address, refused } = checkHost(host);
	return refused?.label ?? (address ? 'public' : 'name');
}

/** The host of a link, as the node reads it. */
const hostOf = (link: string) => new URL(link).hostname;

describe('checkHost: IPv4', () => {
	it.each([
		['127.0.0.1', 'a loopback address (127.0.0.0/8)'],
		['127.255.255.254', 'a loopback address (127.0.0.0/8)'],
		['10.0.0.7', 'a private network address (10.0.0.0/8)'],
		['172.16.0.1', 'a private network address (172.16.0.0/12)'],
		['172.31.255.255', 'a private network address (172.16.0.0/12)'],
		['192.168.1.20', 'a private network address (192.168.0.0/16)'],
		['169.254.1.1', 'a link-local address (169.254.0.0/16)'],
		['100.64.0.1', 'a carrier-grade NAT address (100.64.0.0/10)'],
		['100.127.255.255', 'a carrier-grade NAT address (100.64.0.0/10)'],
		['0.0.0.0', 'an unspecified address (0.0.0.0/8)'],
		['0.1.2.3', 'an unspecified address (0.0.0.0/8)'],
		['224.0.0.1', 'a multicast address (224.0.0.0/4)'],
		['239.255.255.250', 'a multicast address (224.0.0.0/4)'],
		['240.0.0.1', 'a reserved address (240.0.0.0/4)'],
		['255.255.255.255', 'the broadcast address (255.255.255.255)'],
		['192.0.0.8', 'a reserved address (192.0.0.0/24)'],
		['192.88.99.1', 'a reserved address (192.88.99.0/24)'],
		['198.18.0.1', 'a benchmarking address (198.18.0.0/15)'],
		['198.19.255.255', 'a benchmarking address (198.18.0.0/15)'],
		['192.0.2.10', 'a documentation address (192.0.2.0/24)'],
		['198.51.100.10', 'a documentation address (198.51.100.0/24)'],
		['203.0.113.10', 'a documentation address (203.0.113.0/24)'],
		['169.254.169.254', 'the cloud metadata address'],
		['169.254.170.2', 'the cloud metadata address'],
		['100.100.100.200', 'the cloud metadata address'],
		['192.0.0.192', 'the cloud metadata address'],
	])('%s is %s', (host, label) => {
		expect(checkHost(host)).toEqual({ address: true, refused: expect.objectContaining({ label }) });
	});

	it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '198.17.255.255', '198.20.0.0', '11.0.0.1', '223.255.255.255'])(
		'%s is public',
		(host) => {
			expect(checkHost(host)).toEqual({ address: true, refused: undefined });
		},
	);
});

describe('checkHost: IPv6 (as URLs write it, in brackets, and as resolvers give it)', () => {
	it.each([
		['[::1]', 'a loopback address (::1)'],
		['::1', 'a loopback address (::1)'],
		['[::]', 'an unspecified address (::)'],
		['[fc00::1]', 'a private network address (fc00::/7)'],
		['[fd12:3456:789a::1]', 'a private network address (fc00::/7)'],
		['[fe80::1]', 'a link-local address (fe80::/10)'],
		['[febf:ffff::1]', 'a link-local address (fe80::/10)'],
		['[fec0::1]', 'a site-local address (fec0::/10)'],
		['[ff02::1]', 'a multicast address (ff00::/8)'],
		['[2001:db8::1]', 'a documentation address (2001:db8::/32)'],
		['[3fff::1]', 'a documentation address (3fff::/20)'],
		['[2001:2::1]', 'a benchmarking address (2001:2::/48)'],
		['[2001::1]', 'a reserved address (2001::/23)'],
		['[100::1]', 'a reserved address (100::/64)'],
		['[64:ff9b:1::a]', 'a private network address (64:ff9b:1::/48)'],
		['[fd00:ec2::254]', 'the cloud metadata address'],
		['fd00:ec2::23', 'the cloud metadata address'],
		// IPv4-compatible (deprecated) and anything else outside 2000::/3.
		['[::7f00:1]', 'a reserved address (outside 2000::/3)'],
		['[4000::1]', 'a reserved address (outside 2000::/3)'],
	])('%s is %s', (host, label) => {
		expect(checkHost(host)).toEqual({ address: true, refused: expect.objectContaining({ label }) });
	});

	it.each([
		['[::ffff:7f00:1]', 'a loopback address (127.0.0.0/8) inside an IPv4-mapped address'],
		['::ffff:127.0.0.1', 'a loopback address (127.0.0.0/8) inside an IPv4-mapped address'],
		['[::ffff:a9fe:a9fe]', 'the cloud metadata address inside an IPv4-mapped address'],
		['[64:ff9b::a00:7]', 'a private network address (10.0.0.0/8) inside a NAT64 address'],
		['64:ff9b::192.168.0.1', 'a private network address (192.168.0.0/16) inside a NAT64 address'],
		['[2002:a00:7::1]', 'a private network address (10.0.0.0/8) inside a 6to4 address'],
		['[2002:7f00:1::]', 'a loopback address (127.0.0.0/8) inside a 6to4 address'],
	])('%s wraps a refused IPv4 address: %s', (host, label) => {
		expect(verdict(host)).toBe(label);
	});

	it.each(['[2606:4700::1111]', '2606:4700:4700::1111', '[2001:4860:4860::8888]', '[2a00:1450:4001:80b::200e]', '[::ffff:5db8:d822]', '[64:ff9b::5db8:d822]', '[2002:5db8:d822::1]'])(
		'%s is public',
		(host) => {
			expect(verdict(host)).toBe('public');
		},
	);

	it('keeps the own-network classes apart from those never fetched', () => {
		for (const host of ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.0.1', '169.254.1.1', '100.64.0.1', '198.18.0.1', '[::1]', '[fd00::1]', '[fe80::1]', '[::ffff:10.0.0.1]']) {
			expect(checkHost(host).refused?.ownNetwork, host).toBe(true);
		}
		for (const host of ['169.254.169.254', '[fd00:ec2::254]', '[::ffff:169.254.169.254]', '0.0.0.0', '[::]', '224.0.0.1', '255.255.255.255', '240.0.0.1', '192.0.2.1', '[2001:db8::1]', '[ff02::1]']) {
			expect(checkHost(host).refused?.ownNetwork, host).toBe(false);
		}
	});
});

describe('odd spellings of an address: WHATWG URL parsing turns them into the dotted form first', () => {
	it.each([
		['http://2130706433/', '127.0.0.1'],
		['http://017700000001/', '127.0.0.1'],
		['http://0x7f000001/', '127.0.0.1'],
		['http://0x7f.1/', '127.0.0.1'],
		['http://0177.0.0.1/', '127.0.0.1'],
		['http://127.1/', '127.0.0.1'],
		['http://127.0.1/', '127.0.0.1'],
		['http://127.0.0.1./', '127.0.0.1'],
		['http://0xA9.0xFE.0xA9.0xFE/', '169.254.169.254'],
		['http://2852039166/', '169.254.169.254'],
		['http://0/', '0.0.0.0'],
		['http://10.1/', '10.0.0.1'],
		['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
		['http://[0:0:0:0:0:0:0:1]/', '[::1]'],
		['http://[::FFFF:A9FE:A9FE]/', '[::ffff:a9fe:a9fe]'],
	])('%s is read as %s and refused', (link, host) => {
		expect(hostOf(link)).toBe(host);
		expect(checkHost(hostOf(link)).refused).toBeDefined();
	});

	it('an octal part with a leading zero is octal, as the resolver would read it: 0127.0.0.1 is 87.0.0.1', () => {
		expect(hostOf('http://0127.0.0.1/')).toBe('87.0.0.1');
		expect(verdict(hostOf('http://0127.0.0.1/'))).toBe('public');
	});

	it('a zone index is no URL at all', () => {
		expect(() => new URL('http://[fe80::1%25eth0]/')).toThrow();
	});

	it('what only looks like an address is read as a name (no leading zeros, no out-of-range parts)', () => {
		for (const host of ['127.0.0.1.nip.io', '01.2.3.4', '1.2.3.256', '1.2.3', '::1::', '1:2:3:4:5:6:7:8:9', 'fe80::gg']) expect(checkHost(host).address, host).toBe(false);
	});
});

describe('checkHost: names', () => {
	it.each([
		['localhost', 'a loopback address'],
		['LOCALHOST', 'a loopback address'],
		['localhost.', 'a loopback address'],
		['app.localhost', 'a loopback address'],
		['metadata.google.internal', 'the cloud metadata address'],
		['metadata.google.internal.', 'the cloud metadata address'],
		['metadata.goog', 'the cloud metadata address'],
		['metadata', 'the cloud metadata address'],
		['instance-data', 'the cloud metadata address'],
		['instance-data.ec2.internal', 'the cloud metadata address'],
	])('%s is %s before any lookup', (host, label) => {
		expect(checkHost(host)).toEqual({ address: false, refused: expect.objectContaining({ label }) });
	});

	it('an ordinary name is left to the lookup of the address it leads to', () => {
		for (const host of ['files.example.com', 'localhost.example.com', 'mylocalhost', 'metadata.example.com', '127.0.0.1.nip.io']) expect(verdict(host), host).toBe('name');
	});
});

describe('Allowed Hosts', () => {
	it('reads host names as a URL spells them, with *. for subdomains', () => {
		expect(parseAllowedHosts(' Files.Example.com ,*.cdn.example.org,, https://x.example.net:8443/files, 10.0.0.7, [::1], bücher.example ')).toEqual({
			hosts: ['files.example.com', '*.cdn.example.org', 'x.example.net', '10.0.0.7', '[::1]', 'xn--bcher-kva.example'],
			invalid: [],
		});
		expect(parseAllowedHosts('')).toEqual({ hosts: [], invalid: [] });
		expect(parseAllowedHosts('good.example, bad host, *.')).toEqual({ hosts: ['good.example'], invalid: ['bad host', '*.'] });
	});

	it('matches a host exactly, and *.example.org its subdomains only', () => {
		const { hosts } = parseAllowedHosts('files.example.com, *.example.org');
		expect(isHostAllowed('files.example.com', hosts)).toBe(true);
		expect(isHostAllowed('files.example.com.', hosts)).toBe(true);
		expect(isHostAllowed('a.files.example.com', hosts)).toBe(false);
		expect(isHostAllowed('evilfiles.example.com', hosts)).toBe(false);
		expect(isHostAllowed('cdn.example.org', hosts)).toBe(true);
		expect(isHostAllowed('a.b.example.org', hosts)).toBe(true);
		expect(isHostAllowed('example.org', hosts)).toBe(false);
		expect(isHostAllowed('evilexample.org', hosts)).toBe(false);
		expect(isHostAllowed('example.org.evil.test', hosts)).toBe(false);
	});
});
