import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../../../shared/items/itemError';
import { readBoolean } from '../../../../shared/items/parameters';
import { parseAllowedHosts } from '../../../../shared/preflight/addresses';
import { largestReadable, largestToRead, readPreparation } from '../preparation';
import { downloadFile, shownUrl, type LinkRules } from './download';
import { keepDownload } from './download/stored';
import { textParameter, type DocumentReader, type FirstRead } from './reader';

/**
 * Document Source "URL": the file at File URL, downloaded without the credential (download.ts),
 * the item's only document. A link is not fetched twice: the file is kept in n8n's binary data,
 * not in memory, until its upload reads it again (download/stored.ts).
 */
export function urlReader(ctx: IExecuteFunctions, i: number): DocumentReader {
	const address = textParameter(ctx, 'fileUrl', i, '');
	// A wrong Allowed Hosts fails the item itself, before anything is fetched.
	const rules = readLinkRules(ctx, i);
	const origin = { file_url: shownUrl(address) };
	return { read: async (check) => [{ document: await check({ origin, read: await downloaded(ctx, i, address, rules) }) }] };
}

/** The download, stored for its upload; a failure is the document's. */
async function downloaded(ctx: IExecuteFunctions, i: number, address: string, rules: LinkRules): Promise<FirstRead> {
	try {
		// A photo to shrink or a PDF to split is read up to its cap, any other file up to the service's limit.
		const preparation = readPreparation(ctx, i);
		const file = await downloadFile(ctx, i, address, rules, { largest: largestReadable(preparation), forType: (head) => largestToRead(head, preparation) });
		return { file, readAgain: await keepDownload(ctx, file) };
	} catch (error) {
		return { error };
	}
}

/** Options → Allow Private Network Addresses and Allowed Hosts (see download.ts). */
function readLinkRules(ctx: IExecuteFunctions, i: number): LinkRules {
	const allowPrivateNetwork = readBoolean(ctx, 'options.allowPrivateNetworkAddresses', i, false, 'Allow Private Network Addresses');
	const { hosts, invalid } = parseAllowedHosts(textParameter(ctx, 'options.allowedHosts', i, ''));
	if (invalid.length > 0) {
		throw itemError(ctx.getNode(), i, `"Allowed Hosts" holds what is not a host name: ${invalid.map((entry) => JSON.stringify(entry)).join(', ')}`, 'List host names separated by commas, e.g. files.example.com, *.example.org.');
	}
	return { allowPrivateNetwork, allowedHosts: hosts };
}
