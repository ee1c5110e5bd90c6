import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../../../shared/items/itemError';
import { readBody, type Sizes } from './download/body';
import { startDeadline } from './download/deadline';
import { failureAt, NOTHING_SENT } from './download/failures';
import { fileNameOf } from './download/fileName';
import { followRedirects } from './download/hops';
import { shownUrl, webAddress } from './download/links';
import type { LinkRules } from './download/target';
import type { ReadFile } from './reader';

export { shownUrl } from './download/links';
export type { LinkRules } from './download/target';

/**
 * A document by URL (Document Source "URL"), fetched with n8n's plain HTTP helper: no credential
 * is attached, so the API key never goes to that host. One concern per file of download/:
 *
 * - links.ts: what a File URL is, and how outputs show it (without its query string);
 * - target.ts: which host each hop may reach (preflight/addresses), resolved and pinned where n8n lets a node;
 * - hops.ts: the requests, redirects followed one by one, each connection's address checked;
 * - deadline.ts: one deadline for the whole download, with the execution's cancel;
 * - body.ts: HTTP status, the 4.4 MB limit (40 MB for a photo to shrink or a PDF to split), a web page instead of a file;
 * - failures.ts: the item's error, never the socket's words;
 * - fileName.ts: the name the server or the link gives;
 * - stored.ts: the file kept in n8n's binary data until its upload.
 *
 * Every failure is the item's error, and nothing is uploaded. The file then goes through the same
 * preflight as a binary field.
 */
export async function downloadFile(ctx: IExecuteFunctions, itemIndex: number, address: string, rules: LinkRules, sizes?: Sizes): Promise<ReadFile> {
	const link = parseUrl(ctx, itemIndex, address);
	const deadline = startDeadline(ctx.getExecutionCancelSignal());
	try {
		const { response, url } = await followRedirects(ctx, itemIndex, link, rules, deadline);
		const { bytes, frame, mimeType } = await readBody(response, deadline, failureAt(ctx, itemIndex, url), sizes);
		return { bytes, frame, mimeType, fileName: fileNameOf(response.headers['content-disposition'], url) };
	} finally {
		deadline.end();
	}
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
