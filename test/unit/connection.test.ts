/**
 * Where the API key may go (nodes/shared/http/connection.ts): the plain-http rule as a table, with
 * "Allow Plain HTTP on My Own Network" off and on, hosts as a Base URL gives them (through WHATWG
 * URL parsing, as the node reads them), and the refusals word for word. The credential test and
 * node runs use the same function (test/node/credential.test.ts, test/node/transport.test.ts).
 */
import { describe, expect, it } from 'vitest';

import { baseUrlProblem } from '../../nodes/shared/http/connection';

const ON = { allowPlainHttpOnOwnNetwork: true };

type Verdict = 'allowed' | 'refused';
const verdict = (problem: string | undefined): Verdict => (problem === undefined ? 'allowed' : 'refused');

/** [Base URL, option off, option on] */
const TABLE: Array<[string, Verdict, Verdict]> = [
	// This machine: as before, also without the option.
	['http://localhost:4010', 'allowed', 'allowed'],
	['http://LOCALHOST:4010', 'allowed', 'allowed'],
	['http://sandbox.localhost:4010', 'allowed', 'allowed'],
	['http://127.0.0.1:4010', 'allowed', 'allowed'],
	['http://127.1:4010', 'allowed', 'allowed'],
	['http://2130706433:4010', 'allowed', 'allowed'],
	['http://[::1]:4010', 'allowed', 'allowed'],
	['http://[0:0:0:0:0:0:0:1]:4010', 'allowed', 'allowed'],
	['http://[::ffff:127.0.0.1]:4010', 'allowed', 'allowed'],
	// Private IPv4, in the spellings URL parsing turns into the dotted form.
	['http://10.0.0.7:4010', 'refused', 'allowed'],
	['http://10.1:4010', 'refused', 'allowed'],
	['http://0xa.0.0.7:4010', 'refused', 'allowed'],
	['http://172.16.0.1:4010', 'refused', 'allowed'],
	['http://172.31.255.254:4010', 'refused', 'allowed'],
	['http://172.17.0.1:4010', 'refused', 'allowed'],
	['http://192.168.1.20:4010', 'refused', 'allowed'],
	['http://3232235796:4010', 'refused', 'allowed'],
	['http://169.254.10.1:4010', 'refused', 'allowed'],
	['http://[::ffff:192.168.1.20]:4010', 'refused', 'allowed'],
	// Private IPv6: unique local (fc00::/7) and link-local (fe80::/10), any spelling.
	['http://[fd12:3456:789a::1]:4010', 'refused', 'allowed'],
	['http://[FC00:0:0:0:0:0:0:1]:4010', 'refused', 'allowed'],
	['http://[fe80::1]:4010', 'refused', 'allowed'],
	['http://[FEBF::1]:4010', 'refused', 'allowed'],
	// Names no public DNS hands out.
	['http://sandbox:4010', 'refused', 'allowed'],
	['http://SANDBOX:4010', 'refused', 'allowed'],
	['http://n8n-sandbox_1:4010', 'refused', 'allowed'],
	['http://host.docker.internal:4010', 'refused', 'allowed'],
	['http://gateway.docker.internal:4010', 'refused', 'allowed'],
	['http://nas.local:4010', 'refused', 'allowed'],
	['http://nas.local.:4010', 'refused', 'allowed'],
	['http://sandbox.corp.internal:4010', 'refused', 'allowed'],
	['http://pi.lan:4010', 'refused', 'allowed'],
	['http://sandbox.home.arpa:4010', 'refused', 'allowed'],
	// Not the user's own network: refused with the option on too.
	['http://api.example.com', 'refused', 'refused'],
	['http://sandbox.mycompany.com:4010', 'refused', 'refused'],
	['http://localhost.example.com', 'refused', 'refused'],
	['http://local.example.com', 'refused', 'refused'],
	['http://docker.internal.example.com', 'refused', 'refused'],
	['http://sandbox.:4010', 'refused', 'refused'],
	['http://8.8.8.8', 'refused', 'refused'],
	['http://93.184.216.34', 'refused', 'refused'],
	['http://[2606:4700::1111]', 'refused', 'refused'],
	['http://[::ffff:8.8.8.8]', 'refused', 'refused'],
	// Carrier-grade NAT is the provider's network, not the user's; NAT64 and 6to4 go through a translator or relay.
	['http://100.64.0.1:4010', 'refused', 'refused'],
	['http://[64:ff9b::c0a8:114]:4010', 'refused', 'refused'],
	['http://[2002:c0a8:114::1]:4010', 'refused', 'refused'],
	// Neither this machine nor a network: refused as before.
	['http://0.0.0.0:4010', 'refused', 'refused'],
	['http://224.0.0.1', 'refused', 'refused'],
	['http://[ff02::1]', 'refused', 'refused'],
	// The cloud metadata service: never, under any name or spelling.
	['http://169.254.169.254', 'refused', 'refused'],
	['http://0xA9.0xFE.0xA9.0xFE', 'refused', 'refused'],
	['http://[::ffff:169.254.169.254]', 'refused', 'refused'],
	['http://[fd00:ec2::254]', 'refused', 'refused'],
	['http://metadata', 'refused', 'refused'],
	['http://metadata.google.internal', 'refused', 'refused'],
	['http://instance-data.ec2.internal', 'refused', 'refused'],
	// https: as before, every host but the metadata service.
	['https://api.example.com', 'allowed', 'allowed'],
	['https://8.8.8.8', 'allowed', 'allowed'],
	['https://192.168.1.20:4010', 'allowed', 'allowed'],
	['https://sandbox:4010', 'allowed', 'allowed'],
	['https://169.254.169.254', 'refused', 'refused'],
	['https://metadata.google.internal', 'refused', 'refused'],
];

