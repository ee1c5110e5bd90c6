import { fileNameFromDisposition } from '../../../../../shared/preflight/mime/parameters';

/**
 * The server's file name (Content-Disposition, read by the package's one RFC 2231 reader, as an
 * attached email's parts are), else the last part of the link's path, else none.
 */
export function fileNameOf(disposition: string | undefined, url: URL): string | undefined {
	const fromServer = fileNameFromDisposition(disposition);
	if (fromServer) return fromServer;
	const fromPath = url.pathname.split('/').pop();
	if (!fromPath) return undefined;
	try {
		return decodeURIComponent(fromPath).trim() || undefined;
	} catch {
		// A malformed escape: no name.
		return undefined;
	}
}
