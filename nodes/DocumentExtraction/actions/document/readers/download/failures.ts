import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemError } from '../../../../../shared/items/itemError';
import { DOWNLOAD, type Deadline } from './deadline';
import { shownUrl } from './links';

/** How every download failure ends: the item is not sent. */
export const NOTHING_SENT = 'Nothing was sent to the service and no page was used.';

/** The item's error about the link `url` (shown without its query string): message, then what to do. */
export type Fail = (message: string, description: string) => NodeOperationError;

export function failureAt(ctx: IExecuteFunctions, itemIndex: number, url: URL): Fail {
	return (message, description) => itemError(ctx.getNode(), itemIndex, `${message} (${shownUrl(url.href)})`, `${description} ${NOTHING_SENT}`);
}

/**
 * A failed connection in plain words. Socket errors name the address and port ("connect
 * ECONNREFUSED 10.0.0.7:8080"), which would let whoever writes the links map a network.
 */
export function notReached(error: unknown): [message: string, description: string] {
	const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
	if (typeof name === 'string' && name.startsWith('SsrfBlocked')) {
		return [
			"The file was not downloaded: n8n's SSRF protection refuses this address",
			'An n8n administrator can allow the host with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES.',
		];
	}
	if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
		return ['The file could not be downloaded: the server\'s HTTPS certificate is not valid', 'Check the link, or ask whoever runs the server to renew its certificate.'];
	}
	return ['The file could not be downloaded: the address could not be reached', 'Check that the link is right and opens in a browser on the same network as n8n.'];
}

/**
 * A step of the download (a name resolved, a connection, the body), over when the deadline passes
 * even where the step itself does not listen to it (a resolver); its failure said in plain words.
 */
export async function reached<T>(deadline: Deadline, fail: Fail, step: () => Promise<T>): Promise<T> {
	try {
		return await untilAborted(deadline.signal, step());
	} catch (error) {
		throw failed(deadline, fail, error);
	}
}

async function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
	let onAbort = () => {};
	const stopped = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Error('The download was stopped'));
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([work, stopped]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** The item's error for a failed step: the deadline's own words when it passed, a cancel said as such. */
export function failed(deadline: Deadline, fail: Fail, error: unknown): NodeOperationError {
	// One of ours (a refusal, the size limit) says it already.
	if (error instanceof NodeOperationError) return error;
	if (deadline.expired()) {
		return fail(
			`The file could not be downloaded: it did not arrive within ${Math.round(DOWNLOAD.deadlineMs / 1000)} seconds`,
			'The server sends it too slowly, or stopped sending it. Try again later, or download the file with an HTTP Request node and extract it from the binary field.',
		);
	}
	if (deadline.signal.aborted) return fail('The file was not downloaded: the execution was cancelled', 'Run the node again to download it.');
	return fail(...notReached(error));
}
