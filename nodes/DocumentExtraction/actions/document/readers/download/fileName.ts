/** The server's file name (Content-Disposition), else the last part of the path, else none. */
export function fileNameOf(disposition: string | undefined, url: URL): string | undefined {
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