describe('plain http and the API key', () => {
	it.each(TABLE)('%s: %s with the option off, %s with it on', (baseUrl, off, on) => {
		expect(verdict(baseUrlProblem(baseUrl)), 'off').toBe(off);
		expect(verdict(baseUrlProblem(baseUrl, { allowPlainHttpOnOwnNetwork: false })), 'off').toBe(off);
		expect(verdict(baseUrlProblem(baseUrl, ON)), 'on').toBe(on);
	});

	it('takes only a real true as the option (n8n stores the switch as a boolean)', () => {
		for (const value of ['true', 1, 'yes', undefined, null]) {
			expect(verdict(baseUrlProblem('http://sandbox:4010', { allowPlainHttpOnOwnNetwork: value })), String(value)).toBe('refused');
		}
	});
});

describe('the refusals, word for word', () => {
	it('option off, a host of the own network: names the option that allows it', () => {
		expect(baseUrlProblem('http://host.docker.internal:4010')).toBe(
			'Refusing to send the API key over plain http to host.docker.internal: anyone on the network could read it. ' +
				'Use the https:// address of the service. For the sandbox or a test server on your own network, ' +
				'turn on Allow Plain HTTP on My Own Network in the credential.',
		);
		expect(baseUrlProblem('http://[fd00::7]:4010')).toMatch(/^Refusing to send the API key over plain http to \[fd00::7\]: .*turn on Allow Plain HTTP on My Own Network/);
	});

	it('option off, a public host: as before (the option would not help)', () => {
		expect(baseUrlProblem('http://api.example.com')).toBe(
			'Refusing to send the API key over plain http to api.example.com: anyone on the network could read it. ' +
				'Use the https:// address of the service (plain http is only allowed for a sandbox on this machine: localhost or 127.0.0.1).',
		);
	});

	it('option on, a public host: says why it is still refused and what to do', () => {
		expect(baseUrlProblem('http://sandbox.mycompany.com:4010', ON)).toBe(
			'Refusing to send the API key over plain http to sandbox.mycompany.com: it is neither a private network address nor a local name, ' +
				'so the key could travel unencrypted across the internet. Use the https:// address of the service ' +
				'(Allow Plain HTTP on My Own Network covers only private addresses such as 10.x, 172.16-31.x, 192.168.x and fd00::, ' +
				'and local names such as sandbox, host.docker.internal or *.local).',
		);
		expect(baseUrlProblem('http://93.184.216.34', ON)).toMatch(/^Refusing to send the API key over plain http to 93\.184\.216\.34: it is neither a private network address nor a local name/);
	});

	it('the cloud metadata address, whatever the scheme and the option', () => {
		const message =
			'Refusing to send the API key to 169.254.169.254: it is the cloud metadata address, never the extraction service. ' +
			'Enter the address of the service, e.g. https://api.example.com.';
		expect(baseUrlProblem('http://169.254.169.254')).toBe(message);
		expect(baseUrlProblem('http://169.254.169.254', ON)).toBe(message);
		expect(baseUrlProblem('https://169.254.169.254', ON)).toBe(message);
	});
});
