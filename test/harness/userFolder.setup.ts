import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * n8n-core writes `<N8N_USER_FOLDER>/.n8n`: give each test run its own temporary folder (the
 * workers inherit the variable) and remove it when the run ends.
 */
export default function setup(): () => void {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-docx-test-'));
	process.env.N8N_USER_FOLDER = folder;
	return () => rmSync(folder, { recursive: true, force: true });
}
