/**
 * Keeps n8n-core's files out of the user's home when the benchmark runs under plain tsx (vitest
 * does the same in vitest.config.ts): n8n-core writes `<N8N_USER_FOLDER>/.n8n`.
 * Import it before anything that loads n8n or the nodes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-docx-bench-'));
