import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Spec 1: where the service's public site serves its interface as OpenAPI 3.1. */
export const OPENAPI_PATH = '/openapi.json';

/**
 * Where the served document lies, first found first: beside this file in the built package
 * (dist/openapi.json, copied there by scripts/build.js), else the repository's docs/openapi.json
 * (the sandbox run from its sources in a clone). The only place that knows where the file lies.
 */
export function openApiDocumentPlaces(): string[] {
	return [join(__dirname, 'openapi.json'), join(__dirname, '..', '..', 'docs', 'openapi.json')];
}

/** The text of the service's OpenAPI document (the repository's docs/openapi.json), served unchanged. */
export function loadOpenApiDocument(): string {
	const places = openApiDocumentPlaces();
	const found = places.find((place) => existsSync(place));
	if (!found) throw new Error(`The sandbox's OpenAPI document is missing: looked at ${places.join(' and ')}`);
	return readFileSync(found, 'utf8');
}
