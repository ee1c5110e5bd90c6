/**
 * The concurrent-upload memory figure (memory.ts) in a fresh process, so that what earlier
 * measurements allocated and freed neither inflates nor hides its growth. Output: UploadMemory as
 * JSON on the last line.
 */
import './n8nUserFolder';

import { measureConcurrentUploads } from './memory';

measureConcurrentUploads().then(
	(memory) => process.stdout.write(`${JSON.stringify(memory)}\n`),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exitCode = 1;
	},
);
