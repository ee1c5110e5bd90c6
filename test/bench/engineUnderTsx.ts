/**
 * Lets the engine harness run under plain tsx (the benchmark is a script, not a vitest run).
 * Import it before anything that loads n8n or the nodes.
 *
 * - The nodes live in `X.node.ts` next to `X.node.json` (n8n's codex file). The harness imports
 *   `.../X.node`; Node's CommonJS resolver tries `X.node.json` before tsx gets to try `.ts`, so
 *   the import would yield the codex JSON. Vitest's resolver does not have this problem.
 * - n8n-core writes `<N8N_USER_FOLDER>/.n8n`; keep it out of the user's home, as vitest.config.ts does.
 */
import Module from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
const resolver = Module as unknown as { _resolveFilename: Resolve };
const resolveFilename = resolver._resolveFilename;

resolver._resolveFilename = function (request, parent, ...rest) {
	const relative = request.startsWith('.') || request.startsWith('/');
	if (relative && request.endsWith('.node')) {
		try {
			return resolveFilename.call(this, `${request}.ts`, parent, ...rest);
		} catch {
			// Not one of our TypeScript nodes: resolve as Node would.
		}
	}
	return resolveFilename.call(this, request, parent, ...rest);
};

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-docx-bench-'));
