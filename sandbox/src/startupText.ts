/** What `npm run sandbox` prints at start: a function of its own so tests can read the lines. */

export interface StartupInfo {
	/** The address bound, as given to --host (127.0.0.1 by default). */
	host: string;
	port: number;
	baseUrl: string;
	demoKey: string;
	plan: string;
	pagesAvailable: number;
	monthlyPages: number;
	/** The state file; undefined when nothing is kept (--no-state). */
	stateFile?: string;
}

/** The credential option that lets a plain-http address on the user's own network through. */
export const PLAIN_HTTP_OPTION = 'Allow Plain HTTP on My Own Network';

/** An address only this machine can connect to: n8n in a container is another machine here. */
export function isLoopbackHost(host: string): boolean {
	const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
	return bare === 'localhost' || bare === '::1' || /^127\./.test(bare) || bare === '::ffff:127.0.0.1';
}

/** 0.0.0.0 or :: — every address of this machine, so also the one Docker's host.docker.internal leads to. */
export function isWildcardHost(host: string): boolean {
	const bare = host.replace(/^\[|\]$/g, '');
	return bare === '0.0.0.0' || bare === '::' || bare === '';
}

export function startupLines(info: StartupInfo): string[] {
	const { host, port, demoKey } = info;
	// 0.0.0.0 is where the sandbox listens, not an address to connect to: n8n beside it uses 127.0.0.1.
	const localUrl = isWildcardHost(host) ? `http://127.0.0.1:${port}` : info.baseUrl;
	return [
		`Document-extraction sandbox listening on ${info.baseUrl}`,
		`  Demo API key : ${demoKey}  (${info.plan} plan, ${info.pagesAvailable} of ${info.monthlyPages} pages left)`,
		info.stateFile
			? `  State        : kept in ${info.stateFile} (accounts, templates, results, pages used; never file contents)`
			: '  State        : not kept (--no-state): accounts, templates and results are gone when the sandbox stops',
		`  Try it       : curl -H "X-API-Key: ${demoKey}" ${localUrl}/api/v1/scanners`,
		'',
		'In n8n, create a "Document Extraction API" credential:',
		`  API Key                        : ${demoKey}`,
		`  Base URL, n8n on this machine  : ${localUrl}`,
		...dockerLines(host, port),
		'',
		'Ctrl-C stops the sandbox.',
	];
}

function dockerLines(host: string, port: number): string[] {
	const indent = ' '.repeat(35); // under the values of the lines above
	if (isLoopbackHost(host)) {
		return [
			`  Base URL, n8n in Docker        : none: this sandbox listens on ${host} only, and inside a container`,
			`${indent}that address is the container itself, so n8n in Docker cannot reach it.`,
			`${indent}Start the sandbox with --host 0.0.0.0 for that (it is then open to your network).`,
		];
	}
	const wildcard = isWildcardHost(host);
	const hostUrl = wildcard ? `http://host.docker.internal:${port}` : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	return [
		`  Base URL, n8n in Docker        : ${hostUrl}`,
		...(wildcard ? [`${indent}(Docker on Linux: start n8n with --add-host=host.docker.internal:host-gateway)`] : []),
		`${indent}or http://sandbox:${port} when the sandbox is the service "sandbox" in n8n's compose file;`,
		`${indent}for these plain-http addresses switch on "${PLAIN_HTTP_OPTION}" in the credential.`,
	];
}
