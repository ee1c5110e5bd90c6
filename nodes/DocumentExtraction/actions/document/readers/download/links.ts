/** A File URL read as a web address, and shown without what a signed link hides in it. */

/** An http or https URL (relative to `base`, for a redirect's Location), else undefined. */
export function webAddress(address: string, base?: URL): URL | undefined {
	try {
		const url = new URL(address, base);
		return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A link as outputs and messages show it: without user info, query string and fragment, where
 * signed links keep their token. Text that is no URL loses the same parts as far as they show.
 */
export function shownUrl(address: string): string {
	const url = webAddress(address.trim());
	if (url) return `${url.protocol}//${url.host}${url.pathname}`;
	return address.trim().split(/[?#]/)[0].replace(/^([a-z][\w+.-]*:\/\/)[^/@]*@/i, '$1');
}
