import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { isCloudMetadataAddress } from '../../../../../shared/preflight/addresses';
import { DOWNLOAD, type Deadline } from './deadline';
import { failed, failureAt, reached, type Fail } from './failures';
import { webAddress } from './links';
import { resolverOf, targetOf, type HopRequest, type LinkRules } from './target';

/**
 * The link's request and each redirect's, followed here one by one (never by n8n's HTTP helper):
 * every hop's host is checked before it is asked (target.ts), and every answer's connection
 * before its body is read. n8n's plain HTTP helper is used, so no credential goes along.
 */

const MAX_REDIRECTS = 5;

export interface Response {
	body: AsyncIterable<Uint8Array> & { destroy(error?: Error): void; socket?: { remoteAddress?: string } | null };
	headers: Record<string, string | undefined>;
	statusCode: number;
}

/** The final answer (not a redirect) and the URL that gave it. */
export async function followRedirects(ctx: IExecuteFunctions, itemIndex: number, link: URL, rules: LinkRules, deadline: Deadline): Promise<{ response: Response; url: URL }> {
	const resolver = resolverOf(ctx);
	let url = link;
	for (let redirects = 0; ; redirects++) {
		const fail = failureAt(ctx, itemIndex, url);
		const target = await reached(deadline, fail, async () => await targetOf(url, rules, resolver));
		if ('refused' in target) {
			const { host, reason, description } = target.refused;
			throw fail(`The file was not downloaded: ${redirects > 0 ? `the link redirected to ${host}, which ${reason}` : `${host} ${reason}`}`, description);
		}
		const response = await send(ctx, target, deadline, fail);
		refuseMetadataConnection(response, url, fail);
		const location = response.statusCode >= 300 && response.statusCode < 400 ? response.headers.location : undefined;
		if (location === undefined) return { response, url };
		response.body.destroy();
		if (redirects === MAX_REDIRECTS) throw fail(`The file was not downloaded: the link redirected more than ${MAX_REDIRECTS} times`, 'Use the direct link of the file.');
		const next = webAddress(location, url);
		if (!next) throw fail('The file was not downloaded: the link redirected to an address that is not http or https', 'Use the direct link of the file.');
		url = next;
	}
}

/** One hop's request; a pinned https request n8n sent without its server name is asked again by name (target.ts `pinned`). */
async function send(ctx: IExecuteFunctions, target: { request: HopRequest; byName?: HopRequest }, deadline: Deadline, fail: Fail): Promise<Response> {
	try {
		return await request(ctx, target.request, deadline);
	} catch (error) {
		const serverNameLost = (error as { code?: unknown } | undefined)?.code === 'ERR_TLS_CERT_ALTNAME_INVALID';
		if (!target.byName || !serverNameLost || deadline.signal.aborted) throw failed(deadline, fail, error);
	}
	const byName = target.byName;
	return await reached(deadline, fail, async () => await request(ctx, byName, deadline));
}

async function request(ctx: IExecuteFunctions, hop: HopRequest, deadline: Deadline): Promise<Response> {
	const options: IHttpRequestOptions = {
		...hop,
		// An uncompressed answer is the connection's own stream, whose address shows (below).
		headers: { ...hop.headers, 'accept-encoding': 'identity' },
		method: 'GET',
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Followed by followRedirects, each hop checked like the link itself.
		disableFollowRedirect: true,
		// n8n's own timeout (idle, not total: startDeadline's is the whole download's).
		timeout: DOWNLOAD.deadlineMs,
		abortSignal: deadline.signal,
	};
	return (await ctx.helpers.httpRequest(options)) as Response;
}

/**
 * Where a name was not resolved first (n8n 1.x, a host the user vouched for), the connection shows
 * where it led: an answer from the cloud metadata service is dropped unread. Other private
 * addresses are not refused here: an HTTP proxy of n8n's may stand at one.
 */
function refuseMetadataConnection(response: Response, url: URL, fail: Fail): void {
	const address = response.body.socket?.remoteAddress;
	if (address === undefined || !isCloudMetadataAddress(address)) return;
	response.body.destroy();
	throw fail(
		`The file was not downloaded: ${url.hostname} led to the cloud metadata address`,
		'No document is served from such an address, so nothing of its answer was read.',
	);
}
