import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CHANGE_NOT_SENT_AGAIN, UPLOAD_NOT_SENT_AGAIN, type RequestKind } from './errors';

/** A request that got no answer from the service: what the user reads, and nothing of the request itself. */
export interface NetworkFailure {
	code: string;
	timedOut: boolean;
}

/** Keeps only the error's code: n8n's request errors carry the request, API key header included. */
export function networkFailure(error: unknown): NetworkFailure {
	const candidate = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
	const code = String(candidate?.cause?.code ?? candidate?.code ?? 'NETWORK_ERROR');
	// axios reports a timeout as ECONNABORTED with "timeout of N ms exceeded"; other aborts share the code.
	const timedOut = code === 'ETIMEDOUT' || /timeout/i.test(`${String(candidate?.cause?.message ?? '')} ${String(candidate?.message ?? '')}`);
	return { code, timedOut };
}

/** Words, not codes: NodeApiError swaps a message containing a code like ECONNRESET for its generic text. */
const NETWORK_CODE_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'the connection was aborted',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	EHOSTUNREACH: 'the host is unreachable',
	EPIPE: 'the connection closed while sending',
};

export function networkError(node: INode, failure: NetworkFailure, kind: RequestKind, tries: number, itemIndex?: number): NodeApiError {
	const what = failure.timedOut
		? 'The service did not answer in time'
		: `Could not reach the service: ${NETWORK_CODE_WORDS[failure.code] ?? 'a network error occurred'}`;
	const description = {
		upload: `${UPLOAD_NOT_SENT_AGAIN} Check the Base URL and your network, then run the item again if no result appeared.`,
		change: `Check the Base URL and your network. ${CHANGE_NOT_SENT_AGAIN}`,
		read: `Check the Base URL in the credential and your network connection. The node already tried ${tries} times.`,
	}[kind];
	// Not `code`: NodeApiError would replace our message with its generic text for that code.
	return new NodeApiError(node, { network_error: failure.code }, { message: what, description: `${description} (${failure.code})`, itemIndex, failure: { cause: 'temporarily-unavailable' } });
}
