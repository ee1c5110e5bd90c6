import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Spec 1: where the service's public site serves its interface as OpenAPI 3.1. */
export const OPENAPI_PATH = '/openapi.json';

/**
 * The text of the repository's docs/openapi.json, served unchanged. The only place that knows
 * where the file lies relative to the sandbox: when the sandbox moves, only this path changes.
 */
export function loadOpenApiDocument(): string {
	return readFileSync(join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8');
}
