import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { frameForFile } from '../../../shared/http/multipart';
import { itemError } from '../../../shared/items/itemError';
import { formatMegabytes, MAX_FILE_BYTES } from '../../../shared/limits';
import type { ReadFile } from './file';

/**
 * A document by URL (Document Source "URL"), fetched with n8n's plain HTTP helper: no credential
 * is attached, so the API key never goes to that host.
 * No more than the service's 4.4 MB is read; the file then goes through the same preflight as a
 * binary field. Every failure is the item's error, and nothing is uploaded.
 */

const DOWNLOAD_TIMEOUT_MS = 60_000;
const NOTHING_SENT = 'Nothing was sent to the service and no page was used.';

export async function downloadFile(ctx: IExecuteFunctions, itemIndex: number, address: string): Promise<ReadFile> {
	const url = parseUrl(ctx, itemIndex, address);
	const fail = (message: string, description: string) => itemError(ctx.getNode(), itemIndex, `${message} (${shown(url)})`, `${description} ${NOTHING_SENT}`);

	const request: IHttpRequestOptions = {
		url: url.href,
		method: 'GET',
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		maxRedirects: 5,
		timeout: DOWNLOAD_TIMEOUT_MS,
		abortSignal: ctx.getExecutionCancelSignal(),
	};
	let response: { body: AsyncIterable<Uint8Array> & { destroy(): void }; headers: Record<string, string | undefined>; statusCode: number };
	try {
		response = (await ctx.helpers.httpRequest(request)) as typeof response;
	} catch (error) {
		throw fail(
			`The file could not be downloaded: ${(error as Error).message}`,
			'Check that the address is right and reachable from n8n (open it in a browser on the same network).',
		);
	}
	const { body, headers, statusCode } = response;
	if (statusCode >= 400) {
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
	let url: URL | undefined;
	try {
		url = new URL(address.trim());
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
		throw itemError(
			ctx.getNode(),
			itemIndex,
			address.trim() ? `"File URL" is not a web address: ${JSON.stringify(address.slice(0, 80))}` : '"File URL" is empty',
			`Enter the address of a PDF, JPEG or PNG file starting with https:// (or http://). ${NOTHING_SENT}`,
		);
	}
	return url;
}

/** The address as messages show it: without its query string and user info, which may hold a token. */
function shown(url: URL): string {
	return `${url.protocol}//${url.host}${url.pathname}`;
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
