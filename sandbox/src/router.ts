import { API_PREFIX } from './spec';
import type { EndpointKey } from './types';

export interface Route {
	endpoint: EndpointKey;
	scannerId?: string;
	resultId?: string;
}

const SEGMENT = '([^/]+)';
const ROUTES: Array<{ method: string; pattern: RegExp; endpoint: EndpointKey; param?: 'scannerId' | 'resultId' }> = [
	{ method: 'POST', pattern: exact('/process'), endpoint: 'process' },
	{ method: 'POST', pattern: exact(`/scanners/${SEGMENT}/upload`), endpoint: 'upload', param: 'scannerId' },
	{ method: 'GET', pattern: exact(`/results/${SEGMENT}`), endpoint: 'getResult', param: 'resultId' },
	{ method: 'GET', pattern: exact('/scanners'), endpoint: 'listScanners' },
	{ method: 'POST', pattern: exact('/scanners'), endpoint: 'createScanner' },
	{ method: 'GET', pattern: exact(`/scanners/${SEGMENT}`), endpoint: 'getScanner', param: 'scannerId' },
	{ method: 'PATCH', pattern: exact(`/scanners/${SEGMENT}`), endpoint: 'updateScanner', param: 'scannerId' },
	{ method: 'DELETE', pattern: exact(`/scanners/${SEGMENT}`), endpoint: 'deleteScanner', param: 'scannerId' },
];

function exact(path: string): RegExp {
	return new RegExp(`^${API_PREFIX}${path}$`);
}

/** The 8 operations of spec 4.1; anything else (wrong method too) is unknown to the gateway. */
export function matchRoute(method: string, pathname: string): Route | undefined {
	for (const route of ROUTES) {
		if (route.method !== method) continue;
		const match = route.pattern.exec(pathname);
		if (!match) continue;
		const found: Route = { endpoint: route.endpoint };
		if (route.param) found[route.param] = safeDecode(match[1]);
		return found;
	}
	return undefined;
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
